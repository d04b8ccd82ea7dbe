// Hand-built humanoid skeletons for the bone map tests: a fixed topology (hips, a spine of up to
// three segments, neck, head, shoulders, three-joint arms, four-joint legs) whose joints are
// named by a per-convention table, placed in a T-pose or an A-pose, optionally under an armature
// node that turns the whole character.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "character/bone_map.h"
#include "model/model.h"

namespace rig::test {

// The slots the builder knows, in parent-before-child order.
enum Slot : int {
  kHips,
  kSpine,
  kChest,
  kUpperChest,
  kNeck,
  kNeck2,  // a second neck joint (Rigify's spine.005); no human part
  kHead,
  kLShoulder,
  kLUpperArm,
  kLLowerArm,
  kLHand,
  kLHandEnd,  // a joint below the hand (KayKit's hand.l below wrist.l); no human part
  kRShoulder,
  kRUpperArm,
  kRLowerArm,
  kRHand,
  kRHandEnd,
  kLUpperLeg,
  kLLowerLeg,
  kLFoot,
  kLToes,
  kRUpperLeg,
  kRLowerLeg,
  kRFoot,
  kRToes,
  kSlotCount
};

// The human part each slot plays (Count: none).
inline HumanBone slot_bone(int slot) {
  using H = HumanBone;
  static const H kBones[kSlotCount] = {
      H::Hips,      H::Spine,         H::Chest,         H::UpperChest,    H::Neck,
      H::Count,     H::Head,          H::LeftShoulder,  H::LeftUpperArm,  H::LeftLowerArm,
      H::LeftHand,  H::Count,         H::RightShoulder, H::RightUpperArm, H::RightLowerArm,
      H::RightHand, H::Count,         H::LeftUpperLeg,  H::LeftLowerLeg,  H::LeftFoot,
      H::LeftToes,  H::RightUpperLeg, H::RightLowerLeg, H::RightFoot,     H::RightToes};
  return kBones[slot];
}

inline int slot_parent(int slot) {
  static const int kParents[kSlotCount] = {-1,         kHips,  kSpine,      kChest,     kUpperChest,
                                           kNeck,      kNeck2, kUpperChest, kLShoulder, kLUpperArm,
                                           kLLowerArm, kLHand, kUpperChest, kRShoulder, kRUpperArm,
                                           kRLowerArm, kRHand, kHips,       kLUpperLeg, kLLowerLeg,
                                           kLFoot,     kHips,  kRUpperLeg,  kRLowerLeg, kRFoot};
  return kParents[slot];
}

// Character space: +Y up, +Z forward, the character's left at +X (the glTF convention).
inline glm::vec3 slot_position(int slot, bool a_pose) {
  const bool left =
      (slot >= kLShoulder && slot <= kLHandEnd) || (slot >= kLUpperLeg && slot <= kLToes);
  const float sx = left ? 1.0f : -1.0f;
  // The arm from the shoulder joint: straight out (T) or 45 degrees down (A).
  const glm::vec3 arm_dir =
      a_pose ? glm::vec3(sx * 0.70710678f, -0.70710678f, 0.0f) : glm::vec3(sx, 0.0f, 0.0f);
  const glm::vec3 shoulder(sx * 0.18f, 1.45f, 0.0f);
  switch (slot) {
    case kHips:
      return {0, 1.00f, 0};
    case kSpine:
      return {0, 1.10f, 0};
    case kChest:
      return {0, 1.22f, 0};
    case kUpperChest:
      return {0, 1.34f, 0};
    case kNeck:
      return {0, 1.50f, 0};
    case kNeck2:
      return {0, 1.55f, 0};
    case kHead:
      return {0, 1.62f, 0};
    case kLShoulder:
    case kRShoulder:
      return {sx * 0.05f, 1.45f, 0};
    case kLUpperArm:
    case kRUpperArm:
      return shoulder;
    case kLLowerArm:
    case kRLowerArm:
      return shoulder + 0.28f * arm_dir;
    case kLHand:
    case kRHand:
      return shoulder + 0.54f * arm_dir;
    case kLHandEnd:
    case kRHandEnd:
      return shoulder + 0.62f * arm_dir;
    case kLUpperLeg:
    case kRUpperLeg:
      return {sx * 0.10f, 0.95f, 0};
    case kLLowerLeg:
    case kRLowerLeg:
      return {sx * 0.10f, 0.52f, 0.01f};
    case kLFoot:
    case kRFoot:
      return {sx * 0.10f, 0.09f, 0};
    default:
      return {sx * 0.10f, 0.02f, 0.12f};  // toes, forward of the ankle
  }
}

struct BuiltSkeleton {
  Model model;
  int node_of[kSlotCount];  // -1 where the slot has no name (not built)
};

// names[slot]: the joint's name, "" to leave the slot out (its children hang from the nearest
// built ancestor). `armature`: rotation of a root node above the hips whose inverse is baked into
// the joints' local translations when `compensate` (so model space still sees the character
// upright, as a Z-up armature with its correcting rotation), else applied on top (the whole
// character turned).
inline BuiltSkeleton build_humanoid(const std::vector<std::string>& names, bool a_pose,
                                    glm::quat armature = glm::quat(1, 0, 0, 0),
                                    bool compensate = false) {
  BuiltSkeleton b;
  Model& m = b.model;
  m.nodes.push_back({});
  m.nodes[0].name = "Armature";
  m.nodes[0].rest.rotation = compensate ? glm::inverse(armature) : armature;
  const glm::quat bake = compensate ? armature : glm::quat(1, 0, 0, 0);
  Skin skin;
  for (int slot = 0; slot < kSlotCount; ++slot) {
    b.node_of[slot] = -1;
    if (names[size_t(slot)].empty()) continue;
    int parent_slot = slot_parent(slot);
    while (parent_slot >= 0 && b.node_of[parent_slot] < 0) parent_slot = slot_parent(parent_slot);
    const int parent = parent_slot >= 0 ? b.node_of[parent_slot] : 0;
    const glm::vec3 parent_pos =
        parent_slot >= 0 ? slot_position(parent_slot, a_pose) : glm::vec3(0);
    Node n;
    n.name = names[size_t(slot)];
    n.parent = parent;
    n.rest.translation = bake * (slot_position(slot, a_pose) - parent_pos);
    const int index = int(m.nodes.size());
    m.nodes.push_back(n);
    m.nodes[size_t(parent)].children.push_back(index);
    b.node_of[slot] = index;
    skin.joints.push_back(index);
  }
  skin.inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));
  m.skins.push_back(skin);
  for (int i = 0; i < int(m.nodes.size()); ++i) m.node_order.push_back(i);
  m.scene_roots = {0};
  return b;
}

// Expands a convention's left-side template into a name: "{Side}" → Left/Right, "{S}" → L/R,
// "{s}" → l/r.
inline std::string sided(std::string name, bool left) {
  auto replace = [&](const std::string& key, const std::string& value) {
    for (size_t at = name.find(key); at != std::string::npos; at = name.find(key))
      name.replace(at, key.size(), value);
  };
  replace("{Side}", left ? "Left" : "Right");
  replace("{S}", left ? "L" : "R");
  replace("{s}", left ? "l" : "r");
  return name;
}

// Names for every slot from a centre list (hips … head: 7) and a per-side template list
// (shoulder, upper arm, lower arm, hand, hand end, upper leg, lower leg, foot, toes: 9).
inline std::vector<std::string> convention(const std::vector<std::string>& centre,
                                           const std::vector<std::string>& side) {
  std::vector<std::string> names(kSlotCount);
  for (int i = 0; i < 7; ++i) names[size_t(i)] = centre[size_t(i)];
  for (int k = 0; k < 2; ++k) {
    const bool left = k == 0;
    const int arm = left ? kLShoulder : kRShoulder, leg = left ? kLUpperLeg : kRUpperLeg;
    for (int i = 0; i < 5; ++i)
      names[size_t(arm + i)] = side[size_t(i)].empty() ? "" : sided(side[size_t(i)], left);
    for (int i = 0; i < 4; ++i)
      names[size_t(leg + i)] = side[size_t(5 + i)].empty() ? "" : sided(side[size_t(5 + i)], left);
  }
  return names;
}

}  // namespace rig::test
