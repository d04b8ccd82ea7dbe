// The CPU kernels and palette writers of the skinning methods, one pair per method (one .cpp
// each). The table (skin/skinning_method.h) is how the rest of the engine reaches them.
#pragma once

#include "skin/skinning_method.h"

namespace rig {

// Linear blend skinning. Palette: 4 rows per joint, the columns of the skinning matrix.
inline constexpr uint32_t kLinearPaletteRows = 4;
void write_linear_palette(std::span<const glm::mat4> skinning_matrices, std::span<glm::vec4> rows);
void skin_linear_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                        std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                        std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

// Dual-quaternion skinning with the polar split M = [R|t]·[S|0]. Palette: 5 rows per joint:
// rigid real part (x, y, z, w), rigid dual part (x, y, z, w), stretch S columns 0..2 (w = 0).
inline constexpr uint32_t kDualQuatPaletteRows = 5;
void write_dual_quat_palette(std::span<const glm::mat4> skinning_matrices,
                             std::span<glm::vec4> rows);
void skin_dual_quat_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                           std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                           std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
