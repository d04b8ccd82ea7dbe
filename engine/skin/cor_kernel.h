// Centre-of-rotation skinning (Le & Hodgins 2016): the CPU kernel and palette writer, ready for
// a row of the skinning-method table (skin/skinning_method.h):
//
//   {SkinningMethod::..., "cor", "CoR", "optimized centres of rotation", kCorPaletteRows,
//    write_cor_palette, skin_cor_kernel, /*uses_rotation_centers=*/true, "skin_cor.glsl"}
//
// Per vertex, over the SkinMesh influences (weights renormalized by their sum, zero weights and
// joints past the palette skipped), with each joint's skinning matrix split as in DQS,
// M_j = [R_j|t_j]·[S_j|0], q_j the quaternion of R_j:
//   pivot   the joint with the largest weight after summing repeated slots (the first in slot
//           order among equals); q_j is flipped when q_j·q_pivot < 0
//   R       rot(q / ‖q‖), q = Σ w_j q_j
//   S̄       Σ w_j S_j;  L = Σ w_j M_j (the LBS matrix)
//   v′      R·S̄·(v − p*) + L·p*        (v: bind position after morph targets)
//   n′      normalize(R · cofactor(S̄) · n)
// p* is SkinMesh::rotation_centers[v] (skin/rotation_centers.h); a mesh without centres uses
// p* = v (LBS positions). With rigid joints this is v′ = R(v − p*) + L·p*.
#pragma once

#include "skin/skinning_method.h"

namespace rig {

// Palette: the DQS palette (5 rows per joint: rigid real quat xyzw, rigid dual quat xyzw,
// stretch S columns 0..2), which holds R_j, t_j and S_j, hence M_j.
inline constexpr uint32_t kCorPaletteRows = 5;
void write_cor_palette(std::span<const glm::mat4> skinning_matrices, std::span<glm::vec4> rows);
void skin_cor_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                     std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                     std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
