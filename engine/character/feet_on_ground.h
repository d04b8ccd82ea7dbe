// Feet on the ground: a two-bone IK chain per leg (foot, its parent, its grandparent) whose
// targets are locked to the foot contacts detected in a clip (anim/foot_contacts.h), so a
// planted foot stays put on the ground while the clip plays.
//
//   FeetOnGround feet(model, walk, find_nodes(model, {"LeftFoot", "RightFoot"}));
//   std::vector<PoseConstraint*> constraints(feet.constraints().begin(), feet.constraints().end());
//   character.set_constraints(constraints);               // once (add look-at etc. as wanted)
//   per frame:  feet.update(time);  character.evaluate(stack or selection);
//
// During a contact run the chain's weight is 1 and its target the run's lock (moved with the
// ground for an in-place clip); within blend_time before a run begins and after it ends the
// weight eases 0 → 1 → 0 (smoothstep) towards the same lock, so the foot lands and lifts off
// without a pop. Each foot keeps its animated world rotation (keep_end_rotation). Targets are
// in the character's model space; pass the stack's placement to update() when root motion is
// extracted, so they follow the character (exact while the placement is a pure function of the
// clip's own motion, approximate otherwise).
//
// An in-place clip walks on a treadmill: planted feet then slide back with the ground at
// contacts().ground_velocity. To have the character walk over a still floor instead, move it
// forward by that velocity and pass the same placement here:
//   placement.translation += contacts().ground_velocity * dt;   // per frame
//   stack.placement_node = root;  stack.placement = placement;  feet.update(time, &placement);
// and the planted feet stand still in the world (PosingFeet test "…WalksOverAStillFloor").
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "anim/foot_contacts.h"
#include "character/posing_constraints.h"

namespace rig {

// The left and right foot joints of `model`'s skins, left first: a joint named like "LeftFoot"
// (any prefix and case, as Mixamo's "mixamorig:LeftFoot"), else a "foot" joint with the side in
// its name ("foot_l", "Foot.L"); empty unless both are found and differ.
std::vector<int> find_feet(const Model& model);

class FeetOnGround {
 public:
  // `feet`: foot joints (ankles). Detects contacts (allocating, a few ms): not per frame.
  FeetOnGround(const Model& model, int clip, std::span<const int> feet,
               const FootContactSettings& settings = {});

  float blend_time = 0.1f;  // seconds of easing before and after each contact
  bool enabled = true;      // off: every chain's weight is 0 (pose bit-identical)

  // Sets each chain's target and weight for clip time `time`. No allocation.
  void update(float time, const RigidMotion* placement = nullptr,
              glm::vec3 up = {0.0f, 1.0f, 0.0f});

  // One IK constraint per foot, in the order of `feet`; hand them to Character::set_constraints.
  std::span<PoseConstraint* const> constraints() const { return pointers_; }
  TwoBoneIKConstraint& chain(size_t foot) { return *chains_[foot]; }
  const FootContacts& contacts() const { return contacts_; }

 private:
  FootContacts contacts_;
  std::vector<std::unique_ptr<TwoBoneIKConstraint>> chains_;
  std::vector<PoseConstraint*> pointers_;
};

}  // namespace rig
