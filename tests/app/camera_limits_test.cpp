// The viewer's camera and first-view rules as plain maths, without a window: the eye kept above
// the floor, compare columns backed off to fit, a drag that starts only past a few pixels, the
// start clip and the start yaw. Expectations are worked out by hand from the definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/constants.hpp>
#include <vector>

#include "render/camera.h"
#include "viewer/camera_controls.h"
#include "viewer/first_view.h"

namespace {

using rig::render::OrbitCamera;

OrbitCamera floor_camera() {
  OrbitCamera c;
  c.target = glm::vec3(0.0f, 1.0f, 0.0f);
  c.distance = 4.0f;
  c.scene_radius = 1.0f;
  c.floor = 0.0f;
  return c;
}

TEST(CameraLimits, ThePitchIsRaisedUntilTheEyeIsAHundredthOfTheRadiusAboveTheFloor) {
  OrbitCamera c = floor_camera();
  c.pitch = -1.0f;  // eye.y = 1 + 4 sin(-1) = -2.37: under the floor
  c.keep_above_floor();
  EXPECT_NEAR(c.eye().y, 0.01f, 1e-5f);
  // sin(pitch) = (0.01 - 1) / 4.
  EXPECT_NEAR(c.pitch, std::asin(-0.2475f), 1e-6f);

  c.pitch = -0.1f;  // eye.y = 1 − 0.399: above; untouched
  c.keep_above_floor();
  EXPECT_FLOAT_EQ(c.pitch, -0.1f);

  OrbitCamera free = floor_camera();
  free.floor = rig::render::kNoFloor;
  free.pitch = -1.5f;
  free.keep_above_floor();
  EXPECT_FLOAT_EQ(free.pitch, -1.5f);

  OrbitCamera low = floor_camera();
  low.target.y = -3.0f;  // panned under the floor: the eye can still climb out, sin = 3.01 / 4
  low.pitch = 0.2f;
  low.keep_above_floor();
  EXPECT_NEAR(low.pitch, std::asin(0.7525f), 1e-6f);
  OrbitCamera sunk = floor_camera();
  sunk.target.y = -5.0f;  // deeper than the distance: looking straight down is the best there is
  sunk.pitch = 0.2f;
  sunk.keep_above_floor();
  EXPECT_FLOAT_EQ(sunk.pitch, rig::render::kMaxOrbitPitch);
}

TEST(CameraLimits, OrbitAndZoomKeepTheEyeAboveTheFloor) {
  OrbitCamera c = floor_camera();
  c.pitch = 0.0f;
  rigview::orbit_camera(c, 0.0f, -500.0f);  // asks pitch −4 rad
  EXPECT_GE(c.eye().y, 0.0f);
  EXPECT_NEAR(c.eye().y, 0.01f, 1e-5f);
  c.pitch = std::asin(-0.2f);      // eye.y = 1 − 0.8 = 0.2
  rigview::zoom_camera(c, -5.0f);  // backs off by 0.85^-5 = 2.25: the eye would sink to −0.8
  EXPECT_NEAR(c.distance, 4.0f / std::pow(0.85f, 5.0f), 1e-3f);
  EXPECT_NEAR(c.eye().y, 0.01f, 1e-4f);
}

TEST(CameraLimits, CompareColumnsBackOffToFitTheFramedSphere) {
  OrbitCamera c;
  c.distance = 3.0f;
  // 45° vertical field of view; a 1.6-wide view in 4 columns of aspect 0.4: the sphere must
  // fit the column's half width atan(0.4 tan 22.5°), so the distance grows by
  // sin 22.5° / sin(atan(0.4 tan 22.5°)) = 2.34119 (the view itself fits vertically).
  EXPECT_NEAR(rig::render::column_orbit(c, 1.6f, 4).distance, 3.0f * 2.34119f, 1e-3f);
  EXPECT_FLOAT_EQ(rig::render::column_orbit(c, 1.6f, 1).distance, 3.0f);
  // Columns still wider than tall: the vertical fit holds for both, nothing moves.
  EXPECT_FLOAT_EQ(rig::render::column_orbit(c, 8.0f, 2).distance, 3.0f);
}

TEST(PointerDrag, NothingMovesUntilThePointerLeavesThePressPointByMoreThanFourPixels) {
  rigview::PointerDrag d;
  const glm::vec2 press(100.0f, 100.0f);
  EXPECT_EQ(d.update(true, true, press, {102.0f, 101.0f}), glm::vec2(0.0f));
  EXPECT_EQ(d.update(true, false, press, {103.0f, 102.0f}), glm::vec2(0.0f));  // 3.6 px
  // Past the threshold: the whole way from the press point, then frame by frame.
  EXPECT_EQ(d.update(true, false, press, {110.0f, 100.0f}), glm::vec2(10.0f, 0.0f));
  EXPECT_EQ(d.update(true, false, press, {115.0f, 98.0f}), glm::vec2(5.0f, -2.0f));
  EXPECT_EQ(d.update(false, false, press, {115.0f, 98.0f}), glm::vec2(0.0f));
  EXPECT_FALSE(d.clicked);  // a drag is no click
}

TEST(PointerDrag, AClickIsAReleaseWithoutDragEvenWhenThePointerMovedBeforeThePress) {
  rigview::PointerDrag d;
  // The pointer came from far away in the same frame as the press: no movement to apply.
  EXPECT_EQ(d.update(true, true, {50.0f, 60.0f}, {50.0f, 60.0f}), glm::vec2(0.0f));
  EXPECT_EQ(d.update(false, false, {}, {51.0f, 60.0f}), glm::vec2(0.0f));
  EXPECT_TRUE(d.clicked);
  EXPECT_EQ(d.update(false, false, {}, {51.0f, 60.0f}), glm::vec2(0.0f));
  EXPECT_FALSE(d.clicked);  // once
  // Pressed, dragged and still held past the press point within one frame: it moves at once.
  EXPECT_EQ(d.update(true, true, {10.0f, 10.0f}, {40.0f, 10.0f}), glm::vec2(30.0f, 0.0f));
}

rig::Model model_with_clips(std::vector<const char*> names) {
  rig::Model m;
  for (const char* n : names) m.clips.emplace_back().name = n;
  return m;
}

TEST(FirstView, OpensOnAnIdleLikeClipByNameElseTheFirst) {
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({"Death", "Walk", "Idle_Sword"})), 2);
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({"Stand", "IDLE"})), 1);  // idle first
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({"Death", "standing"})), 1);
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({"Run", "Breathe"})), 1);
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({"Death", "Walk"})), 0);
  EXPECT_EQ(rigview::preferred_start_clip(model_with_clips({})), -1);
}

// Two joints at `left` and `right`, named as a file would.
float yaw_for(const char* left_name, glm::vec3 left, const char* right_name, glm::vec3 right) {
  rig::Model m;
  m.nodes.resize(3);
  m.nodes[0].name = "Hips";
  m.nodes[1].name = left_name;
  m.nodes[2].name = right_name;
  std::vector<glm::mat4> world(3, glm::mat4(1.0f));
  world[1][3] = glm::vec4(left, 1.0f);
  world[2][3] = glm::vec4(right, 1.0f);
  return rigview::facing_yaw(m, world, 0.6f);
}

// Angle difference folded into (−π, π].
float turn(float a, float b) { return std::remainder(a - b, 2.0f * glm::pi<float>()); }

TEST(FirstView, TheCameraStartsInFrontOfTheCharacter) {
  // Facing +Z (glTF's front): left on +X; the default yaw stays.
  EXPECT_NEAR(turn(yaw_for("LeftArm", {1, 1, 0}, "RightArm", {-1, 1, 0}), 0.6f), 0.0f, 1e-5f);
  // Facing −Z (away from the default camera): left on −X; the camera goes round by π.
  EXPECT_NEAR(turn(yaw_for("LeftArm", {-1, 1, 0}, "RightArm", {1, 1, 0}), 0.6f + glm::pi<float>()),
              0.0f, 1e-5f);
  // Facing +X: left on −Z; yaw π/2 puts the eye on +X.
  EXPECT_NEAR(
      turn(yaw_for("hand_l", {0, 1, -1}, "hand_r", {0, 1, 1}), 0.6f + glm::half_pi<float>()), 0.0f,
      1e-5f);
  EXPECT_NEAR(
      turn(yaw_for("Foot.L", {0, 0, -1}, "Foot.R", {0, 0, 1}), 0.6f + glm::half_pi<float>()), 0.0f,
      1e-5f);
  // No left/right pair: the default.
  EXPECT_FLOAT_EQ(yaw_for("Arm", {-1, 1, 0}, "Leg", {1, 1, 0}), 0.6f);
}

}  // namespace
