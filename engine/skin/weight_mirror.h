// Mirror left <-> right: each vertex takes the weights of its mirror vertex, with every joint
// replaced by its mirror joint, like Blender's Mirror Vertex Group with "flip group names"
// (both sides swap; a weight-symmetric skin is unchanged).
//
// Mirror joints, by name (mirrored_joint_names): "Left" <-> "Right" (also "left"/"right",
// "LEFT"/"RIGHT") anywhere in the name, or a one-letter side L/R (l/r) standing between
// separators (_ . - : space) or at an end: "hand_L", "upperarm.l", "l_arm", "arm_joint_L_1".
// A joint whose candidate names name no joint of the skin is its own mirror (a centre joint).
//
// Mirror vertices, by position, in bind space: the mirror plane is perpendicular to the axis
// (x, y or z) along which the skin's left/right joint pairs lie farthest apart in total, through
// the mean of their midpoints (bind positions from the inverse bind matrices), or the parallel
// plane through the origin when more vertices pair across it; without pairs it is x = 0. A vertex's
// mirror is the vertex of its skin group (weight_edit.h: every primitive drawn with the skin)
// nearest to that point within `tolerance` × the group's bind-space bounding-box diagonal (ties:
// the first in primitive and vertex order; a vertex on x = 0 may be its own mirror). A vertex with
// none keeps its weights and is listed in WeightEditResult::unmatched.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/weight_edit.h"

namespace rig {

// The names `name`'s mirror joint may have, in the order they are tried (empty: no side).
std::vector<std::string> mirrored_joint_names(std::string_view name);

// Per joint of skin `skin`, its mirror joint (itself when none).
std::vector<uint16_t> mirror_joints(const Model& model, int skin);

struct MirrorPlane {
  int axis = 0;         // 0 x, 1 y, 2 z
  float offset = 0.0f;  // the plane: coordinate `axis` = offset
};
// The mirror plane of skin `skin` from its joint pairs (`mirror`: mirror_joints).
MirrorPlane mirror_plane(const SkinLayer& layer, int skin, const std::vector<uint16_t>& mirror);

struct MirrorOptions {
  float tolerance = 1e-4f;  // fraction of the skin group's bind-space bounding-box diagonal
};

WeightEditResult mirror_weights(SkinLayer& layer, const Model& model,
                                const MirrorOptions& options = {});

}  // namespace rig
