// The Joint tab's rotation rings (app/viewer/rotation_rings.h) without a window: their size on
// screen, which ring a press picks, and the turn a drag makes, for a camera whose picture is
// worked out by hand: an orbit camera straight in front of a joint at the origin, looking down −Z.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "viewer/joint_rings.h"

namespace {

using rigview::JointRings;

constexpr float kDistance = 4.0f, kWidth = 800.0f, kHeight = 600.0f;
const rig::render::ScreenRect kRect{100.0f, 50.0f, kWidth, kHeight};
// The joint's centre on screen: the middle of the view.
const glm::vec2 kCentre(100.0f + kWidth / 2.0f, 50.0f + kHeight / 2.0f);

rig::render::Camera front_camera() {
  rig::render::OrbitCamera orbit;
  orbit.target = glm::vec3(0.0f);
  orbit.distance = kDistance;
  orbit.yaw = 0.0f;  // looks down −Z from +Z
  orbit.pitch = 0.0f;
  orbit.scene_radius = 1.0f;
  return orbit.camera(kWidth / kHeight);
}

TEST(RotationRings, RingsAreTheirPixelRadiusAcrossOnScreen) {
  const rig::render::Camera camera = front_camera();
  const JointRings rings = rigview::joint_rings(glm::mat4(1.0f), camera, kRect, 70.0f);
  // At distance d with a 45° vertical field of view, a pixel is 2 d tan(22.5°) / height.
  const float pixel = 2.0f * kDistance * std::tan(0.5f * 0.7854f) / kHeight;
  EXPECT_NEAR(rings.radius, 70.0f * pixel, 1e-3f * rings.radius);
  // Ring Z faces the camera: every point of it is 70 px from the centre.
  for (int i = 0; i < rigview::kRingSegments; i += 7) {
    glm::vec2 p;
    ASSERT_TRUE(rig::render::world_to_screen(camera, kRect, rigview::ring_point(rings, 2, i), p));
    EXPECT_NEAR(glm::length(p - kCentre), 70.0f, 0.5f) << "point " << i;
  }
}

TEST(RotationRings, APressPicksTheRingUnderIt) {
  const rig::render::Camera camera = front_camera();
  const JointRings rings = rigview::joint_rings(glm::mat4(1.0f), camera, kRect, 70.0f);
  // Seen from the front, ring Z is the circle, ring X (the YZ plane) the vertical line through
  // the centre and ring Y (the XZ plane) the horizontal one.
  const float d = 70.0f / std::sqrt(2.0f);
  EXPECT_EQ(rigview::pick_ring(rings, camera, kRect, kCentre + glm::vec2(d, -d), 6.0f), 2);
  EXPECT_EQ(rigview::pick_ring(rings, camera, kRect, kCentre + glm::vec2(0.0f, -40.0f), 6.0f), 0);
  EXPECT_EQ(rigview::pick_ring(rings, camera, kRect, kCentre + glm::vec2(-40.0f, 3.0f), 6.0f), 1);
  // Nothing within 6 px: between the rings, and well outside them.
  EXPECT_EQ(rigview::pick_ring(rings, camera, kRect, kCentre + glm::vec2(25.0f, -25.0f), 6.0f), -1);
  EXPECT_EQ(rigview::pick_ring(rings, camera, kRect, kCentre + glm::vec2(90.0f, -90.0f), 6.0f), -1);
}

TEST(RotationRings, ADragTurnsTheJointSoItsRingFollowsThePointer) {
  const rig::render::Camera camera = front_camera();
  const JointRings rings = rigview::joint_rings(glm::mat4(1.0f), camera, kRect, 70.0f);
  // From the ring's right (+X on screen) to its top (+Y): a quarter turn counter-clockwise on
  // screen. Z points at the camera, so that is +90° about Z, which takes +X to +Y.
  const glm::vec2 right = kCentre + glm::vec2(70.0f, 0.0f), top = kCentre + glm::vec2(0.0f, -70.0f);
  EXPECT_NEAR(rigview::ring_drag_angle(rings, 2, camera, kRect, right, top), 1.5707963f, 1e-4f);
  EXPECT_NEAR(rigview::ring_drag_angle(rings, 2, camera, kRect, top, right), -1.5707963f, 1e-4f);
  // A joint turned half round Y has its Z pointing away: the same drag is −90° about its Z.
  const glm::mat4 away = glm::rotate(glm::mat4(1.0f), 3.14159265f, glm::vec3(0, 1, 0));
  const JointRings back = rigview::joint_rings(away, camera, kRect, 70.0f);
  EXPECT_NEAR(rigview::ring_drag_angle(back, 2, camera, kRect, right, top), -1.5707963f, 1e-4f);
  // Across the ±180° line (left of the centre, from just above to just below): a small turn.
  const glm::vec2 above = kCentre + glm::vec2(-70.0f, -1.0f),
                  below = kCentre + glm::vec2(-70.0f, 1.0f);
  EXPECT_NEAR(rigview::ring_drag_angle(rings, 2, camera, kRect, above, below), 2.0f / 70.0f, 1e-3f);
}

}  // namespace
