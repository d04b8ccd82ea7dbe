// The readable whole-mesh skinning loops: one vertex at a time, straight from the formulas
// (weights renormalized, the blended matrix or dual quaternion built, then applied). They are
// the oracle the batch kernels (skin/simd_skin.h) are tested against, and what those kernels
// fall back to for influence counts they do not specialize. Same contract as SkinKernel
// (skin/skinning_method.h); empty normals/out_normals: positions only.
#pragma once

#include "skin/skinning_method.h"

namespace rig {

void skin_linear_reference(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                           std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                           std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);
void skin_dual_quat_reference(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                              std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> normals,
                              std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
