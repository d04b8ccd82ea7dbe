// Centre-of-rotation skinning (Le & Hodgins 2016) with the DQS polar split for scaled joints:
// the blended rotation and stretch act about the vertex's precomputed centre p*, which itself
// moves with linear blend skinning.
#include "skin/cor_kernel.h"
#include "skin/dual_quat.h"
#include "skin/skin_kernels.h"
#include "skin/skin_math.h"

namespace rig {

namespace {

glm::quat row_quat(glm::vec4 r) { return glm::quat(r.w, r.x, r.y, r.z); }

}  // namespace

void write_cor_palette(std::span<const glm::mat4> matrices, std::span<glm::vec4> rows) {
  static_assert(kCorPaletteRows == kDualQuatPaletteRows);
  write_dual_quat_palette(matrices, rows);
}

void skin_cor_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                     std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                     std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  using namespace skin_math;
  const uint32_t k = mesh.influences;
  const size_t joint_count = palette.size() / kCorPaletteRows;
  const bool has_centers = mesh.rotation_centers.size() == mesh.vertex_count;
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const uint16_t* joints = &mesh.joints[size_t(v) * k];
    const float* weights = &mesh.weights[size_t(v) * k];
    const glm::vec3 p = positions[v], nrm = normals[v];
    const float sum = weight_sum(weights, k);
    // Pivot: the largest weight after summing the slots of a repeated joint.
    int pivot = -1;
    float best = 0.0f;
    const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
    for (uint32_t i = 0; i < k && sum > 0.0f; ++i) {
      if (weights[i] * inv == 0.0f || joints[i] >= joint_count) continue;
      bool repeated = false;
      for (uint32_t e = 0; e < i && !repeated; ++e)
        repeated = joints[e] == joints[i] && weights[e] * inv != 0.0f;
      if (repeated) continue;  // counted with its first slot
      float total = 0.0f;
      for (uint32_t e = i; e < k; ++e)
        if (joints[e] == joints[i]) total += weights[e] * inv;
      if (pivot < 0 || total > best) {
        pivot = int(i);
        best = total;
      }
    }
    glm::quat q(0.0f, 0.0f, 0.0f, 0.0f);
    glm::mat3 stretch(0.0f), lbs3(0.0f);
    glm::vec3 lbs_t(0.0f);
    if (pivot >= 0) {
      const glm::quat qp = row_quat(palette[size_t(joints[pivot]) * kCorPaletteRows]);
      for (uint32_t i = 0; i < k; ++i) {
        const float w = weights[i] * inv;
        if (w == 0.0f || joints[i] >= joint_count) continue;
        const glm::vec4* r = &palette[size_t(joints[i]) * kCorPaletteRows];
        const glm::quat qj = row_quat(r[0]);
        const glm::mat3 sj{glm::vec3(r[2]), glm::vec3(r[3]), glm::vec3(r[4])};
        q += qj * (glm::dot(qj, qp) < 0.0f ? -w : w);
        stretch += sj * w;
        // M_j = [R_j S_j | t_j], rebuilt from the palette.
        DualQuat dq;
        dq.real = qj;
        dq.dual = row_quat(r[1]);
        lbs3 += (glm::mat3_cast(qj) * sj) * w;
        lbs_t += dual_quat_translation(dq) * w;
      }
    }
    const float len = glm::length(q);
    if (!(len > 0.0f)) {
      out_positions[v] = p;
      out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    const glm::quat rot = q / len;
    const glm::vec3 center = has_centers ? mesh.rotation_centers[v] : p;
    out_positions[v] = rot * (stretch * (p - center)) + (lbs3 * center + lbs_t);
    out_normals[v] = safe_normalize(rot * transform_normal(stretch, nrm), nrm);
  }
}

}  // namespace rig
