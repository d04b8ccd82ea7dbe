// Dual-quaternion skinning (Kavan et al. 2007) with the non-rigid split: the stretches S_i are
// blended linearly and applied first, then the normalized, hemisphere-aligned blend of the rigid
// dual quaternions.
#include "skin/dual_quat.h"
#include "skin/simd_skin.h"
#include "skin/skin_kernels.h"
#include "skin/skin_math.h"
#include "skin/skin_reference.h"

namespace rig {

namespace {

// Palette rows hold quaternions as (x, y, z, w); glm::quat's constructor takes w first.
glm::quat row_quat(glm::vec4 r) { return glm::quat(r.w, r.x, r.y, r.z); }

}  // namespace

void write_dual_quat_palette(std::span<const glm::mat4> matrices, std::span<glm::vec4> rows) {
  for (size_t j = 0; j < matrices.size(); ++j) {
    const JointDualQuat q = joint_dual_quat_from_matrix(matrices[j]);
    glm::vec4* row = &rows[j * kDualQuatPaletteRows];
    row[0] = glm::vec4(q.rigid.real.x, q.rigid.real.y, q.rigid.real.z, q.rigid.real.w);
    row[1] = glm::vec4(q.rigid.dual.x, q.rigid.dual.y, q.rigid.dual.z, q.rigid.dual.w);
    for (int c = 0; c < 3; ++c) row[2 + c] = glm::vec4(q.stretch[c], 0.0f);
  }
}

void skin_dual_quat_reference(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                              std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> normals,
                              std::span<glm::vec3> out_positions,
                              std::span<glm::vec3> out_normals) {
  using namespace skin_math;
  const uint32_t k = mesh.influences;
  const size_t joint_count = palette.size() / kDualQuatPaletteRows;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const uint16_t* joints = &mesh.joints[size_t(v) * k];
    const float* weights = &mesh.weights[size_t(v) * k];
    const glm::vec3 p = positions[v];
    const glm::vec3 nrm = with_normals ? normals[v] : glm::vec3(0.0f);
    const float sum = weight_sum(weights, k);
    const uint32_t ref = pivot_influence(weights, k);
    bool ok = sum > 0.0f && joints[ref] < joint_count;
    glm::quat real(0.0f, 0.0f, 0.0f, 0.0f), dual(0.0f, 0.0f, 0.0f, 0.0f);
    glm::mat3 stretch(0.0f);
    if (ok) {
      const glm::quat pivot = row_quat(palette[size_t(joints[ref]) * kDualQuatPaletteRows]);
      const float inv = 1.0f / sum;
      for (uint32_t i = 0; i < k; ++i) {
        const float w = weights[i] * inv;
        if (w == 0.0f || joints[i] >= joint_count) continue;
        const glm::vec4* r = &palette[size_t(joints[i]) * kDualQuatPaletteRows];
        const glm::quat jr = row_quat(r[0]);
        // Hemisphere alignment: q and -q are the same motion, but the blend is not sign-invariant.
        const float sw = glm::dot(jr, pivot) < 0.0f ? -w : w;
        real += jr * sw;
        dual += row_quat(r[1]) * sw;
        stretch += glm::mat3(glm::vec3(r[2]), glm::vec3(r[3]), glm::vec3(r[4])) * w;
      }
      ok = glm::length(real) > 0.0f;
    }
    if (!ok) {
      out_positions[v] = p;
      if (with_normals) out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    const float len = glm::length(real);
    DualQuat dq;
    dq.real = real / len;
    dq.dual = dual / len;
    out_positions[v] = dual_quat_transform_point(dq, stretch * p);
    // Normals: inverse transpose of the blended stretch, then the blended rotation.
    if (with_normals)
      out_normals[v] = safe_normalize(dq.real * transform_normal(stretch, nrm), nrm);
  }
}

void skin_dual_quat_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                           std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                           std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  simd_skin::skin_dual_quat(simd_skin::best_level(), mesh, palette, positions, normals,
                            out_positions, out_normals);
}

void skin_dual_quat_positions_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                                     std::span<const glm::vec3> positions,
                                     std::span<glm::vec3> out_positions) {
  simd_skin::skin_dual_quat(simd_skin::best_level(), mesh, palette, positions, {}, out_positions,
                            {});
}

}  // namespace rig
