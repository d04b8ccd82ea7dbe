// Choosing what a skin-weight view shows from a name, as the command line (--weights) and the
// viewer spell it: "influences" for the influence-count view, else a joint's node name.
#pragma once

#include <string>

#include "model/model.h"
#include "render/renderer.h"

namespace rig::render {

// The keyword for WeightView::InfluenceCount. It wins over a joint that happens to be named so.
inline constexpr const char* kInfluencesWeightName = "influences";

// "" → Off; "influences" → InfluenceCount; otherwise SelectedJoint on the first node (in node
// order) that is a joint of some skin and has exactly that name. An unknown name returns false
// with `error` = "no joint named 'X' (joints: a, b, c, ...)" (or "(the model has no skin)").
// Allocates; not per frame.
bool weight_view_from_name(const rig::Model& model, const std::string& name, WeightView& view,
                           int& joint_node, std::string& error);

}  // namespace rig::render
