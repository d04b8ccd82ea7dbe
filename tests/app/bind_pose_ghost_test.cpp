// The bind-pose ghost (app/viewer/bind_pose_ghost.h) on the seed's Shoulder/Elbow chain, whose
// answers are worked out by hand: with correct inverse bind matrices the ghost stands on the
// rest pose; with the classic broken ones it stands where those matrices say, apart and turned
// by amounts computed here.
#include "viewer/bind_pose_ghost.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "../engine/test_models.h"
#include "skin/skin_layer.h"

namespace {

using rigview::BindPoseJoint;

TEST(BindPoseGhost, CorrectInverseBindMatricesPutTheGhostOnTheRestPose) {
  const rig::Model m = rig::test::shoulder_elbow_model();
  const rig::SkinLayer layer(m);
  const std::vector<BindPoseJoint> joints = rigview::bind_pose_joints(m, layer);
  ASSERT_EQ(joints.size(), 2u);
  EXPECT_EQ(joints[1].node, 1);
  EXPECT_EQ(joints[1].parent_joint, 0);
  rig::test::expect_vec3(joints[1].bind, {1, 0, 0}, 1e-6f);
  rig::test::expect_vec3(joints[1].rest, {1, 0, 0}, 1e-6f);
  for (const BindPoseJoint& j : joints) {
    EXPECT_NEAR(j.distance, 0.0f, 1e-6f);
    EXPECT_NEAR(j.angle_deg, 0.0f, 0.05f);
    EXPECT_FALSE(rigview::bind_differs(j, 1e-4f, 0.5f));
  }
}

TEST(BindPoseGhost, BrokenInverseBindMatricesMoveAndTurnTheGhost) {
  rig::Model m = rig::test::shoulder_elbow_model();
  // The elbow rests turned 90° about Z; its IBM was left as a pure translation by −(1, 0, 0)
  // (the translation-only bug): B = IBM⁻¹ stands at (1, 0, 0) unturned, 90° off the rest axes.
  m.nodes[1].rest.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
  // No IBM for the shoulder's skin joint 0 would be the identity: the ghost at the origin, as
  // the shoulder is; move the shoulder up by 0.5 so the identity is wrong by 0.5.
  m.nodes[0].rest.translation = glm::vec3(0.0f, 0.5f, 0.0f);
  const rig::SkinLayer layer(m);
  const std::vector<BindPoseJoint> joints = rigview::bind_pose_joints(m, layer);
  ASSERT_EQ(joints.size(), 2u);
  // Shoulder: bind at the origin (identity IBM), rest at (0, 0.5, 0).
  EXPECT_NEAR(joints[0].distance, 0.5f, 1e-6f);
  EXPECT_NEAR(joints[0].angle_deg, 0.0f, 0.05f);
  // Elbow: bind at (1, 0, 0), rest at (0, 0.5, 0) + (1, 0, 0): 0.5 apart, turned 90°.
  rig::test::expect_vec3(joints[1].rest, {1, 0.5f, 0}, 1e-6f);
  EXPECT_NEAR(joints[1].distance, 0.5f, 1e-6f);
  EXPECT_NEAR(joints[1].angle_deg, 90.0f, 0.05f);
  EXPECT_TRUE(rigview::bind_differs(joints[1], 1e-4f, 0.5f));
  // Scale is not a turn: a rest scaled by 2 with a matching IBM differs in nothing.
  rig::Model scaled = rig::test::shoulder_elbow_model();
  scaled.nodes[1].rest.scale = glm::vec3(2.0f);
  scaled.skins[0].inverse_bind[1] =
      glm::scale(glm::mat4(1.0f), glm::vec3(0.5f)) * scaled.skins[0].inverse_bind[1];
  const std::vector<BindPoseJoint> s = rigview::bind_pose_joints(scaled, rig::SkinLayer(scaled));
  EXPECT_NEAR(s[1].distance, 0.0f, 1e-6f);
  EXPECT_NEAR(s[1].angle_deg, 0.0f, 0.05f);
}

// The cache recomputes when the layer's inverse bind matrices are edited, and only then.
TEST(BindPoseGhost, TheCacheFollowsTheLayersInverseBindRevision) {
  const rig::Model m = rig::test::shoulder_elbow_model();
  rig::SkinLayer layer(m);
  rigview::BindPoseGhost ghost;
  ghost.refresh(m, layer);
  ASSERT_EQ(ghost.joints.size(), 2u);
  EXPECT_NEAR(ghost.joints[1].distance, 0.0f, 1e-6f);
  std::string error;
  ASSERT_TRUE(layer.set_inverse_bind(0, 1, glm::mat4(1.0f), error)) << error;  // "no IBM"
  ghost.refresh(m, layer);
  EXPECT_NEAR(ghost.joints[1].distance, 1.0f, 1e-6f);  // the ghost elbow at the origin
}

}  // namespace
