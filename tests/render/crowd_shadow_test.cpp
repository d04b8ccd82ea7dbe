// The crowd's key-light shadow: two instances of a floating box over the ground, lit from
// straight above, darken the ground's catcher exactly under each instance's footprint, at the
// grid cells worked out by hand; the map is drawn again only when the uploaded pose, the method
// or the light changed.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "character/crowd.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr int kWidth = 200, kHeight = 160;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);
// The box: x and z in [−0.5, 0.5], y in [1, 2] in the character's frame.
constexpr float kBoxHalf = 0.5f, kBoxBottom = 1.0f, kBoxTop = 2.0f;
// Two instances 3 apart: Crowd::grid_columns(2) = ceil(√2) = 2 columns, one row, centred on the
// origin: cells at x = ∓1.5, z = 0 (written out, not Crowd::grid_offset).
const glm::vec3 kCells[2] = {{-1.5f, 0.0f, 0.0f}, {1.5f, 0.0f, 0.0f}};

void add_quad(std::vector<glm::vec3>& p, std::vector<glm::vec3>& n, std::vector<uint32_t>& idx,
              glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, glm::vec3 normal) {
  const uint32_t base = uint32_t(p.size());
  for (glm::vec3 v : {a, b, c, d}) {
    p.push_back(v);
    n.push_back(normal);
  }
  idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

// The box skinned to one joint at the origin, and below it either a vertex at the origin in a
// degenerate triangle (nothing drawn) so the character's bounds, and the grid, reach down to
// y = 0, or (with_plane) a plane at y = 0, x and z in [−kPlaneHalf, kPlaneHalf], that the box
// shadows: part of the same character, so the crowd's own shading shows the shadow.
constexpr float kPlaneHalf = 1.2f;

Model floating_box(bool with_plane = false) {
  std::vector<glm::vec3> p, n;
  std::vector<uint32_t> idx;
  const float s = kBoxHalf, lo = kBoxBottom, hi = kBoxTop;
  add_quad(p, n, idx, {-s, hi, s}, {s, hi, s}, {s, hi, -s}, {-s, hi, -s}, {0, 1, 0});
  add_quad(p, n, idx, {-s, lo, -s}, {s, lo, -s}, {s, lo, s}, {-s, lo, s}, {0, -1, 0});
  add_quad(p, n, idx, {-s, lo, s}, {s, lo, s}, {s, hi, s}, {-s, hi, s}, {0, 0, 1});
  add_quad(p, n, idx, {s, lo, -s}, {-s, lo, -s}, {-s, hi, -s}, {s, hi, -s}, {0, 0, -1});
  add_quad(p, n, idx, {s, lo, s}, {s, lo, -s}, {s, hi, -s}, {s, hi, s}, {1, 0, 0});
  add_quad(p, n, idx, {-s, lo, -s}, {-s, lo, s}, {-s, hi, s}, {-s, hi, -s}, {-1, 0, 0});
  if (with_plane) {
    const float h = kPlaneHalf;
    add_quad(p, n, idx, {-h, 0, h}, {h, 0, h}, {h, 0, -h}, {-h, 0, -h}, {0, 1, 0});
  } else {
    const uint32_t origin = uint32_t(p.size());
    p.push_back(glm::vec3(0.0f));
    n.push_back(glm::vec3(0, 1, 0));
    idx.insert(idx.end(), {origin, origin, origin});
  }
  std::vector<uint16_t> joints;
  std::vector<float> weights;
  for (size_t v = 0; v < p.size(); ++v) {
    joints.insert(joints.end(), {0, 0, 0, 0});
    weights.insert(weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
  Model m = test::chain_model({ChainJoint{}}, p, n, 4, joints, weights, idx);
  Material grey;
  grey.base_color_factor = glm::vec4(0.8f, 0.8f, 0.8f, 1.0f);
  m.materials.push_back(grey);
  m.meshes[0].primitives[0].material = 0;
  return m;
}

const Camera& view() {
  static const Camera camera =
      look_at_camera({0, 6, 6}, {0, 0, 0}, glm::radians(45.0f), float(kWidth) / kHeight);
  return camera;
}

std::vector<uint8_t> draw_pixels(CrowdRenderer& renderer, SkinningMethod method,
                                 const CrowdDrawOptions& options) {
  std::string error;
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  glClearColor(kBackground.r, kBackground.g, kBackground.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  renderer.draw(view(), Viewport{0, 0, kWidth, kHeight}, method, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  return pixels;
}

// Whether the segment from `origin` along `dir` up to t_max passes through the box of cell
// `cell` widened by `pad` (the slab test).
bool hits_box(glm::vec3 origin, glm::vec3 dir, float t_max, glm::vec3 cell, float pad) {
  const glm::vec3 lo = cell + glm::vec3(-kBoxHalf - pad, kBoxBottom - pad, -kBoxHalf - pad);
  const glm::vec3 hi = cell + glm::vec3(kBoxHalf + pad, kBoxTop + pad, kBoxHalf + pad);
  return test::segment_hits_box(origin, dir, t_max, lo, hi);
}

// Per pixel, by the ground point (y = 0) its centre sees where no box hides it: k + 1 well
// inside instance k's footprint (by `margin`), −1 well outside both, 0 otherwise.
std::vector<int> footprint_classes(float margin) {
  std::vector<int> classes(size_t(kWidth) * kHeight, 0);
  const ScreenRect rect{0, 0, float(kWidth), float(kHeight)};
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const Ray ray = screen_ray(view(), rect, glm::vec2(x + 0.5f, y + 0.5f));
      glm::vec3 g;
      if (!intersect_plane(ray, glm::vec3(0.0f), glm::vec3(0, 1, 0), g)) continue;
      const float t = glm::length(g - ray.origin);
      int c = -1;
      for (int k = 0; k < 2; ++k) {
        if (hits_box(ray.origin, ray.direction, t, kCells[k], margin)) {
          c = 0;
          break;
        }
        const float d = std::max(std::abs(g.x - kCells[k].x), std::abs(g.z - kCells[k].z));
        if (d < kBoxHalf - margin)
          c = k + 1;
        else if (d <= kBoxHalf + margin)
          c = 0;
      }
      classes[size_t(y) * kWidth + x] = c;
    }
  return classes;
}

struct CrowdSetup {
  explicit CrowdSetup(const Model& model) : crowd(model, nullptr, config()) {
    const SkinningMethod methods[] = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
    crowd.set_methods(methods);
    crowd.evaluate_at(0.0);
    std::string error;
    ok = renderer.init(error) && renderer.set_crowd(crowd, error);
    EXPECT_TRUE(ok) << error;
  }
  static CrowdConfig config() {
    CrowdConfig c;
    c.count = 2;
    c.spacing = 3.0f;
    return c;
  }
  Crowd crowd;
  CrowdRenderer renderer;
  bool ok = false;
};

CrowdDrawOptions from_above(bool shadows) {
  CrowdDrawOptions options;
  options.grid = true;
  options.shadows = shadows;
  options.key_light = glm::vec3(0.0f, 1.0f, 0.0f);
  return options;
}

TEST(CrowdShadow, CatcherDarkensTheGroundUnderEachInstance) {
  RIG_REQUIRE_GL();
  const Model model = floating_box();
  CrowdSetup setup(model);
  ASSERT_TRUE(setup.ok);
  for (int k = 0; k < 2; ++k) ASSERT_EQ(setup.crowd.offset(k), kCells[k]) << "instance " << k;
  const std::vector<uint8_t> plain =
      draw_pixels(setup.renderer, SkinningMethod::Linear, from_above(false));
  const std::vector<uint8_t> shadowed =
      draw_pixels(setup.renderer, SkinningMethod::Linear, from_above(true));
  const std::vector<int> classes = footprint_classes(0.1f);
  size_t inside[2] = {0, 0}, outside = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i] == 0) continue;
    // Background pixels only: grid lines are drawn over the catcher.
    bool background = true;
    for (int c = 0; c < 3; ++c)
      background = background && std::abs(plain[i * 4 + c] - kBackground[c] * 255.0f) < 1.0f;
    if (!background) continue;
    if (classes[i] > 0) {
      ++inside[classes[i] - 1];
      // Black at 45 % over the background: 0.55 of it.
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(int(shadowed[i * 4 + c]), 255.0f * kBackground[c] * 0.55f, 1.5f)
            << "pixel " << i % kWidth << "," << i / kWidth << " under instance " << classes[i] - 1;
    } else {
      ++outside;
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(shadowed[i * 4 + c], plain[i * 4 + c])
            << "pixel " << i % kWidth << "," << i / kWidth << " outside the footprints";
    }
  }
  EXPECT_GT(inside[0], 100u);
  EXPECT_GT(inside[1], 100u);
  EXPECT_GT(outside, 3000u);
}

uint8_t display(float linear) {
  return uint8_t(std::lround(255.0 * std::pow(std::clamp(linear, 0.0f, 1.0f), 1.0 / 2.2)));
}

// Each instance's box shadows its own plane: the crowd's shading (the classic look) keeps only
// the ambient term there, as the single character's does, and leaves the rest of the plane as
// it is without shadows.
TEST(CrowdShadow, EachInstanceShadowsItsOwnSurfaceWhereTheLightSays) {
  RIG_REQUIRE_GL();
  const Model model = floating_box(true);
  CrowdSetup setup(model);
  ASSERT_TRUE(setup.ok);
  const std::vector<uint8_t> lit = draw_pixels(setup.renderer, SkinningMethod::Linear,
                                               CrowdDrawOptions{false, false, {0, 1, 0}});
  const std::vector<uint8_t> shadowed =
      draw_pixels(setup.renderer, SkinningMethod::Linear, CrowdDrawOptions{false, true, {0, 1, 0}});
  // mesh.frag.glsl's classic look under a hidden key light: 0.45 × base colour × the sky colour
  // (the normal points straight up), gamma 2.2.
  const glm::ivec3 ambient_only(display(0.45f * 0.8f * 0.62f), display(0.45f * 0.8f * 0.68f),
                                display(0.45f * 0.8f * 0.78f));
  const std::vector<int> classes = footprint_classes(0.1f);
  const ScreenRect rect{0, 0, float(kWidth), float(kHeight)};
  size_t inside[2] = {0, 0}, outside = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i] == 0) continue;
    // Only pixels that see a plane, well inside its edges.
    const Ray ray = screen_ray(view(), rect, glm::vec2(i % kWidth + 0.5f, i / kWidth + 0.5f));
    glm::vec3 g;
    if (!intersect_plane(ray, glm::vec3(0.0f), glm::vec3(0, 1, 0), g)) continue;
    bool on_plane = false;
    for (const glm::vec3& cell : kCells)
      on_plane =
          on_plane || std::max(std::abs(g.x - cell.x), std::abs(g.z - cell.z)) < kPlaneHalf - 0.1f;
    if (!on_plane) continue;
    if (classes[i] > 0) {
      ++inside[classes[i] - 1];
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(int(shadowed[i * 4 + c]), ambient_only[c], 2)
            << "pixel " << i % kWidth << "," << i / kWidth << " under instance " << classes[i] - 1;
    } else {
      ++outside;
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(int(shadowed[i * 4 + c]), int(lit[i * 4 + c]), 1)
            << "pixel " << i % kWidth << "," << i / kWidth << " outside the footprints";
    }
  }
  EXPECT_GT(inside[0], 100u);
  EXPECT_GT(inside[1], 100u);
  EXPECT_GT(outside, 300u);
}

TEST(CrowdShadow, MapIsRedrawnOnlyWhenThePoseTheMethodTheLightOrTheLookChanges) {
  RIG_REQUIRE_GL();
  const Model model = floating_box();
  CrowdSetup setup(model);
  ASSERT_TRUE(setup.ok);
  CrowdRenderer& renderer = setup.renderer;
  CrowdDrawOptions options = from_above(true);
  const uint64_t start = renderer.shadow_passes_drawn();
  const std::vector<uint8_t> first = draw_pixels(renderer, SkinningMethod::Linear, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 1);
  // The same crowd time uploaded again: no new map, the same picture.
  renderer.upload(setup.crowd);
  EXPECT_TRUE(draw_pixels(renderer, SkinningMethod::Linear, options) == first);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 1);
  // Without shadows no map is drawn.
  draw_pixels(renderer, SkinningMethod::Linear, from_above(false));
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 1);
  // Another method; another light, then the first again: a map each.
  draw_pixels(renderer, SkinningMethod::DualQuaternion, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 2);
  options.key_light = glm::vec3(1.0f, 2.0f, 0.5f);
  draw_pixels(renderer, SkinningMethod::DualQuaternion, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 3);
  options.key_light = glm::vec3(0.0f, 1.0f, 0.0f);
  EXPECT_TRUE(draw_pixels(renderer, SkinningMethod::Linear, options) == first);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 4);
  // The crowd moves on in time: a new map.
  setup.crowd.update(0.25f);
  renderer.upload(setup.crowd);
  draw_pixels(renderer, SkinningMethod::Linear, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 5);
  // The studio look casts MASK and BLEND cut by alpha, the classic look whole: a map each.
  options.lights = LightSetup::Studio;
  draw_pixels(renderer, SkinningMethod::Linear, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 6);
  draw_pixels(renderer, SkinningMethod::Linear, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 6);
}

}  // namespace
}  // namespace rig::render
