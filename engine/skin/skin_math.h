// Small per-vertex helpers shared by the CPU kernels and the single-vertex reference. The GLSL
// in shaders/skinning_common.glsl spells the same operations in the same order.
#pragma once

#include <cmath>
#include <glm/glm.hpp>

namespace rig::skin_math {

// Inverse transpose of a 3x3 for normals: cofactor / det. A singular blend (the LBS candy
// wrapper at 180°) has no inverse; its cofactor still gives the right direction up to sign.
inline glm::vec3 transform_normal(const glm::mat3& m, glm::vec3 n) {
  const glm::mat3 cof(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
  const float det = glm::dot(m[0], cof[0]);
  glm::vec3 r = cof * n;
  if (det < 0.0f) r = -r;
  return r;
}

inline glm::vec3 safe_normalize(glm::vec3 v, glm::vec3 fallback) {
  const float len = glm::length(v);
  return len > 0.0f && std::isfinite(len) ? v / len : fallback;
}

inline float weight_sum(const float* weights, uint32_t count) {
  float s = 0.0f;
  for (uint32_t i = 0; i < count; ++i) s += weights[i];
  return s;
}

// The influence a dual-quaternion blend aligns hemispheres to: the largest weight, the first
// one among equals.
inline uint32_t pivot_influence(const float* weights, uint32_t count) {
  uint32_t ref = 0;
  for (uint32_t i = 1; i < count; ++i)
    if (weights[i] > weights[ref]) ref = i;
  return ref;
}

}  // namespace rig::skin_math
