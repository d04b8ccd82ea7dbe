// CPU skinning: the seeds' LBS and DQS examples, the candy wrapper, and the non-rigid split.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "character/character.h"
#include "skin/cpu_skinning.h"
#include "skin/dual_quat.h"
#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;
using test::expect_vec3;
using test::kDeg;

// One vertex fully weighted to joint 0 (the other three influence slots empty).
Primitive single_vertex(glm::vec3 position, glm::vec3 normal) {
  Primitive prim;
  prim.positions = {position};
  prim.normals = {normal};
  prim.influences = 4;
  prim.joints = {0, 0, 0, 0};
  prim.weights = {1, 0, 0, 0};
  return prim;
}

std::vector<JointDualQuat> dual_quats(const std::vector<glm::mat4>& palette) {
  std::vector<JointDualQuat> out(palette.size());
  compute_joint_dual_quats(palette, out);
  return out;
}

// Seed 003: weights 0.7 / 0.5 do not sum to 1; normalized they are 0.583 / 0.417.
TEST(SeedWeights, UnnormalizedWeightsAreNormalized) {
  // Joint 0 moves the point +1 in x, joint 1 moves it +1 in y: the result shows the weights.
  std::vector<glm::mat4> palette = {glm::translate(glm::mat4(1), {1, 0, 0}),
                                    glm::translate(glm::mat4(1), {0, 1, 0})};
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.7f, 0.5f};
  glm::vec3 p = skin_point_linear(palette, j, w, 2, {0, 0, 0});
  EXPECT_NEAR(p.x, 0.5833333f, 1e-5f);
  EXPECT_NEAR(p.y, 0.4166667f, 1e-5f);
  glm::vec3 q = skin_point_dual_quat(dual_quats(palette), j, w, 2, {0, 0, 0});
  EXPECT_NEAR(q.x, 0.5833333f, 1e-5f);
  EXPECT_NEAR(q.y, 0.4166667f, 1e-5f);
  // Off the origin the blended matrix (LBS) and the blended stretch (DQS) must also be
  // normalized: pure translations keep z = 1, where unnormalized weights would give 1.2.
  expect_vec3(skin_point_linear(palette, j, w, 2, {0, 0, 1}), {0.5833333f, 0.4166667f, 1.0f});
  expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 2, {0, 0, 1}),
              {0.5833333f, 0.4166667f, 1.0f});
}

// Seed 003: Thigh says (0,-1,0.1), Shin says (0,-1,0.6); weights 0.8/0.2 → (0,-1,0.2).
TEST(SeedLbs, ThighShinOpinionsBlend) {
  const glm::vec3 bind(0, -1, 0);
  std::vector<glm::mat4> palette = {glm::translate(glm::mat4(1), glm::vec3(0, -1, 0.1f) - bind),
                                    glm::translate(glm::mat4(1), glm::vec3(0, -1, 0.6f) - bind)};
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.8f, 0.2f};
  expect_vec3(skin_point_linear(palette, j, w, 2, bind), {0, -1.0f, 0.2f});
}

// Seed 002: 50/50 between an unrotated bone and one twisted θ about the forearm (z) axis.
// LBS scales the unit-radius cross-section by cos(θ/2); DQS keeps radius 1, turned by θ/2.
class TwistTest : public ::testing::TestWithParam<float> {};

TEST_P(TwistTest, LbsCollapsesByCosHalfAngleDqsKeepsRadius) {
  const float theta = GetParam();
  std::vector<glm::mat4> palette = {glm::mat4(1.0f), glm::mat4_cast(axis_angle({0, 0, 1}, theta))};
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.5f, 0.5f};
  const glm::vec3 v(1, 0, 0);
  glm::vec3 lbs = skin_point_linear(palette, j, w, 2, v);
  glm::vec3 dqs = skin_point_dual_quat(dual_quats(palette), j, w, 2, v);
  const float half = 0.5f * theta * kDeg;
  EXPECT_NEAR(glm::length(glm::vec2(lbs)), std::cos(half), 1e-5f);
  EXPECT_NEAR(glm::length(glm::vec2(dqs)), 1.0f, 1e-5f);
  expect_vec3(dqs, {std::cos(half), std::sin(half), 0.0f});
}

INSTANTIATE_TEST_SUITE_P(Angles, TwistTest, ::testing::Values(30.0f, 90.0f, 150.0f, 179.5f));

TEST(SeedTwist, NamedValuesAt90And180) {
  for (auto [theta, lbs_radius] : {std::pair{90.0f, 0.70710678f}, std::pair{180.0f, 0.0f}}) {
    std::vector<glm::mat4> palette = {glm::mat4(1.0f),
                                      glm::mat4_cast(axis_angle({0, 0, 1}, theta))};
    const uint16_t j[2] = {0, 1};
    const float w[2] = {0.5f, 0.5f};
    EXPECT_NEAR(glm::length(skin_point_linear(palette, j, w, 2, {1, 0, 0})), lbs_radius, 1e-5f);
  }
  // DQS at exactly 180°, with the seed's quaternions q1 = 1, q2 = cos 90° + sin 90° k = k
  // (written exactly: a float cos(π/2) is -4e-8, which would pick the other hemisphere and
  // turn the other way — both are a half-turn, the seed picks +90°): (1,0,0) ↦ (0,1,0).
  std::vector<JointDualQuat> dqs(2);
  dqs[1].rigid.real = glm::quat(0.0f, 0.0f, 0.0f, 1.0f);
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.5f, 0.5f};
  glm::vec3 p = skin_point_dual_quat(dqs, j, w, 2, {1, 0, 0});
  expect_vec3(p, {0, 1, 0});
  EXPECT_NEAR(glm::length(p), 1.0f, 1e-6f);
}

TEST(Dqs, HemisphereAlignmentStopsOppositeSignsFromCancelling) {
  // Joint 1's quaternion is stored with the opposite sign; without alignment the real parts
  // cancel. With alignment the blend of 10° and 30° about Y at 0.25/0.75 is about 25° (DQ blend
  // of two rotations about a common axis is their weighted angle only approximately: compare
  // against nlerp of the aligned quaternions, computed here by hand). With two influences either
  // one can be the reference (the result differs only in overall sign); which one is chosen is
  // checked by HemisphereReferenceIsTheLargestWeightAmongThree.
  DualQuat a = dual_quat_from_rotation_translation(axis_angle({0, 1, 0}, 10), {0, 0, 0});
  DualQuat b = dual_quat_from_rotation_translation(-axis_angle({0, 1, 0}, 30), {0, 0, 0});
  std::vector<JointDualQuat> dqs(2);
  dqs[0].rigid = a;
  dqs[1].rigid = b;
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.25f, 0.75f};
  glm::quat expected =
      glm::normalize(axis_angle({0, 1, 0}, 10) * 0.25f + axis_angle({0, 1, 0}, 30) * 0.75f);
  glm::vec3 got = skin_point_dual_quat(dqs, j, w, 2, {1, 0, 0});
  expect_vec3(got, expected * glm::vec3(1, 0, 0));
  EXPECT_NEAR(glm::length(got), 1.0f, 1e-5f);
}

// The reference is the largest weight, not the first influence. Three rotations about Z:
// q0 = R(0°) weight 0.2, q1 = R(100°) weight 0.3, q2 = R(200°) weight 0.5 (the reference).
// dot(q0, q2) = cos 100° < 0, dot(q1, q2) = cos 50° > 0: only q0 is flipped, so the blend is
//   -0.2 (1, 0) + 0.3 (cos 50°, sin 50°) + 0.5 (cos 100°, sin 100°)   [(w, z) parts]
//   = (-0.09398, 0.72221) → half-angle 97.41°, a 194.83° turn: (1,0,0) ↦ (-0.9667, -0.2559, 0).
// Aligning to the first influence instead would flip q2 and give a -57.4° turn.
TEST(Dqs, HemisphereReferenceIsTheLargestWeightAmongThree) {
  std::vector<glm::mat4> palette = {glm::mat4_cast(axis_angle({0, 0, 1}, 0)),
                                    glm::mat4_cast(axis_angle({0, 0, 1}, 100)),
                                    glm::mat4_cast(axis_angle({0, 0, 1}, 200))};
  const uint16_t j[3] = {0, 1, 2};
  const float w[3] = {0.2f, 0.3f, 0.5f};
  const float turn = 194.8294f * kDeg;
  expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 3, {1, 0, 0}),
              {std::cos(turn), std::sin(turn), 0.0f}, 2e-5f);
}

// A flipped influence still adds its stretch with a positive weight. Joint 0: identity, weight
// 0.75 (the reference); joint 1: uniform scale 2 after a 200° turn about Z, weight 0.25, its
// quaternion in the other hemisphere (dot = cos 100° < 0). Stretch: 0.75 I + 0.25 · 2I = 1.25 I.
// Rigid part: 0.75 (1, 0) - 0.25 (cos 100°, sin 100°) = (0.79341, -0.24620) [(w, z) parts]
// → half-angle -17.239°, a -34.478° turn. (1,0,0) ↦ 1.25 (cos -34.478°, sin -34.478°, 0).
TEST(Dqs, FlippedInfluenceKeepsAPositiveStretchWeight) {
  std::vector<glm::mat4> palette = {glm::mat4(1.0f), glm::mat4_cast(axis_angle({0, 0, 1}, 200)) *
                                                         glm::scale(glm::mat4(1), {2, 2, 2})};
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.75f, 0.25f};
  const float turn = -34.4790f * kDeg;
  expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 2, {1, 0, 0}),
              {1.25f * std::cos(turn), 1.25f * std::sin(turn), 0.0f}, 2e-5f);
}

TEST(Dqs, RigidSingleInfluenceEqualsTheMatrix) {
  glm::mat4 m =
      glm::translate(glm::mat4(1), {1, -2, 3}) * glm::mat4_cast(axis_angle({1, 2, 3}, 77));
  std::vector<glm::mat4> palette = {m};
  const uint16_t j[1] = {0};
  const float w[1] = {1.0f};
  const glm::vec3 p(0.3f, -0.7f, 2.0f);
  expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 1, p),
              glm::vec3(m * glm::vec4(p, 1)));
}

TEST(Dqs, ScaledShearedAndMirroredJointsReproduceTheMatrixWhenInfluencesAgree) {
  glm::mat4 scaled = glm::translate(glm::mat4(1), {1, 2, 3}) *
                     glm::mat4_cast(axis_angle({0, 1, 1}, 40)) *
                     glm::scale(glm::mat4(1), {2, 0.5f, 3});
  glm::mat4 sheared = scaled;
  sheared[1][0] += 0.7f;
  glm::mat4 mirrored = glm::translate(glm::mat4(1), {-1, 0, 4}) *
                       glm::mat4_cast(axis_angle({1, 0, 0}, 25)) *
                       glm::scale(glm::mat4(1), {-1, 1, 1});
  const glm::vec3 p(0.5f, -1.5f, 0.25f);
  for (const glm::mat4& m : {scaled, sheared, mirrored}) {
    // Two influences on the same matrix, and one: both must be exactly M·p.
    std::vector<glm::mat4> palette = {m, m};
    const uint16_t j[2] = {0, 1};
    const float w[2] = {0.4f, 0.6f};
    glm::vec3 want(m * glm::vec4(p, 1));
    expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 2, p), want, 1e-4f);
    expect_vec3(skin_point_linear(palette, j, w, 2, p), want, 1e-4f);
  }
}

TEST(Dqs, StretchPartsBlendLinearlyBeforeTheRigidBlend) {
  // Joint 0: uniform scale 2 about the origin; joint 1: identity. 50/50 → S = 1.5 I, rigid = I.
  std::vector<glm::mat4> palette = {glm::scale(glm::mat4(1), {2, 2, 2}), glm::mat4(1)};
  const uint16_t j[2] = {0, 1};
  const float w[2] = {0.5f, 0.5f};
  expect_vec3(skin_point_dual_quat(dual_quats(palette), j, w, 2, {1, 2, 3}), {1.5f, 3.0f, 4.5f});
}

TEST(PolarDecomposition, RecoversRotationAndSymmetricStretch) {
  glm::mat3 r = glm::mat3_cast(axis_angle({1, -1, 2}, 63));
  glm::mat3 s(2.0f, 0.3f, 0.1f, 0.3f, 1.0f, -0.2f, 0.1f, -0.2f, 0.5f);  // symmetric positive
  glm::mat3 rr, ss;
  ASSERT_TRUE(polar_decompose(r * s, rr, ss));
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(rr[c][k], r[c][k], 1e-5f);
      EXPECT_NEAR(ss[c][k], s[c][k], 1e-5f);
    }
  // A mirror: R stays proper, S takes the sign.
  glm::mat3 mir = r * glm::mat3(glm::scale(glm::mat4(1), {1, -1, 1}));
  ASSERT_TRUE(polar_decompose(mir, rr, ss));
  EXPECT_NEAR(glm::determinant(rr), 1.0f, 1e-5f);
  // det(mir) = det(r) · det(diag(1, -1, 1)) = -1 = det(R) · det(S), with det(R) = 1.
  EXPECT_NEAR(glm::determinant(ss), -1.0f, 1e-5f);
}

TEST(Lbs, NormalsUseTheInverseTranspose) {
  // Non-uniform scale 2 in x: a 45° normal (1,1,0)/√2 becomes (1/2, 1, 0) normalized.
  std::vector<glm::mat4> palette = {glm::scale(glm::mat4(1), {2, 1, 1})};
  const Primitive prim = single_vertex(glm::vec3(1, 1, 0), glm::normalize(glm::vec3(1, 1, 0)));
  std::vector<glm::vec3> pos(1), nrm(1);
  skin_primitive(SkinningMethod::Linear, prim, palette, prim.positions, prim.normals, pos, nrm);
  expect_vec3(pos[0], {2, 1, 0});
  expect_vec3(nrm[0], glm::normalize(glm::vec3(0.5f, 1, 0)));
}

// DQS normals: the inverse transpose of the blended stretch, then the blended rotation. A joint
// scaling x by 2 and turning 90° about Z: the 45° normal (1,1,0)/√2 becomes (1/2, 1, 0)
// normalized, then turned: (-1, 1/2, 0)/|·| = (-0.894427, 0.447214, 0); (1,1,0) ↦ (-1, 2, 0).
TEST(Dqs, NormalsUseTheInverseTransposeOfTheStretch) {
  std::vector<glm::mat4> palette = {glm::mat4_cast(axis_angle({0, 0, 1}, 90)) *
                                    glm::scale(glm::mat4(1), {2, 1, 1})};
  const Primitive prim = single_vertex(glm::vec3(1, 1, 0), glm::normalize(glm::vec3(1, 1, 0)));
  std::vector<glm::vec3> pos(1), nrm(1);
  skin_primitive(SkinningMethod::DualQuaternion, prim, palette, prim.positions, prim.normals, pos,
                 nrm);
  expect_vec3(pos[0], {-1, 2, 0});
  expect_vec3(nrm[0], {-0.8944272f, 0.4472136f, 0.0f});
}

// A mirroring joint (scale -1 in x) flips the cofactor's sign: normals must still point the
// way the mirrored surface faces. Normal (1,0,0) under diag(-1,1,1) → (-1,0,0), LBS and DQS.
TEST(Skinning, MirroredJointNormalsFaceTheMirroredWay) {
  std::vector<glm::mat4> palette = {glm::scale(glm::mat4(1), {-1, 1, 1})};
  const Primitive prim = single_vertex(glm::vec3(1, 0, 0), glm::vec3(1, 0, 0));
  std::vector<glm::vec3> pos(1), nrm(1);
  skin_primitive(SkinningMethod::Linear, prim, palette, prim.positions, prim.normals, pos, nrm);
  expect_vec3(pos[0], {-1, 0, 0});
  expect_vec3(nrm[0], {-1, 0, 0});
  skin_primitive(SkinningMethod::DualQuaternion, prim, palette, prim.positions, prim.normals, pos,
                 nrm);
  expect_vec3(pos[0], {-1, 0, 0});
  expect_vec3(nrm[0], {-1, 0, 0});
}

TEST(Morph, TargetsAreAddedWithTheirWeightsBeforeSkinning) {
  Primitive prim;
  prim.positions = {{0, 0, 0}, {1, 0, 0}};
  prim.normals = {{0, 0, 1}, {0, 0, 1}};
  prim.targets.resize(2);
  prim.targets[0].positions = {{0, 1, 0}, {0, 2, 0}};
  prim.targets[1].positions = {{0, 0, 4}, {0, 0, 0}};
  const float w[2] = {0.5f, 0.25f};
  std::vector<glm::vec3> pos(2), nrm(2);
  apply_morph_targets(prim, w, pos, nrm);
  expect_vec3(pos[0], {0, 0.5f, 1.0f});
  expect_vec3(pos[1], {1, 1.0f, 0.0f});
  // Normal deltas are weighted the same way (and not renormalized here): (0,0,1) + 0.5 (2,0,0).
  prim.targets[0].normals = {{2, 0, 0}, {0, 0, 0}};
  apply_morph_targets(prim, w, pos, nrm);
  expect_vec3(nrm[0], {1, 0, 1});
  expect_vec3(nrm[1], {0, 0, 1});
}

// glTF spec: the skinned mesh node's own transform is ignored; joints alone place vertices.
TEST(Character, SkinnedMeshNodeTransformIsIgnored) {
  Model m = test::shoulder_elbow_model();
  const int mesh_node = test::add_node(m, "body", -1, {100, 0, 0});
  m.nodes[mesh_node].mesh = 0;
  m.nodes[mesh_node].skin = 0;
  Mesh mesh;
  Primitive prim;
  prim.positions = {{1, 0, 0}};
  prim.normals = {{0, 1, 0}};
  prim.influences = 4;
  prim.joints = {1, 0, 0, 0};
  prim.weights = {1, 0, 0, 0};
  mesh.primitives.push_back(prim);
  m.meshes.push_back(mesh);
  m.draws.push_back({mesh_node, 0, 0, 0});
  Clip clip;
  clip.channels.push_back(
      test::rotation_channel(0, {0, 1}, {axis_angle({0, 0, 1}, 0), axis_angle({0, 0, 1}, 90)}));
  clip.end = 1;
  m.clips.push_back(clip);
  Character anim(m);
  anim.evaluate({.clip = 0, .time = 1.0f});
  std::vector<glm::vec3> pos(1), nrm(1);
  for (const SkinningMethodInfo& row : skinning_methods()) {
    anim.skin_draw_item(m.draws[0], row.method, pos, nrm);
    expect_vec3(pos[0], {0, 1, 0});   // not (100, 1, 0)
    expect_vec3(nrm[0], {-1, 0, 0});  // the normal turned with the shoulder
  }
  // Rigid draw items do use their node's world matrix.
  m.draws[0].skin = -1;
  Character rigid(m);
  rigid.skin_draw_item(m.draws[0], SkinningMethod::Linear, pos, nrm);
  expect_vec3(pos[0], {101, 0, 0});
}

}  // namespace
}  // namespace rig
