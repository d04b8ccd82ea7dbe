// Pose constraints for the Character's constraint stage (after blending, before skinning):
// two-bone IK and aim / look-at, as PoseConstraint objects a viewer owns and edits between
// frames. They wrap TwoBoneIKJob and AimJob (engine/anim/), which hold the math and its
// conventions.
//
//   TwoBoneIKConstraint foot(two_bone_chain(model, find_node(model, "LeftFoot")));  // default
//   TwoBoneIKConstraint hand;  // an explicit chain: skips the forearm's twist joint
//   hand.ik.chain = {find_node(model, "LeftArm"), find_node(model, "LeftForeArm"),
//                    find_node(model, "LeftHand")};
//   hand.ik.target = {0.3f, 1.2f, 0.4f};
//   hand.ik.weight = 1.0f;
//   AimConstraint look(chain_between(model, find_node(model, "Spine1"),
//                                    find_node(model, "Head")));
//   look.aim.target = camera_position;
//   PoseConstraint* all[] = {&hand, &look};
//   character.set_constraints(all);   // once; then just edit hand.ik / look.aim per frame
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "anim/aim_constraint.h"
#include "anim/two_bone_ik.h"
#include "character/character.h"

namespace rig {

class TwoBoneIKConstraint final : public PoseConstraint {
 public:
  TwoBoneIKConstraint() = default;
  explicit TwoBoneIKConstraint(TwoBoneChain chain) { ik.chain = chain; }
  void apply(const ConstraintContext& context) override;

  TwoBoneIK ik;
};

class AimConstraint final : public PoseConstraint {
 public:
  // `chain`: root first, the aiming joint last; `weights`: share of the turn per joint (empty:
  // equal shares). Allocates; not per frame.
  explicit AimConstraint(std::vector<int> chain, std::vector<float> weights = {});
  void apply(const ConstraintContext& context) override;
  const std::vector<int>& chain() const { return chain_; }

  Aim aim;

 private:
  std::vector<int> chain_;
  std::vector<float> weights_;
};

// `top`, `bottom` and the nodes between them, top first (empty unless top is `bottom` or one of
// its ancestors).
std::vector<int> chain_between(const Model& model, int top, int bottom);

// Node indices for `names`, in order; empty when any is missing.
std::vector<int> find_nodes(const Model& model, std::initializer_list<std::string_view> names);

}  // namespace rig
