// The fix for a joint list reordered against its inverse bind matrices and JOINTS indices (the
// rig doctor's JOINT_ORDER_SUSPECT with RigFinding::joint_order): the skin's joint list put back
// in the order its IBMs and weights were written for.
#pragma once

#include <span>
#include <string>

#include "model/model.h"

namespace rig {

// Skin `skin`'s joint a becomes the joint listed at order[a] (order: a permutation of the joint
// indices, as RigFinding::joint_order gives it); joint_parent and order are recomputed as import
// computes them. The IBMs and the meshes' JOINTS stay. False with a one-line `error` (nothing
// changed) when `skin` or `order` is not valid.
bool apply_joint_order(Model& model, int skin, std::span<const int> order, std::string& error);

}  // namespace rig
