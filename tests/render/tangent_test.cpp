// TANGENT through the vertex programs, read back with transform feedback: every skinning
// method's program turns the tangent with the linear part of the vertex's transform (not the
// inverse transpose the normal takes), keeps the handedness, and writes zero for a primitive
// without TANGENT; rigid items use the node's matrix; morph targets' TANGENT deltas are added
// before skinning. Expectations are worked out by hand from the joint's rotation and scale.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "character/character.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr float kTolerance = 1e-5f;

// One joint at the origin turned 90° about +Z and scaled 2 along its own x: the skinning matrix
// (identity inverse bind) is M = R S with R (x, y, z) → (−y, x, z) and S = diag(2, 1, 1). One
// triangle, every vertex on that joint alone.
Model turned_scaled_triangle() {
  ChainJoint joint;
  joint.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
  joint.scale = glm::vec3(2, 1, 1);
  return test::chain_model(
      {joint}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, 4,
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, {0, 1, 2});
}

// The bind tangents of turned_scaled_triangle and what M = R S makes of them, normalized:
//   (1, 0, 0, +1) → S: (2, 0, 0) → R: (0, 2, 0) → (0, 1, 0), w +1;
//   (1, 1, 0, −1) → S: (2, 1, 0) → R: (−1, 2, 0) → (−1, 2, 0)/√5, w −1 (the inverse transpose
//                   would give (−1, 0.5, 0)/√1.25 instead);
//   (0, 0, 3, +1) → (0, 0, 3) → (0, 0, 1), w +1.
const std::vector<glm::vec4> kBindTangents = {{1, 0, 0, 1}, {1, 1, 0, -1}, {0, 0, 3, 1}};
const std::vector<glm::vec4> kTurnedTangents = {
    {0, 1, 0, 1}, {-1 / std::sqrt(5.0f), 2 / std::sqrt(5.0f), 0, -1}, {0, 0, 1, 1}};

void expect_tangents(const std::vector<glm::vec4>& got, const std::vector<glm::vec4>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t v = 0; v < got.size(); ++v)
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(got[v][c], expected[v][c], kTolerance) << "vertex " << v << " component " << c;
}

// Reads back draw item 0's tangents under `method` after the character's current pose.
std::vector<glm::vec4> read_tangents(const Model& model, SkinningMethod method) {
  std::string error;
  Renderer renderer;
  EXPECT_TRUE(renderer.init(error)) << error;
  EXPECT_TRUE(renderer.set_model(model, error)) << error;
  Character character(model);
  character.evaluate(PoseSelection{});
  renderer.update(character);
  const size_t n = model.meshes[0].primitives[0].vertex_count();
  std::vector<glm::vec3> p(n), nrm(n);
  std::vector<glm::vec4> t(n, glm::vec4(-7.0f));
  EXPECT_TRUE(renderer.read_back_skinned(0, method, p, nrm, t, error)) << error;
  return t;
}

TEST(Tangents, EverySkinningMethodTurnsTheTangentWithTheJoint) {
  RIG_REQUIRE_GL();
  Model model = turned_scaled_triangle();
  model.meshes[0].primitives[0].tangents = kBindTangents;
  for (SkinningMethod method : all_skinning_methods()) {
    SCOPED_TRACE(method_info(method).label);
    expect_tangents(read_tangents(model, method), kTurnedTangents);
  }
}

TEST(Tangents, PrimitiveWithoutTangentReadsZero) {
  RIG_REQUIRE_GL();
  const Model model = turned_scaled_triangle();
  for (SkinningMethod method : all_skinning_methods()) {
    SCOPED_TRACE(method_info(method).label);
    expect_tangents(read_tangents(model, method), std::vector<glm::vec4>(3, glm::vec4(0.0f)));
  }
}

// The same turn and scale on a rigid item's node: mat3(world) · t.
TEST(Tangents, RigidItemsTurnTheTangentWithTheNodesMatrix) {
  RIG_REQUIRE_GL();
  Model model = turned_scaled_triangle();
  model.meshes[0].primitives[0].tangents = kBindTangents;
  model.draws[0].skin = -1;
  model.nodes[0].skin = -1;
  model.nodes[0].rest.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
  model.nodes[0].rest.scale = glm::vec3(2, 1, 1);
  model.nodes[1].rest = Transform{};  // the joint no longer matters
  expect_tangents(read_tangents(model, SkinningMethod::Linear), kTurnedTangents);
}

// A morph target's TANGENT deltas at weight ½ before the skinning: vertex 0's (1, 0, 0) plus
// ½ (−1, 1, 0) is (½, ½, 0); S: (1, ½, 0); R: (−½, 1, 0), normalized (−1, 2, 0)/√5, w kept.
// The other vertices' deltas are zero.
TEST(Tangents, MorphTargetTangentDeltasAreAddedBeforeSkinning) {
  RIG_REQUIRE_GL();
  Model model = turned_scaled_triangle();
  Primitive& prim = model.meshes[0].primitives[0];
  prim.tangents = kBindTangents;
  MorphTarget target;
  target.tangents = {{-1, 1, 0}, {0, 0, 0}, {0, 0, 0}};
  prim.targets.push_back(target);
  model.meshes[0].default_weights = {0.5f};
  model.nodes[0].morph_offset = 0;
  model.nodes[0].morph_count = 1;
  model.morph_weight_count = 1;
  model.rest_morph_weights = {0.5f};
  std::vector<glm::vec4> expected = kTurnedTangents;
  expected[0] = glm::vec4(-1 / std::sqrt(5.0f), 2 / std::sqrt(5.0f), 0, 1);
  for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    SCOPED_TRACE(method_info(method).label);
    expect_tangents(read_tangents(model, method), expected);
  }
}

}  // namespace
}  // namespace rig::render
