// Mirror on a symmetric mesh: joint names by every side pattern, vertex mirrors by position, the
// vertices that find none reported.
#include "skin/weight_mirror.h"

#include <gtest/gtest.h>

#include "weight_test_model.h"

namespace rig {
namespace {

TEST(WeightMirror, JointNamesSwapSidesByEveryPattern) {
  auto first = [](std::string_view name) {
    const std::vector<std::string> c = mirrored_joint_names(name);
    return c.empty() ? std::string() : c.front();
  };
  EXPECT_EQ(first("LeftArm"), "RightArm");
  EXPECT_EQ(first("mixamorig:RightHand"), "mixamorig:LeftHand");
  EXPECT_EQ(first("b_LeftLeg01_015"), "b_RightLeg01_015");
  EXPECT_EQ(first("left_eye"), "right_eye");
  EXPECT_EQ(first("hand_L"), "hand_R");
  EXPECT_EQ(first("hand_r"), "hand_l");
  EXPECT_EQ(first("upperarm.l"), "upperarm.r");
  EXPECT_EQ(first("Foot.R"), "Foot.L");
  EXPECT_EQ(first("l_clavicle"), "r_clavicle");
  EXPECT_EQ(first("arm_joint_L_1"), "arm_joint_R_1");
  EXPECT_EQ(first("Skeleton_arm_joint_R__2_"), "Skeleton_arm_joint_L__2_");
  // No side: a letter inside a word is not one.
  EXPECT_TRUE(mirrored_joint_names("Leg").empty());
  EXPECT_TRUE(mirrored_joint_names("Spine").empty());
  EXPECT_TRUE(mirrored_joint_names("L").empty());
}

// Joints: LeftArm, RightArm, Spine, hand.l (no hand.r: its own mirror).
// v0 (−1,0,0) and v1 (1,0,0) mirror each other; v2 (0,1,0) is its own mirror; v3 (0.5,2,0)
// has no mirror; v4 (−1,0,1) and v5 (1.00001,0,1) mirror within the tolerance.
Model symmetric_model() {
  return test::weight_test_model(
      {{-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5f, 2, 0}, {-1, 0, 1}, {1.00001f, 0, 1}}, {},
      {{{1, 0.8f}, {2, 0.2f}},
       {{0, 0.6f}, {2, 0.4f}},
       {{0, 0.3f}, {1, 0.1f}, {2, 0.6f}},
       {{3, 1.0f}},
       {{3, 0.5f}, {2, 0.5f}},
       {{1, 1.0f}}},
      {{"LeftArm"}, {"RightArm"}, {"Spine"}, {"hand.l"}});
}

TEST(WeightMirror, SymmetricMeshSwapsSidesAndReportsUnmatched) {
  const Model model = symmetric_model();
  EXPECT_EQ(mirror_joints(model, 0), (std::vector<uint16_t>{1, 0, 2, 3}));
  SkinLayer layer(model);
  const WeightEditResult r = mirror_weights(layer, model);
  const SkinMesh& mesh = layer.meshes().primitives[0];
  using I = test::TestInfluences;
  EXPECT_EQ(test::layer_influences(mesh, 0), (I{{1, 0.6f}, {2, 0.4f}}));  // v1's, sides swapped
  EXPECT_EQ(test::layer_influences(mesh, 1), (I{{0, 0.8f}, {2, 0.2f}}));
  EXPECT_EQ(test::layer_influences(mesh, 2), (I{{1, 0.3f}, {0, 0.1f}, {2, 0.6f}}));
  EXPECT_EQ(test::layer_influences(mesh, 3), (I{{3, 1.0f}}));  // no mirror: unchanged
  EXPECT_EQ(test::layer_influences(mesh, 4), (I{{0, 1.0f}}));
  EXPECT_EQ(test::layer_influences(mesh, 5), (I{{3, 0.5f}, {2, 0.5f}}));
  EXPECT_EQ(r.vertices_changed, 5u);
  ASSERT_EQ(r.unmatched.size(), 1u);
  EXPECT_EQ(r.unmatched[0], (VertexRef{0, 3}));
  // Mirroring twice gives the original weights back.
  mirror_weights(layer, model);
  const SkinLayer original(model);
  for (uint32_t v = 0; v < 6; ++v)
    EXPECT_EQ(test::layer_influences(layer.meshes().primitives[0], v),
              test::layer_influences(original.meshes().primitives[0], v))
        << v;
}

TEST(WeightMirror, ToleranceIsRelativeToTheDiagonal) {
  const Model model = symmetric_model();
  SkinLayer layer(model);
  MirrorOptions tight;
  tight.tolerance = 1e-7f;  // v4 and v5 (1e-5 apart) no longer pair
  const WeightEditResult r = mirror_weights(layer, model, tight);
  EXPECT_EQ(r.unmatched.size(), 3u);
  EXPECT_EQ(r.vertices_changed, 3u);
}

TEST(WeightMirror, PlaneFollowsTheJointPairs) {
  // LeftArm at (0,3,0) and RightArm at (0,1,0): the sides lie along y, the plane is y = 2.
  const Model model = test::weight_test_model(
      {{0, 1, 0.5f}, {0, 3, 0.5f}, {7, 2, 0}}, {},
      {{{1, 1.0f}}, {{0, 0.7f}, {2, 0.3f}}, {{2, 1.0f}}},
      {{"LeftArm", -1, {0, 3, 0}}, {"RightArm", -1, {0, 1, 0}}, {"Spine", -1, {0, 2, 0}}});
  SkinLayer layer(model);
  const MirrorPlane plane = mirror_plane(layer, 0, mirror_joints(model, 0));
  EXPECT_EQ(plane.axis, 1);
  EXPECT_FLOAT_EQ(plane.offset, 2.0f);
  const WeightEditResult r = mirror_weights(layer, model);
  using I = test::TestInfluences;
  const SkinMesh& mesh = layer.meshes().primitives[0];
  EXPECT_EQ(test::layer_influences(mesh, 0), (I{{1, 0.7f}, {2, 0.3f}}));
  EXPECT_EQ(test::layer_influences(mesh, 1), (I{{0, 1.0f}}));
  EXPECT_EQ(test::layer_influences(mesh, 2), (I{{2, 1.0f}}));
  EXPECT_EQ(r.vertices_changed, 2u);
  EXPECT_TRUE(r.unmatched.empty());
}

}  // namespace
}  // namespace rig
