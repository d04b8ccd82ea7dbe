// Screen <-> world maths of the viewer's handles (render/camera.h), against values worked out by
// hand for a camera at (0, 0, 5) looking down -Z with a 90° field of view (tan 45° = 1, so a
// point at depth d and x = d lands on the view's right edge) in a 200 x 200 pixel view.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "render/camera.h"

namespace rig::render {
namespace {

Camera straight_camera() {
  Camera c;
  c.eye = {0.0f, 0.0f, 5.0f};
  c.view = glm::lookAt(c.eye, glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  c.projection = glm::perspective(glm::radians(90.0f), 1.0f, 1.0f, 100.0f);
  return c;
}
const ScreenRect kRect{0.0f, 0.0f, 200.0f, 200.0f};

void expect_near(glm::vec3 a, glm::vec3 b, float tolerance) {
  EXPECT_NEAR(a.x, b.x, tolerance);
  EXPECT_NEAR(a.y, b.y, tolerance);
  EXPECT_NEAR(a.z, b.z, tolerance);
}

TEST(CameraDrag, WorldToScreenByHand) {
  const Camera c = straight_camera();
  glm::vec2 p;
  ASSERT_TRUE(world_to_screen(c, kRect, {0.0f, 0.0f, 0.0f}, p));
  EXPECT_NEAR(p.x, 100.0f, 1e-4f);
  EXPECT_NEAR(p.y, 100.0f, 1e-4f);
  // Depth 5: x = 1 is a fifth of the half width right of centre; y = 1 a fifth up (pixels down).
  ASSERT_TRUE(world_to_screen(c, kRect, {1.0f, 1.0f, 0.0f}, p));
  EXPECT_NEAR(p.x, 120.0f, 1e-4f);
  EXPECT_NEAR(p.y, 80.0f, 1e-4f);
  // A view that does not start at the window's corner shifts the pixels with it.
  ASSERT_TRUE(world_to_screen(c, {50.0f, 10.0f, 200.0f, 200.0f}, {1.0f, 1.0f, 0.0f}, p));
  EXPECT_NEAR(p.x, 170.0f, 1e-4f);
  EXPECT_NEAR(p.y, 90.0f, 1e-4f);
  // Behind the camera: no pixel.
  p = {-7.0f, -7.0f};
  EXPECT_FALSE(world_to_screen(c, kRect, {0.0f, 0.0f, 6.0f}, p));
  EXPECT_EQ(p.x, -7.0f);
}

TEST(CameraDrag, RayThroughAPixelByHand) {
  const Camera c = straight_camera();
  // Pixel (150, 100): NDC x = 0.5, so the ray runs along (0.5, 0, -1) from the eye and starts
  // on the near plane (1 in front of the eye, z = 4) at x = 0.5.
  const Ray r = screen_ray(c, kRect, {150.0f, 100.0f});
  expect_near(r.origin, {0.5f, 0.0f, 4.0f}, 1e-4f);
  expect_near(r.direction, glm::vec3(0.5f, 0.0f, -1.0f) / std::sqrt(1.25f), 1e-5f);
  expect_near(view_direction(c), {0.0f, 0.0f, -1.0f}, 1e-6f);
}

TEST(CameraDrag, PlaneIntersection) {
  const Ray down{{0.0f, 3.0f, 0.0f}, {0.0f, -1.0f, 0.0f}};
  glm::vec3 hit(9.0f);
  ASSERT_TRUE(intersect_plane(down, {5.0f, 1.0f, 5.0f}, {0.0f, 1.0f, 0.0f}, hit));
  expect_near(hit, {0.0f, 1.0f, 0.0f}, 1e-6f);
  hit = glm::vec3(9.0f);
  // Parallel to the plane, and a plane behind the ray: no hit, `hit` untouched.
  EXPECT_FALSE(intersect_plane({{0, 3, 0}, {1, 0, 0}}, {0, 1, 0}, {0, 1, 0}, hit));
  EXPECT_FALSE(intersect_plane(down, {0.0f, 4.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, hit));
  EXPECT_EQ(hit, glm::vec3(9.0f));
}

TEST(CameraDrag, SidewaysDragKeepsTheHandlesDepth) {
  const Camera c = straight_camera();
  // Handle at depth 6 (z = -1); the mouse at NDC (0.5, 0.5) sees x = y = 0.5 · 6 = 3 there.
  glm::vec3 moved;
  ASSERT_TRUE(drag_on_view_plane(c, kRect, {0.2f, 0.3f, -1.0f}, {150.0f, 50.0f}, moved));
  expect_near(moved, {3.0f, 3.0f, -1.0f}, 1e-4f);
  // 10 pixels right of centre at depth 6: 10 · (2 · 6 · tan 45° / 200) = 0.6 world units.
  ASSERT_TRUE(drag_on_view_plane(c, kRect, {0.0f, 0.0f, -1.0f}, {110.0f, 100.0f}, moved));
  expect_near(moved, {0.6f, 0.0f, -1.0f}, 1e-4f);
}

TEST(CameraDrag, DepthDragMovesAlongTheViewAtThePixelSize) {
  const Camera c = straight_camera();
  // Same pixel size as above (0.06 at depth 6): 10 pixels push the handle 0.6 further away.
  expect_near(drag_in_depth(c, kRect, {0.0f, 0.0f, -1.0f}, 10.0f), {0.0f, 0.0f, -1.6f}, 1e-5f);
  expect_near(drag_in_depth(c, kRect, {1.0f, 2.0f, -1.0f}, -5.0f), {1.0f, 2.0f, -0.7f}, 1e-5f);
}

TEST(CameraDrag, ProjectThenUnprojectRoundTripsForAnOrbitCamera) {
  OrbitCamera orbit;
  orbit.target = {0.3f, 1.1f, -0.2f};
  orbit.yaw = 2.1f;
  orbit.pitch = -0.4f;
  orbit.distance = 4.0f;
  const ScreenRect rect{380.0f, 0.0f, 900.0f, 720.0f};
  const Camera c = orbit.camera(rect.width / rect.height);
  for (const glm::vec3 p :
       {glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.5f, 1.6f, 0.4f), glm::vec3(-0.7f, 0.2f, -0.6f)}) {
    glm::vec2 pixel;
    ASSERT_TRUE(world_to_screen(c, rect, p, pixel));
    glm::vec3 back;
    ASSERT_TRUE(drag_on_view_plane(c, rect, p, pixel, back));
    expect_near(back, p, 1e-4f);
    // The ray through that pixel passes through p: p lies on the line, in front of the origin.
    const Ray r = screen_ray(c, rect, pixel);
    const glm::vec3 off = p - r.origin;
    EXPECT_GT(glm::dot(off, r.direction), 0.0f);
    EXPECT_LT(glm::length(off - glm::dot(off, r.direction) * r.direction), 1e-4f);
  }
}

}  // namespace
}  // namespace rig::render
