// Normalize, clean and limit on a small mesh, against weights worked out by hand.
#include "skin/weight_ops.h"

#include <gtest/gtest.h>

#include "weight_test_model.h"

namespace rig {
namespace {

using test::layer_influences;
using test::TestInfluences;

const std::vector<test::TestJoint> kJoints = {{"a"}, {"b"}, {"c"}, {"d"}};

Model model_with(const std::vector<TestInfluences>& influences) {
  std::vector<glm::vec3> positions;
  for (size_t v = 0; v < influences.size(); ++v) positions.emplace_back(float(v), 0.0f, 0.0f);
  return test::weight_test_model(positions, {}, influences, kJoints);
}

void expect_influences(const SkinLayer& layer, uint32_t v, const TestInfluences& want) {
  const TestInfluences got = layer_influences(layer.meshes().primitives[0], v);
  ASSERT_EQ(got.size(), want.size()) << "vertex " << v;
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(got[k].first, want[k].first) << "vertex " << v << " slot " << k;
    EXPECT_NEAR(got[k].second, want[k].second, 1e-6f) << "vertex " << v << " slot " << k;
  }
}

TEST(WeightOps, NormalizeScalesToOneAndLeavesNormalizedVertices) {
  const Model model = model_with({{{0, 0.2f}, {1, 0.2f}},               // sums 0.4
                                  {{0, 0.25f}, {2, 0.75f}},             // already 1
                                  {{1, 0.25f}, {1, 0.25f}, {3, 0.5f}},  // joint 1 twice, sums 1
                                  {{2, 0.3f}, {3, 0.2f}, {0, 0.1f}}});  // sums 0.6
  SkinLayer layer(model);
  const uint64_t before = layer.revision();
  const WeightEditResult r = normalize_weights(layer);
  EXPECT_EQ(r.vertices_changed, 2u);
  EXPECT_EQ(layer.revision(), before + 2);  // one logged edit per changed vertex
  expect_influences(layer, 0, {{0, 0.5f}, {1, 0.5f}});
  expect_influences(layer, 1, {{0, 0.25f}, {2, 0.75f}});
  expect_influences(layer, 2, {{1, 0.25f}, {1, 0.25f}, {3, 0.5f}});  // untouched slots
  expect_influences(layer, 3, {{2, 0.5f}, {3, 1.0f / 3.0f}, {0, 1.0f / 6.0f}});
}

TEST(WeightOps, CleanDropsWeightsBelowTheThresholdThenRenormalizes) {
  const Model model = model_with({{{0, 0.05f}, {1, 0.45f}, {2, 0.5f}},  // 0.05 goes
                                  {{0, 0.5f}, {1, 0.25f}, {2, 0.125f}, {3, 0.125f}},
                                  {{0, 0.04f}, {1, 0.03f}, {2, 0.03f}},  // all below
                                  {{3, 1.0f}}});
  SkinLayer layer(model);
  const WeightEditResult r = clean_weights(layer, 0.125f);  // 0.125 itself is kept
  EXPECT_EQ(r.vertices_changed, 2u);
  expect_influences(layer, 0, {{1, 0.45f / 0.95f}, {2, 0.5f / 0.95f}});
  expect_influences(layer, 1, {{0, 0.5f}, {1, 0.25f}, {2, 0.125f}, {3, 0.125f}});
  expect_influences(layer, 2, {{0, 1.0f}});  // the largest stays, alone
  expect_influences(layer, 3, {{3, 1.0f}});
}

TEST(WeightOps, LimitKeepsTheLargestInSlotOrder) {
  const Model model = model_with({{{0, 0.1f}, {1, 0.3f}, {2, 0.2f}, {3, 0.4f}},
                                  {{0, 0.25f}, {1, 0.25f}, {2, 0.25f}, {3, 0.25f}},  // ties
                                  {{2, 0.6f}, {1, 0.4f}}});
  SkinLayer layer(model);
  const WeightEditResult r = limit_influences(layer, 2);
  EXPECT_EQ(r.vertices_changed, 2u);
  expect_influences(layer, 0, {{1, 0.3f / 0.7f}, {3, 0.4f / 0.7f}});
  expect_influences(layer, 1, {{0, 0.5f}, {1, 0.5f}});  // the earlier slots win a tie
  expect_influences(layer, 2, {{2, 0.6f}, {1, 0.4f}});
  SkinLayer one(model);
  EXPECT_EQ(limit_influences(one, 1).vertices_changed, 3u);
  expect_influences(one, 0, {{3, 1.0f}});
  expect_influences(one, 1, {{0, 1.0f}});
  expect_influences(one, 2, {{2, 1.0f}});
}

TEST(WeightOps, EditsAreLoggedForTheRenderer) {
  const Model model = model_with({{{0, 1.0f}}, {{0, 0.5f}, {1, 0.25f}}});
  SkinLayer layer(model);
  const uint64_t since = layer.revision();
  normalize_weights(layer);
  std::vector<SkinEditRange> ranges;
  EXPECT_TRUE(
      layer.for_each_edit_since(since, [&](const SkinEditRange& e) { ranges.push_back(e); }));
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].begin, 1u);
  EXPECT_EQ(ranges[0].end, 2u);
}

}  // namespace
}  // namespace rig
