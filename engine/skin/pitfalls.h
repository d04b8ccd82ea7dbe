// The classic skinning mistakes, each exactly defined as a pure function, so Learn mode can show
// the wrong way beside the right way and the tests can check each against closed-form maths.
// The set of mistakes to apply is plain data (Pitfalls) that pose or skin settings can carry.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <span>
#include <string_view>

#include "model/model.h"
#include "skin/dual_quat.h"
#include "skin/skin_mesh.h"

namespace rig {

enum class Pitfall : uint8_t {
  LerpQuaternions,  // rotation keys lerped component-wise, no normalization
  AverageMatrices,  // a crossfade averages world matrices instead of local poses
  NoHemisphere,     // DQS blends without flipping to the pivot's hemisphere
  RawWeights,       // the file's weights used without renormalization
  FourInfluences,   // each vertex keeps its 4 largest weights, renormalized
};

constexpr int kPitfallCount = 5;

// A set of pitfalls as a bit mask: plain data, cheap to copy into settings and compare.
struct Pitfalls {
  uint32_t bits = 0;
  bool has(Pitfall p) const { return (bits >> unsigned(p)) & 1u; }
  void set(Pitfall p, bool on = true) {
    if (on)
      bits |= 1u << unsigned(p);
    else
      bits &= ~(1u << unsigned(p));
  }
  bool any() const { return bits != 0; }
  bool operator==(const Pitfalls& o) const { return bits == o.bits; }
};

// The command-line name ("lerp-quaternions", ...) of a pitfall, and back (nullopt: unknown).
std::string_view pitfall_name(Pitfall p);
std::optional<Pitfall> pitfall_from_name(std::string_view name);

// (1 - t) q0 + t q1, component-wise, with no hemisphere flip and no normalization.
glm::quat lerp_quat_unnormalized(const glm::quat& q0, const glm::quat& q1, float t);

// The rotation matrix of a UNIT quaternion, applied as is to q whatever its length:
// [1-2(y²+z²), 2(xy-wz), 2(xz+wy); ...]. For |q| = s ≠ 1 it is no longer a rotation: along the
// axis of q it keeps length 1, across it it scales by s² (and 1 - 2(y²+z²) shears the rest).
glm::mat3 unit_formula_matrix(const glm::quat& q);

// (1 - w) a + w b, entry by entry: the "averaging finished matrices" mistake.
glm::mat4 average_matrices(const glm::mat4& a, const glm::mat4& b, float w);

// Blends the rigid parts of dual quaternions with the given weights, normalized by the real
// part's length, optionally without the hemisphere flip to dqs[pivot]. The right way
// (align = true) matches the DQS kernel's rigid blend; align = false is the pitfall.
DualQuat blend_dual_quats(std::span<const DualQuat> dqs, std::span<const float> weights,
                          size_t pivot, bool align);

// Linear blend skinning of one point: sum_i w_i M_i p, divided by sum_i w_i when `normalize`
// (the right way; a zero sum leaves p), used as is when not (the raw-weights pitfall).
glm::vec3 linear_blend_point(std::span<const glm::mat4> matrices, std::span<const float> weights,
                             glm::vec3 p, bool normalize);

// Keeps the `keep` largest weights of `weights` (ties: the lower index wins), zeroes the others
// and renormalizes the kept ones to sum 1 (all zero stays all zero). In place.
void keep_largest_weights(std::span<float> weights, size_t keep);

// The lerp-quaternions pitfall on a sampled pose: every LINEAR rotation channel of `clip`
// whose key segment holds `time` (strictly inside the keys) writes lerp_quat_unnormalized of
// its two keys into local[node].rotation; the local → world job then turns that q into a
// matrix with the unit formula, as unit_formula_matrix does. Other channels are left alone.
// No allocation.
void lerp_rotation_keys(const Clip& clip, float time, std::span<Transform> local);

// DQS of a whole primitive from its dual-quaternion palette (skin_kernels.h) exactly as
// skin_dual_quat_reference does, but blended with blend_dual_quats(…, align = false): the
// no-hemisphere pitfall. Spans as the kernels take them.
void skin_dual_quat_unaligned(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                              std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> normals,
                              std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals);

}  // namespace rig
