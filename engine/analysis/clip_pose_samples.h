// The poses a weight refit (skin/weight_refit.h) reproduces: every clip of the model sampled at
// clip_sample_times(clip, rate_hz) (analysis/skinning_artefacts.h), clip after clip, each pose
// kept as its skinning matrices per skin. A model without clips gives its rest pose.
#pragma once

#include <memory>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/weight_refit.h"

namespace rig {

inline constexpr float kRefitSampleRateHz = 30.0f;

// The skinning matrices use `layer`'s inverse bind matrices. Allocates. `progress` (optional)
// is told the fraction of poses sampled; when it returns false the sampling stops and `*stopped`
// (when given) is set, the poses sampled so far kept.
SkinPoseSamples sample_clip_poses(const Model& model, std::shared_ptr<const SkinLayer> layer,
                                  float rate_hz = kRefitSampleRateHz,
                                  EditProgress progress = nullptr, void* user = nullptr,
                                  bool* stopped = nullptr);

}  // namespace rig
