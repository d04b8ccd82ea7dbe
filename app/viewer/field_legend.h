// What a scalar field's legend shows, apart from drawing it: the colour bar and the solid
// swatches beside it. A heat map draws values at or below its minimum in its own colour (grey:
// "no difference", "unaffected"), not the bar's first colour, so that colour gets a swatch of its
// own; NaN values get the field's undefined swatch. Pure (no ImGui): tests compare what the legend
// shows with what the renderer draws (analysis::color_map_color, the shader's function).
#pragma once

#include <array>
#include <cstddef>
#include <glm/glm.hpp>

#include "analysis/scalar_field.h"

namespace rigview {

struct LegendSwatch {
  glm::vec3 color{0.0f};
  const char* label = "";
};

struct FieldLegendKey {
  std::array<LegendSwatch, 2> swatches;
  size_t swatch_count = 0;
};

// `at_min_label`: what a value at the minimum means in this view ("no difference"); `undefined`:
// whether the field can hold NaN (the rig findings cannot) and its label.
FieldLegendKey field_legend_key(const rig::analysis::ScalarField& field, const char* at_min_label,
                                const char* undefined_label);

// The bar's colour at fraction u in [0, 1] of its width: the map over (min, max], just inside
// the minimum where a heat map's own at-minimum colour is a swatch instead.
glm::vec3 field_legend_bar_color(const rig::analysis::ScalarField& field, float u);

}  // namespace rigview
