#include "anim/aim_constraint.h"

#include <algorithm>
#include <cmath>

#include "anim/sampling.h"
#include "anim/two_bone_ik.h"

namespace rig {

namespace {

glm::vec3 aim_direction(const glm::mat4& world, glm::vec3 axis) {
  const glm::vec3 d = glm::mat3(world) * axis;
  const float l = glm::length(d);
  return l > 0.0f ? d / l : glm::vec3(0.0f);
}

// `to` turned back towards `from` (both unit) so the angle between is at most `limit`, then
// `fraction` of the way from `from`.
glm::vec3 limited_direction(glm::vec3 from, glm::vec3 to, float limit, float fraction) {
  const float angle = std::acos(std::clamp(glm::dot(from, to), -1.0f, 1.0f));
  const float turn = std::min(angle, limit) * fraction;
  if (turn >= angle) return to;
  if (!(angle > 0.0f)) return from;
  const glm::quat full = rotation_between(from, to);  // a perpendicular axis even when opposite
  const glm::vec3 axis = glm::axis(full);
  return glm::normalize(glm::angleAxis(turn, axis) * from);
}

}  // namespace

float aim_error_degrees(const glm::mat4& joint_world, glm::vec3 axis, glm::vec3 target) {
  const glm::vec3 d = aim_direction(joint_world, axis);
  const glm::vec3 want = glm::normalize(target - glm::vec3(joint_world[3]));
  return glm::degrees(std::acos(std::clamp(glm::dot(d, want), -1.0f, 1.0f)));
}

bool AimJob::validate() const {
  if (!skeleton || local.size() != skeleton->size() || world.size() != skeleton->size() ||
      skeleton->hierarchy.position.size() != skeleton->size())
    return false;
  if (chain.empty() || (!chain_weights.empty() && chain_weights.size() != chain.size()))
    return false;
  if (glm::length(aim.axis) <= 0.0f) return false;
  const int n = static_cast<int>(skeleton->size());
  for (size_t i = 0; i < chain.size(); ++i) {
    if (chain[i] < 0 || chain[i] >= n) return false;
    if (i > 0) {  // chain[i - 1] must be a proper ancestor of chain[i]
      bool found = false;
      for (int p = skeleton->parent[size_t(chain[i])]; p >= 0 && !found;
           p = skeleton->parent[size_t(p)])
        found = p == chain[i - 1];
      if (!found) return false;
    }
  }
  return true;
}

bool AimJob::run() const {
  if (!validate()) return false;
  const float w = std::clamp(aim.weight, 0.0f, 1.0f);
  if (w == 0.0f) return true;
  const int last = chain.back();
  const glm::vec3 animated = aim_direction(world[size_t(last)], aim.axis);
  if (glm::length(animated) == 0.0f) return true;
  float remaining = 0.0f;
  for (size_t i = 0; i < chain.size(); ++i)
    remaining += chain_weights.empty() ? 1.0f : std::max(chain_weights[i], 0.0f);

  LocalToWorldJob to_world;
  to_world.skeleton = skeleton;
  to_world.local = local;
  to_world.world = world;
  for (size_t i = 0; i < chain.size(); ++i) {
    const float share_weight = chain_weights.empty() ? 1.0f : std::max(chain_weights[i], 0.0f);
    const bool is_last = i + 1 == chain.size();
    const float share = is_last ? 1.0f : (remaining > 0.0f ? share_weight / remaining : 0.0f);
    remaining -= share_weight;
    if (share <= 0.0f) continue;
    const glm::vec3 origin(world[size_t(last)][3]);
    const glm::vec3 to_target = aim.target - origin;
    if (!(glm::length(to_target) > 0.0f)) return true;  // target at the joint: nothing to aim at
    const glm::vec3 goal = limited_direction(animated, glm::normalize(to_target), aim.limit, w);
    const glm::vec3 current = aim_direction(world[size_t(last)], aim.axis);
    glm::quat delta = rotation_between(current, goal);
    if (share < 1.0f) delta = slerp_shortest(glm::quat(1, 0, 0, 0), delta, share);
    const int joint = chain[i];
    const int parent = skeleton->parent[size_t(joint)];
    rotate_local_in_world(local[size_t(joint)], parent >= 0 ? &world[size_t(parent)] : nullptr,
                          delta);
    to_world.root = joint;
    to_world.run();
  }
  return true;
}

}  // namespace rig
