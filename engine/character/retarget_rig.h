// The rest data a retarget reads, worked out once per source → target pairing: each skeleton's
// rest world matrices in its model space (the whole node hierarchy from the scene roots, armature
// nodes with a 0.01 scale or a Z-up rotation included), its character frame, hip height and
// height; the facing alignment G between the two frames; and per bone pair its mapped child and
// the rest swing that makes the target's bone point where the source's does.
//
// Definitions (README "Retargeting: the retarget" repeats them):
// - Character frame: up = the model axis (±X, ±Y, ±Z) nearest the hips → head direction (the
//   first mapped of head, neck, upper chest, chest, spine); left = right upper leg → left upper
//   leg (upper arms, then shoulders when legs are missing) with its up part removed;
//   forward = left × up. Snapping up to an axis keeps a hunched rest pose from tilting G.
// - G: the rotation taking the source's frame (left, up, forward) onto the target's;
//   identity when the two characters stand and face alike.
// - Hip height: the hips' rest height above the lowest of the feet and toes along up (the
//   lowest mapped joint when neither foot is mapped). Height: the highest mapped joint above that
//   same lowest point.
// - Mapped child of a pair (the direction a bone follows): among the NEAREST mapped descendants
//   of the target joint (no mapped joint between), the first in its role's chain order: hips,
//   spine, chest and upper chest take the next of spine → chest → upper chest → neck → head (the
//   spine chain, never a leg or a shoulder); shoulder → upper arm → lower arm → hand; hand →
//   middle, index, ring, little proximal; upper leg → lower leg → foot → toes; finger segments
//   to the next. Pairs without a role, and the chain ends (head, toes, distal finger segments),
//   take the first nearest mapped descendant in depth-first order, if any. No child: the bone
//   follows the source's rotation delta only.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "character/bone_map.h"
#include "model/model.h"

namespace rig {

// One skeleton's rest pose as the retarget reads it.
struct RetargetRest {
  std::vector<glm::mat4> world;     // per node: rest world matrix in model space
  std::vector<glm::quat> rotation;  // per node: the rotation part of `world`
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 left{1.0f, 0.0f, 0.0f};
  glm::vec3 forward{0.0f, 0.0f, 1.0f};
  glm::vec3 hips{0.0f};     // the hips' rest world position (origin without hips)
  float hip_height = 0.0f;  // model units, along up
  float height = 0.0f;      // model units, along up

  glm::vec3 position(int node) const { return glm::vec3(world[size_t(node)][3]); }
};

// Which side of a BoneMap a skeleton plays.
enum class MapSide : uint8_t { Source, Target };

// Rest data of `model` for the joints `map` names on `side`. Allocates.
RetargetRest retarget_rest(const Model& model, const BoneMap& map, MapSide side);

// One mapped pair, ready for the per-frame rule T = G·D·G⁻¹·A·T0 (retarget.h).
struct RetargetBone {
  int source = -1, target = -1;  // nodes
  HumanBone role = HumanBone::Count;
  int child = -1;  // index in RetargetRig::bones of the mapped child, -1 when none
  glm::quat swing{1.0f, 0.0f, 0.0f, 0.0f};  // A: target rest direction → G·source rest direction
  // K = S0⁻¹·G⁻¹·A·T0, so that T = G·S·K with S the source joint's world rotation.
  glm::quat keep{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 source_axis{0.0f};  // source rest direction to the child, in the source joint's frame
};

struct RetargetRig {
  RetargetRest source, target;
  glm::quat facing{1.0f, 0.0f, 0.0f, 0.0f};  // G
  float hip_ratio = 1.0f;                    // target hip height / source hip height
  std::vector<RetargetBone> bones;           // target parents before children
  std::vector<int> target_bone;              // per target node: its index in bones, -1 unmapped
  int hips = -1;                             // index in bones of the hips pair, -1 when none

  int bone(HumanBone role) const;  // index in bones of the pair playing `role`, -1 when none
};

// "" when `map` can drive `target` from `source`: every node index in range, no target joint
// driven twice. Otherwise one line naming the problem.
std::string check_bone_map(const Model& source, const Model& target, const BoneMap& map);

// The pairing's rest data. `map` must pass check_bone_map. Allocates: once per pairing.
RetargetRig build_retarget_rig(const Model& source, const Model& target, const BoneMap& map);

}  // namespace rig
