// Per-joint LBS/DQS mix (DQS only where it helps, e.g. on the arms and wrists where LBS's twist
// loss is worst, LBS where DQS would bulge): the CPU kernel and palette writers of the table row
// "mix" (skin/skinning_method.h).
//
// Each joint j carries a DQS amount m_j in [0, 1]. Per vertex, over the SkinMesh influences
// (weights renormalized by their sum, zero weights and joints past the palette skipped):
//   β   = clamp(Σ_i w_i · m_{j_i}, 0, 1)   (computed as Σ raw w·m / Σ raw w: exactly 1 when
//                                         every m is 1; a joint past the palette adds no m)
//   v′  = (1 − β) · v_LBS + β · v_DQS
//   n′  = normalize((1 − β) · n_LBS + β · n_DQS)
// where v_LBS, n_LBS and v_DQS, n_DQS are what the "lbs" and "dqs" rows give that vertex (a
// vertex one of them cannot place counts as its bind position there). β = 0 gives the LBS
// result and β = 1 the DQS result exactly (no blend is computed then), so a mix whose
// amounts are all 0 is LBS and one whose amounts are all 1 is DQS.
#pragma once

#include "skin/skinning_method.h"

namespace rig {

// Palette: 10 rows per joint: the LBS rows (4: the skinning matrix's columns), the DQS rows (5:
// rigid real quat xyzw, rigid dual quat xyzw, stretch S columns 0..2), then (m_j, 0, 0, 0).
inline constexpr uint32_t kMixLinearRow = 0;
inline constexpr uint32_t kMixDualQuatRow = 4;
inline constexpr uint32_t kMixAmountRow = 9;
inline constexpr uint32_t kMixPaletteRows = 10;

// Writes the LBS and DQS rows from the skinning matrices, and m_j = 0 (pure LBS) everywhere.
void write_mix_palette(std::span<const glm::mat4> skinning_matrices, std::span<glm::vec4> rows);
// Writes m_j (clamped to [0, 1]; NaN counts as 0) into a palette write_mix_palette wrote, one
// amount per joint; joints past `amounts` keep theirs.
void write_mix_amounts(std::span<const float> amounts, std::span<glm::vec4> rows);
void skin_mix_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                     std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                     std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
