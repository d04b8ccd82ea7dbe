// The vertex inspector (analysis/vertex_inspection.h) on the seed's two-bone example: Shoulder
// at the origin turned 90° about Z, Elbow (1,0,0) from it bent 30° about Z, and the vertex at
// bind position (1.2, 0, 0) weighted 50% Shoulder / 50% Elbow. Every expectation is worked out
// by hand below from those numbers (rotation matrices, the seed's transformPoint), not read from
// the code under test.
#include "analysis/vertex_inspection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <numbers>

#include "character/pose_builder.h"
#include "test_models.h"

namespace rig {
namespace {

using test::expect_vec3;

constexpr double kPi = std::numbers::pi;
constexpr int kShoulder = 0, kElbow = 1;

// The seed's chain plus geometry: mesh 0 is an unskinned triangle drawn by a rigid node (it
// does not count as a skinned primitive), mesh 1 one skinned primitive of two points: vertex 0
// the seed's (1.2, 0, 0) at 50/50, vertex 1 at (0.5, 0.1, 0) on the shoulder alone.
Model seed_model() {
  Model m = test::shoulder_elbow_model();
  const int rigid_node = test::add_node(m, "prop", -1, {0, 0, 0});
  const int skin_node = test::add_node(m, "arm_mesh", -1, {0, 0, 0});
  Primitive prop;
  prop.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  prop.normals.assign(3, glm::vec3(0, 0, 1));
  Mesh rigid;
  rigid.primitives.push_back(prop);
  m.meshes.push_back(rigid);
  Primitive arm;
  arm.mode = PrimitiveMode::Points;
  arm.influences = 4;
  arm.positions = {{1.2f, 0, 0}, {0.5f, 0.1f, 0}};
  arm.normals.assign(2, glm::vec3(0, 1, 0));
  arm.joints = {kShoulder, kElbow, 0, 0, kShoulder, 0, 0, 0};
  arm.weights = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
  Mesh skinned;
  skinned.primitives.push_back(arm);
  m.meshes.push_back(skinned);
  m.nodes[size_t(rigid_node)].mesh = 0;
  m.nodes[size_t(skin_node)].mesh = 1;
  m.nodes[size_t(skin_node)].skin = 0;
  m.draws.push_back({rigid_node, 0, 0, -1});
  m.draws.push_back({skin_node, 1, 0, 0});
  return m;
}

// The seed's pose: shoulder 90° about Z, elbow 30° about Z (as FK edits on the rest pose).
PoseSettings seed_pose() {
  PoseSettings s;
  FkEdit shoulder{kShoulder, FkEditMode::Override, {}};
  shoulder.transform.rotation = glm::angleAxis(float(kPi / 2), glm::vec3(0, 0, 1));
  FkEdit elbow{kElbow, FkEditMode::Delta, {}};
  elbow.transform.rotation = glm::angleAxis(float(kPi / 6), glm::vec3(0, 0, 1));
  s.fk_edits = {shoulder, elbow};
  return s;
}

struct Inspected {
  VertexInspection v;
  bool ok = false;
  std::string error;
};

// Inspects `vertex` of skinned primitive `primitive` at the seed's pose, with CoR centre
// `center` for vertex 0 (and vertex 1's own position for vertex 1).
Inspected inspect(int primitive, int vertex, glm::vec3 center = {1.1f, 0, 0}) {
  static const Model m = seed_model();
  auto layer = std::make_shared<SkinLayer>(m);
  SkinMeshes with_centers = layer->meshes();
  with_centers.primitives[with_centers.first_of_mesh[1]].rotation_centers = {center,
                                                                             {0.5f, 0.1f, 0}};
  EXPECT_TRUE(layer->set_rotation_centers(with_centers));
  Character character(m, layer);
  PoseBuilder builder(character);
  builder.build(seed_pose());
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  Inspected out;
  out.ok = inspect_vertex(setup, character, primitive, vertex, out.v, out.error);
  return out;
}

TEST(VertexInspection, SeedOpinionsAreTheHandComputedSkinningMatrixProducts) {
  const Inspected r = inspect(0, 0);
  ASSERT_TRUE(r.ok) << r.error;
  const VertexInspection& v = r.v;
  EXPECT_EQ(v.source.mesh, 1);  // mesh 0 is rigid: skinned primitive 0 is mesh 1's first
  EXPECT_EQ(v.source.primitive, 0);
  EXPECT_EQ(v.draw, 1);
  EXPECT_EQ(v.skin, 0);
  expect_vec3(v.bind_position, {1.2f, 0, 0});
  ASSERT_EQ(v.influences.size(), 2u);

  // M_shoulder = Rz(90°); M_elbow = Rz(90°) · T(1,0,0) · Rz(30°) · T(−1,0,0) (elbow world ·
  // its inverse bind, the seed's section 6), each applied to (1.2, 0, 0) by hand:
  //   Rz(90°)(1.2, 0) = (0, 1.2);
  //   T(−1): (0.2, 0); Rz(30°): (0.2 cos 30°, 0.2 sin 30°); T(1): (1 + 0.2 cos 30°, 0.1);
  //   Rz(90°): (−0.1, 1 + 0.2 cos 30°) = (−0.1, 1.173205).
  const float c30 = float(std::cos(kPi / 6));
  EXPECT_EQ(v.influences[0].joint, kShoulder);
  EXPECT_EQ(v.influences[0].node, 0);
  EXPECT_FLOAT_EQ(v.influences[0].weight, 0.5f);
  expect_vec3(v.influences[0].opinion, {0.0f, 1.2f, 0.0f});
  EXPECT_EQ(v.influences[1].joint, kElbow);
  EXPECT_FLOAT_EQ(v.influences[1].weight, 0.5f);
  expect_vec3(v.influences[1].opinion, {-0.1f, 1.0f + 0.2f * c30, 0.0f});
  expect_vec3(v.influences[1].opinion, {-0.1f, 1.173205f, 0.0f});  // the seed's printout

  // The same matrices built with glm, as a second route to M_j · v.
  const glm::mat4 rz90 = glm::rotate(glm::mat4(1.0f), float(kPi / 2), glm::vec3(0, 0, 1));
  const glm::mat4 elbow_world = rz90 * glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0)) *
                                glm::rotate(glm::mat4(1.0f), float(kPi / 6), glm::vec3(0, 0, 1));
  const glm::mat4 m_elbow = elbow_world * glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0));
  expect_vec3(v.influences[0].opinion, glm::vec3(rz90 * glm::vec4(1.2f, 0, 0, 1)));
  expect_vec3(v.influences[1].opinion, glm::vec3(m_elbow * glm::vec4(1.2f, 0, 0, 1)));

  // LBS: the 50/50 blend of the opinions (the seed's "blended (50/50)"), and the mix with
  // every amount 0 is LBS.
  expect_vec3(v.positions[size_t(SkinningMethod::Linear)], {-0.05f, 1.1866025f, 0.0f});
  expect_vec3(v.positions[size_t(SkinningMethod::Mix)], {-0.05f, 1.1866025f, 0.0f});
}

TEST(VertexInspection, SeedDqsAndCorResultsAndDeflationByHand) {
  const Inspected r = inspect(0, 0);
  ASSERT_TRUE(r.ok) << r.error;
  const VertexInspection& v = r.v;
  const double s15 = std::sin(kPi / 12), c15 = std::cos(kPi / 12);
  // DQS: both joints turn about Z and, in the shoulder's frame, the elbow's transform is a 30°
  // turn about the elbow (1, 0); the equal blend is a 15° turn about it, then the shoulder's 90°:
  // (1 + 0.2 cos 15°, 0.2 sin 15°) ↦ (−0.2 sin 15°, 1 + 0.2 cos 15°).
  expect_vec3(v.positions[size_t(SkinningMethod::DualQuaternion)],
              {float(-0.2 * s15), float(1.0 + 0.2 * c15), 0.0f});
  // CoR with p* = (1.1, 0, 0): the centre carried by the LBS matrix, L·p* = ½ Rz90 (1.1, 0) +
  // ½ M_elbow (1.1, 0) = ½ (0, 1.1) + ½ (−0.05, 1 + 0.1 cos 30°); the rotation is the blend of
  // 90° and 120° about Z, 105°: v′ = R105 (v − p*) + L·p*, v − p* = (0.1, 0, 0).
  const double c30 = std::cos(kPi / 6);
  const glm::dvec2 center(-0.025, 0.5 * 1.1 + 0.5 * (1.0 + 0.1 * c30));
  expect_vec3(v.cor_center, {float(center.x), float(center.y), 0.0f});
  const double a105 = 105.0 * kPi / 180.0;
  const glm::dvec2 cor = center + 0.1 * glm::dvec2(std::cos(a105), std::sin(a105));
  expect_vec3(v.positions[size_t(SkinningMethod::CentersOfRotation)],
              {float(cor.x), float(cor.y), 0.0f});

  // h: the dominant joint of a 50/50 tie is the smaller index, the shoulder, whose segment runs
  // from (0,0,0) to its child the elbow (1,0,0); r_rest = 0.2 (the vertex is 0.2 past the
  // segment's end). Taken back by M_shoulder⁻¹ = Rz(−90°), a posed point (x, y) becomes (y, −x).
  auto h_of = [](glm::dvec2 posed) {
    const glm::dvec2 local(posed.y, -posed.x);
    const double t = std::clamp(local.x, 0.0, 1.0);
    return std::log2(glm::length(local - glm::dvec2(t, 0.0)) / 0.2);
  };
  // LBS: the elbow-relative offsets (0.2, 0) and 0.2 (cos 30°, sin 30°) average to length
  // 0.2 cos 15°: h = log2 cos 15°. DQS keeps the radius: h = 0.
  EXPECT_NEAR(v.deflation[size_t(SkinningMethod::Linear)], std::log2(c15), 1e-5);
  EXPECT_NEAR(v.deflation[size_t(SkinningMethod::DualQuaternion)], 0.0, 1e-5);
  EXPECT_NEAR(v.deflation[size_t(SkinningMethod::CentersOfRotation)], h_of(cor), 1e-5);
  EXPECT_NEAR(v.deflation[size_t(SkinningMethod::Linear)],
              h_of({-0.05, 0.6 + 0.5 * (1.0 + 0.2 * c30)}), 1e-5);
}

TEST(VertexInspection, CorCentreAtTheElbowGivesTheDqsResult) {
  // With p* on the elbow itself, CoR turns the offset (0.2, 0) by 105° about L·p* = (0, 1):
  // (−0.2 sin 15°, 1 + 0.2 cos 15°), the DQS answer, and L·p* is the elbow's posed position.
  const Inspected r = inspect(0, 0, {1, 0, 0});
  ASSERT_TRUE(r.ok) << r.error;
  expect_vec3(r.v.cor_center, {0, 1, 0});
  const double s15 = std::sin(kPi / 12), c15 = std::cos(kPi / 12);
  expect_vec3(r.v.positions[size_t(SkinningMethod::CentersOfRotation)],
              {float(-0.2 * s15), float(1.0 + 0.2 * c15), 0.0f});
}

TEST(VertexInspection, RigidVertexFollowsItsOneJoint) {
  const Inspected r = inspect(0, 1);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.v.influences.size(), 1u);  // zero-weight slots are not influences
  // Rz(90°)(0.5, 0.1) = (−0.1, 0.5) under every method.
  for (SkinningMethod m : all_skinning_methods())
    expect_vec3(r.v.positions[size_t(m)], {-0.1f, 0.5f, 0.0f});
  expect_vec3(r.v.influences[0].opinion, {-0.1f, 0.5f, 0.0f});
  // h = log2(r_pose / r_rest) of a rigid vertex is 0 for every method.
  for (SkinningMethod m : all_skinning_methods())
    EXPECT_NEAR(r.v.deflation[size_t(m)], 0.0f, 1e-5f);
}

TEST(VertexInspection, OutOfRangeIndicesNameTheRange) {
  Inspected r = inspect(1, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "primitive 1 is out of range (skinned primitives 0..0)");
  r = inspect(0, 2);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "index 2 is out of range (primitive 0 has vertices 0..1)");
  r = inspect(-1, 0);
  EXPECT_FALSE(r.ok);
  r = inspect(0, -1);
  EXPECT_FALSE(r.ok);
}

TEST(VertexInspection, PrimitiveDrawnByNoSkinnedNodeIsRefused) {
  Model m = seed_model();
  m.draws.pop_back();  // nothing draws the skinned primitive any more
  std::string error;
  EXPECT_EQ(inspected_draw(m, 0, 0, error), -1);
  EXPECT_EQ(error, "primitive 0 (mesh 1, primitive 0) is drawn by no skinned node");
  const Model none = test::shoulder_elbow_model();
  EXPECT_EQ(inspected_draw(none, 0, 0, error), -1);
  EXPECT_EQ(error, "the model has no skinned primitive");
}

TEST(VertexInspection, SkinnedPrimitivesCountInDocumentOrder) {
  Model m = seed_model();
  Primitive extra = m.meshes[1].primitives[0];
  m.meshes[0].primitives.push_back(extra);  // mesh 0: rigid, then skinned
  const std::vector<SkinnedPrimitiveRef> refs = skinned_primitives(m);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].mesh, 0);
  EXPECT_EQ(refs[0].primitive, 1);
  EXPECT_EQ(refs[1].mesh, 1);
  EXPECT_EQ(refs[1].primitive, 0);
}

}  // namespace
}  // namespace rig
