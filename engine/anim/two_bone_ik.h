// Analytic two-bone IK (thigh–shin–foot, upper arm–forearm–hand) and the rotation helpers the
// pose constraints share. A job in the style of the other anim jobs: plain spans in and out,
// no allocation, validate() before run().
//
// It runs after local → world, on current world matrices: it reads the world positions of the
// root, mid and end joints, works out where the mid joint must go so the end reaches the target
// with both bone lengths unchanged, and writes new LOCAL ROTATIONS of the root and mid joints
// only (and of the end joint with keep_end_rotation); translations and scales are never
// touched, so bone lengths cannot change. Then it recomputes the world matrices of the root's
// subtree (LocalToWorldJob with root = the chain's root).
//
// The bend plane holds the root, the (softened) target and
// - the pole position, when use_pole is set: the mid joint ends up on the pole's side;
// - otherwise the current bend: the mid joint's offset from the root→end line as animated (the
//   chain's own bend, independent of the target), which keeps the knee or elbow bending the way
//   the animation bends it. When the chain is nearly straight that offset fades to nothing,
//   and the hinge (mid_axis, in the mid joint's local frame) takes over smoothly, so a
//   straightening leg never snaps the plane round.
// `twist` then turns the plane about the root→target line.
//
// A target beyond reach straightens the chain towards it; one nearer than |l1 − l2| folds the
// chain as far as it goes. `soften` (a fraction of the full reach, 0 = off) eases the last stretch
// to full extension (the end then stops short of targets within that band, by design), which
// removes the pop of a knee snapping straight. weight 0 returns at once: the pose stays
// bit-identical. weight w in (0, 1) slerps each joint's local rotation w of the way to the
// solution.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>

#include "anim/local_to_world_job.h"
#include "model/model.h"

namespace rig {

struct TwoBoneChain {
  int root = -1, mid = -1, end = -1;
  bool valid() const { return root >= 0 && mid >= 0 && end >= 0; }
};

// The default chain for `end`: its grandparent, its parent and itself (invalid when it lacks
// them).
TwoBoneChain two_bone_chain(const Model& model, int end);

// What to solve: the chain and its goal. Plain data a viewer edits (PoseConstraint wrappers in
// character/posing_constraints.h hold one).
struct TwoBoneIK {
  TwoBoneChain chain;      // root an ancestor of mid, mid an ancestor of end
  glm::vec3 target{0.0f};  // world position for the end joint
  bool use_pole = false;
  glm::vec3 pole{0.0f};                  // world position, when use_pole
  glm::vec3 mid_axis{1.0f, 0.0f, 0.0f};  // hinge in the mid joint's local frame (straight chain)
  float twist = 0.0f;                    // radians about root→target
  float soften = 0.0f;             // [0, 1): fraction of the reach eased in near full extension
  float weight = 1.0f;             // [0, 1]
  bool keep_end_rotation = false;  // the end joint keeps its world rotation (a planted foot)
};

struct TwoBoneIKJob {
  const Skeleton* skeleton = nullptr;  // parents and the depth-first order
  std::span<Transform> local;          // one per node; the chain's rotations are rewritten
  std::span<glm::mat4> world;  // one per node, current on entry; root's subtree current on exit
  TwoBoneIK ik;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

// Shortest rotation taking direction `from` to direction `to` (any lengths; identity when either
// is zero; a half turn about some perpendicular when they are opposite).
glm::quat rotation_between(glm::vec3 from, glm::vec3 to);

// The rotation part of a world matrix (columns normalized; a mirrored frame is un-mirrored).
glm::quat world_rotation(const glm::mat4& world);

// Turns node `node` by the WORLD rotation `delta` about its own origin, by rewriting its local
// rotation: local.rotation ← (P⁻¹·delta·P) · local.rotation, P = its parent's world 3×3 (taken
// from `parent_world`; identity at a root). Exact for parents with uniform scale.
void rotate_local_in_world(Transform& local, const glm::mat4* parent_world, const glm::quat& delta);

}  // namespace rig
