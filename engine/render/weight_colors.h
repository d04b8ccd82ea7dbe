// Colours of the skin-weight views (DrawOptions::weight_view), under their historical names: the
// definitions live with the scalar-field colour maps (analysis/color_map.h), which the mesh
// shader and the app's legends both read.
#pragma once

#include "analysis/color_map.h"

namespace rig::render {

inline constexpr const auto& kWeightHeatStops = rig::analysis::kHeatStops;
inline constexpr const auto& kZeroWeightColor = rig::analysis::kZeroColor;
inline constexpr const auto& kBrokenWeightColor = rig::analysis::kUndefinedColor;
inline constexpr const auto& kInfluenceCountColors = rig::analysis::kCategoryColors;

// The heat map at weight w (clamped to [0, 1]). For legends.
inline glm::vec3 weight_heat_color(float w) {
  return rig::analysis::stops_color(rig::analysis::kHeatStops, w);
}

}  // namespace rig::render
