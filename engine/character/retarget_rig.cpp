#include "character/retarget_rig.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "anim/pose.h"
#include "anim/two_bone_ik.h"

namespace rig {

namespace {

using HB = HumanBone;

int side_node(const BonePair& pair, MapSide side) {
  return side == MapSide::Source ? pair.source : pair.target;
}

int role_node(const BoneMap& map, HB role, MapSide side) {
  const BonePair* pair = map.find(role);
  return pair ? side_node(*pair, side) : -1;
}

// The model axis nearest `v` (+Y for a zero vector).
glm::vec3 nearest_axis(glm::vec3 v) {
  const glm::vec3 a = glm::abs(v);
  if (!(a.x > 0.0f || a.y > 0.0f || a.z > 0.0f)) return {0.0f, 1.0f, 0.0f};
  if (a.x >= a.y && a.x >= a.z) return {v.x > 0.0f ? 1.0f : -1.0f, 0.0f, 0.0f};
  if (a.y >= a.z) return {0.0f, v.y > 0.0f ? 1.0f : -1.0f, 0.0f};
  return {0.0f, 0.0f, v.z > 0.0f ? 1.0f : -1.0f};
}

// The roles a pair's bone points at, nearest first (none: a chain end).
struct ChildRoles {
  HB role[5];
  int count = 0;
};

ChildRoles child_roles(HB role) {
  auto list = [](std::initializer_list<HB> roles) {
    ChildRoles out;
    for (HB r : roles) out.role[out.count++] = r;
    return out;
  };
  switch (role) {
    case HB::Hips:
      return list({HB::Spine, HB::Chest, HB::UpperChest, HB::Neck, HB::Head});
    case HB::Spine:
      return list({HB::Chest, HB::UpperChest, HB::Neck, HB::Head});
    case HB::Chest:
      return list({HB::UpperChest, HB::Neck, HB::Head});
    case HB::UpperChest:
      return list({HB::Neck, HB::Head});
    case HB::Neck:
      return list({HB::Head});
    case HB::LeftShoulder:
      return list({HB::LeftUpperArm, HB::LeftLowerArm, HB::LeftHand});
    case HB::LeftUpperArm:
      return list({HB::LeftLowerArm, HB::LeftHand});
    case HB::LeftLowerArm:
      return list({HB::LeftHand});
    case HB::LeftHand:
      return list({HB::LeftMiddle1, HB::LeftIndex1, HB::LeftRing1, HB::LeftLittle1});
    case HB::RightShoulder:
      return list({HB::RightUpperArm, HB::RightLowerArm, HB::RightHand});
    case HB::RightUpperArm:
      return list({HB::RightLowerArm, HB::RightHand});
    case HB::RightLowerArm:
      return list({HB::RightHand});
    case HB::RightHand:
      return list({HB::RightMiddle1, HB::RightIndex1, HB::RightRing1, HB::RightLittle1});
    case HB::LeftUpperLeg:
      return list({HB::LeftLowerLeg, HB::LeftFoot, HB::LeftToes});
    case HB::LeftLowerLeg:
      return list({HB::LeftFoot, HB::LeftToes});
    case HB::LeftFoot:
      return list({HB::LeftToes});
    case HB::RightUpperLeg:
      return list({HB::RightLowerLeg, HB::RightFoot, HB::RightToes});
    case HB::RightLowerLeg:
      return list({HB::RightFoot, HB::RightToes});
    case HB::RightFoot:
      return list({HB::RightToes});
    default:
      break;
  }
  // Fingers: segments 1 and 2 point at the next segment of the same finger.
  const int r = int(role), first = int(HB::LeftThumb1);
  if (r >= first && r < int(HB::Count) && (r - first) % 3 < 2) return list({HB(r + 1)});
  return {};
}

// Index in `pairs` of the mapped child of pair `index` (the rule in the header), -1 when none.
int mapped_child(const Model& target, const std::vector<BonePair>& pairs,
                 const std::vector<int>& pair_of_target, size_t index) {
  const int joint = pairs[index].target;
  // Nearest mapped descendants, in depth-first order.
  std::vector<int> nearest;
  std::vector<int> stack(target.nodes[size_t(joint)].children.rbegin(),
                         target.nodes[size_t(joint)].children.rend());
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (pair_of_target[size_t(node)] >= 0) {
      nearest.push_back(pair_of_target[size_t(node)]);
      continue;  // whatever lies below is not nearest
    }
    const auto& children = target.nodes[size_t(node)].children;
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  if (nearest.empty()) return -1;
  const ChildRoles roles = child_roles(pairs[index].role);
  if (roles.count > 0) {
    for (int k = 0; k < roles.count; ++k)
      for (int candidate : nearest)
        if (pairs[size_t(candidate)].role == roles.role[k]) return candidate;
    return -1;
  }
  return nearest.front();
}

}  // namespace

RetargetRest retarget_rest(const Model& model, const BoneMap& map, MapSide side) {
  RetargetRest rest;
  Pose pose;
  init_rest_pose(model, pose);
  rest.world.resize(model.nodes.size());
  compute_world_matrices(model, pose, rest.world);
  rest.rotation.resize(model.nodes.size());
  for (size_t i = 0; i < rest.world.size(); ++i) rest.rotation[i] = world_rotation(rest.world[i]);

  const int hips = role_node(map, HB::Hips, side);
  if (hips >= 0) rest.hips = rest.position(hips);
  int top = -1;
  for (HB role : {HB::Head, HB::Neck, HB::UpperChest, HB::Chest, HB::Spine})
    if (top < 0) top = role_node(map, role, side);
  if (hips >= 0 && top >= 0) rest.up = nearest_axis(rest.position(top) - rest.hips);

  glm::vec3 left(0.0f);
  for (auto [l, r] : {std::pair{HB::LeftUpperLeg, HB::RightUpperLeg},
                      std::pair{HB::LeftUpperArm, HB::RightUpperArm},
                      std::pair{HB::LeftShoulder, HB::RightShoulder}}) {
    const int ln = role_node(map, l, side), rn = role_node(map, r, side);
    if (ln < 0 || rn < 0) continue;
    left = rest.position(ln) - rest.position(rn);
    left -= rest.up * glm::dot(left, rest.up);
    if (glm::length(left) > 0.0f) break;
  }
  if (!(glm::length(left) > 0.0f)) {  // no sides: the glTF convention, +X left of +Y up
    left = glm::vec3(1.0f, 0.0f, 0.0f) - rest.up * rest.up.x;
    if (!(glm::length(left) > 0.0f)) left = glm::vec3(0.0f, 0.0f, 1.0f);
  }
  rest.left = glm::normalize(left);
  rest.forward = glm::cross(rest.left, rest.up);

  float lowest = 0.0f, highest = 0.0f;
  bool any_foot = false, any = false;
  for (HB role : {HB::LeftFoot, HB::RightFoot, HB::LeftToes, HB::RightToes}) {
    const int node = role_node(map, role, side);
    if (node < 0) continue;
    const float h = glm::dot(rest.position(node), rest.up);
    lowest = any_foot ? std::min(lowest, h) : h;
    any_foot = true;
  }
  for (const BonePair& pair : map.pairs) {
    const int node = side_node(pair, side);
    if (node < 0 || size_t(node) >= model.nodes.size()) continue;
    const float h = glm::dot(rest.position(node), rest.up);
    highest = any ? std::max(highest, h) : h;
    if (!any_foot) lowest = any ? std::min(lowest, h) : h;
    any = true;
  }
  rest.hip_height = glm::dot(rest.hips, rest.up) - lowest;
  rest.height = highest - lowest;
  return rest;
}

int RetargetRig::bone(HumanBone role) const {
  for (size_t i = 0; i < bones.size(); ++i)
    if (bones[i].role == role) return int(i);
  return -1;
}

std::string check_bone_map(const Model& source, const Model& target, const BoneMap& map) {
  std::vector<uint8_t> driven(target.nodes.size(), 0);
  for (const BonePair& pair : map.pairs) {
    if (pair.source < 0 || size_t(pair.source) >= source.nodes.size())
      return "bone map: source node " + std::to_string(pair.source) + " is not a node of " +
             (source.file.empty() ? std::string("the source") : source.file);
    if (pair.target < 0 || size_t(pair.target) >= target.nodes.size())
      return "bone map: target node " + std::to_string(pair.target) + " is not a node of " +
             (target.file.empty() ? std::string("the target") : target.file);
    if (driven[size_t(pair.target)]++)
      return "bone map: target joint '" + target.nodes[size_t(pair.target)].name +
             "' is driven twice";
  }
  return {};
}

RetargetRig build_retarget_rig(const Model& source, const Model& target, const BoneMap& map) {
  RetargetRig rig;
  rig.source = retarget_rest(source, map, MapSide::Source);
  rig.target = retarget_rest(target, map, MapSide::Target);
  const glm::mat3 fs(rig.source.left, rig.source.up, rig.source.forward);
  const glm::mat3 ft(rig.target.left, rig.target.up, rig.target.forward);
  rig.facing = glm::normalize(glm::quat_cast(ft * glm::transpose(fs)));
  if (rig.source.hip_height > 0.0f && rig.target.hip_height > 0.0f)
    rig.hip_ratio = rig.target.hip_height / rig.source.hip_height;

  // The pairs in the target's parents-first order.
  std::vector<int> pair_of_target(target.nodes.size(), -1);
  for (size_t i = 0; i < map.pairs.size(); ++i)
    pair_of_target[size_t(map.pairs[i].target)] = int(i);
  std::vector<int> bone_of_pair(map.pairs.size(), -1);
  rig.target_bone.assign(target.nodes.size(), -1);
  for (int node : target.node_order) {
    const int p = pair_of_target[size_t(node)];
    if (p < 0) continue;
    bone_of_pair[size_t(p)] = int(rig.bones.size());
    rig.target_bone[size_t(node)] = int(rig.bones.size());
    RetargetBone bone;
    bone.source = map.pairs[size_t(p)].source;
    bone.target = node;
    bone.role = map.pairs[size_t(p)].role;
    rig.bones.push_back(bone);
  }
  const glm::quat g = rig.facing, g_inv = glm::conjugate(rig.facing);
  for (RetargetBone& bone : rig.bones) {
    const int p = pair_of_target[size_t(bone.target)];
    const int c = mapped_child(target, map.pairs, pair_of_target, size_t(p));
    const glm::quat s0 = rig.source.rotation[size_t(bone.source)];
    const glm::quat t0 = rig.target.rotation[size_t(bone.target)];
    if (c >= 0) {
      const glm::vec3 ds =
          rig.source.position(map.pairs[size_t(c)].source) - rig.source.position(bone.source);
      const glm::vec3 dt =
          rig.target.position(map.pairs[size_t(c)].target) - rig.target.position(bone.target);
      if (glm::length(ds) > 0.0f && glm::length(dt) > 0.0f) {
        bone.child = bone_of_pair[size_t(c)];
        bone.swing = rotation_between(dt, g * ds);
        bone.source_axis = glm::normalize(glm::conjugate(s0) * ds);
      }
    }
    bone.keep = glm::normalize(glm::conjugate(s0) * g_inv * bone.swing * t0);
  }
  rig.hips = rig.bone(HB::Hips);
  return rig;
}

}  // namespace rig
