// The per-joint LBS/DQS mix (skin/mix_kernel.h): all amounts 0 is LBS and all 1 is DQS, bit
// for bit; a two-joint vertex worked out by hand (β = 0.5); β over unnormalized weights against
// the single-vertex references; the palette layout; and Character::set_dqs_amounts mapping
// nodes to skin joints.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <type_traits>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/cpu_skinning.h"
#include "skin/dual_quat.h"
#include "skin/mix_kernel.h"
#include "skin/skin_kernels.h"
#include "skin/skin_mesh.h"
#include "skin/skin_reference.h"

namespace rig {
namespace {

// What a row of the skinning-method table needs.
static_assert(std::is_same_v<decltype(&skin_mix_kernel), SkinKernel>);
static_assert(std::is_same_v<decltype(&write_mix_palette), PaletteWriter>);
static_assert(std::is_same_v<decltype(&write_mix_amounts), PaletteAmountsWriter>);

struct Skinned {
  std::vector<glm::vec3> p, n;
};

Skinned run_mix(const SkinMesh& mesh, const std::vector<glm::mat4>& matrices,
                const std::vector<float>& amounts, const std::vector<glm::vec3>& positions,
                const std::vector<glm::vec3>& normals) {
  std::vector<glm::vec4> rows(matrices.size() * kMixPaletteRows);
  write_mix_palette(matrices, rows);
  write_mix_amounts(amounts, rows);
  Skinned s{std::vector<glm::vec3>(positions.size()), std::vector<glm::vec3>(positions.size())};
  skin_mix_kernel(mesh, rows, positions, normals, s.p, s.n);
  return s;
}

Skinned run_reference(bool dual_quat, const SkinMesh& mesh, const std::vector<glm::mat4>& matrices,
                      const std::vector<glm::vec3>& positions,
                      const std::vector<glm::vec3>& normals) {
  const uint32_t rows_per_joint = dual_quat ? kDualQuatPaletteRows : kLinearPaletteRows;
  std::vector<glm::vec4> rows(matrices.size() * rows_per_joint);
  (dual_quat ? write_dual_quat_palette : write_linear_palette)(matrices, rows);
  Skinned s{std::vector<glm::vec3>(positions.size()), std::vector<glm::vec3>(positions.size())};
  (dual_quat ? skin_dual_quat_reference : skin_linear_reference)(mesh, rows, positions, normals,
                                                                 s.p, s.n);
  return s;
}

// Random joints (one scaled: DQS's polar split), 4 random influences per vertex, some zero,
// some past the palette, one vertex without weights.
struct RandomMesh {
  std::vector<glm::mat4> matrices;
  SkinMesh mesh;
  std::vector<glm::vec3> positions, normals;
};
RandomMesh random_mesh() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  RandomMesh r;
  for (int j = 0; j < 6; ++j) {
    glm::mat4 m =
        glm::translate(glm::mat4(1.0f), {u(rng), u(rng), u(rng)}) *
        glm::mat4_cast(glm::angleAxis(3.0f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), 1))));
    if (j == 5) m = glm::scale(m, {1.5f, 0.5f, 1.0f});
    r.matrices.push_back(m);
  }
  const uint32_t n = 300;
  r.mesh.influences = 4;
  r.mesh.vertex_count = n;
  for (uint32_t v = 0; v < n; ++v) {
    r.positions.push_back({u(rng), u(rng), u(rng)});
    r.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), 2.0f)));
    for (uint32_t i = 0; i < 4; ++i) {
      // Joint 6 is past the palette (skipped); vertex 0 has no weight at all.
      r.mesh.joints.push_back(static_cast<uint16_t>(v % 50 == 1 && i == 2 ? 6 : (v + i * 2) % 6));
      r.mesh.weights.push_back(v == 0 ? 0.0f : (i == 3 && v % 3 == 0 ? 0.0f : std::abs(u(rng))));
    }
  }
  return r;
}

TEST(MixSkinning, AllAmountsZeroIsLbsAndAllOneIsDqsExactly) {
  const RandomMesh r = random_mesh();
  const Skinned lbs = run_reference(false, r.mesh, r.matrices, r.positions, r.normals);
  const Skinned dqs = run_reference(true, r.mesh, r.matrices, r.positions, r.normals);
  const Skinned zero =
      run_mix(r.mesh, r.matrices, std::vector<float>(6, 0.0f), r.positions, r.normals);
  const Skinned one =
      run_mix(r.mesh, r.matrices, std::vector<float>(6, 1.0f), r.positions, r.normals);
  size_t apart = 0;  // vertices where LBS and DQS differ: the test means something
  for (size_t v = 0; v < r.positions.size(); ++v) {
    EXPECT_EQ(zero.p[v], lbs.p[v]) << v;
    EXPECT_EQ(zero.n[v], lbs.n[v]) << v;
    // A weight on a joint past the palette brings no amount: β = 1 − that weight there.
    if (v % 50 == 1) continue;
    EXPECT_EQ(one.p[v], dqs.p[v]) << v;
    EXPECT_EQ(one.n[v], dqs.n[v]) << v;
    apart += glm::length(lbs.p[v] - dqs.p[v]) > 1e-3f;
  }
  EXPECT_GT(apart, 200u);
  EXPECT_EQ(zero.p[0], r.positions[0]);  // no weight: stays put
}

// Joint 0 the identity, joint 1 a 90° turn about +Z then 2 along +Z (a screw along Z); the
// vertex (1, 0, 0) with normal (1, 0, 0) weighted 50/50; m = (0, 1) gives β = 0.5.
//   LBS: 0.5·(1,0,0) + 0.5·(0,1,2) = (0.5, 0.5, 1)
//   DQS: half of the screw: 45° about Z and 1 along Z: (cos 45°, sin 45°, 1)
//   mix: 0.5·LBS + 0.5·DQS = (0.5 + cos 45°) / 2 in x and y, 1 in z.
// Normals: the LBS 3×3 is 0.5·(I + R90) = (1/√2)·R45 in the XY plane, whose inverse transpose
// is a 45° turn too; DQS turns by 45°: both (cos 45°, sin 45°, 0), and so the mix.
TEST(MixSkinning, TwoJointsHalfAndHalfWorkedByHand) {
  const double c45 = std::sqrt(0.5);
  const std::vector<glm::mat4> matrices = {
      glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, 2.0f}) *
                           glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), {0.0f, 0.0f, 1.0f})};
  SkinMesh mesh;
  mesh.influences = 4;
  mesh.vertex_count = 1;
  mesh.joints = {0, 1, 0, 0};
  mesh.weights = {0.5f, 0.5f, 0.0f, 0.0f};
  const std::vector<glm::vec3> p = {{1.0f, 0.0f, 0.0f}}, n = {{1.0f, 0.0f, 0.0f}};
  const Skinned mix = run_mix(mesh, matrices, {0.0f, 1.0f}, p, n);
  const double want_xy = (0.5 + c45) / 2.0;  // 0.6035534
  EXPECT_NEAR(mix.p[0].x, want_xy, 1e-6);
  EXPECT_NEAR(mix.p[0].y, want_xy, 1e-6);
  EXPECT_NEAR(mix.p[0].z, 1.0, 1e-6);
  EXPECT_NEAR(mix.n[0].x, c45, 1e-6);
  EXPECT_NEAR(mix.n[0].y, c45, 1e-6);
  EXPECT_NEAR(mix.n[0].z, 0.0, 1e-6);
  // The same amounts the other way round: β is still 0.5 (the weights are equal).
  const Skinned swapped = run_mix(mesh, matrices, {1.0f, 0.0f}, p, n);
  EXPECT_NEAR(glm::length(swapped.p[0] - mix.p[0]), 0.0f, 1e-6f);
  // m = 0.5 on both joints: β = 0.5·0.5 + 0.5·0.5 = 0.5 as well.
  const Skinned halves = run_mix(mesh, matrices, {0.5f, 0.5f}, p, n);
  EXPECT_NEAR(glm::length(halves.p[0] - mix.p[0]), 0.0f, 1e-6f);
}

// β = Σ w_i m_j over the renormalized weights: weights (1, 3) and m = (1, 0) give β = 0.25,
// checked against the single-vertex LBS and DQS references (cpu_skinning.h) blended by hand.
// Amounts outside [0, 1] are clamped: m = 7 is 1, m = −2 is 0.
TEST(MixSkinning, BetaIsTheRenormalizedWeightOfTheDqsJoints) {
  const std::vector<glm::mat4> matrices = {
      glm::rotate(glm::mat4(1.0f), 0.4f, glm::normalize(glm::vec3(1.0f, 0.2f, 0.0f))),
      glm::translate(glm::mat4(1.0f), {0.3f, 1.0f, 0.0f}) *
          glm::rotate(glm::mat4(1.0f), 2.5f, glm::normalize(glm::vec3(0.1f, 1.0f, 0.3f)))};
  std::vector<JointDualQuat> dqs(2);
  compute_joint_dual_quats(matrices, dqs);
  SkinMesh mesh;
  mesh.influences = 4;
  mesh.vertex_count = 1;
  mesh.joints = {0, 1, 0, 0};
  mesh.weights = {1.0f, 3.0f, 0.0f, 0.0f};
  const glm::vec3 point(0.4f, -0.2f, 0.7f);
  const std::vector<glm::vec3> p = {point}, n = {{0.0f, 1.0f, 0.0f}};
  const glm::vec3 lbs =
      skin_point_linear(matrices, mesh.joints.data(), mesh.weights.data(), 4, point);
  const glm::vec3 dq = skin_point_dual_quat(dqs, mesh.joints.data(), mesh.weights.data(), 4, point);
  ASSERT_GT(glm::length(lbs - dq), 0.05f);  // far enough apart to see β
  const glm::vec3 want = 0.75f * lbs + 0.25f * dq;
  const Skinned mix = run_mix(mesh, matrices, {1.0f, 0.0f}, p, n);
  EXPECT_NEAR(glm::length(mix.p[0] - want), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::length(mix.n[0]), 1.0f, 1e-6f);
  const Skinned clamped = run_mix(mesh, matrices, {7.0f, -2.0f}, p, n);
  EXPECT_NEAR(glm::length(clamped.p[0] - want), 0.0f, 1e-5f);
}

TEST(MixSkinning, PaletteHoldsTheLbsAndDqsRowsThenTheAmount) {
  const std::vector<glm::mat4> matrices = {
      glm::translate(glm::mat4(1.0f), {1.0f, 2.0f, 3.0f}),
      glm::rotate(glm::mat4(1.0f), 1.0f, glm::vec3(0.0f, 1.0f, 0.0f))};
  std::vector<glm::vec4> mix(2 * kMixPaletteRows), lbs(2 * kLinearPaletteRows),
      dqs(2 * kDualQuatPaletteRows);
  write_mix_palette(matrices, mix);
  write_linear_palette(matrices, lbs);
  write_dual_quat_palette(matrices, dqs);
  for (size_t j = 0; j < 2; ++j) {
    for (size_t r = 0; r < kLinearPaletteRows; ++r)
      EXPECT_EQ(mix[j * kMixPaletteRows + kMixLinearRow + r], lbs[j * kLinearPaletteRows + r]);
    for (size_t r = 0; r < kDualQuatPaletteRows; ++r)
      EXPECT_EQ(mix[j * kMixPaletteRows + kMixDualQuatRow + r], dqs[j * kDualQuatPaletteRows + r]);
    EXPECT_EQ(mix[j * kMixPaletteRows + kMixAmountRow], glm::vec4(0.0f));
  }
  // The translation sits in the LBS rows' last column: (1, 2, 3, 1) at row 3.
  EXPECT_EQ(mix[kMixLinearRow + 3], glm::vec4(1.0f, 2.0f, 3.0f, 1.0f));
  write_mix_amounts(std::vector<float>{0.25f, std::nanf("")}, mix);
  EXPECT_EQ(mix[kMixAmountRow], glm::vec4(0.25f, 0.0f, 0.0f, 0.0f));
  EXPECT_EQ(mix[kMixPaletteRows + kMixAmountRow], glm::vec4(0.0f));  // NaN reads 0
}

// Character::set_dqs_amounts: per node in, per skin joint in the palette (the mannequin's skin
// lists its joints in node order 0..23, its mesh node 24 is no joint).
TEST(MixSkinning, CharacterMapsNodeAmountsToSkinJoints) {
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  ASSERT_EQ(model.skins.size(), 1u);
  Character character(model);
  auto amount_of_joint = [&](size_t j) {
    return character.palette(0, SkinningMethod::Mix)[j * kMixPaletteRows + kMixAmountRow].x;
  };
  const std::vector<int>& joints = model.skins[0].joints;
  for (size_t j = 0; j < joints.size(); ++j) EXPECT_EQ(amount_of_joint(j), 0.0f);  // starts LBS
  std::vector<float> per_node(model.nodes.size(), 0.0f);
  for (size_t n = 0; n < per_node.size(); ++n) per_node[n] = float(n % 5) * 0.3f;  // 1.2 → 1
  character.set_dqs_amounts(per_node);
  for (size_t j = 0; j < joints.size(); ++j)
    EXPECT_FLOAT_EQ(amount_of_joint(j), std::min(1.0f, float(size_t(joints[j]) % 5) * 0.3f)) << j;
  EXPECT_FLOAT_EQ(character.dqs_amounts()[4], 1.0f);
  // A wrong-sized span clears every amount.
  character.set_dqs_amounts(std::vector<float>(3, 1.0f));
  for (size_t j = 0; j < joints.size(); ++j) EXPECT_EQ(amount_of_joint(j), 0.0f);
}

}  // namespace
}  // namespace rig
