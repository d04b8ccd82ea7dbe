// Root motion: in place (horizontal translation, and yaw when asked, held at the first frame) and
// extract (the removed motion accumulated across loops), on a clip built in code whose root
// walks a known path.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "anim/root_motion.h"
#include "character/character.h"
#include "character/pose_stack.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

constexpr float kDuration = 1.2f;
const glm::vec3 kStart(0.1f, 0.95f, -0.3f);
const glm::vec3 kStep(0.4f, 0.0f, 1.6f);  // horizontal displacement per loop

// root (translation keyed along a wobbly line, height bobbing; with `turn`, turning 90° about Y
// over the loop) ─ hips ─ leg; the clip also bends the leg.
Model walker(bool turn) {
  Model m;
  const int root = add_node(m, "root", -1, kStart);
  const int hips = add_node(m, "hips", root, {0, 0.05f, 0});
  add_node(m, "leg", hips, {0.1f, -0.5f, 0});
  Clip clip;
  clip.name = "walk";
  std::vector<float> times;
  std::vector<glm::vec3> translations;
  std::vector<glm::quat> rotations, bends;
  for (int k = 0; k <= 12; ++k) {
    const float f = float(k) / 12.0f;
    times.push_back(kDuration * f);
    glm::vec3 p = kStart + kStep * f;
    p.x += 0.05f * std::sin(6.2831853f * f);  // sway, back to 0 at the ends
    p.y += 0.02f * std::sin(12.566371f * f);  // bob
    translations.push_back(p);
    rotations.push_back(axis_angle({0, 1, 0}, turn ? 90.0f * f : 0.0f) *
                        axis_angle({1, 0, 0}, 3.0f * std::sin(6.2831853f * f)));
    bends.push_back(axis_angle({1, 0, 0}, 30.0f * std::sin(6.2831853f * f)));
  }
  clip.channels.push_back(test::vec3_channel(root, TargetPath::Translation, times, translations,
                                             Interpolation::Linear));
  clip.channels.push_back(test::rotation_channel(root, times, rotations));
  clip.channels.push_back(test::rotation_channel(2, times, bends));
  clip.start = 0.0f;
  clip.end = kDuration;
  m.clips.push_back(clip);
  return m;
}

glm::vec3 pos(const glm::mat4& m) { return glm::vec3(m[3]); }

TEST(PosingRootMotion, DefaultRootIsTheSkinsTopJointElseTheSceneRoot) {
  Model m = walker(false);
  EXPECT_EQ(default_root_motion_node(m), 0);
  Skin s;
  s.joints = {2, 1};
  s.joint_parent = {1, -1};
  m.skins.push_back(s);
  EXPECT_EQ(default_root_motion_node(m), 1);
}

TEST(PosingRootMotion, YawAboutUpIsTheTwist) {
  EXPECT_NEAR(yaw_about(axis_angle({0, 1, 0}, 40.0f), {0, 1, 0}), glm::radians(40.0f), 1e-6f);
  EXPECT_NEAR(yaw_about(axis_angle({0, 1, 0}, -150.0f) * axis_angle({1, 0, 0}, 20.0f), {0, 1, 0}),
              glm::radians(-150.0f), 1e-5f);
  EXPECT_NEAR(yaw_about(axis_angle({1, 0, 0}, 50.0f), {0, 1, 0}), 0.0f, 1e-6f);
}

TEST(PosingRootMotion, InPlaceHoldsTheRootsHorizontalPosition) {
  const Model m = walker(false);
  Character character(m);
  PoseStack stack(character);
  stack.set_root_motion(0, {RootMotionMode::InPlace});
  float lowest = 1e9f, highest = -1e9f;
  for (int f = 0; f <= 40; ++f) {
    stack.base = {0, kDuration * float(f) / 40.0f};
    character.evaluate(stack);
    const glm::vec3 root = pos(character.world()[0]);
    EXPECT_NEAR(root.x, kStart.x, 1e-6f) << f;
    EXPECT_NEAR(root.z, kStart.z, 1e-6f) << f;
    lowest = std::min(lowest, root.y);
    highest = std::max(highest, root.y);
  }
  EXPECT_GT(highest - lowest, 0.03f);  // the bob still plays
  // Keep: the root does travel.
  stack.set_root_motion(0, {RootMotionMode::Keep});
  stack.base = {0, kDuration};
  character.evaluate(stack);
  EXPECT_NEAR(pos(character.world()[0]).z, kStart.z + kStep.z, 1e-5f);
}

TEST(PosingRootMotion, InPlaceWithYawHoldsTheHeadingToo) {
  const Model m = walker(true);
  Character character(m);
  PoseStack stack(character);
  RootMotionSettings settings{RootMotionMode::InPlace};
  settings.include_yaw = true;
  stack.set_root_motion(0, settings);
  for (float t : {0.0f, 0.3f, 0.6f, 1.1f}) {
    stack.base = {0, t};
    character.evaluate(stack);
    const glm::vec3 forward = glm::mat3(character.world()[0]) * glm::vec3(0, 0, 1);
    EXPECT_NEAR(std::atan2(forward.x, forward.z), 0.0f, 1e-5f) << t;  // no turn left
    EXPECT_NEAR(pos(character.world()[0]).x, kStart.x, 1e-6f);
  }
}

// Plays `frames` frames at 30 Hz with looping, accumulating extracted motion; returns the
// root's world position at the end.
glm::vec3 play_extracted(const Model& m, bool yaw, int frames, glm::vec3* start_out = nullptr) {
  Character character(m);
  PoseStack stack(character);
  RootMotionSettings settings{RootMotionMode::Extract};
  settings.include_yaw = yaw;
  stack.set_root_motion(0, settings);
  stack.placement_node = stack.root_motion(0).root();
  RootMotionAccumulator acc;
  float time = 0.0f;
  stack.base = {0, time};
  character.evaluate(stack);
  if (start_out) *start_out = pos(character.world()[0]);
  const float dt = kDuration / 36.0f;
  for (int f = 0; f < frames; ++f) {
    float next = time + dt;
    if (next >= kDuration) next -= kDuration;
    acc.advance(stack.root_motion(0), time, next, loops_between(time, next, 1.0f));
    time = next;
    stack.base = {0, time};
    stack.placement = acc.placement();
    character.evaluate(stack);
  }
  return pos(character.world()[0]);
}

TEST(PosingRootMotion, ExtractWalksAwayTwiceTheDisplacementAfterTwoLoops) {
  const Model m = walker(false);
  glm::vec3 start;
  const glm::vec3 end = play_extracted(m, false, 72, &start);  // two loops exactly
  const glm::vec3 moved = end - start;
  EXPECT_NEAR(moved.x, 2.0f * kStep.x, 1e-4f);
  EXPECT_NEAR(moved.z, 2.0f * kStep.z, 1e-4f);
  EXPECT_NEAR(moved.y, 0.0f, 1e-5f);
  EXPECT_NEAR(glm::length(moved), 2.0f * glm::length(kStep), 1e-4f);
  // Half way through the third loop: two steps plus the clip's own motion to that time.
  const glm::vec3 mid = play_extracted(m, false, 90);
  Character reference(m);
  reference.evaluate(PoseSelection{0, kDuration * 0.5f});
  const glm::vec3 own = pos(reference.world()[0]) - start;
  EXPECT_NEAR(mid.x - start.x, 2.0f * kStep.x + own.x, 1e-4f);
  EXPECT_NEAR(mid.z - start.z, 2.0f * kStep.z + own.z, 1e-4f);
}

TEST(PosingRootMotion, ExtractWithYawTurnsThePathFourQuarterTurnsCloseTheLoop) {
  // 90° per loop: after four loops the character is back where it started, facing the same way;
  // after two it stands at step + R90·step.
  const Model m = walker(true);
  glm::vec3 start;
  const glm::vec3 after4 = play_extracted(m, true, 144, &start);
  EXPECT_LT(glm::length(after4 - start), 1e-3f);
  const glm::vec3 after2 = play_extracted(m, true, 72);
  const glm::vec3 want = kStep + axis_angle({0, 1, 0}, 90.0f) * kStep;
  EXPECT_NEAR(after2.x - start.x, want.x, 1e-4f);
  EXPECT_NEAR(after2.z - start.z, want.z, 1e-4f);
}

TEST(PosingRootMotion, DeltasCountLoopsBothWays) {
  const Model m = walker(false);
  const RootMotionClip clip(m, 0, {RootMotionMode::Extract});
  const RigidMotion loop = clip.loop_motion();
  EXPECT_NEAR(loop.translation.z, kStep.z, 1e-5f);
  const RigidMotion back = clip.delta(0.6f, 0.6f, -1);
  EXPECT_NEAR(back.translation.z, -kStep.z, 1e-5f);
  EXPECT_NEAR(back.translation.x, -kStep.x, 1e-5f);
  EXPECT_EQ(loops_between(1.1f, 0.1f, 1.0f), 1);
  EXPECT_EQ(loops_between(0.1f, 1.1f, -1.0f), -1);
  EXPECT_EQ(loops_between(0.1f, 0.2f, 1.0f), 0);
}

}  // namespace
}  // namespace rig
