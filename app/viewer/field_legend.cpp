#include "viewer/field_legend.h"

#include <algorithm>

#include "analysis/color_map.h"

namespace rigview {

FieldLegendKey field_legend_key(const rig::analysis::ScalarField& field, const char* at_min_label,
                                const char* undefined_label) {
  FieldLegendKey key;
  const glm::vec3 at_min =
      rig::analysis::color_map_color(field.map, field.min, field.min, field.max);
  // Only where the minimum's colour differs visibly (by an 8-bit step) from the bar's first one
  // does it need a swatch.
  const glm::vec3 gap = glm::abs(at_min - field_legend_bar_color(field, 0.0f));
  if (std::max({gap.r, gap.g, gap.b}) > 1.0f / 255.0f)
    key.swatches[key.swatch_count++] = {at_min, at_min_label};
  if (undefined_label) key.swatches[key.swatch_count++] = {field.undefined_color, undefined_label};
  return key;
}

glm::vec3 field_legend_bar_color(const rig::analysis::ScalarField& field, float u) {
  const float range = field.max - field.min;
  const float v = field.min + range * std::clamp(u, 0.0f, 1.0f);
  return rig::analysis::color_map_color(field.map, std::max(v, field.min + 1e-6f * range),
                                        field.min, field.max);
}

}  // namespace rigview
