// The arithmetic of the skinning-cost measurement (render/skinning_cost.h), against values
// worked out by hand: the median of the repetitions, ms per million skinned vertices, the
// ratios to LBS (or to the first method when LBS was not measured), and which vertices count.
#include "render/skinning_cost.h"

#include <gtest/gtest.h>

#include <vector>

namespace rig::render {
namespace {

TEST(SkinningCost, MedianIsTheMiddleOfTheSortedSamples) {
  std::vector<double> odd = {5.0, 1.0, 9.0, 3.0, 7.0, 100.0, 2.0};  // sorted: 1 2 3 5 7 9 100
  EXPECT_EQ(median_of(odd), 5.0);
  std::vector<double> even = {4.0, 1.0, 3.0, 2.0};  // sorted 1 2 3 4: the upper middle
  EXPECT_EQ(median_of(even), 3.0);
  std::vector<double> none;
  EXPECT_EQ(median_of(none), 0.0);
}

TEST(SkinningCost, MillisecondsPerMillionSkinnedVertices) {
  // 40 draws of 2500 vertices = 100,000 vertices = 0.1 million in 3 ms: 30 ms per million.
  EXPECT_DOUBLE_EQ(ms_per_million_vertices(3.0, 40, 2500), 30.0);
  EXPECT_DOUBLE_EQ(ms_per_million_vertices(0.5, 1, 1000000), 0.5);
  EXPECT_EQ(ms_per_million_vertices(1.0, 10, 0), 0.0);  // nothing skinned: no figure
}

TEST(SkinningCost, RatiosAreToLbsWhereverItIs) {
  std::vector<SkinningCost> costs = {{SkinningMethod::DualQuaternion, 6.0, 0.0},
                                     {SkinningMethod::Linear, 4.0, 0.0},
                                     {SkinningMethod::Mix, 9.0, 0.0}};
  EXPECT_EQ(set_cost_ratios(costs), 1u);
  EXPECT_DOUBLE_EQ(costs[0].ratio, 1.5);
  EXPECT_DOUBLE_EQ(costs[1].ratio, 1.0);
  EXPECT_DOUBLE_EQ(costs[2].ratio, 2.25);
  // Without LBS the first method measured is the baseline.
  std::vector<SkinningCost> no_lbs = {{SkinningMethod::CentersOfRotation, 8.0, 0.0},
                                      {SkinningMethod::DualQuaternion, 2.0, 0.0}};
  EXPECT_EQ(set_cost_ratios(no_lbs), 0u);
  EXPECT_DOUBLE_EQ(no_lbs[0].ratio, 1.0);
  EXPECT_DOUBLE_EQ(no_lbs[1].ratio, 0.25);
}

TEST(SkinningCost, OnlySkinnedDrawItemsCount) {
  Model model;
  model.meshes.resize(1);
  model.meshes[0].primitives.resize(2);
  model.meshes[0].primitives[0].positions.resize(30);
  model.meshes[0].primitives[0].influences = 4;       // skinned
  model.meshes[0].primitives[1].positions.resize(7);  // no JOINTS: drawn rigid
  DrawItem skinned, rigid_primitive, rigid_node;
  skinned.mesh = rigid_primitive.mesh = rigid_node.mesh = 0;
  skinned.primitive = rigid_node.primitive = 0;
  rigid_primitive.primitive = 1;
  skinned.skin = rigid_primitive.skin = 0;
  rigid_node.skin = -1;  // a node without a skin
  model.draws = {skinned, rigid_primitive, rigid_node, skinned};
  EXPECT_EQ(skinned_vertex_count(model), 60u);
}

}  // namespace
}  // namespace rig::render
