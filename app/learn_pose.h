// Learn mode's effect on the pose and the skin every output uses: the twist arm's joint set by
// --twist-demo and --bend-demo (FK overrides the pose builder applies), and the weight pitfalls
// (raw-weights, four-influences) in the skin layer. See the README's "Learn: pitfalls and
// demonstrations".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "character/fk_edit.h"
#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"

namespace rigview {

// The twist arm's joints the demonstrations turn: ArmTwist, child of ArmRoot. false + one-line
// error naming `flag` when the model lacks them.
struct TwistArmJoints {
  int root = -1;
  int twist = -1;
};
bool find_twist_arm(const rig::Model& model, const char* flag, TwistArmJoints& out,
                    std::string& error);

// The demonstrations' rule: rest · q_Z(bend) · q_X(twist), normalized (radians). The viewer's
// twist and bend sliders use it too.
glm::quat twist_arm_rotation(const glm::quat& rest, float twist_radians, float bend_radians);

// --twist-demo/--bend-demo as one Override FK edit on ArmTwist: its rest transform with the
// rotation rest · q_Z(bend) · q_X(twist). Nothing when neither flag is given.
bool learn_fk_edits(const Options& options, const rig::Model& model, std::vector<rig::FkEdit>& out,
                    std::string& error);

// The model's skin layer with the weight pitfalls of options.pitfalls applied (raw-weights: the
// file's weight sums for the linear blend; four-influences: the 4 largest weights of each
// vertex, renormalized), or null when neither is asked for.
std::shared_ptr<rig::SkinLayer> pitfall_skin_layer(const Options& options, const rig::Model& model);
// The same on given influences (the viewer's Mistakes: its skin layer's, edits included): the
// weight pitfalls of `pitfalls` applied to `meshes` (prepared from `model`).
std::shared_ptr<rig::SkinLayer> pitfall_skin_layer(rig::Pitfalls pitfalls, const rig::Model& model,
                                                   rig::SkinMeshes meshes);

}  // namespace rigview
