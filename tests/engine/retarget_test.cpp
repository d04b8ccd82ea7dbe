// Retargeting on small hand-built skeletons, against expectations worked out by hand or computed
// here from world matrices with a product of our own (not the engine's local → world job).
#include "character/retarget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

// World matrix of `node` for `local`, by our own recursion (the oracle).
glm::mat4 world_of(const Model& m, const std::vector<Transform>& local, int node) {
  const glm::mat4 own = trs_matrix(local[size_t(node)]);
  const int parent = m.nodes[size_t(node)].parent;
  return parent < 0 ? own : world_of(m, local, parent) * own;
}

glm::vec3 position_of(const Model& m, const std::vector<Transform>& local, int node) {
  return glm::vec3(world_of(m, local, node)[3]);
}

std::vector<Transform> pose_at(const Model& m, const Clip& clip, float time) {
  Pose pose;
  init_rest_pose(m, pose);
  sample_clip(m, clip, time, pose);
  return pose.local;
}

// Angle in radians between two directions.
double angle_between(glm::vec3 a, glm::vec3 b) {
  const glm::dvec3 x = glm::normalize(glm::dvec3(a)), y = glm::normalize(glm::dvec3(b));
  return std::atan2(glm::length(glm::cross(x, y)), glm::dot(x, y));
}

// Rotation angle between two unit quaternions, degrees.
double quat_gap_degrees(glm::quat a, glm::quat b) {
  const double d = std::min(1.0, std::abs(double(glm::dot(a, b))));
  return 2.0 * std::acos(d) * 180.0 / 3.14159265358979;
}

// Hips → spine → head, and a left arm (upper, lower, hand) off the spine; optionally legs.
struct TwoChain {
  Model model;
  int hips, spine, head, upper_arm, lower_arm, hand;
  int left_leg = -1, left_foot = -1, right_leg = -1, right_foot = -1;
};

// `arm_down` degrees below horizontal (45: the A-pose), the lower arm rolled `roll` degrees
// about its own axis (X). Sizes scale every offset.
TwoChain two_chain(float arm_down, float roll, float size = 1.0f, bool legs = false) {
  TwoChain c;
  Model& m = c.model;
  c.hips = add_node(m, "hips", -1, glm::vec3(0, 1, 0) * size);
  c.spine = add_node(m, "spine", c.hips, glm::vec3(0, 0.3f, 0) * size);
  c.head = add_node(m, "head", c.spine, glm::vec3(0, 0.4f, 0) * size);
  c.upper_arm = add_node(m, "upper_arm", c.spine, glm::vec3(0.2f, 0.3f, 0) * size,
                         axis_angle({0, 0, 1}, -arm_down));
  c.lower_arm = add_node(m, "lower_arm", c.upper_arm, glm::vec3(0.3f, 0, 0) * size,
                         axis_angle({1, 0, 0}, roll));
  c.hand = add_node(m, "hand", c.lower_arm, glm::vec3(0.25f, 0, 0) * size);
  if (legs) {
    c.left_leg = add_node(m, "leg.L", c.hips, glm::vec3(0.1f, 0, 0) * size);
    c.left_foot = add_node(m, "foot.L", c.left_leg, glm::vec3(0, -1, 0) * size);
    c.right_leg = add_node(m, "leg.R", c.hips, glm::vec3(-0.1f, 0, 0) * size);
    c.right_foot = add_node(m, "foot.R", c.right_leg, glm::vec3(0, -1, 0) * size);
  }
  return c;
}

BoneMap chain_map(const TwoChain& s, const TwoChain& t) {
  BoneMap map;
  map.pairs = {{s.hips, t.hips, HumanBone::Hips},
               {s.spine, t.spine, HumanBone::Spine},
               {s.head, t.head, HumanBone::Head},
               {s.upper_arm, t.upper_arm, HumanBone::LeftUpperArm},
               {s.lower_arm, t.lower_arm, HumanBone::LeftLowerArm},
               {s.hand, t.hand, HumanBone::LeftHand}};
  if (s.left_leg >= 0 && t.left_leg >= 0) {
    map.pairs.push_back({s.left_leg, t.left_leg, HumanBone::LeftUpperLeg});
    map.pairs.push_back({s.left_foot, t.left_foot, HumanBone::LeftFoot});
    map.pairs.push_back({s.right_leg, t.right_leg, HumanBone::RightUpperLeg});
    map.pairs.push_back({s.right_foot, t.right_foot, HumanBone::RightFoot});
  }
  return map;
}

// The source's spine bends, its upper arm swings and twists, its lower arm bends: keys at 0,
// 0.5 and 1 s (so the frame grid is the default 1/30 s: 31 frames).
Clip arm_clip(const TwoChain& s) {
  const Model& m = s.model;
  auto rest = [&](int n) { return m.nodes[size_t(n)].rest.rotation; };
  Clip clip = test::make_clip(
      {test::rotation_channel(s.spine, {0, 0.5f, 1},
                              {rest(s.spine), axis_angle({1, 0, 0}, 20), rest(s.spine)}),
       test::rotation_channel(s.upper_arm, {0, 0.5f, 1},
                              {rest(s.upper_arm), rest(s.upper_arm) * axis_angle({0, 1, 0}, 60),
                               rest(s.upper_arm) * axis_angle({1, 1, 0}, 80)}),
       test::rotation_channel(
           s.lower_arm, {0, 0.5f, 1},
           {rest(s.lower_arm), rest(s.lower_arm), rest(s.lower_arm) * axis_angle({0, 0, 1}, 90)})});
  clip.name = "arm";
  return clip;
}

// Every pair with a child in the chain: the target's direction equals the source's.
void expect_directions(const TwoChain& s, const Clip& source_clip, const TwoChain& t,
                       const Clip& target_clip, glm::quat facing, double tol_rad) {
  const std::pair<int, int> bones[][2] = {{{s.hips, s.spine}, {t.hips, t.spine}},
                                          {{s.spine, s.head}, {t.spine, t.head}},
                                          {{s.upper_arm, s.lower_arm}, {t.upper_arm, t.lower_arm}},
                                          {{s.lower_arm, s.hand}, {t.lower_arm, t.hand}}};
  for (float time : retarget_frame_times(source_clip)) {
    const auto sl = pose_at(s.model, source_clip, time);
    const auto tl = pose_at(t.model, target_clip, time);
    for (const auto& b : bones) {
      const glm::vec3 ds =
          position_of(s.model, sl, b[0].second) - position_of(s.model, sl, b[0].first);
      const glm::vec3 dt =
          position_of(t.model, tl, b[1].second) - position_of(t.model, tl, b[1].first);
      EXPECT_LT(angle_between(facing * ds, dt), tol_rad)
          << "bone " << t.model.nodes[size_t(b[1].first)].name << " at " << time;
    }
  }
}

TEST(RetargetFrames, GridFromStartToEndInclusive) {
  const TwoChain s = two_chain(0, 0);
  const Clip clip = arm_clip(s);  // keys 0.5 s apart: the default 1/30 s frame
  const std::vector<float> times = retarget_frame_times(clip);
  ASSERT_EQ(times.size(), 31u);
  EXPECT_FLOAT_EQ(times.front(), 0.0f);
  EXPECT_NEAR(times[1], 1.0f / 30.0f, 1e-6f);
  EXPECT_FLOAT_EQ(times.back(), 1.0f);
}

TEST(RetargetRest, TwoChainRestDataByHand) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);
  const BoneMap map = chain_map(s, s);
  const RetargetRest rest = retarget_rest(s.model, map, MapSide::Source);
  test::expect_vec3(rest.up, {0, 1, 0});
  test::expect_vec3(rest.left, {1, 0, 0});
  test::expect_vec3(rest.forward, {0, 0, 1});
  test::expect_vec3(rest.hips, {0, 1, 0});
  EXPECT_NEAR(rest.hip_height, 1.0f, 1e-6f);  // hips at 1, feet at 0
  EXPECT_NEAR(rest.height, 1.7f, 1e-6f);      // head at 1.7
}

TEST(RetargetRest, ChildRulePicksTheSpineForTheHipsAndTheLowerArmForTheUpper) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);
  const BoneMap map = chain_map(s, s);
  const RetargetRig rig = build_retarget_rig(s.model, s.model, map);
  auto child_target = [&](HumanBone role) {
    const RetargetBone& b = rig.bones[size_t(rig.bone(role))];
    return b.child < 0 ? -1 : rig.bones[size_t(b.child)].target;
  };
  EXPECT_EQ(child_target(HumanBone::Hips), s.spine);  // not a leg
  EXPECT_EQ(child_target(HumanBone::Spine), s.head);  // the arm is no spine-chain child
  EXPECT_EQ(child_target(HumanBone::LeftUpperArm), s.lower_arm);
  EXPECT_EQ(child_target(HumanBone::LeftHand), -1);
  EXPECT_EQ(child_target(HumanBone::LeftUpperLeg), s.left_foot);  // no lower leg mapped
}

TEST(RetargetRest, FacingAlignmentTurnsABackwardsTarget) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);
  TwoChain t = two_chain(0, 0, 1.0f, true);
  // The target faces −Z: its hips turned half round about Y.
  t.model.nodes[size_t(t.hips)].rest.rotation = axis_angle({0, 1, 0}, 180);
  const RetargetRig rig = build_retarget_rig(s.model, t.model, chain_map(s, t));
  EXPECT_LT(quat_gap_degrees(rig.facing, axis_angle({0, 1, 0}, 180)), 1e-3);
  const RetargetRig same = build_retarget_rig(s.model, s.model, chain_map(s, s));
  EXPECT_LT(quat_gap_degrees(same.facing, glm::quat(1, 0, 0, 0)), 1e-4);
}

TEST(Retarget, ApposeTargetPointsAlongTheSourceRestAtFrameZero) {
  const TwoChain s = two_chain(0, 0);    // T-pose
  const TwoChain t = two_chain(45, 30);  // A-pose, the lower arm rolled 30° about its axis
  Clip rest_clip = test::make_clip({test::rotation_channel(
      s.upper_arm, {0, 1}, {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)})});
  const Clip out = retarget_clip(s.model, rest_clip, t.model, chain_map(s, t), {}, nullptr);
  ASSERT_FALSE(out.channels.empty());
  const auto tl = pose_at(t.model, out, 0.0f);
  // By hand: T0(upper arm) = Rz(−45°), A = Rz(+45°) (its rest direction onto +X), D = I: the
  // world rotation A·T0 = I, so the local rotation under an unturned spine is the identity.
  EXPECT_LT(quat_gap_degrees(tl[size_t(t.upper_arm)].rotation, glm::quat(1, 0, 0, 0)), 1e-3);
  // The lower arm: T0 = Rz(−45°)·Rx(30°), the same A: world Rx(30°) under an identity parent,
  // so its roll is kept.
  EXPECT_LT(quat_gap_degrees(tl[size_t(t.lower_arm)].rotation, axis_angle({1, 0, 0}, 30)), 1e-3);
  // The hand has no mapped child: delta only, it keeps its rest world rotation Rz(−45°)·Rx(30°).
  const glm::quat hand_world = axis_angle({0, 0, 1}, -45) * axis_angle({1, 0, 0}, 30);
  EXPECT_LT(quat_gap_degrees(tl[size_t(t.hand)].rotation,
                             glm::inverse(axis_angle({1, 0, 0}, 30)) * hand_world),
            1e-3);
  test::expect_vec3(
      glm::normalize(position_of(t.model, tl, t.lower_arm) - position_of(t.model, tl, t.upper_arm)),
      {1, 0, 0}, 1e-5f);
}

TEST(Retarget, DirectionsFollowTheSourceAtEveryFrame) {
  const TwoChain s = two_chain(0, 0);
  const TwoChain t = two_chain(45, 30, 0.8f);
  const Clip clip = arm_clip(s);
  RetargetMeasures measures;
  const Clip out = retarget_clip(s.model, clip, t.model, chain_map(s, t), {}, &measures);
  EXPECT_EQ(out.name, "arm");
  ASSERT_EQ(out.channels.front().times.size(), 31u);
  expect_directions(s, clip, t, out, glm::quat(1, 0, 0, 0), 1e-4);
  // At 0.5 s, by hand: the source spine's world delta is Rx(20°), the upper arm's
  // Rx(20°)·Ry(60°); the target's upper arm world = Rx(20°)·Ry(60°)·A·T0 = Rx(20°)·Ry(60°),
  // under its spine's Rx(20°): local Ry(60°). The lower arm keeps its roll: local Rx(30°).
  const auto tl = pose_at(t.model, out, 0.5f);
  EXPECT_LT(quat_gap_degrees(tl[size_t(t.upper_arm)].rotation, axis_angle({0, 1, 0}, 60)), 1e-3);
  EXPECT_LT(quat_gap_degrees(tl[size_t(t.lower_arm)].rotation, axis_angle({1, 0, 0}, 30)), 1e-3);
  EXPECT_EQ(measures.frames, 31u);
  EXPECT_EQ(measures.direction_bones, 4u);  // hips, spine, upper arm, lower arm
  EXPECT_LT(measures.max_direction_error_deg, 1e-2f);
}

TEST(Retarget, HipsScaledByTheHipHeightRatio) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);  // hips 1 m above the feet
  const TwoChain t = two_chain(0, 0, 0.5f, true);  // 0.5 m
  const Clip clip = test::make_clip({test::vec3_channel(
      s.hips, TargetPath::Translation, {0, 1}, {glm::vec3(0, 1, 0), glm::vec3(0.4f, 1.2f, -0.3f)},
      Interpolation::Linear)});
  RetargetMeasures measures;
  const Clip out = retarget_clip(s.model, clip, t.model, chain_map(s, t), {}, &measures);
  EXPECT_NEAR(measures.hip_ratio, 0.5f, 1e-6f);
  EXPECT_LT(measures.hip_ratio_error, 1e-4f);
  for (float time : retarget_frame_times(clip)) {
    const glm::vec3 source_moved = glm::vec3(0.4f, 0.2f, -0.3f) * time;  // from (0, 1, 0)
    const glm::vec3 want = glm::vec3(0, 0.5f, 0) + 0.5f * source_moved;
    const glm::vec3 got = position_of(t.model, pose_at(t.model, out, time), t.hips);
    EXPECT_LE(glm::length(got - want), 1e-4f * std::max(glm::length(0.5f * source_moved), 1e-3f))
        << time;
  }
}

// The hip ratio error of a target clip written by hand: the hips' largest deviation from
// ratio · the source's displacement, over the larger of the largest expected displacement and
// the target's hip height (0.5 m here, ratio 0.5), so a clip whose hips stay put does not divide
// noise by noise.
TEST(RetargetMeasures, HipRatioErrorIsRelativeToAtLeastTheHipHeight) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);
  const TwoChain t = two_chain(0, 0, 0.5f, true);
  const RetargetRig rig = build_retarget_rig(s.model, t.model, chain_map(s, t));
  ASSERT_NEAR(rig.target.hip_height, 0.5f, 1e-6f);
  auto error = [&](glm::vec3 source_move, glm::vec3 target_off) {
    const Clip source = test::make_clip({test::vec3_channel(
        s.hips, TargetPath::Translation, {0, 1},
        {glm::vec3(0, 1, 0), glm::vec3(0, 1, 0) + source_move}, Interpolation::Linear)});
    const Clip target = test::make_clip({test::vec3_channel(
        t.hips, TargetPath::Translation, {0, 1},
        {glm::vec3(0, 0.5f, 0), glm::vec3(0, 0.5f, 0) + 0.5f * source_move + target_off},
        Interpolation::Linear)});
    return measure_retarget(s.model, source, t.model, target, rig, {}).hip_ratio_error;
  };
  // Expected displacement 0.5 · |(0.4, 0.2, −0.3)| ≈ 0.27 m < 0.5 m: over the hip height.
  EXPECT_NEAR(error({0.4f, 0.2f, -0.3f}, {0, 0.01f, 0}), 0.01f / 0.5f, 1e-5f);
  // Hips that stay put: still over the hip height, not 0 / 0.
  EXPECT_NEAR(error({0, 0, 0}, {0, 0, 0.005f}), 0.005f / 0.5f, 1e-5f);
  // A walk 3 m forward (expected 1.5 m): over the largest expected displacement.
  EXPECT_NEAR(error({0, 0, 3.0f}, {0.015f, 0, 0}), 0.015f / 1.5f, 1e-5f);
}

TEST(Retarget, UnmappedJointsKeepTheirRestAndGetNoChannel) {
  const TwoChain s = two_chain(0, 0);
  TwoChain t = two_chain(45, 30);
  // An unmapped joint between the spine and the head, with a rest tilt of its own.
  Model& m = t.model;
  const int extra = add_node(m, "spine_extra", t.spine, {0, 0.1f, 0}, axis_angle({0, 0, 1}, 10));
  auto& spine_children = m.nodes[size_t(t.spine)].children;
  spine_children.erase(std::find(spine_children.begin(), spine_children.end(), t.head));
  m.nodes[size_t(t.head)].parent = extra;
  m.nodes[size_t(extra)].children.push_back(t.head);
  m.node_order = {t.hips, t.spine, extra, t.head, t.upper_arm, t.lower_arm, t.hand};
  const Clip clip = arm_clip(s);
  const Clip out = retarget_clip(s.model, clip, m, chain_map(s, t), {}, nullptr);
  for (const Channel& c : out.channels) EXPECT_NE(c.node, extra);
  for (float time : retarget_frame_times(clip)) {
    const auto tl = pose_at(m, out, time);
    EXPECT_LT(quat_gap_degrees(tl[size_t(extra)].rotation, axis_angle({0, 0, 1}, 10)), 1e-4);
  }
  // The spine still points at the head through it.
  expect_directions(s, clip, t, out, glm::quat(1, 0, 0, 0), 1e-4);
}

TEST(Retarget, RoundTripReturnsTheSourceRotations) {
  const TwoChain s = two_chain(0, 0, 1.0f, true);
  const TwoChain t = two_chain(45, 30, 0.7f, true);
  const Clip clip = arm_clip(s);
  const BoneMap there = chain_map(s, t);
  BoneMap back;
  for (const BonePair& p : there.pairs) back.pairs.push_back({p.target, p.source, p.role});
  const Clip mid = retarget_clip(s.model, clip, t.model, there, {}, nullptr);
  const Clip home = retarget_clip(t.model, mid, s.model, back, {}, nullptr);
  for (float time : retarget_frame_times(clip)) {
    const auto want = pose_at(s.model, clip, time);
    const auto got = pose_at(s.model, home, time);
    for (const BonePair& p : there.pairs)
      EXPECT_LT(quat_gap_degrees(got[size_t(p.source)].rotation, want[size_t(p.source)].rotation),
                0.1)
          << s.model.nodes[size_t(p.source)].name << " at " << time;
  }
}

TEST(Retarget, BadMapGivesAnEmptyClipAndALine) {
  const TwoChain s = two_chain(0, 0);
  BoneMap map = chain_map(s, s);
  map.pairs.push_back({s.spine, s.hips, HumanBone::Count});
  EXPECT_EQ(check_bone_map(s.model, s.model, map), "bone map: target joint 'hips' is driven twice");
  EXPECT_TRUE(retarget_clip(s.model, arm_clip(s), s.model, map, {}, nullptr).channels.empty());
  map.pairs.back() = {99, s.hips, HumanBone::Count};
  EXPECT_EQ(check_bone_map(s.model, s.model, map),
            "bone map: source node 99 is not a node of the source");
}

}  // namespace
}  // namespace rig
