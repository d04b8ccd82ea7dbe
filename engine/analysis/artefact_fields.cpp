#include "analysis/artefact_fields.h"

#include <algorithm>
#include <cstdio>

namespace rig::analysis {

namespace {

bool skinned_item(const Model& model, const DrawItem& item) {
  return item.skin >= 0 &&
         model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].skinned();
}

// Copies per-item values for skinned items, leaves rigid items empty. Reuses capacity.
void copy_skinned(const Model& model, const std::vector<std::vector<float>>& values,
                  ScalarField& out) {
  out.values.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    if (!skinned_item(model, model.draws[d])) {
      out.values[d].clear();
      continue;
    }
    out.values[d].assign(values[d].begin(), values[d].end());
  }
}

void set_ticks(ScalarField& out, std::initializer_list<std::pair<float, const char*>> ticks) {
  out.ticks.resize(ticks.size());
  size_t i = 0;
  for (const auto& [value, label] : ticks) {
    out.ticks[i].value = value;
    if (out.ticks[i].label != label) out.ticks[i].label = label;
    ++i;
  }
}

}  // namespace

void fill_deflation_field(const Model& model, const ArtefactFrame& frame, SkinningMethod method,
                          ScalarField& out) {
  copy_skinned(model, frame.deflation, out);
  out.min = -1.0f;
  out.max = 1.0f;
  out.map = ColorMap::Diverging;
  out.undefined_color = kDeflationUndefinedColor;
  const char* label = method_info(method).label;
  if (out.title.rfind(label, 0) != 0) out.title = std::string(label) + " deflation log2(r/r_rest)";
  set_ticks(out, {{-1.0f, "-1 (half radius)"}, {0.0f, "0"}, {1.0f, "+1 (double)"}});
  ++out.revision;
}

void fill_difference_field(const Model& model, const std::vector<std::vector<float>>& difference,
                           float largest, SkinningMethod a, SkinningMethod b, ScalarField& out) {
  copy_skinned(model, difference, out);
  out.min = 0.0f;
  out.max = std::max(largest, 1e-4f);
  out.map = ColorMap::Heat;
  out.undefined_color = kUndefinedColor;
  const std::string title =
      std::string("|") + method_info(a).label + " - " + method_info(b).label + "| / rest diagonal";
  if (out.title != title) out.title = title;
  char top[32];
  std::snprintf(top, sizeof top, "%.2g", double(out.max));
  out.ticks.resize(2);
  out.ticks[0].value = 0.0f;
  if (out.ticks[0].label != "0") out.ticks[0].label = "0";
  out.ticks[1].value = out.max;
  out.ticks[1].label = top;  // short: fits the small-string buffer, no allocation
  ++out.revision;
}

}  // namespace rig::analysis
