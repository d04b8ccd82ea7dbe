// The positions-only kernels of the methods that have one (the table's optional
// SkinningMethodInfo::skin_positions): the same positions as the row's full kernel, no normals.
#pragma once

#include "skin/skinning_method.h"

namespace rig {

void skin_linear_positions_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                                  std::span<const glm::vec3> positions,
                                  std::span<glm::vec3> out_positions);
void skin_dual_quat_positions_kernel(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                                     std::span<const glm::vec3> positions,
                                     std::span<glm::vec3> out_positions);

}  // namespace rig
