#include "character/retarget.h"

#include <algorithm>
#include <cmath>

#include "anim/clip_set.h"
#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "anim/two_bone_ik.h"

namespace rig {

namespace {

// How far the hips must move so that each holding foot's two-bone leg can reach its goal: its
// root within [|l1 − l2|, l1 + l2] of the goal, a hair inside so the IK meets the goal rather
// than clamping at it. Bone lengths are read off the current world matrices (the IK never
// changes them). Moving for one leg changes the other's distance, so the two are projected in
// turn a few rounds (alternating projections onto two balls meet where both are reachable).
glm::vec3 hips_move_to_reach(const std::vector<glm::mat4>& world, const TwoBoneChain& left,
                             const TwoBoneChain& right, const bool holds[2],
                             const glm::vec3 goal[2]) {
  const TwoBoneChain* chains[2] = {&left, &right};
  glm::vec3 move(0.0f);
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    for (size_t f = 0; f < 2; ++f) {
      if (!holds[f]) continue;
      const TwoBoneChain& c = *chains[f];
      const glm::vec3 a = glm::vec3(world[size_t(c.root)][3]) + move;
      const glm::vec3 b = glm::vec3(world[size_t(c.mid)][3]) + move;
      const glm::vec3 e = glm::vec3(world[size_t(c.end)][3]) + move;
      const float l1 = glm::length(b - a), l2 = glm::length(e - b);
      const glm::vec3 d = goal[f] - a;
      const float length = glm::length(d);
      const float outer = (l1 + l2) * (1.0f - 1e-5f), inner = std::abs(l1 - l2) * (1.0f + 1e-5f);
      if (!(length > 0.0f) || (length <= outer && length >= inner)) continue;
      move += d * (1.0f - std::clamp(length, inner, outer) / length);
      changed = true;
    }
    if (!changed) break;
  }
  return move;
}

// Whether `node` lies below `ancestor`.
bool descends(const Skeleton& skeleton, int node, int ancestor) {
  for (int n = skeleton.parent[size_t(node)]; n >= 0; n = skeleton.parent[size_t(n)])
    if (n == ancestor) return true;
  return false;
}

}  // namespace

std::vector<float> retarget_frame_times(const Clip& clip) {
  const float frame = clip_frame_duration(clip);
  const float length = std::max(clip.end - clip.start, 0.0f);
  const size_t count =
      length > 0.0f ? size_t(std::max(1.0f, std::ceil(length / frame - 0.05f))) + 1 : 1;
  std::vector<float> times(count);
  for (size_t i = 0; i < count; ++i) times[i] = clip.start + frame * float(i);
  times.back() = std::max(clip.end, clip.start);
  return times;
}

int contact_run(const FootContacts& contacts, size_t foot, float time) {
  if (foot >= contacts.feet.size() || contacts.times.empty()) return -1;
  const long n = long(contacts.times.size());
  long i = std::lround((std::clamp(time, contacts.start, contacts.end) - contacts.start) *
                       contacts.sample_rate);
  i = contacts.looping ? i % n : std::min(i, n - 1);
  return contacts.feet[foot].run[size_t(i)];
}

FootContacts retarget_foot_contacts(const Model& source, const Clip& source_clip,
                                    const RetargetRig& rig, const RetargetSettings& settings) {
  const int left = rig.bone(HumanBone::LeftFoot), right = rig.bone(HumanBone::RightFoot);
  if (left < 0 || right < 0) return {};
  // Contact detection reads a clip of a model: a copy of the source's nodes alone, holding this
  // clip (the meshes are not needed).
  Model bare;
  bare.nodes = source.nodes;
  for (Node& node : bare.nodes) {
    node.mesh = -1;
    node.skin = -1;
    node.morph_offset = node.morph_count = 0;
  }
  bare.node_order = source.node_order;
  bare.scene_roots = source.scene_roots;
  bare.clips.push_back(source_clip);
  FootContactSettings s = settings.contacts;
  s.sample_rate = 1.0f / clip_frame_duration(source_clip);
  s.up = rig.source.up;
  const int feet[2] = {rig.bones[size_t(left)].source, rig.bones[size_t(right)].source};
  return detect_foot_contacts(bare, 0, feet, s);
}

Clip retarget_clip(const Model& source, const Clip& source_clip, const Model& target,
                   const BoneMap& map, const RetargetSettings& settings,
                   RetargetMeasures* measures) {
  if (!check_bone_map(source, target, map).empty()) return {};
  const RetargetRig rig = build_retarget_rig(source, target, map);
  return retarget_clip(source, source_clip, target, rig, settings, measures);
}

Clip retarget_clip(const Model& source, const Clip& source_clip, const Model& target,
                   const RetargetRig& rig, const RetargetSettings& settings,
                   RetargetMeasures* measures) {
  Clip out;
  out.name = source_clip.name;
  out.interpolations = {"LINEAR"};
  const std::vector<float> times = retarget_frame_times(source_clip);
  out.start = times.front();
  out.end = times.back();
  const size_t frames = times.size();

  // Buffers, sized once.
  const Skeleton source_skeleton = Skeleton::build(source);
  const Skeleton target_skeleton = Skeleton::build(target);
  Pose source_rest, source_pose, target_pose;
  init_rest_pose(source, source_rest);
  source_pose = source_rest;
  init_rest_pose(target, target_pose);
  std::vector<glm::mat4> source_world(source.nodes.size()), target_world(target.nodes.size());
  std::vector<glm::quat> target_rotation(target.nodes.size());
  const RawClipSource sampler(source, source_clip);
  std::vector<uint32_t> cursors(sampler.cursor_count(), 0);

  const int hips_node = rig.hips >= 0 ? rig.bones[size_t(rig.hips)].target : -1;

  // Feet: the source's contacts, and per foot the target chain (or placed joint) and its lock.
  FootContacts contacts;
  const bool want_contacts = settings.keep_feet_planted || measures;
  if (want_contacts) contacts = retarget_foot_contacts(source, source_clip, rig, settings);
  struct Foot {
    TwoBoneChain chain;
    // A foot joint that does not hang from its lower leg (an IK-target foot under the root): the
    // IK cannot move it, so during a contact its own translation places it. -1: not placed.
    int placed = -1;
    glm::vec3 rest_translation{0.0f};  // the placed joint's rest local translation
    size_t channel = 0;                // the placed joint's translation channel in `out`
    int run = -1;
    glm::vec3 lock{0.0f};  // target ground frame
    bool carried = false;  // the chain hangs from the hips: moving them moves its root
  };
  Foot feet[2];
  const HumanBone legs[2][3] = {
      {HumanBone::LeftUpperLeg, HumanBone::LeftLowerLeg, HumanBone::LeftFoot},
      {HumanBone::RightUpperLeg, HumanBone::RightLowerLeg, HumanBone::RightFoot}};
  const bool plant = settings.keep_feet_planted && contacts.feet.size() == 2;
  for (int f = 0; f < 2 && plant; ++f) {
    const int a = rig.bone(legs[f][0]), b = rig.bone(legs[f][1]), c = rig.bone(legs[f][2]);
    if (a < 0 || b < 0 || c < 0) continue;
    const TwoBoneChain chain{rig.bones[size_t(a)].target, rig.bones[size_t(b)].target,
                             rig.bones[size_t(c)].target};
    // Only a foot that hangs from its lower leg, hanging from its upper leg, is a chain the IK
    // (and the hips' reach) can drive; a foot that does not hang from its lower leg is placed.
    if (descends(target_skeleton, chain.end, chain.mid)) {
      if (!descends(target_skeleton, chain.mid, chain.root)) continue;
      feet[f].chain = chain;
      feet[f].carried = hips_node >= 0 && descends(target_skeleton, chain.root, hips_node);
    } else {
      feet[f].placed = chain.end;
      feet[f].rest_translation = target_pose.local[size_t(chain.end)].translation;
    }
  }
  const glm::vec3 ground_velocity = rig.hip_ratio * (rig.facing * contacts.ground_velocity);

  const size_t hips_channel = rig.bones.size();
  const size_t placed_channel = hips_channel + (rig.hips >= 0 ? 1 : 0);
  size_t channels = placed_channel;
  for (Foot& foot : feet)
    if (foot.placed >= 0) foot.channel = channels++;
  out.channels.resize(channels);
  for (size_t b = 0; b < rig.bones.size(); ++b) {
    Channel& c = out.channels[b];
    c.node = rig.bones[b].target;
    c.path = TargetPath::Rotation;
    c.interpolation = Interpolation::Linear;
    c.components = 4;
    c.times = times;
    c.values.resize(frames * 4);
  }
  if (rig.hips >= 0) {
    Channel& c = out.channels[hips_channel];
    c.node = hips_node;
    c.path = TargetPath::Translation;
    c.interpolation = Interpolation::Linear;
    c.components = 3;
    c.times = times;
    c.values.resize(frames * 3);
  }
  for (const Foot& foot : feet) {
    if (foot.placed < 0) continue;
    Channel& c = out.channels[foot.channel];
    c.node = foot.placed;
    c.path = TargetPath::Translation;
    c.interpolation = Interpolation::Linear;
    c.components = 3;
    c.times = times;
    c.values.resize(frames * 3);
  }

  const glm::quat g = rig.facing;
  size_t hips_frames = 0;
  for (size_t i = 0; i < frames; ++i) {
    const float t = times[i];
    std::copy(source_rest.local.begin(), source_rest.local.end(), source_pose.local.begin());
    sampler.sample(t, cursors, source_pose.local, source_pose.morph_weights);
    LocalToWorldJob{&source_skeleton, source_pose.local, source_world, -1}.run();

    // A placed foot is where the retarget puts it unless a contact holds it (below).
    for (const Foot& foot : feet)
      if (foot.placed >= 0)
        target_pose.local[size_t(foot.placed)].translation = foot.rest_translation;

    // Rotations, parents first: T = G·S·K (with the swing for a moving child), then local.
    for (int node : target_skeleton.parents_first) {
      const int parent = target_skeleton.parent[size_t(node)];
      const glm::quat parent_rotation =
          parent >= 0 ? target_rotation[size_t(parent)] : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
      const int b = rig.target_bone[size_t(node)];
      Transform& local = target_pose.local[size_t(node)];
      if (b < 0) {
        target_rotation[size_t(node)] = parent_rotation * local.rotation;
        continue;
      }
      const RetargetBone& bone = rig.bones[size_t(b)];
      glm::quat s = world_rotation(source_world[size_t(bone.source)]);
      if (bone.child >= 0) {
        const int child = rig.bones[size_t(bone.child)].source;
        const glm::vec3 now = glm::vec3(source_world[size_t(child)][3]) -
                              glm::vec3(source_world[size_t(bone.source)][3]);
        s = rotation_between(s * bone.source_axis, now) * s;
      }
      const glm::quat rotation = glm::normalize(g * s * bone.keep);
      target_rotation[size_t(node)] = rotation;
      local.rotation = glm::normalize(glm::conjugate(parent_rotation) * rotation);
    }
    LocalToWorldJob{&target_skeleton, target_pose.local, target_world, -1}.run();

    if (hips_node >= 0) {
      const RetargetBone& hips = rig.bones[size_t(rig.hips)];
      const glm::vec3 moved = glm::vec3(source_world[size_t(hips.source)][3]) - rig.source.hips;
      const glm::vec3 position = rig.target.hips + (g * moved) * rig.hip_ratio;
      const int parent = target_skeleton.parent[size_t(hips_node)];
      const glm::vec4 local =
          parent >= 0 ? glm::inverse(target_world[size_t(parent)]) * glm::vec4(position, 1.0f)
                      : glm::vec4(position, 1.0f);
      target_pose.local[size_t(hips_node)].translation = glm::vec3(local);
      LocalToWorldJob{&target_skeleton, target_pose.local, target_world, hips_node}.run();
    }

    // Feet: a contact's first frame records the lock (after any hips move below, so it is
    // where the foot really is); its following frames hold the foot there.
    bool starts[2] = {false, false}, holds[2] = {false, false};
    glm::vec3 goal[2];
    for (size_t f = 0; f < 2 && plant; ++f) {
      Foot& foot = feet[f];
      const int run = foot.chain.valid() || foot.placed >= 0 ? contact_run(contacts, f, t) : -1;
      if (run < 0) {
        foot.run = -1;
        continue;
      }
      starts[f] = run != foot.run;
      holds[f] = !starts[f];
      foot.run = run;
      goal[f] = foot.lock - ground_velocity * (t - contacts.start);
    }
    // Only legs that hang from the hips move with them (RobotExpressive's hang from the hips'
    // parent).
    const bool carried[2] = {holds[0] && feet[0].carried, holds[1] && feet[1].carried};
    if (carried[0] || carried[1]) {
      const glm::vec3 move =
          hips_move_to_reach(target_world, feet[0].chain, feet[1].chain, carried, goal);
      if (hips_node >= 0 && glm::length(move) > 0.0f) {
        const int parent = target_skeleton.parent[size_t(hips_node)];
        const glm::vec3 position = glm::vec3(target_world[size_t(hips_node)][3]) + move;
        target_pose.local[size_t(hips_node)].translation =
            parent >= 0
                ? glm::vec3(glm::inverse(target_world[size_t(parent)]) * glm::vec4(position, 1.0f))
                : position;
        LocalToWorldJob{&target_skeleton, target_pose.local, target_world, hips_node}.run();
        ++hips_frames;
      }
    }
    for (size_t f = 0; f < 2 && plant; ++f) {
      Foot& foot = feet[f];
      const int node = foot.placed >= 0 ? foot.placed : foot.chain.end;
      if (starts[f])
        foot.lock =
            glm::vec3(target_world[size_t(node)][3]) + ground_velocity * (t - contacts.start);
      if (!holds[f]) continue;
      if (foot.placed >= 0) {
        // The joint's own translation, through its parent, puts it on the goal; its rotation
        // (local and world) is the retarget's, as the parent does not move.
        const int parent = target_skeleton.parent[size_t(node)];
        target_pose.local[size_t(node)].translation =
            parent >= 0
                ? glm::vec3(glm::inverse(target_world[size_t(parent)]) * glm::vec4(goal[f], 1.0f))
                : goal[f];
        LocalToWorldJob{&target_skeleton, target_pose.local, target_world, node}.run();
        continue;
      }
      TwoBoneIKJob ik;
      ik.skeleton = &target_skeleton;
      ik.local = target_pose.local;
      ik.world = target_world;
      ik.ik.chain = foot.chain;
      ik.ik.target = goal[f];
      ik.ik.keep_end_rotation = true;
      ik.run();
    }

    for (size_t b = 0; b < rig.bones.size(); ++b) {
      float* v = &out.channels[b].values[i * 4];
      glm::quat q = target_pose.local[size_t(rig.bones[b].target)].rotation;
      if (i > 0 && q.x * v[-4] + q.y * v[-3] + q.z * v[-2] + q.w * v[-1] < 0.0f) q = -q;
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
    if (hips_node >= 0) {
      const glm::vec3 p = target_pose.local[size_t(hips_node)].translation;
      float* v = &out.channels[hips_channel].values[i * 3];
      v[0] = p.x, v[1] = p.y, v[2] = p.z;
    }
    for (const Foot& foot : feet) {
      if (foot.placed < 0) continue;
      const glm::vec3 p = target_pose.local[size_t(foot.placed)].translation;
      float* v = &out.channels[foot.channel].values[i * 3];
      v[0] = p.x, v[1] = p.y, v[2] = p.z;
    }
  }
  if (measures) {
    *measures = measure_retarget(source, source_clip, target, out, rig, contacts);
    measures->feet_hips_frames = hips_frames;
    measures->feet_legs = size_t(feet[0].chain.valid()) + size_t(feet[1].chain.valid());
    measures->feet_placed = size_t(feet[0].placed >= 0) + size_t(feet[1].placed >= 0);
  }
  return out;
}

}  // namespace rig
