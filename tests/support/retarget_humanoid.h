// Synthetic humanoids for the retarget tests and benchmark: 65 nodes (an armature root, hips,
// spine, chest, upper chest, neck, head and its end, eyes, jaw; per side shoulder, upper and
// lower arm with twist bones, hand, five three-segment fingers, upper leg with a twist bone,
// lower leg, foot, toes and toe end), in a T-pose or an A-pose, with bone rolls, proportions and
// an armature transform to choose, and their human parts known by construction.
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "character/bone_map.h"
#include "model/model.h"

namespace rig::humanoid {

inline constexpr float kDegree = 3.14159265358979f / 180.0f;

inline glm::quat turn(glm::vec3 axis, float degrees) {
  return glm::angleAxis(degrees * kDegree, glm::normalize(axis));
}

struct Spec {
  float size = 1.0f;      // every length
  float legs = 1.0f;      // leg lengths on top of size
  float arms = 1.0f;      // arm lengths on top of size
  float shins = 1.0f;     // the lower legs' length on top of legs
  float arm_down = 0.0f;  // degrees the upper arms hang below horizontal (40: an A-pose)
  float roll = 0.0f;      // degrees of rest roll about each limb bone's own axis
  glm::quat armature{1.0f, 0.0f, 0.0f, 0.0f};  // the root node's rotation
  float armature_scale = 1.0f;
  // Every offset and rest rotation below the root is authored in the armature's own frame (a
  // Z-up armature: rotation −90° about X, offsets in Z-up centimetres with scale 0.01), so the
  // model-space rest pose is the same whatever the armature.
};

struct Humanoid {
  Model model;
  HumanoidMap parts;
  std::vector<int> twists;  // twist bones, paired by position in the list
};

inline int add_joint(Model& m, const std::string& name, int parent, glm::vec3 t,
                     glm::quat r = glm::quat(1, 0, 0, 0)) {
  Node n;
  n.name = name;
  n.parent = parent;
  n.rest.translation = t;
  n.rest.rotation = r;
  m.nodes.push_back(n);
  const int idx = int(m.nodes.size()) - 1;
  if (parent >= 0)
    m.nodes[size_t(parent)].children.push_back(idx);
  else
    m.scene_roots.push_back(idx);
  m.node_order.push_back(idx);
  return idx;
}

inline Humanoid make(const Spec& spec) {
  Humanoid h;
  Model& m = h.model;
  using HB = HumanBone;
  const float s = spec.size;
  const glm::quat inv = glm::inverse(spec.armature);
  const float inv_scale = 1.0f / spec.armature_scale;
  const int root = add_joint(m, "Armature", -1, glm::vec3(0.0f), spec.armature);
  m.nodes[size_t(root)].rest.scale = glm::vec3(spec.armature_scale);
  // Y-up metres → the armature's frame and units: offsets turned by its inverse rotation and
  // scaled by its inverse scale, rotations conjugated (world = armature · that = the Y-up
  // rotation · armature, so positions match the plain rig).
  const float u = inv_scale;
  auto add = [&](const std::string& name, int parent, glm::vec3 t,
                 glm::quat r = glm::quat(1, 0, 0, 0)) {
    return add_joint(m, name, parent, inv * t, inv * r * spec.armature);
  };
  const int hips = add("hips", root, glm::vec3(0.0f, 1.0f * s * spec.legs, 0.0f) * u);
  h.parts[HB::Hips] = hips;
  const int spine = add("spine", hips, glm::vec3(0, 0.1f, 0) * s * u);
  const int chest = add("chest", spine, glm::vec3(0, 0.15f, 0) * s * u);
  const int upper = add("upper_chest", chest, glm::vec3(0, 0.15f, 0) * s * u);
  const int neck = add("neck", upper, glm::vec3(0, 0.15f, 0) * s * u);
  const int head = add("head", neck, glm::vec3(0, 0.1f, 0) * s * u);
  add("head_end", head, glm::vec3(0, 0.2f, 0) * s * u);
  add("eye.L", head, glm::vec3(0.03f, 0.08f, 0.08f) * s * u);
  add("eye.R", head, glm::vec3(-0.03f, 0.08f, 0.08f) * s * u);
  add("jaw", head, glm::vec3(0, 0.02f, 0.05f) * s * u);
  h.parts[HB::Spine] = spine;
  h.parts[HB::Chest] = chest;
  h.parts[HB::UpperChest] = upper;
  h.parts[HB::Neck] = neck;
  h.parts[HB::Head] = head;

  for (int side = 0; side < 2; ++side) {
    const float x = side == 0 ? 1.0f : -1.0f;  // +X is the character's left (glTF faces +Z)
    const char* tag = side == 0 ? ".L" : ".R";
    auto name = [&](const char* base) { return std::string(base) + tag; };
    const int o = side == 0 ? 0 : 1;
    auto part = [&](HB left, HB right) -> int& { return h.parts[o == 0 ? left : right]; };
    // Arm: along ±X, each bone rolled about its own axis; the upper arm hangs arm_down degrees.
    const glm::quat roll_x = turn({1, 0, 0}, spec.roll);
    const float a = s * spec.arms * u;
    const int shoulder =
        add(name("shoulder"), upper, glm::vec3(0.05f * x, 0.1f, 0) * s * u, roll_x);
    const int upper_arm = add(name("upper_arm"), shoulder, glm::vec3(0.12f * x, 0, 0) * a,
                              turn({0, 0, 1}, -x * spec.arm_down) * roll_x);
    const int lower_arm = add(name("lower_arm"), upper_arm, glm::vec3(0.28f * x, 0, 0) * a, roll_x);
    const int hand = add(name("hand"), lower_arm, glm::vec3(0.25f * x, 0, 0) * a, roll_x);
    h.twists.push_back(add(name("upper_arm_twist"), upper_arm, glm::vec3(0.14f * x, 0, 0) * a));
    h.twists.push_back(add(name("lower_arm_twist"), lower_arm, glm::vec3(0.12f * x, 0, 0) * a));
    part(HB::LeftShoulder, HB::RightShoulder) = shoulder;
    part(HB::LeftUpperArm, HB::RightUpperArm) = upper_arm;
    part(HB::LeftLowerArm, HB::RightLowerArm) = lower_arm;
    part(HB::LeftHand, HB::RightHand) = hand;
    static const char* kFingers[5] = {"thumb", "index", "middle", "ring", "little"};
    for (int f = 0; f < 5; ++f) {
      const float z = 0.03f - 0.015f * float(f);
      int parent = hand;
      for (int k = 0; k < 3; ++k) {
        const glm::vec3 at = k == 0 ? glm::vec3(0.08f * x, 0, z) : glm::vec3(0.03f * x, 0, 0);
        parent = add(std::string(kFingers[f]) + std::to_string(k + 1) + tag, parent, at * a);
        const int base = side == 0 ? int(HB::LeftThumb1) : int(HB::RightThumb1);
        h.parts.node[size_t(base + 3 * f + k)] = parent;
      }
    }
    // Leg: straight down, rolled about Y.
    const glm::quat roll_y = turn({0, 1, 0}, spec.roll);
    const float l = s * spec.legs * u;
    const int upper_leg = add(name("upper_leg"), hips, glm::vec3(0.1f * x, 0, 0) * s * u, roll_y);
    const int lower_leg = add(name("lower_leg"), upper_leg, glm::vec3(0, -0.45f, 0) * l, roll_y);
    const int foot = add(name("foot"), lower_leg, glm::vec3(0, -0.47f, 0) * l * spec.shins, roll_y);
    const int toes = add(name("toes"), foot, glm::vec3(0, -0.08f, 0.12f) * l);
    add(name("toes_end"), toes, glm::vec3(0, 0, 0.05f) * l);
    h.twists.push_back(add(name("upper_leg_twist"), upper_leg, glm::vec3(0, -0.2f, 0) * l));
    part(HB::LeftUpperLeg, HB::RightUpperLeg) = upper_leg;
    part(HB::LeftLowerLeg, HB::RightLowerLeg) = lower_leg;
    part(HB::LeftFoot, HB::RightFoot) = foot;
    part(HB::LeftToes, HB::RightToes) = toes;
  }
  return h;
}

// Pairs for every human part both have, and the twist bones in order.
inline BoneMap pair_up(const Humanoid& source, const Humanoid& target) {
  BoneMap map;
  for (size_t r = 0; r < kHumanBoneCount; ++r)
    if (source.parts.node[r] >= 0 && target.parts.node[r] >= 0)
      map.pairs.push_back({source.parts.node[r], target.parts.node[r], HumanBone(r)});
  for (size_t i = 0; i < source.twists.size() && i < target.twists.size(); ++i)
    map.pairs.push_back({source.twists[i], target.twists[i], HumanBone::Count});
  return map;
}

inline void append_rotation(Channel& c, glm::quat q) {
  c.values.insert(c.values.end(), {q.x, q.y, q.z, q.w});
}

// A clip moving every joint but the armature: each rotates about its own axis mix by a smooth
// wave of up to `amplitude` degrees, the hips also translate (forward and bobbing), keyed at
// `rate` Hz for `seconds` on the nodes' rest rotations (so unmapped-at-rest stays exact).
inline Clip wave_clip(const Humanoid& h, float seconds, float rate, float amplitude = 35.0f) {
  Clip clip;
  clip.name = "wave";
  const int keys = int(std::lround(seconds * rate)) + 1;
  std::vector<float> times(static_cast<size_t>(keys));
  for (int k = 0; k < keys; ++k) times[size_t(k)] = float(k) / rate;
  clip.start = 0.0f;
  clip.end = times.back();
  const Model& m = h.model;
  for (size_t n = 1; n < m.nodes.size(); ++n) {
    Channel c;
    c.node = int(n);
    c.path = TargetPath::Rotation;
    c.components = 4;
    c.times = times;
    const glm::vec3 axis =
        glm::normalize(glm::vec3(std::sin(float(n) * 1.3f), std::cos(float(n) * 0.7f), 0.5f));
    for (int k = 0; k < keys; ++k) {
      const float t = times[size_t(k)];
      const float angle = amplitude * std::sin(2.0f * t + 0.37f * float(n));
      append_rotation(c, m.nodes[n].rest.rotation * turn(axis, angle));
    }
    clip.channels.push_back(std::move(c));
  }
  Channel hips;
  hips.node = h.parts[HumanBone::Hips];
  hips.path = TargetPath::Translation;
  hips.components = 3;
  hips.times = times;
  const glm::vec3 rest = m.nodes[size_t(hips.node)].rest.translation;
  const float unit = glm::length(rest);
  for (int k = 0; k < keys; ++k) {
    const float t = times[size_t(k)];
    const glm::vec3 p =
        rest + glm::inverse(m.nodes[0].rest.rotation) *
                   (unit * glm::vec3(0.1f * std::sin(t), 0.05f * std::sin(4.0f * t), 0.3f * t));
    hips.values.insert(hips.values.end(), {p.x, p.y, p.z});
  }
  clip.channels.push_back(std::move(hips));
  return clip;
}

}  // namespace rig::humanoid
