#include "skin/cpu_skinning.h"

#include <cmath>

namespace rig {

namespace {

// Inverse transpose of a 3x3 for normals: cofactor / det. A singular blend (the LBS candy
// wrapper at 180°) has no inverse; its cofactor still gives the right direction up to sign.
glm::vec3 transform_normal(const glm::mat3& m, glm::vec3 n) {
  const glm::mat3 cof(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
  const float det = glm::dot(m[0], cof[0]);
  glm::vec3 r = cof * n;
  if (det < 0.0f) r = -r;
  return r;
}

glm::vec3 safe_normalize(glm::vec3 v, glm::vec3 fallback) {
  const float len = glm::length(v);
  return len > 0.0f && std::isfinite(len) ? v / len : fallback;
}

float weight_sum(const float* weights, uint32_t count) {
  float s = 0.0f;
  for (uint32_t i = 0; i < count; ++i) s += weights[i];
  return s;
}

glm::mat4 blend_matrices(std::span<const glm::mat4> palette, const uint16_t* joints,
                         const float* weights, uint32_t count, bool& ok) {
  const float sum = weight_sum(weights, count);
  ok = sum > 0.0f;
  glm::mat4 m(0.0f);
  if (!ok) return glm::mat4(1.0f);
  const float inv = 1.0f / sum;
  for (uint32_t i = 0; i < count; ++i) {
    const float w = weights[i] * inv;
    if (w == 0.0f || joints[i] >= palette.size()) continue;
    m += palette[joints[i]] * w;
  }
  return m;
}

struct BlendedDualQuat {
  DualQuat dq;        // unit
  glm::mat3 stretch;  // sum w_i S_i
  bool ok;
};

BlendedDualQuat blend_dual_quats(std::span<const JointDualQuat> dqs, const uint16_t* joints,
                                 const float* weights, uint32_t count) {
  BlendedDualQuat b{DualQuat{}, glm::mat3(1.0f), false};
  const float sum = weight_sum(weights, count);
  if (!(sum > 0.0f)) return b;
  // Reference: the largest weight, the first one among equals.
  uint32_t ref = 0;
  for (uint32_t i = 1; i < count; ++i)
    if (weights[i] > weights[ref]) ref = i;
  if (joints[ref] >= dqs.size()) return b;
  const glm::quat pivot = dqs[joints[ref]].rigid.real;
  const float inv = 1.0f / sum;
  glm::quat real(0.0f, 0.0f, 0.0f, 0.0f), dual(0.0f, 0.0f, 0.0f, 0.0f);
  glm::mat3 stretch(0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const float w = weights[i] * inv;
    if (w == 0.0f || joints[i] >= dqs.size()) continue;
    const JointDualQuat& j = dqs[joints[i]];
    // Hemisphere alignment: q and -q are the same motion, but the blend is not sign-invariant.
    const float sw = glm::dot(j.rigid.real, pivot) < 0.0f ? -w : w;
    real += j.rigid.real * sw;
    dual += j.rigid.dual * sw;
    stretch += j.stretch * w;
  }
  const float len = glm::length(real);
  if (!(len > 0.0f)) return b;
  b.dq.real = real / len;
  b.dq.dual = dual / len;
  b.stretch = stretch;
  b.ok = true;
  return b;
}

}  // namespace

void apply_morph_targets(const Primitive& prim, std::span<const float> weights,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const uint32_t n = prim.vertex_count();
  for (uint32_t v = 0; v < n; ++v) {
    out_positions[v] = prim.positions[v];
    out_normals[v] = prim.normals[v];
  }
  const size_t targets = std::min(weights.size(), prim.targets.size());
  for (size_t t = 0; t < targets; ++t) {
    const float w = weights[t];
    if (w == 0.0f) continue;
    const MorphTarget& mt = prim.targets[t];
    if (mt.positions.size() == n)
      for (uint32_t v = 0; v < n; ++v) out_positions[v] += w * mt.positions[v];
    if (mt.normals.size() == n)
      for (uint32_t v = 0; v < n; ++v) out_normals[v] += w * mt.normals[v];
  }
}

glm::vec3 skin_point_linear(std::span<const glm::mat4> palette, const uint16_t* joints,
                            const float* weights, uint32_t count, glm::vec3 p) {
  bool ok = false;
  const glm::mat4 m = blend_matrices(palette, joints, weights, count, ok);
  return ok ? glm::vec3(m * glm::vec4(p, 1.0f)) : p;
}

glm::vec3 skin_point_dual_quat(std::span<const JointDualQuat> dqs, const uint16_t* joints,
                               const float* weights, uint32_t count, glm::vec3 p) {
  const BlendedDualQuat b = blend_dual_quats(dqs, joints, weights, count);
  if (!b.ok) return p;
  return dual_quat_transform_point(b.dq, b.stretch * p);
}

void skin_linear(const Primitive& prim, std::span<const glm::mat4> palette,
                 std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                 std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const uint32_t n = prim.vertex_count(), k = prim.influences;
  for (uint32_t v = 0; v < n; ++v) {
    bool ok = false;
    const glm::mat4 m =
        blend_matrices(palette, &prim.joints[size_t(v) * k], &prim.weights[size_t(v) * k], k, ok);
    const glm::vec3 p = positions[v], nrm = normals[v];
    if (!ok) {  // no influence at all: the vertex stays where the file put it
      out_positions[v] = p;
      out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    out_positions[v] = glm::vec3(m * glm::vec4(p, 1.0f));
    out_normals[v] = safe_normalize(transform_normal(glm::mat3(m), nrm), nrm);
  }
}

void skin_dual_quat(const Primitive& prim, std::span<const JointDualQuat> joints,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const uint32_t n = prim.vertex_count(), k = prim.influences;
  for (uint32_t v = 0; v < n; ++v) {
    const BlendedDualQuat b =
        blend_dual_quats(joints, &prim.joints[size_t(v) * k], &prim.weights[size_t(v) * k], k);
    const glm::vec3 p = positions[v], nrm = normals[v];
    if (!b.ok) {
      out_positions[v] = p;
      out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    out_positions[v] = dual_quat_transform_point(b.dq, b.stretch * p);
    // Normals: inverse transpose of the blended stretch, then the blended rotation.
    out_normals[v] = safe_normalize(b.dq.real * transform_normal(b.stretch, nrm), nrm);
  }
}

}  // namespace rig
