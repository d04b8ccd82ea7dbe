#include "skin/cpu_skinning.h"

#include <vector>

#include "skin/skin_math.h"

namespace rig {

using skin_math::pivot_influence;
using skin_math::weight_sum;

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

void apply_morph_tangents(const Primitive& prim, std::span<const float> weights,
                          std::span<glm::vec4> out_tangents) {
  const uint32_t n = prim.vertex_count();
  for (uint32_t v = 0; v < n; ++v) out_tangents[v] = prim.tangents[v];
  const size_t targets = std::min(weights.size(), prim.targets.size());
  for (size_t t = 0; t < targets; ++t) {
    const float w = weights[t];
    const std::vector<glm::vec3>& deltas = prim.targets[t].tangents;
    if (w == 0.0f || deltas.size() != n) continue;
    for (uint32_t v = 0; v < n; ++v) out_tangents[v] += glm::vec4(w * deltas[v], 0.0f);
  }
}

glm::vec3 skin_point_linear(std::span<const glm::mat4> palette, const uint16_t* joints,
                            const float* weights, uint32_t count, glm::vec3 p) {
  const float sum = weight_sum(weights, count);
  if (!(sum > 0.0f)) return p;
  const float inv = 1.0f / sum;
  glm::mat4 m(0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const float w = weights[i] * inv;
    if (w == 0.0f || joints[i] >= palette.size()) continue;
    m += palette[joints[i]] * w;
  }
  return glm::vec3(m * glm::vec4(p, 1.0f));
}

glm::vec3 skin_point_dual_quat(std::span<const JointDualQuat> dqs, const uint16_t* joints,
                               const float* weights, uint32_t count, glm::vec3 p) {
  const float sum = weight_sum(weights, count);
  const uint32_t ref = pivot_influence(weights, count);
  if (!(sum > 0.0f) || joints[ref] >= dqs.size()) return p;
  const glm::quat pivot = dqs[joints[ref]].rigid.real;
  glm::quat real(0.0f, 0.0f, 0.0f, 0.0f), dual(0.0f, 0.0f, 0.0f, 0.0f);
  glm::mat3 stretch(0.0f);
  const float inv = 1.0f / sum;
  for (uint32_t i = 0; i < count; ++i) {
    const float w = weights[i] * inv;
    if (w == 0.0f || joints[i] >= dqs.size()) continue;
    const JointDualQuat& j = dqs[joints[i]];
    const float sw = glm::dot(j.rigid.real, pivot) < 0.0f ? -w : w;
    real += j.rigid.real * sw;
    dual += j.rigid.dual * sw;
    stretch += j.stretch * w;
  }
  const float len = glm::length(real);
  if (!(len > 0.0f)) return p;
  DualQuat dq;
  dq.real = real / len;
  dq.dual = dual / len;
  return dual_quat_transform_point(dq, stretch * p);
}

void skin_primitive(SkinningMethod method, const Primitive& prim,
                    std::span<const glm::mat4> skinning_matrices,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const SkinningMethodInfo& info = method_info(method);
  const SkinMesh mesh = prepare_skin_mesh(prim);
  std::vector<glm::vec4> palette(skinning_matrices.size() * info.palette_rows);
  info.write_palette(skinning_matrices, palette);
  if (!mesh.skinned()) {
    for (size_t v = 0; v < positions.size(); ++v) {
      out_positions[v] = positions[v];
      out_normals[v] = skin_math::safe_normalize(normals[v], normals[v]);
    }
    return;
  }
  info.skin(mesh, palette, positions, normals, out_positions, out_normals);
}

}  // namespace rig
