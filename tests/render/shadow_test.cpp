// The key light's shadow: a box above a plane, lit from straight above, darkens the plane (and
// the ground's catcher) exactly under the box's footprint; a plane with no caster above it is
// unchanged by shadows; the light's frustum is fitted to the casters' box; the map is drawn
// again only when what it shows may have changed.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "render/offscreen.h"
#include "render/renderer.h"
#include "render/shadow_map.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr int kWidth = 200, kHeight = 160;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);
// The box: x and z in [−0.5, 0.5], y in [1, 2]. Lit from straight above (orthographic light),
// its shadow on the ground (y = 0) is exactly x, z in [−0.5, 0.5].
constexpr float kBoxHalf = 0.5f, kBoxBottom = 1.0f, kBoxTop = 2.0f, kPlaneHalf = 3.0f;

// Quads as two triangles each, appended to a primitive's arrays; `n` the face normal.
void add_quad(Primitive& p, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, glm::vec3 n) {
  const uint32_t base = uint32_t(p.positions.size());
  for (glm::vec3 v : {a, b, c, d}) {
    p.positions.push_back(v);
    p.normals.push_back(n);
  }
  p.indices.insert(p.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

Primitive plane_primitive() {
  Primitive p;
  const float h = kPlaneHalf;
  add_quad(p, {-h, 0, h}, {h, 0, h}, {h, 0, -h}, {-h, 0, -h}, {0, 1, 0});
  p.material = 0;
  return p;
}

Primitive box_primitive() {
  Primitive p;
  const float s = kBoxHalf, lo = kBoxBottom, hi = kBoxTop;
  add_quad(p, {-s, hi, s}, {s, hi, s}, {s, hi, -s}, {-s, hi, -s}, {0, 1, 0});
  add_quad(p, {-s, lo, -s}, {s, lo, -s}, {s, lo, s}, {-s, lo, s}, {0, -1, 0});
  add_quad(p, {-s, lo, s}, {s, lo, s}, {s, hi, s}, {-s, hi, s}, {0, 0, 1});
  add_quad(p, {s, lo, -s}, {-s, lo, -s}, {-s, hi, -s}, {s, hi, -s}, {0, 0, -1});
  add_quad(p, {s, lo, s}, {s, lo, -s}, {s, hi, -s}, {s, hi, s}, {1, 0, 0});
  add_quad(p, {-s, lo, -s}, {-s, lo, s}, {-s, hi, s}, {-s, hi, -s}, {-1, 0, 0});
  p.material = 0;
  return p;
}

// Skins every vertex of `p` fully to joint 0.
void skin_to_first_joint(Primitive& p) {
  p.influences = 4;
  for (size_t v = 0; v < p.positions.size(); ++v) {
    p.joints.insert(p.joints.end(), {0, 0, 0, 0});
    p.weights.insert(p.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
}

// One joint at the origin (the identity pose). The skinned primitive of node 0 is the plane
// (with_plane) or the box; with_box and with_plane: the box is a rigid second mesh on the joint's
// node, so both the skinned and the rigid programs cast.
Model scene(bool with_box, bool with_plane) {
  Primitive skinned = with_plane ? plane_primitive() : box_primitive();
  skin_to_first_joint(skinned);
  Model m = test::chain_model({ChainJoint{}}, skinned.positions, skinned.normals, 4, skinned.joints,
                              skinned.weights, skinned.indices);
  Material grey;
  grey.base_color_factor = glm::vec4(0.8f, 0.8f, 0.8f, 1.0f);
  m.materials.push_back(grey);
  m.meshes[0].primitives[0].material = 0;
  if (with_box && with_plane) {
    Mesh box;
    box.name = "box";
    box.primitives.push_back(box_primitive());
    m.meshes.push_back(std::move(box));
    m.nodes[1].mesh = 1;
    m.draws.push_back(DrawItem{1, 1, 0, -1});
  }
  return m;
}

struct Render {
  Camera camera;
  std::vector<uint8_t> pixels;  // RGBA, rows top to bottom
};

// `model` in its rest pose from (0, 6, 6) looking at the origin. key_light zero: the viewer's
// default light. ground: the grid (and catcher) at y = 0.
Render render(const Model& model, bool shadows, glm::vec3 key_light, bool ground) {
  std::string error;
  test::RendererWithModel setup(model);
  Renderer& renderer = setup.renderer;
  if (ground)
    renderer.set_ground(
        Bounds{glm::vec3(-kPlaneHalf, 0, -kPlaneHalf), glm::vec3(kPlaneHalf, kBoxTop, kPlaneHalf)});
  Render r;
  r.camera = look_at_camera({0, 6, 6}, {0, 0, 0}, glm::radians(45.0f), float(kWidth) / kHeight);
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, kWidth, kHeight};
  DrawOptions options;
  options.grid = ground;
  options.shadows = shadows;
  options.key_light = key_light;
  renderer.clear(viewport, kBackground);
  renderer.draw(r.camera, viewport, options);
  target.read_rgba(r.pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  return r;
}

// Whether the segment from `origin` along `dir` up to parameter t_max passes through the box
// (widened by `pad`): the slab test.
bool hits_box(glm::vec3 origin, glm::vec3 dir, float t_max, float pad) {
  const glm::vec3 lo(-kBoxHalf - pad, kBoxBottom - pad, -kBoxHalf - pad);
  const glm::vec3 hi(kBoxHalf + pad, kBoxTop + pad, kBoxHalf + pad);
  return test::segment_hits_box(origin, dir, t_max, lo, hi);
}

// Classifies each pixel by the ground point (y = 0) its centre sees, when the box does not
// hide it: -1 well outside the footprint (by `margin`), 1 well inside, 0 otherwise.
std::vector<int> footprint_classes(const Camera& camera, float margin) {
  std::vector<int> classes(size_t(kWidth) * kHeight, 0);
  const ScreenRect rect{0, 0, float(kWidth), float(kHeight)};
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const Ray ray = screen_ray(camera, rect, glm::vec2(x + 0.5f, y + 0.5f));
      glm::vec3 g;
      if (!intersect_plane(ray, glm::vec3(0.0f), glm::vec3(0, 1, 0), g)) continue;
      if (std::max(std::abs(g.x), std::abs(g.z)) > kPlaneHalf - margin) continue;
      if (hits_box(ray.origin, ray.direction, glm::length(g - ray.origin), margin)) continue;
      const float d = std::max(std::abs(g.x), std::abs(g.z));
      classes[size_t(y) * kWidth + x] = d < kBoxHalf - margin ? 1 : d > kBoxHalf + margin ? -1 : 0;
    }
  return classes;
}

int channel_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, size_t i) {
  int worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(a[i * 4 + c]) - b[i * 4 + c]));
  return worst;
}

uint8_t display(float linear) {
  return uint8_t(std::lround(255.0 * std::pow(std::clamp(linear, 0.0f, 1.0f), 1.0 / 2.2)));
}

TEST(Shadow, BoxAbovePlaneDarkensThePlaneExactlyUnderItsFootprint) {
  RIG_REQUIRE_GL();
  const Model model = scene(true, true);
  const glm::vec3 above(0.0f, 1.0f, 0.0f);
  const Render lit = render(model, false, above, false);
  const Render shadowed = render(model, true, above, false);
  const std::vector<int> classes = footprint_classes(lit.camera, 0.1f);
  // In the box's shadow the plane keeps only the viewer's ambient term: 0.45 × base colour ×
  // the sky colour (the normal points straight up), gamma 2.2. Mirrors mesh.frag.glsl's look.
  const glm::ivec3 ambient_only(display(0.45f * 0.8f * 0.62f), display(0.45f * 0.8f * 0.68f),
                                display(0.45f * 0.8f * 0.78f));
  size_t inside = 0, outside = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i] == 1) {
      ++inside;
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(int(shadowed.pixels[i * 4 + c]), ambient_only[c], 2)
            << "pixel " << i % kWidth << "," << i / kWidth << " under the box";
      ASSERT_GT(channel_difference(lit.pixels, shadowed.pixels, i), 40);
    } else if (classes[i] == -1) {
      ++outside;
      ASSERT_LE(channel_difference(lit.pixels, shadowed.pixels, i), 1)
          << "pixel " << i % kWidth << "," << i / kWidth << " outside the footprint";
    }
  }
  EXPECT_GT(inside, 150u);
  EXPECT_GT(outside, 3000u);
}

TEST(Shadow, GroundCatcherDarkensTheBackgroundUnderTheFootprintAndKeepsTheGrid) {
  RIG_REQUIRE_GL();
  const Model model = scene(true, false);  // the box alone, skinned: the ground catches
  const glm::vec3 above(0.0f, 1.0f, 0.0f);
  const Render plain = render(model, false, above, true);
  const Render shadowed = render(model, true, above, true);
  const std::vector<int> classes = footprint_classes(plain.camera, 0.1f);
  size_t inside = 0, outside = 0, grid_kept = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i] == 0) continue;
    // Grid lines are drawn over the catcher, unchanged.
    bool background = true;
    for (int c = 0; c < 3; ++c)
      background = background && std::abs(plain.pixels[i * 4 + c] - kBackground[c] * 255.0f) < 1.0f;
    if (!background) {
      grid_kept += channel_difference(plain.pixels, shadowed.pixels, i) <= 1;
      continue;
    }
    if (classes[i] == 1) {
      ++inside;
      // Black at 45 % over the background: 0.55 of it.
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(int(shadowed.pixels[i * 4 + c]), 255.0f * kBackground[c] * 0.55f, 1.5f)
            << "pixel " << i % kWidth << "," << i / kWidth << " under the box";
    } else {
      ++outside;
      ASSERT_LE(channel_difference(plain.pixels, shadowed.pixels, i), 0);
    }
  }
  EXPECT_GT(inside, 150u);
  EXPECT_GT(outside, 3000u);
  EXPECT_GT(grid_kept, 50u);
}

TEST(Shadow, PlaneWithNothingAboveIsUnchangedByShadows) {
  RIG_REQUIRE_GL();
  const Model model = scene(false, true);
  // The viewer's own light (oblique to the plane) and a grazing one: no acne either way.
  for (glm::vec3 key : {glm::vec3(0.0f), glm::vec3(1.0f, 0.15f, 0.3f)}) {
    const Render off = render(model, false, key, false);
    const Render on = render(model, true, key, false);
    size_t changed = 0;
    for (size_t i = 0; i < off.pixels.size() / 4; ++i)
      changed += channel_difference(off.pixels, on.pixels, i) > 1;
    EXPECT_EQ(changed, 0u);
  }
}

// Draws `renderer`'s current state into a fresh target and returns its pixels.
std::vector<uint8_t> draw_pixels(Renderer& renderer, const Camera& camera,
                                 const DrawOptions& options) {
  return test::draw_to_pixels(renderer, camera, options, kWidth, kHeight, kBackground);
}

// Uploads the box and plane scene's vertices as CPU-skinned, the box moved by `box_shift`
// (the joint stays at the origin: the casters' bounds, made from the pose, do not move).
void upload_cpu_scene(Renderer& renderer, const Model& model, glm::vec3 box_shift) {
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const Primitive& p = model.meshes[model.draws[d].mesh].primitives[model.draws[d].primitive];
    std::vector<glm::vec3> positions = p.positions;
    if (model.draws[d].mesh == 1)
      for (glm::vec3& v : positions) v += box_shift;
    renderer.upload_cpu_skinned(d, positions, p.normals);
  }
}

// The map is drawn again exactly when what it shows may have changed, and a redrawn map after
// other states equals a fresh renderer's: a stale map would keep the earlier shadow.
TEST(Shadow, MapIsRedrawnOnlyWhenThePoseTheMethodOrTheLightChanges) {
  RIG_REQUIRE_GL();
  const Model model = scene(true, true);
  test::RendererWithModel setup(model);
  ASSERT_TRUE(setup.ok);
  Renderer& renderer = setup.renderer;
  const Camera camera =
      look_at_camera({0, 6, 6}, {0, 0, 0}, glm::radians(45.0f), float(kWidth) / kHeight);
  DrawOptions options;
  options.grid = false;
  options.shadows = true;
  options.key_light = glm::vec3(0.0f, 1.0f, 0.0f);
  const uint64_t start = renderer.shadow_passes_drawn();
  const std::vector<uint8_t> first = draw_pixels(renderer, camera, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 1);
  // The same pose again (another update of the same character): no new map, the same picture.
  renderer.update(setup.character);
  EXPECT_TRUE(draw_pixels(renderer, camera, options) == first) << "not the first picture";
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 1);
  // Another method, then back: each a new map.
  options.method = SkinningMethod::DualQuaternion;
  draw_pixels(renderer, camera, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 2);
  options.method = SkinningMethod::Linear;
  draw_pixels(renderer, camera, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 3);
  // Another light, then the first again: the picture is the first one.
  options.key_light = glm::vec3(1.0f, 2.0f, 0.5f);
  draw_pixels(renderer, camera, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 4);
  options.key_light = glm::vec3(0.0f, 1.0f, 0.0f);
  EXPECT_TRUE(draw_pixels(renderer, camera, options) == first) << "not the first picture";
  EXPECT_EQ(renderer.shadow_passes_drawn(), start + 5);

  // CPU-skinned vertices move the box's shadow without moving the pose's bounds: the map
  // follows the upload, as a fresh renderer given the same upload draws it.
  renderer.set_cpu_skinning(true);
  options.cpu_skinned = true;
  upload_cpu_scene(renderer, model, glm::vec3(0.0f));
  draw_pixels(renderer, camera, options);
  const uint64_t cpu_start = renderer.shadow_passes_drawn();
  const glm::vec3 shift(0.75f, 0.0f, 0.0f);
  upload_cpu_scene(renderer, model, shift);
  const std::vector<uint8_t> moved = draw_pixels(renderer, camera, options);
  EXPECT_EQ(renderer.shadow_passes_drawn(), cpu_start + 1);
  test::RendererWithModel fresh(model);
  ASSERT_TRUE(fresh.ok);
  fresh.renderer.set_cpu_skinning(true);
  upload_cpu_scene(fresh.renderer, model, shift);
  EXPECT_TRUE(draw_pixels(fresh.renderer, camera, options) == moved)
      << "the moved box's shadow differs from a fresh renderer's";
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

TEST(Shadow, LightFrustumIsFittedToTheCastersBox) {
  const Bounds box{glm::vec3(-kBoxHalf, kBoxBottom, -kBoxHalf),
                   glm::vec3(kBoxHalf, kBoxTop, kBoxHalf)};
  // From straight above: the top face is the nearest depth (−1), the bottom the farthest (1),
  // and the box's x and z extents fill clip x and y (in some order and orientation).
  const glm::mat4 m = detail::fit_light_view_proj(box, glm::vec3(0, 1, 0), 0.0f);
  auto clip = [&](glm::vec3 p) { return glm::vec3(m * glm::vec4(p, 1.0f)); };
  EXPECT_NEAR(clip({0.5f, 2.0f, 0.5f}).z, -1.0f, 1e-5f);
  EXPECT_NEAR(clip({-0.5f, 1.0f, 0.5f}).z, 1.0f, 1e-5f);
  const glm::vec3 edge = clip({0.5f, 1.5f, 0.0f});
  EXPECT_NEAR(std::abs(edge.x) + std::abs(edge.y), 1.0f, 1e-5f);
  EXPECT_NEAR(std::abs(edge.x) * std::abs(edge.y), 0.0f, 1e-5f);
  const glm::vec3 quarter = clip({0.25f, 1.5f, -0.25f});
  EXPECT_NEAR(std::abs(quarter.x), 0.5f, 1e-5f);
  EXPECT_NEAR(std::abs(quarter.y), 0.5f, 1e-5f);
  // An oblique light with a margin: every corner inside, each axis reaching 1 / (1 + 2 margin).
  const float margin = 0.05f;
  const glm::mat4 o = detail::fit_light_view_proj(box, glm::vec3(1, 2, -0.5f), margin);
  glm::vec3 reach(0.0f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y,
                           i & 4 ? box.max.z : box.min.z);
    const glm::vec3 c = glm::vec3(o * glm::vec4(corner, 1.0f));
    reach = glm::max(reach, glm::abs(c));
  }
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(reach[a], 1.0f / (1.0f + 2.0f * margin), 1e-4f);
  // Depth runs along the light: a point moved towards the light gets nearer.
  const glm::vec3 l = glm::normalize(glm::vec3(1, 2, -0.5f));
  EXPECT_LT(clip({0, 1.5f, 0}).z, 1.0f);
  EXPECT_LT(glm::vec3(o * glm::vec4(box.center() + 0.1f * l, 1.0f)).z,
            glm::vec3(o * glm::vec4(box.center(), 1.0f)).z);
}

}  // namespace
}  // namespace rig::render
