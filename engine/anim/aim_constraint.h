// Look-at / aim: turns a joint so that a chosen axis of its local frame points at a target, the
// turn limited to an angle from the animated direction and optionally spread over a chain of
// ancestors (spine → neck → head). A job like the other anim jobs: spans in, no allocation.
//
// The aim ray starts at the last chain joint's world origin and runs along its local `axis`.
// Let d0 be that direction as animated and `want` the direction to the target. The goal is
// `want` turned back towards d0 until the angle between them is at most `limit`, and then
// `weight` of the way from d0 (so a target beyond the limit is aimed at exactly at the limit).
// The joints turn in chain order (root first), each by its share of what is left (share_i =
// weights_i / Σ_{k≥i} weights_k, so the last joint finishes the job exactly), in world space
// about its own origin, recomputing its subtree's world matrices after each; the direction to
// the target is taken again before each joint, since turning the spine moves the head.
// Only local rotations change. weight 0 returns at once (bit-identical).
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "anim/local_to_world_job.h"
#include "model/model.h"

namespace rig {

// The goal of an aim: plain data a viewer edits.
struct Aim {
  glm::vec3 axis{0.0f, 0.0f, 1.0f};   // in the last chain joint's local frame
  glm::vec3 target{0.0f};             // world position
  float limit = glm::radians(80.0f);  // radians from the animated direction, in [0, π]
  float weight = 1.0f;                // [0, 1]
};

struct AimJob {
  const Skeleton* skeleton = nullptr;  // parents and the depth-first order
  std::span<Transform> local;          // one per node
  std::span<glm::mat4> world;          // one per node, current on entry and on exit

  std::span<const int> chain;            // each joint an ancestor of the next; the last one aims
  std::span<const float> chain_weights;  // share of the turn per joint (≥ 0); empty: equal
  Aim aim;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

// Degrees between the last joint's aim axis and the direction from it to `target` (tests,
// viewers showing how far off a look-at is).
float aim_error_degrees(const glm::mat4& joint_world, glm::vec3 axis, glm::vec3 target);

}  // namespace rig
