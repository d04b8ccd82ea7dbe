#include "anim/blending_job.h"

#include <algorithm>

#include "anim/sampling.h"

namespace rig {

Transform blend_transforms(const Transform& a, const Transform& b, float w) {
  Transform out;
  out.translation = a.translation + (b.translation - a.translation) * w;
  out.scale = a.scale + (b.scale - a.scale) * w;
  out.rotation = slerp_shortest(a.rotation, b.rotation, w);
  return out;
}

bool BlendingJob::validate() const {
  if (layers.empty()) return false;
  for (const BlendLayer& layer : layers) {
    if (layer.local.size() != output.size() ||
        layer.morph_weights.size() != output_morph_weights.size())
      return false;
    if (!layer.joint_weights.empty() && layer.joint_weights.size() != output.size()) return false;
  }
  return true;
}

bool BlendingJob::run() const {
  if (!validate()) return false;
  const BlendLayer& base = layers[0];
  if (base.local.data() != output.data())
    std::copy(base.local.begin(), base.local.end(), output.begin());
  if (base.morph_weights.data() != output_morph_weights.data())
    std::copy(base.morph_weights.begin(), base.morph_weights.end(), output_morph_weights.begin());
  for (size_t l = 1; l < layers.size(); ++l) {
    const BlendLayer& layer = layers[l];
    const float weight = std::clamp(layer.weight, 0.0f, 1.0f);
    if (weight == 0.0f) continue;
    const bool per_joint = !layer.joint_weights.empty();
    for (size_t i = 0; i < output.size(); ++i) {
      const float w = per_joint ? weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f) : weight;
      if (w == 0.0f) continue;
      output[i] = blend_transforms(output[i], layer.local[i], w);
    }
    // Morph weights belong to mesh nodes, not joints: they follow the layer weight alone.
    for (size_t i = 0; i < output_morph_weights.size(); ++i) {
      const float a = output_morph_weights[i];
      output_morph_weights[i] = a + (layer.morph_weights[i] - a) * weight;
    }
  }
  return true;
}

}  // namespace rig
