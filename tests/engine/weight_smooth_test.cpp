// Smooth on a strip whose Laplacian steps are worked out by hand, with a seam the smoothing must
// weld by position.
#include "skin/weight_smooth.h"

#include <gtest/gtest.h>

#include "weight_test_model.h"

namespace rig {
namespace {

// A unit quad of two triangles (0,1,2) and (1,3,2), v0 (0,0) v1 (1,0) v2 (0,1) v3 (1,1), plus v4:
// a copy of v1 (a UV seam) used by the second triangle instead of v1: (4,3,2). Welded, the
// neighbours are 0:{1,2} 1:{0,2,3} 2:{0,1,3} 3:{1,2}.
const std::vector<glm::vec3> kQuad = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}};
const std::vector<uint32_t> kTriangles = {0, 1, 2, 4, 3, 2};
const std::vector<test::TestJoint> kJoints = {{"A"}, {"B"}, {"C"}};

// Joint `joint`'s weight at vertex v (0 when absent).
float weight_of(const SkinLayer& layer, uint32_t v, uint16_t joint) {
  for (const auto& [j, w] : test::layer_influences(layer.meshes().primitives[0], v))
    if (j == joint) return w;
  return 0.0f;
}

TEST(WeightSmooth, QuadStripMatchesTheHandWorkedLaplacian) {
  // A = 1 on the bottom edge (v0, v1 and its seam twin v4), 0 on the top; B = 1 − A.
  const Model model = test::weight_test_model(
      kQuad, kTriangles, {{{0, 1.0f}}, {{0, 1.0f}}, {{1, 1.0f}}, {{1, 1.0f}}, {{0, 1.0f}}},
      kJoints);
  SkinLayer layer(model);
  SmoothOptions one;
  one.factor = 0.5f;
  one.iterations = 1;
  EXPECT_EQ(smooth_weights(layer, model, one).vertices_changed, 5u);
  // A' = ½A + ½ mean of the neighbours: v0 ½ + ¼ = 0.75; v1 ½ + ½·⅓; v2 ½·⅔; v3 ½·½.
  const float want[] = {0.75f, 0.5f + 1.0f / 6.0f, 1.0f / 3.0f, 0.25f, 0.5f + 1.0f / 6.0f};
  for (uint32_t v = 0; v < 5; ++v) {
    EXPECT_NEAR(weight_of(layer, v, 0), want[v], 1e-6f) << v;
    EXPECT_NEAR(weight_of(layer, v, 1), 1.0f - want[v], 1e-6f) << v;
  }
  // Two iterations from the start: v0 ⅝, v1 ⅓ + 2/9, v2 ⅙ + 5/18, v3 ⅜.
  SkinLayer twice(model);
  SmoothOptions two = one;
  two.iterations = 2;
  smooth_weights(twice, model, two);
  const float want2[] = {0.625f, 1.0f / 3.0f + 2.0f / 9.0f, 1.0f / 6.0f + 5.0f / 18.0f, 0.375f,
                         1.0f / 3.0f + 2.0f / 9.0f};
  for (uint32_t v = 0; v < 5; ++v) EXPECT_NEAR(weight_of(twice, v, 0), want2[v], 1e-6f) << v;
}

TEST(WeightSmooth, RestrictedJointsKeepTheOthersShares) {
  // Only A is smoothed; B and C fill what A leaves, in their own proportions.
  const Model model = test::weight_test_model(
      kQuad, kTriangles,
      {{{0, 1.0f}}, {{0, 1.0f}}, {{1, 0.5f}, {2, 0.5f}}, {{1, 0.25f}, {2, 0.75f}}, {{0, 1.0f}}},
      kJoints);
  SkinLayer layer(model);
  SmoothOptions options;
  options.factor = 0.5f;
  options.iterations = 1;
  options.joint_nodes = {1};  // joint A is node 1
  EXPECT_EQ(smooth_weights(layer, model, options).vertices_changed, 2u);
  // v0, v1, v4: A alone, renormalized back to 1.
  EXPECT_NEAR(weight_of(layer, 0, 0), 1.0f, 1e-6f);
  // v2: A ⅓, B and C share ⅔ as 1:1; v3: A ¼, B and C share ¾ as 1:3.
  EXPECT_NEAR(weight_of(layer, 2, 0), 1.0f / 3.0f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 2, 1), 1.0f / 3.0f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 2, 2), 1.0f / 3.0f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 3, 0), 0.25f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 3, 1), 0.1875f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 3, 2), 0.5625f, 1e-6f);
}

TEST(WeightSmooth, PaintedSelectionLimitsTheVerticesWritten) {
  const Model model = test::weight_test_model(
      kQuad, kTriangles, {{{0, 1.0f}}, {{0, 1.0f}}, {{1, 1.0f}}, {{1, 1.0f}}, {{0, 1.0f}}},
      kJoints);
  SkinLayer layer(model);
  SmoothOptions options;
  options.factor = 0.5f;
  options.iterations = 3;
  options.selected = {{0, 0, 1, 0, 0}};  // v2 only; the others hold still
  EXPECT_EQ(smooth_weights(layer, model, options).vertices_changed, 1u);
  // v2 over fixed neighbours of A = 1, 1, 0: a ← ½a + ⅓, three times from 0: ⅓, ½, 7/12.
  EXPECT_NEAR(weight_of(layer, 2, 0), 7.0f / 12.0f, 1e-6f);
  EXPECT_NEAR(weight_of(layer, 3, 0), 0.0f, 0.0f);
}

TEST(WeightSmooth, UniformWeightsAndZeroFactorChangeNothing) {
  const Model model = test::weight_test_model(
      kQuad, kTriangles, std::vector<test::TestInfluences>(5, {{0, 0.25f}, {1, 0.75f}}), kJoints);
  SkinLayer layer(model);
  SmoothOptions options;
  options.iterations = 10;
  EXPECT_EQ(smooth_weights(layer, model, options).vertices_changed, 0u);
  const Model step = test::weight_test_model(
      kQuad, kTriangles, {{{0, 1.0f}}, {{0, 1.0f}}, {{1, 1.0f}}, {{1, 1.0f}}, {{0, 1.0f}}},
      kJoints);
  SkinLayer still(step);
  options.factor = 0.0f;
  EXPECT_EQ(smooth_weights(still, step, options).vertices_changed, 0u);
  EXPECT_EQ(still.weights_revision(), 0u);
}

}  // namespace
}  // namespace rig
