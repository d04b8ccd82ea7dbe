// The crowd draws each instance with its own animated material values (CrowdRenderer's material
// buffer, shaders/material_values.glsl). The expected colour of instance k is worked out by
// hand from its Crowd::selection and the keys of crowd_material_model.h; the expected pixel is
// the same crowd drawn from a copy of the model whose material holds that colour in the file
// and no clip animates (the uniform path), read at instance k's cell, whose pixel comes from
// the grid offset and the orthographic camera by hand.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "character/crowd.h"
#include "crowd_material_model.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

constexpr int kSize = 96;
constexpr int kCount = 4;  // 2 × 2 cells, 1 apart: centres at x, z in {-0.5, 0.5}
constexpr float kHalf = 1.0f;

// Straight down on the grid: x right, -z up, 2 units across.
std::vector<uint8_t> render_crowd(const Model& m, float time) {
  std::string error;
  CrowdConfig config;
  config.count = kCount;
  config.seed = 9;
  config.spacing = 1.0f;
  Crowd crowd(m, nullptr, config);
  crowd.evaluate_at(time);
  CrowdRenderer renderer;
  EXPECT_TRUE(renderer.init(error)) << error;
  EXPECT_TRUE(renderer.set_crowd(crowd, error)) << error;
  renderer.upload(crowd);
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kSize, kSize, 1, error)) << error;
  target.bind();
  Camera camera;
  camera.eye = glm::vec3(0.0f, 50.0f, 0.0f);
  camera.view = glm::lookAt(camera.eye, glm::vec3(0.0f), glm::vec3(0, 0, -1));
  camera.projection = glm::ortho(-kHalf, kHalf, -kHalf, kHalf, 1.0f, 100.0f);
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  renderer.draw(camera, Viewport{0, 0, kSize, kSize}, SkinningMethod::Linear, /*grid=*/false);
  std::vector<uint8_t> rgba;
  target.read_rgba(rgba);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  return rgba;
}

// The pixel (rows top-down) over world point (x, 0, z).
glm::ivec3 pixel_at(const std::vector<uint8_t>& rgba, float x, float z) {
  const int px = int((x + kHalf) / (2 * kHalf) * kSize);
  const int py = int((z + kHalf) / (2 * kHalf) * kSize);
  const uint8_t* p = &rgba[(size_t(py) * kSize + size_t(px)) * 4];
  return {p[0], p[1], p[2]};
}

// Base colour of material 0 under clip c at t (crowd_material_model.h).
glm::vec4 base_color(int clip, float t) {
  return clip == 0 ? glm::vec4(1 - t, 0, t, 1) : glm::vec4(t / 2, 1, t / 2, 1);
}

TEST(CrowdMaterialsRender, EachInstanceShowsItsOwnAnimatedColour) {
  RIG_REQUIRE_GL();
  const Model animated = rig::test::crowd_material_model();
  const float time = 0.8f;
  const std::vector<uint8_t> crowd_image = render_crowd(animated, time);
  // Cells by hand: 2 columns, 2 rows, 1 apart, centred.
  const glm::vec2 cells[kCount] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {-0.5f, 0.5f}, {0.5f, 0.5f}};
  CrowdConfig config;
  config.count = kCount;
  config.seed = 9;
  Crowd clock(animated, nullptr, config);  // only for the instances' parameters
  glm::vec4 expected[kCount];
  for (int k = 0; k < kCount; ++k) {
    const PoseSelection sel = Crowd::selection(animated, clock.instance(k), time);
    const glm::vec4 a = base_color(sel.clip, sel.time);
    const glm::vec4 b = base_color(sel.blend_clip, sel.blend_time);
    expected[k] = a + (b - a) * sel.blend_weight;
  }
  // The instances' colours differ, so one instance's rows read for another's would show.
  int distinct_pairs = 0;
  for (int i = 0; i < kCount; ++i)
    for (int j = i + 1; j < kCount; ++j)
      distinct_pairs += glm::length(glm::vec3(expected[i] - expected[j])) > 0.1f;
  EXPECT_GE(distinct_pairs, kCount * (kCount - 1) / 2 - 1);
  for (int k = 0; k < kCount; ++k) {
    SCOPED_TRACE("instance " + std::to_string(k));
    Model still = rig::test::crowd_material_model(/*animated=*/false);
    still.materials[0].base_color_factor = expected[k];
    const std::vector<uint8_t> reference = render_crowd(still, time);
    // Quad 0 (animated material) centre at cell + (0, -0.15); quad 1 (still) at cell + (0, 0.3).
    const glm::ivec3 got = pixel_at(crowd_image, cells[k].x, cells[k].y - 0.15f);
    const glm::ivec3 want = pixel_at(reference, cells[k].x, cells[k].y - 0.15f);
    EXPECT_NE(want, glm::ivec3(0)) << "the reference draws the quad";
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], 2) << "channel " << c;
    // The material no clip animates keeps its uniforms: the file's colour in both.
    const glm::ivec3 still_got = pixel_at(crowd_image, cells[k].x, cells[k].y + 0.3f);
    const glm::ivec3 still_want = pixel_at(reference, cells[k].x, cells[k].y + 0.3f);
    EXPECT_NE(still_want, glm::ivec3(0));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(still_got[c], still_want[c], 2) << "still " << c;
  }
}

}  // namespace
}  // namespace rig::render
