// Per-joint LBS/DQS mix (skin/mix_kernel.h). Each vertex is skinned both ways, written out step
// by step as skin_linear_reference and skin_dual_quat_reference do (skin/skin_reference.h), so
// β = 0 and β = 1 reproduce those references bit for bit, then blended by β. A scalar loop on
// purpose: the mix is for inspecting where DQS helps, and its GLSL twin (shaders/skin_mix.glsl)
// must follow the same operations.
#include <algorithm>

#include "skin/dual_quat.h"
#include "skin/mix_kernel.h"
#include "skin/skin_kernels.h"
#include "skin/skin_math.h"

namespace rig {

namespace {

glm::quat row_quat(glm::vec4 r) { return glm::quat(r.w, r.x, r.y, r.z); }

}  // namespace

void write_mix_palette(std::span<const glm::mat4> matrices, std::span<glm::vec4> rows) {
  static_assert(kMixDualQuatRow == kMixLinearRow + kLinearPaletteRows);
  static_assert(kMixAmountRow == kMixDualQuatRow + kDualQuatPaletteRows);
  static_assert(kMixPaletteRows == kMixAmountRow + 1);
  glm::vec4 linear[kLinearPaletteRows], dual_quat[kDualQuatPaletteRows];
  for (size_t j = 0; j < matrices.size(); ++j) {
    // The "lbs" and "dqs" rows' own writers, one joint at a time: the same numbers they draw.
    write_linear_palette(matrices.subspan(j, 1), linear);
    write_dual_quat_palette(matrices.subspan(j, 1), dual_quat);
    glm::vec4* row = &rows[j * kMixPaletteRows];
    std::copy(std::begin(linear), std::end(linear), row + kMixLinearRow);
    std::copy(std::begin(dual_quat), std::end(dual_quat), row + kMixDualQuatRow);
    row[kMixAmountRow] = glm::vec4(0.0f);
  }
}

void write_mix_amounts(std::span<const float> amounts, std::span<glm::vec4> rows) {
  const size_t joints = std::min(amounts.size(), rows.size() / kMixPaletteRows);
  for (size_t j = 0; j < joints; ++j) {
    const float m = amounts[j];
    // !(m > 0) also catches NaN: a joint without a usable amount stays LBS.
    rows[j * kMixPaletteRows + kMixAmountRow] =
        glm::vec4(!(m > 0.0f) ? 0.0f : std::min(m, 1.0f), 0.0f, 0.0f, 0.0f);
  }
}

void skin_mix_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                     std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                     std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  using namespace skin_math;
  const uint32_t k = mesh.influences;
  const size_t joint_count = palette.size() / kMixPaletteRows;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const uint16_t* joints = &mesh.joints[size_t(v) * k];
    const float* weights = &mesh.weights[size_t(v) * k];
    const glm::vec3 p = positions[v];
    const glm::vec3 nrm = with_normals ? normals[v] : glm::vec3(0.0f);
    const glm::vec3 rest_n = safe_normalize(nrm, nrm);
    const float sum = weight_sum(weights, k);
    if (!(sum > 0.0f)) {  // no influence at all: the vertex stays where the file put it
      out_positions[v] = p;
      if (with_normals) out_normals[v] = rest_n;
      continue;
    }
    const float inv = 1.0f / sum;
    auto rows = [&](uint32_t i) { return &palette[size_t(joints[i]) * kMixPaletteRows]; };

    // LBS, as skin_linear_reference; and β over the same influences. β is Σ w_i m_j / Σ w_i
    // rather than Σ (w_i / Σ w) m_j: the same number, but when every m is 1 the two sums add
    // the same floats in the same order, so β is exactly 1 (and the result exactly DQS).
    glm::mat4 m(0.0f);
    float weighted_amounts = 0.0f;
    for (uint32_t i = 0; i < k; ++i) {
      const float w = weights[i] * inv;
      if (w == 0.0f || joints[i] >= joint_count) continue;
      const glm::vec4* r = rows(i) + kMixLinearRow;
      m += glm::mat4(r[0], r[1], r[2], r[3]) * w;
      weighted_amounts += weights[i] * rows(i)[kMixAmountRow].x;
    }
    const float beta = std::clamp(weighted_amounts / sum, 0.0f, 1.0f);
    const glm::vec3 lbs_p = glm::vec3(m * glm::vec4(p, 1.0f));
    const glm::vec3 lbs_n =
        with_normals ? safe_normalize(transform_normal(glm::mat3(m), nrm), nrm) : glm::vec3(0.0f);
    if (beta <= 0.0f) {
      out_positions[v] = lbs_p;
      if (with_normals) out_normals[v] = lbs_n;
      continue;
    }

    // DQS, as skin_dual_quat_reference; a vertex it cannot place counts as its bind position.
    glm::vec3 dqs_p = p, dqs_n = rest_n;
    const uint32_t ref = pivot_influence(weights, k);
    if (joints[ref] < joint_count) {
      const glm::quat pivot = row_quat(rows(ref)[kMixDualQuatRow]);
      glm::quat real(0.0f, 0.0f, 0.0f, 0.0f), dual(0.0f, 0.0f, 0.0f, 0.0f);
      glm::mat3 stretch(0.0f);
      for (uint32_t i = 0; i < k; ++i) {
        const float w = weights[i] * inv;
        if (w == 0.0f || joints[i] >= joint_count) continue;
        const glm::vec4* r = rows(i) + kMixDualQuatRow;
        const glm::quat jr = row_quat(r[0]);
        const float sw = glm::dot(jr, pivot) < 0.0f ? -w : w;  // hemisphere alignment
        real += jr * sw;
        dual += row_quat(r[1]) * sw;
        stretch += glm::mat3(glm::vec3(r[2]), glm::vec3(r[3]), glm::vec3(r[4])) * w;
      }
      const float len = glm::length(real);
      if (len > 0.0f) {
        DualQuat dq;
        dq.real = real / len;
        dq.dual = dual / len;
        dqs_p = dual_quat_transform_point(dq, stretch * p);
        if (with_normals) dqs_n = safe_normalize(dq.real * transform_normal(stretch, nrm), nrm);
      }
    }
    if (beta >= 1.0f) {
      out_positions[v] = dqs_p;
      if (with_normals) out_normals[v] = dqs_n;
      continue;
    }
    const float a = 1.0f - beta;
    out_positions[v] = lbs_p * a + dqs_p * beta;
    // Opposite unit normals blended half and half have no direction: keep the LBS one.
    if (with_normals) out_normals[v] = safe_normalize(lbs_n * a + dqs_n * beta, lbs_n);
  }
}

}  // namespace rig
