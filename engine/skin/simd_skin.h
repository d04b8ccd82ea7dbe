// The batch CPU skinning kernels: SSE2 on every x86-64 (batches of 4 vertices), AVX2 + FMA
// when the processor has them (batches of 8; chosen at run time; the same source compiled twice,
// see simd_skin_impl.h). The readable per-vertex loops stay in skin/skin_reference.h and the
// single-vertex forms of skin/cpu_skinning.h; tests/engine/skinning_speed_test.cpp holds these
// kernels to them, tests/engine/skinning_simd_test.cpp to double-precision second
// implementations.
//
// What they compute is what the reference kernels compute; the differences are rounding only:
//   - weights are not divided by their sum before blending: the blended matrix (LBS) or the
//     blended stretch (DQS) is scaled by 1/sum once, on the result; a normal's direction does
//     not depend on that scale (cofactor(s·M) = s²·cofactor(M), s > 0), so it is not scaled;
//   - the LBS normal's cofactor is taken with two cross products, c1×(nx c2 − nz c0) +
//     ny (c2×c0), the same vector as the reference's three;
//   - DQS applies the unnormalized blended dual quaternion with 2/|real|² in place of
//     normalizing it first (the same maps, no square root);
//   - when every joint of a DQS palette is rigid (stretch exactly I), the blended stretch
//     Σ w_i I / sum is I up to the weights' rounding and is skipped: only the dual quaternions
//     are blended (one 8-float row per influence);
//   - normals are normalized with the reciprocal square root estimate and one Newton step
//     (within 1e-6 of the exact unit vector; squared lengths below FLT_MIN take the exact form);
//   - the AVX2 path uses fused multiply-adds.
// Zero-weight influences, joints past the palette and vertices whose weights do not sum to a
// positive number behave as in the reference (skipped / kept in place, normal normalized); a
// batch whose joints are all in the palette blends its slots without checking them, so a
// zero weight multiplies its (finite) palette rows by 0 instead of skipping them.
// Influence counts other than 4 and 8 (SkinMesh never has others) use the reference loops.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>

#include "skin/skin_mesh.h"

namespace rig::simd_skin {

enum class Level : uint8_t { Sse2, Avx2 };

// Whether this processor runs `level` (Sse2: always on x86-64).
bool supported(Level level);
// The best supported level: what the method table's kernels use.
Level best_level();

// LBS over the whole mesh (palette: 4 rows per joint). Empty `normals` and `out_normals`:
// positions only. In and out may alias. No allocation.
void skin_linear(Level level, const SkinMesh& mesh, std::span<const glm::vec4> palette,
                 std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                 std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

// DQS over the whole mesh (palette: 5 rows per joint), as skin_linear.
void skin_dual_quat(Level level, const SkinMesh& mesh, std::span<const glm::vec4> palette,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig::simd_skin
