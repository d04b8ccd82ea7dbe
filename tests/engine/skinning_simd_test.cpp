// The fast paths of the batch skinning kernels (skin/simd_skin.h, simd_skin_impl.h) against
// second implementations written here in double precision, straight from the formulas (the
// inverse transpose by glm::inverse, not a cofactor; the dual quaternion normalized, then
// applied as a rotation matrix): at both dispatch levels (SSE2 batches of 4, AVX2 batches of
// 8), on batches whose joints are all in the palette (the unchecked blends) and batches with
// joints past it (the checked blends), with mirrored and non-uniformly scaled joints, 4 and 8
// influences, zero-weight vertices and a padded tail.
//
// Bounds:
//   positions: within 1e-5 of the output's bounding-box diagonal (the CPU/GPU tolerance);
//   normals (unit): within 1e-4 where the LBS blend is well conditioned (cofactor columns'
//     smallest-to-largest length ratio above 1e-2; at the candy-wrapper singularity a normal's
//     direction is ill-conditioned in any precision); 1e-5 for rigid DQS (a rotation);
//   the reciprocal-square-root normalization: within 1e-6 of the exact unit vector, per
//     component, at any length from 1e-18 to 1e18.
#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <vector>

#include "skin/simd_skin.h"
#include "skin/skinning_method.h"

namespace rig {
namespace {

using simd_skin::Level;

std::vector<Level> levels() {
  std::vector<Level> l{Level::Sse2};
  if (simd_skin::supported(Level::Avx2)) l.push_back(Level::Avx2);
  return l;
}

struct Case {
  SkinMesh mesh;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::mat4> matrices;
};

enum class Joints { Rigid, Scaled, Mirrored };

// `past`: joint indices drawn up to 2 past the palette (then nearly every batch has one);
// otherwise all in range. Every 53rd vertex has only zero weights, and from slot 2 on every
// third vertex's weights are 0. n is not a multiple of 8 (the padded tail).
Case make_case(uint32_t k, Joints kind, bool past, uint32_t seed, uint32_t n = 2021) {
  Case c;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const uint32_t joints = 24;
  std::uniform_int_distribution<int> j(0, int(joints) - 1 + (past ? 2 : 0));
  c.mesh.influences = k;
  c.mesh.vertex_count = n;
  for (uint32_t v = 0; v < n; ++v) {
    c.positions.push_back({u(rng) * 2.0f, u(rng) * 2.0f, u(rng) * 2.0f});
    c.normals.push_back(glm::vec3(u(rng), u(rng), u(rng)) * (0.5f + std::abs(u(rng))));
    for (uint32_t i = 0; i < k; ++i) {
      c.mesh.joints.push_back(uint16_t(j(rng)));
      const bool zero = v % 53 == 7 || (i > 1 && v % 3 == 0);
      c.mesh.weights.push_back(zero ? 0.0f : std::abs(u(rng)));
    }
  }
  for (uint32_t b = 0; b < joints; ++b) {
    glm::mat4 m =
        glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
        glm::mat4_cast(glm::angleAxis(u(rng) * 3.1f, glm::normalize(glm::vec3(u(rng), u(rng), 1))));
    if (kind != Joints::Rigid) {
      glm::vec3 s(1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng));
      if (kind == Joints::Mirrored && b % 2 == 0) s.x = -s.x;  // det < 0
      m = m * glm::scale(glm::mat4(1), s);
    }
    c.matrices.push_back(m);
  }
  return c;
}

glm::dvec3 unit(glm::dvec3 v) {
  const double len = glm::length(v);
  return len > 0.0 ? v / len : v;
}

// LBS in double: M = Σ (w_i / Σw) M_i over the joints in the palette; n' = M⁻ᵀ n normalized.
// `conditioned`: whether the normal's direction is well defined (see the header).
void lbs_oracle(const Case& c, uint32_t v, glm::dvec3& p, glm::dvec3& n, bool& conditioned) {
  const uint32_t k = c.mesh.influences;
  double sum = 0.0;
  for (uint32_t i = 0; i < k; ++i) sum += c.mesh.weights[size_t(v) * k + i];
  const glm::dvec3 p0(c.positions[v]), n0(c.normals[v]);
  conditioned = true;
  if (!(sum > 0.0)) {
    p = p0, n = unit(n0);
    return;
  }
  glm::dmat4 m(0.0);
  bool any = false;  // a non-zero weight on a joint of the palette
  for (uint32_t i = 0; i < k; ++i) {
    const uint16_t j = c.mesh.joints[size_t(v) * k + i];
    const float w = c.mesh.weights[size_t(v) * k + i];
    if (j >= c.matrices.size()) continue;  // skipped: it adds nothing (M shrinks)
    m += glm::dmat4(c.matrices[j]) * (w / sum);
    any = any || w != 0.0f;
  }
  p = glm::dvec3(m * glm::dvec4(p0, 1.0));
  if (!any) {  // M = 0: no direction; the contract keeps the input normal as it is
    n = n0;
    return;
  }
  const glm::dmat3 m3(m);
  const double a = glm::length(glm::cross(m3[1], m3[2])), b = glm::length(glm::cross(m3[2], m3[0])),
               d = glm::length(glm::cross(m3[0], m3[1]));
  conditioned = std::min({a, b, d}) > 1e-2 * std::max({a, b, d});
  // Unconditioned: only the unit length is checked (any unit vector).
  n = conditioned ? unit(glm::transpose(glm::inverse(m3)) * n0) : glm::dvec3(1.0, 0.0, 0.0);
}

// Rigid DQS in double: each joint's unit quaternion and translation from its matrix, the
// hemisphere aligned to the largest weight's joint (the first among equals), the blend
// normalized, then applied as a rotation matrix plus translation.
void dqs_oracle(const Case& c, uint32_t v, glm::dvec3& p, glm::dvec3& n) {
  const uint32_t k = c.mesh.influences;
  const uint16_t* joints = &c.mesh.joints[size_t(v) * k];
  const float* w = &c.mesh.weights[size_t(v) * k];
  uint32_t pivot = 0;
  double sum = 0.0;
  for (uint32_t i = 0; i < k; ++i) {
    sum += w[i];
    if (w[i] > w[pivot]) pivot = i;
  }
  const glm::dvec3 p0(c.positions[v]), n0(c.normals[v]);
  p = p0, n = unit(n0);
  if (!(sum > 0.0) || joints[pivot] >= c.matrices.size()) return;
  const auto quat = [&](uint16_t j) {
    return glm::normalize(glm::quat_cast(glm::dmat3(glm::mat3(c.matrices[j]))));
  };
  const glm::dquat q_pivot = quat(joints[pivot]);
  glm::dquat real(0, 0, 0, 0), dual(0, 0, 0, 0);
  double stretch = 0.0;  // Σ w_i S_i / Σ w with S_i = I: less than 1 when joints are skipped
  for (uint32_t i = 0; i < k; ++i) {
    if (w[i] == 0.0f || joints[i] >= c.matrices.size()) continue;
    stretch += w[i] / sum;
    const glm::dquat q = quat(joints[i]);
    const glm::dvec3 t(c.matrices[joints[i]][3]);
    const glm::dquat d = glm::dquat(0.0, t.x, t.y, t.z) * q * 0.5;
    const double s = (glm::dot(q, q_pivot) < 0.0 ? -w[i] : w[i]) / sum;
    real += q * s;
    dual += d * s;
  }
  const double len = glm::length(real);
  if (!(len > 0.0)) return;
  real /= len, dual /= len;
  const glm::dquat t = dual * glm::conjugate(real) * 2.0;
  const glm::dmat3 r = glm::mat3_cast(real);
  p = r * (stretch * p0) + glm::dvec3(t.x, t.y, t.z);
  n = unit(r * n0);
}

double diagonal(std::span<const glm::vec3> p) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
  return std::max(double(glm::length(hi - lo)), 1e-6);
}

struct Worst {
  double position = 0.0, normal = 0.0, unit = 0.0;
  int conditioned = 0;
};

Worst run(SkinningMethod method, Level level, const Case& c) {
  const SkinningMethodInfo& info = method_info(method);
  std::vector<glm::vec4> palette(c.matrices.size() * info.palette_rows);
  info.write_palette(c.matrices, palette);
  const size_t n = c.positions.size();
  std::vector<glm::vec3> p(n), nn(n), po(n);
  const bool lbs = method == SkinningMethod::Linear;
  (lbs ? simd_skin::skin_linear : simd_skin::skin_dual_quat)(level, c.mesh, palette, c.positions,
                                                             c.normals, p, nn);
  (lbs ? simd_skin::skin_linear : simd_skin::skin_dual_quat)(level, c.mesh, palette, c.positions,
                                                             {}, po, {});
  const double diag = diagonal(p);
  Worst worst;
  for (uint32_t v = 0; v < n; ++v) {
    glm::dvec3 ep, en;
    bool conditioned = true;
    if (lbs)
      lbs_oracle(c, v, ep, en, conditioned);
    else
      dqs_oracle(c, v, ep, en);
    worst.position = std::max(worst.position, glm::length(glm::dvec3(p[v]) - ep) / diag);
    worst.position = std::max(worst.position, glm::length(glm::dvec3(po[v]) - ep) / diag);
    worst.unit = std::max(worst.unit, std::abs(glm::length(glm::dvec3(nn[v])) - glm::length(en)));
    if (conditioned) {
      worst.normal = std::max(worst.normal, glm::length(glm::dvec3(nn[v]) - en));
      ++worst.conditioned;
    }
  }
  return worst;
}

// 2 influences: the reference loops the kernels fall back to (SkinMesh has 4 or 8 slots).
TEST(SkinningSimd, LinearBlendMatchesTheDoubleInverseTranspose) {
  for (const Level level : levels())
    for (const uint32_t k : {2u, 4u, 8u})
      for (const Joints kind : {Joints::Rigid, Joints::Scaled, Joints::Mirrored})
        for (const bool past : {false, true}) {
          SCOPED_TRACE(testing::Message() << "level " << int(level) << " k " << k << " kind "
                                          << int(kind) << " past " << past);
          const Worst w = run(SkinningMethod::Linear, level, make_case(k, kind, past, 3 + k));
          EXPECT_LE(w.position, 1e-5);
          EXPECT_LE(w.normal, 1e-4);
          EXPECT_LE(w.unit, 1e-5);
          EXPECT_GT(w.conditioned, 1500);  // the normal check saw most vertices
        }
}

// Rigid palettes take the rigid batches (no stretch); scaled and mirrored ones the general
// batches. Both match the double-precision rigid blend on the rigid palette; on the others the
// stretch makes the oracle differ, so only the rigid case is held to it here (the general
// batches are held to the reference in skinning_speed_test.cpp).
TEST(SkinningSimd, RigidDualQuaternionsMatchTheDoubleBlend) {
  for (const Level level : levels())
    for (const uint32_t k : {2u, 4u, 8u})
      for (const bool past : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << "level " << int(level) << " k " << k << " past " << past);
        const Worst w =
            run(SkinningMethod::DualQuaternion, level, make_case(k, Joints::Rigid, past, 5 + k));
        EXPECT_LE(w.position, 1e-5);
        EXPECT_LE(w.normal, 1e-5);
        EXPECT_LE(w.unit, 1e-5);
      }
}

// The reciprocal-square-root normalization, isolated: one identity joint with weight 1 leaves
// each normal's direction exactly as it was (the cofactor of I is I; the rotation of the
// identity dual quaternion is the identity), so the kernels' normals are the normalization
// alone. Against the double-precision unit vector, over lengths from 1e-18 to 1e18 and a few
// with squared lengths below FLT_MIN (the exact fallback), and zero (kept as it is).
TEST(SkinningSimd, FastNormalizationIsWithinItsBound) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), e(-18.0f, 18.0f);
  const uint32_t n = 4099;
  Case c;
  c.mesh.influences = 4;
  c.mesh.vertex_count = n;
  c.matrices = {glm::mat4(1.0f)};
  for (uint32_t v = 0; v < n; ++v) {
    glm::vec3 d(u(rng), u(rng), u(rng));
    float scale = std::pow(10.0f, e(rng));
    if (v % 500 == 3) scale = 1e-20f;  // squared length subnormal
    if (v % 700 == 5) scale = 0.0f;
    c.normals.push_back(d * scale);
    c.positions.push_back({u(rng), u(rng), u(rng)});
    for (uint32_t i = 0; i < 4; ++i) {
      c.mesh.joints.push_back(0);
      c.mesh.weights.push_back(i == 0 ? 1.0f : 0.0f);
    }
  }
  for (const SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    const SkinningMethodInfo& info = method_info(method);
    std::vector<glm::vec4> palette(info.palette_rows);
    info.write_palette(c.matrices, palette);
    for (const Level level : levels()) {
      std::vector<glm::vec3> p(n), nn(n);
      (method == SkinningMethod::Linear ? simd_skin::skin_linear : simd_skin::skin_dual_quat)(
          level, c.mesh, palette, c.positions, c.normals, p, nn);
      double worst = 0.0, worst_tiny = 0.0;
      for (uint32_t v = 0; v < n; ++v) {
        const glm::dvec3 expected = unit(glm::dvec3(c.normals[v]));
        // A subnormal squared length has lost bits before any normalization (the float
        // reference loses them too): those vectors are only required to come out unit-ish.
        const bool tiny = glm::dot(c.normals[v], c.normals[v]) < 1.17549435e-38f;
        for (int a = 0; a < 3; ++a) {
          const double d = std::abs(double(nn[v][a]) - expected[a]);
          (tiny ? worst_tiny : worst) = std::max(tiny ? worst_tiny : worst, d);
        }
        ASSERT_EQ(p[v], c.positions[v]) << v;
      }
      EXPECT_LE(worst, 1e-6) << info.name << " level " << int(level);
      EXPECT_LE(worst_tiny, 1e-3) << info.name << " level " << int(level);
    }
  }
}

}  // namespace
}  // namespace rig
