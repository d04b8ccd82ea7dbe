// The viewer's posing state (app/viewer/posing.h) without a window: extracted root motion as
// the viewer plays and scrubs, layer masks made from a subtree, and IK chains that skip twist
// joints, on small models built here whose answers are known.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../engine/test_models.h"
#include "character/character.h"
#include "viewer/posing.h"

namespace {

using rig::test::add_node;
using rig::test::axis_angle;

constexpr float kDuration = 1.2f;
const glm::vec3 kStart(0.1f, 0.95f, -0.3f);
const glm::vec3 kStep(0.4f, 0.0f, 1.6f);  // horizontal displacement per loop

// root (keyed along a straight line with a bob) ─ hips ─ leg (the clip bends the leg).
rig::Model walker() {
  rig::Model m;
  const int root = add_node(m, "root", -1, kStart);
  const int hips = add_node(m, "hips", root, {0, 0.05f, 0});
  const int leg = add_node(m, "leg", hips, {0.1f, -0.5f, 0});
  rig::Clip clip;
  clip.name = "walk";
  std::vector<float> times;
  std::vector<glm::vec3> translations;
  std::vector<glm::quat> hip_turns, bends;
  for (int k = 0; k <= 12; ++k) {
    const float f = float(k) / 12.0f;
    times.push_back(kDuration * f);
    translations.push_back(kStart + kStep * f +
                           glm::vec3(0.0f, 0.02f * std::sin(12.566371f * f), 0.0f));
    hip_turns.push_back(axis_angle({0, 1, 0}, 20.0f * std::sin(6.2831853f * f)));
    bends.push_back(axis_angle({1, 0, 0}, 30.0f * std::sin(6.2831853f * f)));
  }
  clip.channels.push_back(rig::test::vec3_channel(root, rig::TargetPath::Translation, times,
                                                  translations, rig::Interpolation::Linear));
  clip.channels.push_back(rig::test::rotation_channel(hips, times, hip_turns));
  clip.channels.push_back(rig::test::rotation_channel(leg, times, bends));
  clip.start = 0.0f;
  clip.end = kDuration;
  m.clips.push_back(clip);
  return m;
}

glm::vec3 position(const rig::Character& c, int node) {
  return glm::vec3(c.world()[size_t(node)][3]);
}

// The root as authored at clip time t: start + step · t / duration, plus the bob.
glm::vec3 authored_root(float t) {
  const float f = t / kDuration;
  return kStart + kStep * f + glm::vec3(0.0f, 0.02f * std::sin(12.566371f * f), 0.0f);
}

void expect_near(glm::vec3 a, glm::vec3 b, float tolerance) {
  EXPECT_NEAR(a.x, b.x, tolerance);
  EXPECT_NEAR(a.y, b.y, tolerance);
  EXPECT_NEAR(a.z, b.z, tolerance);
}

TEST(PosingState, ExtractWalksOnAcrossLoopsAndScrubsBack) {
  const rig::Model m = walker();
  rig::Character character(m);
  rigview::Posing posing(m, character);
  posing.set_root_motion(rigview::RootMotionChoice::Extract);
  EXPECT_TRUE(posing.active());
  // Switched on at 0.3 s: the root stands where the clip has taken it by then.
  posing.evaluate({0, 0.3f}, glm::vec3(0.0f), true, 1.0f);
  expect_near(position(character, 0), authored_root(0.3f), 1e-5f);
  // Playing on through two wraps (0.3 → … → 1.1 → 0.1 (loop) → … → 1.1 → 0.1 (loop) → 0.5),
  // 0.2 s a frame: the root is two steps further than the clip alone puts it.
  float t = 0.3f;
  for (int f = 0; f < 13; ++f) {
    t += 0.2f;
    if (t >= kDuration) t -= kDuration;
    posing.evaluate({0, t}, glm::vec3(0.0f), true, 1.0f);
  }
  ASSERT_NEAR(t, 0.5f, 1e-4f);
  expect_near(position(character, 0), authored_root(0.5f) + 2.0f * kStep, 1e-4f);
  // Follow camera: the last frame's move, 0.2 s of walking.
  expect_near(posing.root_moved(), authored_root(0.5f) - authored_root(0.3f), 1e-4f);
  // Scrubbing (paused) back to 0.2 s walks back along the clip, not round another loop.
  posing.evaluate({0, 0.2f}, glm::vec3(0.0f), false, 1.0f);
  expect_near(position(character, 0), authored_root(0.2f) + 2.0f * kStep, 1e-4f);
}

TEST(PosingState, InPlaceHoldsTheRootOverItsFirstFrame) {
  const rig::Model m = walker();
  rig::Character character(m);
  rigview::Posing posing(m, character);
  posing.set_root_motion(rigview::RootMotionChoice::InPlace);
  posing.evaluate({0, 0.9f}, glm::vec3(0.0f), true, 1.0f);
  // Horizontal held at the first key; the bob (height) still plays.
  expect_near(position(character, 0), {kStart.x, authored_root(0.9f).y, kStart.z}, 1e-5f);
}

TEST(PosingState, ALayerMaskedToASubtreeMovesOnlyThatSubtree) {
  const rig::Model m = walker();
  rig::Character character(m), reference(m);
  rigview::Posing posing(m, character);
  // The same clip at 0.3 s over a base at 0.6 s, full weight, masked to "leg and below".
  posing.add_layer({0, 1.0f, false, 2, 0.3f});
  posing.evaluate({0, 0.6f}, glm::vec3(0.0f), true, 1.0f);
  const rig::Pose& posed = character.pose();
  reference.evaluate(rig::PoseSelection{0, 0.6f});
  const glm::quat hips_at_base = reference.pose().local[1].rotation;
  reference.evaluate(rig::PoseSelection{0, 0.3f});
  const glm::quat leg_at_layer = reference.pose().local[2].rotation;
  EXPECT_NEAR(std::abs(glm::dot(posed.local[1].rotation, hips_at_base)), 1.0f, 1e-6f);
  EXPECT_NEAR(std::abs(glm::dot(posed.local[2].rotation, leg_at_layer)), 1.0f, 1e-6f);
  // Whole body (mask off): the hips follow the layer too.
  rigview::LayerSettings all = posing.layer(0);
  all.mask_root = -1;
  posing.set_layer(0, all);
  posing.evaluate({0, 0.6f}, glm::vec3(0.0f), true, 1.0f);
  reference.evaluate(rig::PoseSelection{0, 0.3f});
  EXPECT_NEAR(
      std::abs(glm::dot(character.pose().local[1].rotation, reference.pose().local[1].rotation)),
      1.0f, 1e-6f);
}

TEST(PosingState, IkChainsSkipTwistJointsAndNeedAGrandparent) {
  rig::Model m;
  const int arm = add_node(m, "LeftArm", -1, {0, 0, 0});
  const int fore = add_node(m, "LeftForeArm", arm, {0.3f, 0, 0});
  const int twist = add_node(m, "LeftForeArmTwist", fore, {0.1f, 0, 0});
  const int hand = add_node(m, "LeftHand", twist, {0.15f, 0, 0});
  rig::Character character(m);
  character.evaluate(rig::PoseSelection{});
  rigview::Posing posing(m, character);
  std::string error;
  ASSERT_TRUE(posing.add_ik_chain(hand, error)) << error;
  EXPECT_EQ(posing.ik(0).chain.root, arm);
  EXPECT_EQ(posing.ik(0).chain.mid, fore);
  EXPECT_EQ(posing.ik(0).chain.end, hand);
  // The target starts on the hand: nothing moves until it is dragged.
  expect_near(posing.ik(0).target, {0.55f, 0.0f, 0.0f}, 1e-6f);
  EXPECT_FALSE(posing.add_ik_chain(fore, error));
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(posing.ik_count(), 1u);
}

}  // namespace

namespace {

// The Joint tab's angles: q_X · q_Y · q_Z, each about the joint's own axis.
TEST(JointRotation, EulerAnglesComposeXThenYThenZInTheJointsFrame) {
  const float x90[3] = {90.0f, 0.0f, 0.0f};
  const glm::quat q = rigview::euler_xyz_rotation(x90);
  EXPECT_NEAR(q.w, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(q.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(q.y, 0.0f, 1e-6f);
  EXPECT_NEAR(q.z, 0.0f, 1e-6f);
  // q_Y(90) · q_Z(90) takes +X first to +Y (about Z), then +Y stays (about Y): +Y. The other
  // order, q_Z(90) · q_Y(90), would give −Z.
  const float yz[3] = {0.0f, 90.0f, 90.0f};
  expect_near(rigview::euler_xyz_rotation(yz) * glm::vec3(1, 0, 0), {0, 1, 0}, 1e-6f);
  // And a hand-made product for a general triple.
  const float abc[3] = {20.0f, -35.0f, 50.0f};
  const glm::quat hand =
      axis_angle({1, 0, 0}, 20.0f) * axis_angle({0, 1, 0}, -35.0f) * axis_angle({0, 0, 1}, 50.0f);
  const glm::quat got = rigview::euler_xyz_rotation(abc);
  EXPECT_NEAR(std::abs(glm::dot(got, hand)), 1.0f, 1e-6f);
}

TEST(JointRotation, AnglesReadBackFromTheRotation) {
  for (const glm::vec3 a : {glm::vec3(20, -35, 50), glm::vec3(-170, 80, 120), glm::vec3(0, 0, 0),
                            glm::vec3(45, -89, -45)}) {
    const float in[3] = {a.x, a.y, a.z};
    float out[3] = {0, 0, 0};
    rigview::rotation_to_euler_xyz(rigview::euler_xyz_rotation(in), out);
    EXPECT_NEAR(out[0], a.x, 2e-3f);
    EXPECT_NEAR(out[1], a.y, 2e-3f);
    EXPECT_NEAR(out[2], a.z, 2e-3f);
  }
  // At y = ±90° only x ± z is defined: the angles read back give the same rotation.
  const float lock[3] = {30.0f, 90.0f, 25.0f};
  float out[3] = {0, 0, 0};
  rigview::rotation_to_euler_xyz(rigview::euler_xyz_rotation(lock), out);
  EXPECT_NEAR(
      std::abs(glm::dot(rigview::euler_xyz_rotation(out), rigview::euler_xyz_rotation(lock))), 1.0f,
      1e-5f);
}

// A hand rotation sits on the clip pose: the leg's local rotation is q_clip · delta at any time,
// and reset brings back the clip's own.
TEST(JointRotation, AHandRotationSitsOnTheClipPoseWhileItPlays) {
  const rig::Model m = walker();
  rig::Character character(m), reference(m);
  rigview::Posing posing(m, character);
  const int leg = 2;
  const glm::quat delta = axis_angle({0, 0, 1}, 40.0f);
  posing.set_joint_rotation(leg, delta);
  EXPECT_TRUE(posing.active());
  for (const float t : {0.1f, 0.45f, 0.9f}) {
    posing.evaluate({0, t}, glm::vec3(0.0f), true, 1.0f);
    reference.evaluate({0, t});
    const glm::quat clip = reference.pose().local[size_t(leg)].rotation;
    const glm::quat got = character.pose().local[size_t(leg)].rotation;
    EXPECT_NEAR(std::abs(glm::dot(got, clip * delta)), 1.0f, 1e-6f) << "t " << t;
    // The parent is untouched.
    EXPECT_NEAR(
        std::abs(glm::dot(character.pose().local[1].rotation, reference.pose().local[1].rotation)),
        1.0f, 1e-6f);
  }
  // Changing it keeps one edit; reset removes it.
  posing.set_joint_rotation(leg, axis_angle({1, 0, 0}, 10.0f));
  EXPECT_EQ(posing.joint_rotation_count(), 1u);
  posing.reset_joint(leg);
  EXPECT_EQ(posing.joint_rotation_count(), 0u);
  posing.evaluate({0, 0.45f}, glm::vec3(0.0f), true, 1.0f);
  reference.evaluate({0, 0.45f});
  EXPECT_NEAR(std::abs(glm::dot(character.pose().local[size_t(leg)].rotation,
                                reference.pose().local[size_t(leg)].rotation)),
              1.0f, 1e-6f);
}

}  // namespace
