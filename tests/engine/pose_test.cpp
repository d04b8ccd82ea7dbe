// Local → world, skinning matrices and clip sampling into poses (blending: blending_job_test).
#include "anim/pose.h"

#include <gtest/gtest.h>

#include "skin/cpu_skinning.h"
#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;
using test::expect_vec3;

// Skinning matrices of the seed's Shoulder/Elbow chain with the shoulder raised and the elbow
// bent by the given angles about Z (the engine's hierarchy and palette path under test).
std::vector<glm::mat4> elbow_palette(float shoulder_degrees, float elbow_degrees) {
  Model m = test::shoulder_elbow_model();
  Pose pose;
  init_rest_pose(m, pose);
  pose.local[0].rotation = axis_angle({0, 0, 1}, shoulder_degrees);
  pose.local[1].rotation = axis_angle({0, 0, 1}, elbow_degrees);
  std::vector<glm::mat4> world(2), palette(2);
  compute_world_matrices(m, pose, world);
  compute_skinning_matrices(m.skins[0], world, palette);
  return palette;
}

// Seed 000 §5: shoulder raised 90° about Z swings the elbow (1,0,0) to (0,1,0).
TEST(SeedHierarchy, ShoulderRaiseMovesElbowToYAxis) {
  Model m = test::shoulder_elbow_model();
  Pose pose;
  init_rest_pose(m, pose);
  pose.local[0].rotation = axis_angle({0, 0, 1}, 90);
  std::vector<glm::mat4> world(m.nodes.size());
  compute_world_matrices(m, pose, world);
  expect_vec3(glm::vec3(world[1][3]), {0, 1, 0});
}

// Seed 000 §7: a vertex at the elbow in bind pose, fully weighted to the elbow, lands on (0,1,0).
TEST(SeedHierarchy, ElbowVertexFollowsItsJoint) {
  const std::vector<glm::mat4> palette = elbow_palette(90, 0);
  const uint16_t joints[1] = {1};
  const float weights[1] = {1.0f};
  expect_vec3(skin_point_linear(palette, joints, weights, 1, {1, 0, 0}), {0, 1, 0});
}

// Seed 000 §15: in the bind pose every skinning matrix is the identity (no explosion).
TEST(SeedHierarchy, BindPoseSkinningMatricesAreIdentity) {
  const std::vector<glm::mat4> palette = elbow_palette(0, 0);
  for (const glm::mat4& p : palette)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(p[c][r], c == r ? 1.0f : 0.0f, 1e-6f);
}

// Seed 000 §8: elbow bent 30° on top of the 90° raise, vertex (1.2,0,0) weighted 50/50.
// By hand: shoulder alone → R90·(1.2,0,0) = (0, 1.2, 0); elbow alone → R90·((1,0,0) +
// R30·(0.2,0,0)) = R90·(1.17320, 0.1, 0) = (-0.1, 1.17320, 0); blend → (-0.05, 1.18660, 0).
TEST(SeedLbs, FiftyFiftyElbowBlendsTheTwoOpinions) {
  const std::vector<glm::mat4> palette = elbow_palette(90, 30);
  const uint16_t joints[2] = {0, 1};
  const float weights[2] = {0.5f, 0.5f};
  expect_vec3(skin_point_linear(palette, joints, weights, 2, {1.2f, 0, 0}),
              {-0.05f, 1.1866025f, 0.0f});
}

// The same 50/50 vertex under DQS. Both skinning matrices carry the bind elbow (1,0,0) to its
// posed place (0,1,0): M0 = R90, M1 = R90·T(1,0,0)·R30·T(-1,0,0) = R120 about the elbow. A
// blend of rigid motions that agree on a point is a rotation about that point by the blended
// rotation, here 105°: (0,1,0) + R105·(0.2,0,0) = (-0.0517638, 1.1931852, 0), still 0.2 from the
// elbow where LBS (above) pulls it in to 0.2·cos 15°.
TEST(SeedDqs, FiftyFiftyElbowKeepsItsDistanceFromTheJoint) {
  const std::vector<glm::mat4> palette = elbow_palette(90, 30);
  std::vector<JointDualQuat> dqs(2);
  compute_joint_dual_quats(palette, dqs);
  const uint16_t joints[2] = {0, 1};
  const float weights[2] = {0.5f, 0.5f};
  const glm::vec3 p = skin_point_dual_quat(dqs, joints, weights, 2, {1.2f, 0, 0});
  expect_vec3(p, {-0.0517638f, 1.1931852f, 0.0f});
  EXPECT_NEAR(glm::length(p - glm::vec3(0, 1, 0)), 0.2f, 1e-5f);
}

TEST(World, ParentsAreEvaluatedFirstWhateverTheArrayOrder) {
  // Node 0 is the child of node 1: node_order must put 1 first.
  Model m;
  m.nodes.resize(2);
  m.nodes[0].parent = 1;
  m.nodes[0].rest.translation = {0, 2, 0};
  m.nodes[1].children = {0};
  m.nodes[1].rest.translation = {5, 0, 0};
  m.node_order = {1, 0};
  Pose pose;
  init_rest_pose(m, pose);
  std::vector<glm::mat4> world(2);
  compute_world_matrices(m, pose, world);
  expect_vec3(glm::vec3(world[0][3]), {5, 2, 0});
}

TEST(World, TrsOrderIsTranslateRotateScale) {
  Model m;
  test::add_node(m, "n", -1, {1, 2, 3}, axis_angle({0, 0, 1}, 90));
  m.nodes[0].rest.scale = {2, 3, 4};
  Pose pose;
  init_rest_pose(m, pose);
  // A root's world matrix is its local matrix.
  std::vector<glm::mat4> world(1);
  compute_world_matrices(m, pose, world);
  const glm::mat4& l = world[0];
  // (1,0,0) → scale (2,0,0) → rotate 90° about Z (0,2,0) → translate (1,4,3).
  expect_vec3(glm::vec3(l * glm::vec4(1, 0, 0, 1)), {1, 4, 3});
  expect_vec3(glm::vec3(l * glm::vec4(0, 1, 0, 1)), {-2, 2, 3});
  // (0,0,1) → scale (0,0,4) → the Z turn leaves it → translate (1,2,7): each axis its own scale.
  expect_vec3(glm::vec3(l * glm::vec4(0, 0, 1, 1)), {1, 2, 7});
}

TEST(World, MatrixNodesUseTheirMatrixIncludingShear) {
  Model m;
  test::add_node(m, "n", -1, {0, 0, 0});
  m.nodes[0].has_shear = true;
  m.nodes[0].shear = glm::mat4(1.0f);
  m.nodes[0].shear[1][0] = 0.5f;  // x += 0.5 y: a shear TRS cannot hold
  Pose pose;
  init_rest_pose(m, pose);
  std::vector<glm::mat4> world(1);
  compute_world_matrices(m, pose, world);
  expect_vec3(glm::vec3(world[0] * glm::vec4(0, 2, 0, 1)), {1, 2, 0});
}

TEST(SampleClip, UnanimatedNodesKeepRestValuesAndChannelsOverride) {
  Model m = test::shoulder_elbow_model();
  m.nodes[1].rest.scale = {1, 2, 1};
  Clip clip;
  clip.channels.push_back(test::rotation_channel(
      0, {1.0f, 2.0f}, {axis_angle({0, 0, 1}, 0), axis_angle({0, 0, 1}, 90)}));
  clip.start = 1.0f;
  clip.end = 2.0f;
  m.clips.push_back(clip);
  Pose pose;
  init_rest_pose(m, pose);
  pose.local[1].translation = {9, 9, 9};  // garbage from a previous frame must be reset
  sample_clip(m, m.clips[0], 1.5f, pose);
  EXPECT_NEAR(test::angle_degrees(pose.local[0].rotation), 45.0f, 1e-3f);
  expect_vec3(pose.local[1].translation, {1, 0, 0});
  expect_vec3(pose.local[1].scale, {1, 2, 1});
}

}  // namespace
}  // namespace rig
