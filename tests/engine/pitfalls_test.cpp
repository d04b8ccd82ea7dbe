#include "skin/pitfalls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "skin/skin_kernels.h"
#include "skin/skin_reference.h"

namespace {

constexpr float kPi = 3.14159265358979f;

TEST(Pitfalls, NamesRoundTripAndUnknownIsRejected) {
  for (int i = 0; i < rig::kPitfallCount; ++i) {
    const auto p = rig::Pitfall(i);
    EXPECT_EQ(rig::pitfall_from_name(rig::pitfall_name(p)), p);
  }
  EXPECT_EQ(rig::pitfall_name(rig::Pitfall::NoHemisphere), "no-hemisphere");
  EXPECT_FALSE(rig::pitfall_from_name("lerp-quaternion").has_value());
  rig::Pitfalls set;
  set.set(rig::Pitfall::RawWeights);
  EXPECT_TRUE(set.has(rig::Pitfall::RawWeights));
  EXPECT_FALSE(set.has(rig::Pitfall::FourInfluences));
}

// Keys: identity and 180° about Z. At t = 0.5 the lerp is (w, z) = (0.5, 0.5), |q|² = 0.5.
// The unit formula sends X to (1 - 2z², 2wz, 0) = (0.5, 0.5, 0): length √0.5 (= |q|, the
// in-plane scale 1 - 2z² and 2wz give here), at 45°, while Z keeps length 1 (1 - 2(x²+y²) = 1).
TEST(Pitfalls, LerpedHalfTurnAtHalfTimeShrinksByTheFormula) {
  const glm::quat q0(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::quat q1(0.0f, 0.0f, 0.0f, 1.0f);  // w, x, y, z: 180° about Z
  const glm::quat q = rig::lerp_quat_unnormalized(q0, q1, 0.5f);
  EXPECT_FLOAT_EQ(q.w, 0.5f);
  EXPECT_FLOAT_EQ(q.z, 0.5f);
  const glm::mat3 m = rig::unit_formula_matrix(q);
  const glm::vec3 x = m * glm::vec3(1, 0, 0);
  EXPECT_NEAR(x.x, 0.5f, 1e-6f);
  EXPECT_NEAR(x.y, 0.5f, 1e-6f);
  EXPECT_NEAR(x.z, 0.0f, 1e-6f);
  EXPECT_NEAR(glm::length(x), std::sqrt(0.5f), 1e-6f);
  const glm::vec3 y = m * glm::vec3(0, 1, 0);
  EXPECT_NEAR(y.x, -0.5f, 1e-6f);
  EXPECT_NEAR(y.y, 0.5f, 1e-6f);
  const glm::vec3 z = m * glm::vec3(0, 0, 1);
  EXPECT_NEAR(glm::length(z), 1.0f, 1e-6f);
}

TEST(Pitfalls, UnitFormulaOnAUnitQuaternionIsTheRotation) {
  // 90° about X: Y goes to Z.
  const glm::quat q(std::cos(kPi / 4), std::sin(kPi / 4), 0.0f, 0.0f);
  const glm::vec3 v = rig::unit_formula_matrix(q) * glm::vec3(0, 1, 0);
  EXPECT_NEAR(v.x, 0.0f, 1e-6f);
  EXPECT_NEAR(v.y, 0.0f, 1e-6f);
  EXPECT_NEAR(v.z, 1.0f, 1e-6f);
}

// Identity and 90° about Z, averaged half and half: X goes to (0.5, 0.5, 0), length cos 45°.
TEST(Pitfalls, AveragingMatricesOfANinetyDegreePairShrinksToCos45) {
  const glm::mat4 a(1.0f);
  glm::mat4 b(1.0f);
  b[0] = glm::vec4(0, 1, 0, 0);   // X -> Y
  b[1] = glm::vec4(-1, 0, 0, 0);  // Y -> -X
  const glm::mat4 m = rig::average_matrices(a, b, 0.5f);
  const glm::vec4 v = m * glm::vec4(1, 0, 0, 0);
  EXPECT_NEAR(glm::length(glm::vec3(v)), std::cos(kPi / 4), 1e-6f);
  EXPECT_NEAR(v.x, 0.5f, 1e-6f);
  EXPECT_NEAR(v.y, 0.5f, 1e-6f);
}

// Joint A: identity. Joint B: +10° about Z, stored as its antipode -q (the same motion).
// Weights 0.6 / 0.4. Aligned, the blend turns X by +2·atan2(0.4 sin5°, 0.6 + 0.4 cos5°) ≈ +4°;
// unaligned, the real part is 0.6·1 - 0.4·q, which turns the other way, by
// -2·atan2(0.4 sin5°, 0.6 - 0.4 cos5°) ≈ -19.6°.
TEST(Pitfalls, WithoutHemisphereAlignmentAnAntipodalPairFlips) {
  const float h = 5.0f * kPi / 180.0f;
  rig::DualQuat a, b;
  b.real = glm::quat(-std::cos(h), 0.0f, 0.0f, -std::sin(h));
  const std::vector<rig::DualQuat> dqs = {a, b};
  const std::vector<float> w = {0.6f, 0.4f};
  const float right = 2.0f * std::atan2(0.4f * std::sin(h), 0.6f + 0.4f * std::cos(h));
  const float wrong = -2.0f * std::atan2(0.4f * std::sin(h), 0.6f - 0.4f * std::cos(h));
  const glm::vec3 pa =
      rig::dual_quat_transform_point(rig::blend_dual_quats(dqs, w, 0, true), glm::vec3(1, 0, 0));
  const glm::vec3 pu =
      rig::dual_quat_transform_point(rig::blend_dual_quats(dqs, w, 0, false), glm::vec3(1, 0, 0));
  EXPECT_NEAR(std::atan2(pa.y, pa.x), right, 1e-5f);
  EXPECT_NEAR(std::atan2(pu.y, pu.x), wrong, 1e-5f);
  EXPECT_GT(pa.y, 0.0f);
  EXPECT_LT(pu.y, 0.0f);
}

// Raw weights 0.7 and 0.5 on two joints sharing one skinning matrix M: the point lands at
// 1.2 · M p, i.e. M p scaled by 1.2 about the world origin; normalized, at M p.
TEST(Pitfalls, RawWeightsSharingOneMatrixScaleByTheirSumAboutTheOrigin) {
  glm::mat4 m(1.0f);
  m[0] = glm::vec4(0, 1, 0, 0);
  m[1] = glm::vec4(-1, 0, 0, 0);
  m[3] = glm::vec4(2, 3, 4, 1);
  const std::vector<glm::mat4> mats = {m, m};
  const std::vector<float> w = {0.7f, 0.5f};
  const glm::vec3 p(1, 2, 3);
  const glm::vec3 mp(2 - 2, 3 + 1, 4 + 3);  // M p by hand: (-y + 2, x + 3, z + 4)
  const glm::vec3 raw = rig::linear_blend_point(mats, w, p, false);
  const glm::vec3 right = rig::linear_blend_point(mats, w, p, true);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(raw[i], 1.2f * mp[i], 1e-5f) << i;
    EXPECT_NEAR(right[i], mp[i], 1e-5f) << i;
  }
}

// Six weights; the four largest are 0.3, 0.25, 0.2 and the first 0.1 (ties: lower index), sum
// 0.85, each divided by it.
TEST(Pitfalls, FourInfluenceTruncationMatchesAHandWorkedVertex) {
  std::vector<float> w = {0.1f, 0.3f, 0.05f, 0.25f, 0.2f, 0.1f};
  rig::keep_largest_weights(w, 4);
  const std::vector<float> expect = {0.1f / 0.85f,  0.3f / 0.85f, 0.0f,
                                     0.25f / 0.85f, 0.2f / 0.85f, 0.0f};
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], expect[i], 1e-6f) << i;
}

}  // namespace

namespace {

// One LINEAR rotation channel on node 0 with keys identity (t = 0) and 180° about Z (t = 2),
// and a STEP channel on node 1 with the same keys.
rig::Clip half_turn_clip() {
  rig::Clip clip;
  for (const auto mode : {rig::Interpolation::Linear, rig::Interpolation::Step}) {
    rig::Channel c;
    c.node = mode == rig::Interpolation::Linear ? 0 : 1;
    c.path = rig::TargetPath::Rotation;
    c.interpolation = mode;
    c.components = 4;
    c.times = {0.0f, 2.0f};
    c.values = {0, 0, 0, 1, 0, 0, 1, 0};  // x, y, z, w
    clip.channels.push_back(c);
  }
  clip.end = 2.0f;
  return clip;
}

// At t = 0.5 s (a quarter of the segment) the lerp is (w, z) = (0.75, 0.25), unnormalized;
// the STEP channel and times on the ends are left as sampled.
TEST(Pitfalls, LerpRotationKeysWritesTheUnnormalizedMeanOfLinearKeys) {
  const rig::Clip clip = half_turn_clip();
  std::vector<rig::Transform> local(2);
  local[1].rotation = glm::quat(0.0f, 1.0f, 0.0f, 0.0f);  // a marker the STEP channel keeps
  rig::lerp_rotation_keys(clip, 0.5f, local);
  EXPECT_FLOAT_EQ(local[0].rotation.w, 0.75f);
  EXPECT_FLOAT_EQ(local[0].rotation.z, 0.25f);
  EXPECT_FLOAT_EQ(local[0].rotation.x, 0.0f);
  EXPECT_FLOAT_EQ(local[1].rotation.x, 1.0f);
  for (const float end : {0.0f, 2.0f, 3.0f}) {
    std::vector<rig::Transform> at_end(2);
    at_end[0].rotation = glm::quat(0.0f, 0.0f, 1.0f, 0.0f);
    rig::lerp_rotation_keys(clip, end, at_end);
    EXPECT_FLOAT_EQ(at_end[0].rotation.y, 1.0f) << end;
  }
}

// Two joints whose rotations are both near the identity (one hemisphere): without a flip to
// make, the unaligned DQS is the reference DQS, vertex for vertex.
TEST(Pitfalls, UnalignedDqsMatchesTheReferenceWhenNothingFlips) {
  rig::SkinMesh mesh;
  mesh.influences = 4;
  mesh.vertex_count = 3;
  mesh.joints = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
  mesh.weights = {0.5f, 0.5f, 0, 0, 0.2f, 0.8f, 0, 0, 1, 0, 0, 0};
  const std::vector<glm::mat4> skinning = {
      glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) *
          glm::mat4_cast(glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 1, 0)))),
      glm::mat4_cast(glm::angleAxis(-0.5f, glm::vec3(0, 0, 1)))};
  std::vector<glm::vec4> palette(skinning.size() * rig::kDualQuatPaletteRows);
  rig::write_dual_quat_palette(skinning, palette);
  const std::vector<glm::vec3> p = {{1, 0, 0}, {0, 1, 0}, {0.3f, 0.2f, 1}};
  const std::vector<glm::vec3> n = {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}};
  std::vector<glm::vec3> ref_p(3), ref_n(3), got_p(3), got_n(3);
  rig::skin_dual_quat_reference(mesh, palette, p, n, ref_p, ref_n);
  rig::skin_dual_quat_unaligned(mesh, palette, p, n, got_p, got_n);
  for (size_t v = 0; v < 3; ++v)
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(got_p[v][c], ref_p[v][c], 1e-6f) << v;
      EXPECT_NEAR(got_n[v][c], ref_n[v][c], 1e-6f) << v;
    }
}

}  // namespace
