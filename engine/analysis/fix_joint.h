// "Fix this joint": search the weight smoothing (skin/weight_smooth.h) that lowers one joint's
// worst artefact score over a clip (analysis/skinning_artefacts.h: the score --report gives,
// RMS of the deflation h over the vertices the joint dominates, its worst over the clip's
// samples), without raising any other joint's worst score by more than a bound.
//
// The search: every combination of a smoothing factor, a number of iterations and an extent (the
// joints whose weights are smoothed: the joint alone; with its skin parent; with its parent and
// its children; or the joint alone on only the vertices it dominates) is applied to a copy of the
// layer and the clip scanned again with that copy (regions, dominant joints and all, as --report
// would measure the saved file). A candidate is acceptable when every other joint's worst score
// stays within (1 + max_other_rise) of its own before (joints without a score ignored); the
// acceptable candidate with the lowest score for the joint wins (ties: the smallest extent, then
// the fewest iterations, then the smallest factor). Nothing is changed when no candidate lowers the
// score.
#pragma once

#include <memory>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/skinning_method.h"
#include "skin/weight_smooth.h"

namespace rig {

struct FixJointOptions {
  int clip = 0;
  int skin = -1, joint = -1;  // skin joint index; -1: the worst joint of the clip's scan
  SkinningMethod method = SkinningMethod::Linear;
  float max_other_rise = 0.05f;
  std::vector<float> factors = {0.5f, 1.0f};
  std::vector<int> iterations = {4, 10, 20, 40};
  // 0: the joint, only on the vertices it dominates; 1: the joint; 2: + its skin parent; 3: + its
  // children. Extents 0 to `extents` are tried.
  int extents = 3;
  float fallback_hz = 30.0f;
};

struct JointWorst {
  int skin = 0, joint = 0;
  float before = 0.0f, after = 0.0f;  // NaN: no score
};

struct FixJointResult {
  int skin = -1, joint = -1;
  float before = 0.0f, after = 0.0f;  // the joint's worst score over the clip
  bool improved = false;              // a candidate lowered it; `smooth` is what was applied
  SmoothOptions smooth;
  int extent = 0;
  size_t candidates = 0;  // tried
  // Every candidate tried, in order: its smoothing, the joint's score and the largest other rise.
  struct Tried {
    float factor = 0.0f;
    int iterations = 0, extent = 0;
    float score = 0.0f, other_rise = 0.0f;
    int other_joint = -1;  // the skin joint of that rise (in the joint's skin), -1: none
  };
  std::vector<Tried> tried;
  // Every joint's worst score before and after (after = before when nothing was applied).
  std::vector<JointWorst> joints;
  float largest_other_rise = 0.0f;  // relative, over the other joints (after / before − 1)
};

// Called with a fraction in [0, 1] after each candidate; false cancels (fix_joint then returns
// false and `out` is untouched).
using FixJointProgress = bool (*)(void* user, float fraction);

// Searches as above on `layer` (not changed) and writes the chosen layer to `out` (a copy of
// `layer` when nothing improved). false with a one-line `error` on a bad clip or joint, or when
// cancelled. Allocates; run it off the UI thread.
bool fix_joint(const Model& model, const SkinLayer& layer, const FixJointOptions& options,
               SkinLayer& out, FixJointResult& result, std::string& error,
               FixJointProgress progress = nullptr, void* user = nullptr);

}  // namespace rig
