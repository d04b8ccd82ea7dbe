// A character's first view (OrbitCamera::frame_character): from the yaw it is given, the eye at
// chest height, the box filling kFrameFill of the view.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "render/camera.h"

namespace rig::render {
namespace {

// The largest |NDC x| and |NDC y| of the box's corners, projected with glm directly.
glm::vec2 projected_reach(const OrbitCamera& orbit, const Bounds& b, float aspect) {
  const glm::vec3 eye = orbit.eye();
  const glm::mat4 m = glm::perspective(orbit.fov_y, aspect, 0.01f, 100.0f) *
                      glm::lookAt(eye, orbit.target, glm::vec3(0, 1, 0));
  glm::vec2 reach(0.0f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec4 p = m * glm::vec4(i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y,
                                      i & 4 ? b.max.z : b.min.z, 1.0f);
    reach = glm::max(reach, glm::abs(glm::vec2(p) / p.w));
  }
  return reach;
}

TEST(Framing, ThinUprightBoxIsSeenFromChestHeightAtTheHandComputedDistance) {
  // A vertical segment 1.8 high: target its middle (0.9), the eye at 0.72 · 1.8 = 1.296. Its top
  // binds: with s the horizontal distance, pitch = atan(0.396 / s) and the top's angle above
  // the axis atan(0.504 / s) + pitch, tan of it = 0.9 s / (s² − 0.199584), which must equal
  // 0.85 tan(0.3927): s = 2.632048, so distance = √(s² + 0.396²) = 2.661671 and pitch 0.149333.
  // The bottom then reaches 0.9 s / (s² + 0.513216) / tan(0.3927) = 0.7686.
  const Bounds segment{glm::vec3(0.0f), glm::vec3(0.0f, 1.8f, 0.0f)};
  OrbitCamera orbit;
  orbit.yaw = 0.3f;
  orbit.frame_character(segment, 1.5f);
  EXPECT_FLOAT_EQ(orbit.yaw, 0.3f);
  EXPECT_NEAR(orbit.target.y, 0.9f, 1e-6f);
  EXPECT_NEAR(orbit.eye().y, 1.296f, 1e-4f);
  EXPECT_NEAR(orbit.distance, 2.661671f, 1e-4f);
  EXPECT_NEAR(orbit.pitch, 0.149333f, 1e-5f);
  const glm::vec2 reach = projected_reach(orbit, segment, 1.5f);
  EXPECT_NEAR(reach.y, 0.85f, 1e-4f);
  EXPECT_NEAR(reach.x, 0.0f, 1e-5f);
}

TEST(Framing, CharacterSizedBoxFillsMostOfTheViewFromItsThreeQuarterFront) {
  // 0.6 wide, 1.8 high, 0.3 deep, standing on the ground at x = 2.
  const Bounds box{glm::vec3(1.7f, 0.0f, -0.15f), glm::vec3(2.3f, 1.8f, 0.15f)};
  OrbitCamera orbit;
  orbit.frame_character(box, 16.0f / 9.0f);
  EXPECT_FLOAT_EQ(orbit.yaw, kThreeQuarterYaw);
  // Looking from +Z turned towards +X: the eye in front of the box (z > 0) and to its right.
  EXPECT_GT(orbit.eye().z, 0.3f);
  EXPECT_GT(orbit.eye().x, 2.3f);
  EXPECT_NEAR(orbit.target.y, 0.9f, 1e-6f);
  EXPECT_NEAR(orbit.eye().y, 1.296f, 1e-4f);
  // Wide view: the height binds and reaches exactly the fill; the width stays inside.
  glm::vec2 reach = projected_reach(orbit, box, 16.0f / 9.0f);
  EXPECT_NEAR(reach.y, 0.85f, 1e-4f);
  EXPECT_LT(reach.x, 0.85f);
  // A portrait view: the width binds instead.
  orbit.frame_character(box, 0.2f);
  reach = projected_reach(orbit, box, 0.2f);
  EXPECT_NEAR(reach.x, 0.85f, 1e-4f);
  EXPECT_LT(reach.y, 0.85f);
}

}  // namespace
}  // namespace rig::render
