// The clips loop cleanly, actually move, keep the gaits on the floor, and carry the twist on
// the forearm-twist joint.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "anim/pose.h"
#include "asset_fixture.h"

namespace rig::test {
namespace {

// Angle of the rotation between unit quaternions a and b (q and -q are the same rotation).
// From the chord |a - b| rather than acos(dot), which has no resolution near 0 in float.
float rotation_angle_degrees(glm::quat a, glm::quat b) {
  const float chord = std::min(glm::length(a - b), glm::length(a + b));
  return glm::degrees(4.0f * std::asin(std::min(1.0f, 0.5f * chord)));
}

void expect_clips_loop(const Model& model) {
  ASSERT_FALSE(model.clips.empty());
  Pose first, last, middle;
  init_rest_pose(model, first);
  init_rest_pose(model, last);
  init_rest_pose(model, middle);
  for (const Clip& clip : model.clips) {
    sample_clip(model, clip, clip.start, first);
    sample_clip(model, clip, clip.end, last);
    sample_clip(model, clip, 0.5f * (clip.start + clip.end), middle);
    float largest_motion = 0.0f;
    for (size_t n = 0; n < model.nodes.size(); ++n) {
      const Transform& a = first.local[n];
      const Transform& b = last.local[n];
      EXPECT_LT(glm::length(a.translation - b.translation), 1e-5f)
          << clip.name << ": node " << model.nodes[n].name << " translation does not loop";
      EXPECT_LT(rotation_angle_degrees(a.rotation, b.rotation), 0.01f)
          << clip.name << ": node " << model.nodes[n].name << " rotation does not loop";
      EXPECT_LT(glm::length(a.scale - b.scale), 1e-5f) << clip.name;
      largest_motion =
          std::max(largest_motion, rotation_angle_degrees(a.rotation, middle.local[n].rotation));
    }
    EXPECT_GT(largest_motion, 2.0f) << clip.name << " barely moves";
  }
}

TEST(MannequinClips, EveryClipLoops) { expect_clips_loop(bundled_asset("mannequin.glb")); }
TEST(TwistArmClips, TwistLoops) { expect_clips_loop(bundled_asset("twist_arm.glb")); }

// Lowest skinned vertex over 60 samples of one cycle, under LBS and DQS.
void expect_feet_above_floor(const std::string& clip_name) {
  const Model& model = bundled_asset("mannequin.glb");
  const int c = clip_named(model, clip_name);
  ASSERT_GE(c, 0);
  const Clip& clip = model.clips[c];
  Character character(model);
  float lowest_overall = 1e9f, highest_lowest = -1e9f;
  for (int i = 0; i < 60; ++i) {
    PoseSelection sel;
    sel.clip = c;
    sel.time = clip.start + (clip.end - clip.start) * float(i) / 60.0f;
    float lowest = 1e9f;
    for (const SkinningMethodInfo& row : skinning_methods()) {
      for (const glm::vec3& p : skinned_positions(character, sel, row.method))
        lowest = std::min(lowest, p.y);
    }
    EXPECT_GE(lowest, -1e-3f) << clip_name << " goes through the floor at t = " << sel.time;
    lowest_overall = std::min(lowest_overall, lowest);
    highest_lowest = std::max(highest_lowest, lowest);
  }
  std::printf("%s: lowest skinned y over the cycle %.5f, highest per-sample lowest %.5f\n",
              clip_name.c_str(), lowest_overall, highest_lowest);
  // And it is not floating: a foot touches the floor during the cycle.
  EXPECT_LT(lowest_overall, 5e-3f) << clip_name << " never touches the floor";
  EXPECT_LT(highest_lowest, 0.08f) << clip_name << " floats";
}

TEST(MannequinClips, WalkKeepsFeetOnOrAboveFloor) { expect_feet_above_floor("Walk"); }
TEST(MannequinClips, RunKeepsFeetOnOrAboveFloor) { expect_feet_above_floor("Run"); }
TEST(MannequinClips, IdleKeepsFeetOnOrAboveFloor) { expect_feet_above_floor("Idle"); }

TEST(MannequinClips, GaitsSwingArmsAgainstLegs) {
  const Model& model = bundled_asset("mannequin.glb");
  for (const char* name : {"Walk", "Run"}) {
    const int c = clip_named(model, name);
    ASSERT_GE(c, 0);
    const Clip& clip = model.clips[c];
    Character character(model);
    // When the left foot is furthest forward, the left hand is behind the right hand.
    float best_foot = -1e9f, hand_gap_at_best = 0.0f;
    for (int i = 0; i < 60; ++i) {
      PoseSelection sel;
      sel.clip = c;
      sel.time = clip.start + (clip.end - clip.start) * float(i) / 60.0f;
      character.evaluate(sel);
      const auto world = character.world();
      const float foot_ahead = origin_of(world[node_named(model, "LeftFoot")]).z -
                               origin_of(world[node_named(model, "RightFoot")]).z;
      if (foot_ahead > best_foot) {
        best_foot = foot_ahead;
        hand_gap_at_best = origin_of(world[node_named(model, "LeftHand")]).z -
                           origin_of(world[node_named(model, "RightHand")]).z;
      }
    }
    EXPECT_GT(best_foot, 0.2f) << name << ": stride too short";
    EXPECT_LT(hand_gap_at_best, -0.1f) << name << ": arms do not swing against the legs";
  }
}

TEST(MannequinClips, TwistIsCarriedByTheForearmTwistJoint) {
  const Model& model = bundled_asset("mannequin.glb");
  const int c = clip_named(model, "Twist");
  ASSERT_GE(c, 0);
  const Clip& clip = model.clips[c];
  Pose pose;
  init_rest_pose(model, pose);
  sample_clip(model, clip, 0.5f * (clip.start + clip.end), pose);
  for (const char* side : {"Left", "Right"}) {
    const int twist = node_named(model, std::string(side) + "ForeArmTwist");
    const int fore = node_named(model, std::string(side) + "ForeArm");
    ASSERT_GE(twist, 0);
    const glm::quat rest = model.nodes[twist].rest.rotation;
    const glm::quat q = pose.local[twist].rotation;
    EXPECT_NEAR(rotation_angle_degrees(rest, q), 180.0f, 1.0f) << side;
    // About the bone's own axis: the child offset (towards the hand) is that axis.
    const int hand = node_named(model, std::string(side) + "Hand");
    const glm::vec3 bone = glm::normalize(model.nodes[hand].rest.translation);
    const glm::vec3 axis = glm::normalize(glm::vec3(q.x, q.y, q.z));
    EXPECT_GT(std::abs(glm::dot(axis, bone)), 0.999f) << side;
    EXPECT_LT(rotation_angle_degrees(model.nodes[fore].rest.rotation, pose.local[fore].rotation),
              1.0f)
        << side << ": the forearm itself stays, only the twist joint turns";
  }
}

}  // namespace
}  // namespace rig::test
