// The plain weight operations on a skin layer (skin_layer.h), every skinned vertex of every
// prepared primitive, each vertex as weight_edit.h reads and commits it:
//   normalize  weights scaled to sum 1 (a vertex whose weights are all 0, or already sum to
//              within 1e-6 of 1, stays as it is);
//   clean      weights below the threshold dropped, the rest renormalized; a vertex whose
//              every weight is below it keeps its largest (never a vertex without influence);
//   limit      at most n influences: the n largest kept (the earlier slot wins a tie, kept
//              pairs stay in slot order) and renormalized; vertices with at most n untouched.
// Each returns how many vertices it changed.
#pragma once

#include <cstdint>

#include "skin/skin_layer.h"
#include "skin/weight_edit.h"

namespace rig {

WeightEditResult normalize_weights(SkinLayer& layer);
WeightEditResult clean_weights(SkinLayer& layer, float threshold);
WeightEditResult limit_influences(SkinLayer& layer, uint32_t n);

// `list` cut to its n largest (ties: the earlier pair), kept in order, renormalized when a pair
// was dropped. Unchanged when it has at most n.
void truncate_influences(InfluenceList& list, uint32_t n);

}  // namespace rig
