#include "anim/blending_job.h"

#include <algorithm>
#include <cmath>

#include "anim/sampling.h"

namespace rig {

Transform blend_transforms(const Transform& a, const Transform& b, float w) {
  Transform out;
  out.translation = a.translation + (b.translation - a.translation) * w;
  out.scale = a.scale + (b.scale - a.scale) * w;
  out.rotation = slerp_shortest(a.rotation, b.rotation, w);
  return out;
}

namespace {

float scale_ratio_power(float value, float reference, float w) {
  if (reference == 0.0f) return 1.0f;
  const float ratio = value / reference;
  if (ratio == 1.0f) return 1.0f;
  if (!(ratio > 0.0f)) return 1.0f + (ratio - 1.0f) * w;
  return w == 1.0f ? ratio : std::pow(ratio, w);
}

}  // namespace

Transform add_transform_difference(const Transform& base, const Transform& value,
                                   const Transform& reference, float w) {
  Transform out;
  out.translation = base.translation + (value.translation - reference.translation) * w;
  out.scale = base.scale * glm::vec3(scale_ratio_power(value.scale.x, reference.scale.x, w),
                                     scale_ratio_power(value.scale.y, reference.scale.y, w),
                                     scale_ratio_power(value.scale.z, reference.scale.z, w));
  glm::quat delta = glm::conjugate(reference.rotation) * value.rotation;
  if (delta.w < 0.0f) delta = -delta;  // the short way round
  if (w != 1.0f) delta = slerp_shortest(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), delta, w);
  out.rotation = glm::normalize(base.rotation * delta);
  return out;
}

bool BlendingJob::validate() const {
  if (layers.empty()) return false;
  for (size_t l = 0; l < layers.size(); ++l) {
    const BlendLayer& layer = layers[l];
    if (layer.local.size() != output.size() ||
        layer.morph_weights.size() != output_morph_weights.size())
      return false;
    if (!layer.joint_weights.empty() && layer.joint_weights.size() != output.size()) return false;
    if (l > 0 && layer.mode == BlendMode::Additive) {
      if (layer.reference.size() != output.size()) return false;
      if (!layer.reference_morph_weights.empty() &&
          layer.reference_morph_weights.size() != output_morph_weights.size())
        return false;
    }
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
    const bool additive = layer.mode == BlendMode::Additive;
    for (size_t i = 0; i < output.size(); ++i) {
      const float w = per_joint ? weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f) : weight;
      if (w == 0.0f) continue;
      output[i] = additive
                      ? add_transform_difference(output[i], layer.local[i], layer.reference[i], w)
                      : blend_transforms(output[i], layer.local[i], w);
    }
    // Morph weights belong to mesh nodes, not joints: they follow the layer weight alone.
    for (size_t i = 0; i < output_morph_weights.size(); ++i) {
      const float a = output_morph_weights[i];
      if (additive) {
        const float ref =
            layer.reference_morph_weights.empty() ? 0.0f : layer.reference_morph_weights[i];
        output_morph_weights[i] = a + (layer.morph_weights[i] - ref) * weight;
      } else {
        output_morph_weights[i] = a + (layer.morph_weights[i] - a) * weight;
      }
    }
  }
  return true;
}

}  // namespace rig
