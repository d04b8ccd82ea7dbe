// Linear blend skinning: p' = Σ w_i M_i p, n' = normalize(cofactor(Σ w_i M_i) n).
#include "skin/simd_skin.h"
#include "skin/skin_kernels.h"
#include "skin/skin_math.h"
#include "skin/skin_reference.h"

namespace rig {

void write_linear_palette(std::span<const glm::mat4> matrices, std::span<glm::vec4> rows) {
  for (size_t j = 0; j < matrices.size(); ++j)
    for (int c = 0; c < 4; ++c) rows[j * kLinearPaletteRows + size_t(c)] = matrices[j][c];
}

void skin_linear_reference(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                           std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                           std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  using namespace skin_math;
  const uint32_t k = mesh.influences;
  const size_t joint_count = palette.size() / kLinearPaletteRows;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const uint16_t* joints = &mesh.joints[size_t(v) * k];
    const float* weights = &mesh.weights[size_t(v) * k];
    const glm::vec3 p = positions[v];
    const glm::vec3 nrm = with_normals ? normals[v] : glm::vec3(0.0f);
    const float sum = weight_sum(weights, k);
    if (!(sum > 0.0f)) {  // no influence at all: the vertex stays where the file put it
      out_positions[v] = p;
      if (with_normals) out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    const float inv = 1.0f / sum;
    glm::mat4 m(0.0f);
    for (uint32_t i = 0; i < k; ++i) {
      const float w = weights[i] * inv;
      if (w == 0.0f || joints[i] >= joint_count) continue;
      const glm::vec4* r = &palette[size_t(joints[i]) * kLinearPaletteRows];
      m += glm::mat4(r[0], r[1], r[2], r[3]) * w;
    }
    out_positions[v] = glm::vec3(m * glm::vec4(p, 1.0f));
    if (with_normals) out_normals[v] = safe_normalize(transform_normal(glm::mat3(m), nrm), nrm);
  }
}

void skin_linear_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                        std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                        std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  simd_skin::skin_linear(simd_skin::best_level(), mesh, palette, positions, normals, out_positions,
                         out_normals);
}

void skin_linear_positions_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                                  std::span<const glm::vec3> positions,
                                  std::span<glm::vec3> out_positions) {
  simd_skin::skin_linear(simd_skin::best_level(), mesh, palette, positions, {}, out_positions, {});
}

}  // namespace rig
