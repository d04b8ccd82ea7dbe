// CPU skinning entry points: morph targets, the single-vertex reference forms (the readable
// oracle the kernels and shaders are tested against), and a whole-primitive convenience for
// tests and offline tools. The per-method kernels themselves are rows of skin/skinning_method.h.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "model/model.h"
#include "skin/dual_quat.h"
#include "skin/skinning_method.h"

namespace rig {

// Applies the primitive's morph targets with `weights` (one per target) to its rest positions
// and normals. out_* sized vertex_count(). Normals are not renormalized here.
void apply_morph_targets(const Primitive& prim, std::span<const float> weights,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);
// The same for TANGENT: the rest tangents plus the weighted TANGENT deltas in xyz, the
// handedness w kept. out_tangents sized vertex_count(); the primitive must have tangents.
void apply_morph_tangents(const Primitive& prim, std::span<const float> weights,
                          std::span<glm::vec4> out_tangents);

// Single-vertex forms: joints/weights have `count` entries; weights are renormalized; a vertex
// whose weights sum to 0 stays at p.
glm::vec3 skin_point_linear(std::span<const glm::mat4> palette, const uint16_t* joints,
                            const float* weights, uint32_t count, glm::vec3 p);
glm::vec3 skin_point_dual_quat(std::span<const JointDualQuat> dqs, const uint16_t* joints,
                               const float* weights, uint32_t count, glm::vec3 p);

// Skins a whole primitive with `method` from its skin's skinning matrices: prepares the skin
// mesh and the palette on the way, so it allocates (tests, offline tools; the per-frame path
// is Character::skin_draw_item). Positions/normals in and out may alias.
void skin_primitive(SkinningMethod method, const Primitive& prim,
                    std::span<const glm::mat4> skinning_matrices,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
