// CPU skinning: the reference the GPU shaders are tested against.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "anim/dual_quat.h"
#include "model/model.h"

namespace rig {

enum class SkinningMethod { Linear, DualQuaternion };

// Applies the primitive's morph targets with `weights` (one per target) to its rest positions
// and normals. out_* sized vertex_count(). Normals are not renormalized here.
void apply_morph_targets(const Primitive& prim, std::span<const float> weights,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

// Linear blend skinning over all influences: p' = sum w_i M_i p, n' = normalize(inverse
// transpose of sum w_i M_i applied to n). Weights renormalized; a vertex whose weights sum
// to 0 is left as it is. Positions/normals in and out may alias.
void skin_linear(const Primitive& prim, std::span<const glm::mat4> palette,
                 std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                 std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

// Dual-quaternion skinning: hemisphere-aligned to the largest-weight influence, stretch parts
// blended linearly and applied first, then the normalized blend of the rigid parts.
void skin_dual_quat(const Primitive& prim, std::span<const JointDualQuat> joints,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

// Single-vertex forms (used by the above and by tests). joints/weights have `count` entries.
glm::vec3 skin_point_linear(std::span<const glm::mat4> palette, const uint16_t* joints,
                            const float* weights, uint32_t count, glm::vec3 p);
glm::vec3 skin_point_dual_quat(std::span<const JointDualQuat> dqs, const uint16_t* joints,
                               const float* weights, uint32_t count, glm::vec3 p);

}  // namespace rig
