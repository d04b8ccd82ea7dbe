#include "skin/weight_ops.h"

namespace rig {

namespace {

// Runs `edit` on every skinned vertex's list and commits the lists it changed.
template <typename Edit>
WeightEditResult edit_each_vertex(SkinLayer& layer, Edit&& edit) {
  WeightEditResult result;
  for (uint32_t p = 0; p < layer.meshes().primitives.size(); ++p) {
    const SkinMesh& mesh = layer.meshes().primitives[p];
    if (!mesh.skinned()) continue;
    for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
      InfluenceList list = read_influences(layer.meshes().primitives[p], v);
      edit(list);
      if (commit_influences(layer, p, v, list)) ++result.vertices_changed;
    }
  }
  return result;
}

}  // namespace

void truncate_influences(InfluenceList& list, uint32_t n) {
  if (list.count <= n) return;
  std::array<bool, kMaxInfluences> keep{};
  for (uint32_t k = 0; k < n; ++k) {
    int best = -1;
    for (uint32_t i = 0; i < list.count; ++i)
      if (!keep[i] && (best < 0 || list.weights[i] > list.weights[size_t(best)])) best = int(i);
    keep[size_t(best)] = true;
  }
  InfluenceList kept;
  for (uint32_t i = 0; i < list.count; ++i)
    if (keep[i]) kept.add(list.joints[i], list.weights[i]);
  normalize(kept);
  list = kept;
}

WeightEditResult normalize_weights(SkinLayer& layer) {
  return edit_each_vertex(layer, [](InfluenceList& list) { normalize(list); });
}

WeightEditResult clean_weights(SkinLayer& layer, float threshold) {
  return edit_each_vertex(layer, [threshold](InfluenceList& list) {
    if (list.count == 0) return;
    InfluenceList kept;
    uint32_t largest = 0;
    for (uint32_t i = 0; i < list.count; ++i) {
      if (list.weights[i] >= threshold) kept.add(list.joints[i], list.weights[i]);
      if (list.weights[i] > list.weights[largest]) largest = i;
    }
    if (kept.count == 0) kept.add(list.joints[largest], list.weights[largest]);
    normalize(kept);
    list = kept;
  });
}

WeightEditResult limit_influences(SkinLayer& layer, uint32_t n) {
  return edit_each_vertex(layer, [n](InfluenceList& list) { truncate_influences(list, n); });
}

}  // namespace rig
