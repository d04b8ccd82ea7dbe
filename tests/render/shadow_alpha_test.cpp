// Alpha in the key light's shadow: under the studio look (glTF shading) a MASK caster casts
// only where its alpha (factor × texture through its set, transform and sampler × COLOR_0)
// reaches its cutoff, a BLEND caster where its alpha reaches 0.5, and an animated cutoff moves
// the shadow; the classic look, which draws those surfaces whole, casts them whole.
//
// The scene: a grey plane at y = 0 and above it a horizontal quad, x and z in [−0.5, 0.5] at
// y = 1, lit from straight above by an orthographic light, so the quad's shadow falls on the
// plane straight below each of its points: the ground point (x, 0, z) is shadowed by the quad's
// point (x, 1, z). The quad's texture is transparent on its left half (u < 0.5, x < 0) and
// opaque on its right half.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr int kWidth = 200, kHeight = 160;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);
constexpr float kQuadHalf = 0.5f, kQuadHeight = 1.0f, kPlaneHalf = 3.0f;
constexpr int kTexels = 16;  // the texture's side; columns below kTexels / 2 are transparent

// A quad as two triangles (counter-clockwise seen from above), normal up, texture coordinates
// u = x / (2 half) + 0.5, v = z / (2 half) + 0.5.
void add_horizontal_quad(Primitive& p, float half, float y, bool texcoords) {
  const uint32_t base = uint32_t(p.positions.size());
  for (glm::vec2 xz : {glm::vec2(-half, half), glm::vec2(half, half), glm::vec2(half, -half),
                       glm::vec2(-half, -half)}) {
    p.positions.push_back(glm::vec3(xz.x, y, xz.y));
    p.normals.push_back(glm::vec3(0, 1, 0));
    if (texcoords) p.texcoords0.push_back(xz / (2.0f * half) + 0.5f);
  }
  p.indices.insert(p.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

// What the quad is made of.
struct Caster {
  AlphaMode mode = AlphaMode::Mask;
  float factor_alpha = 1.0f;
  float cutoff = 0.5f;
  bool texture = false;          // left half alpha 0, right half alpha 1
  bool texcoord1 = false;        // the texture read through TEXCOORD_1 (TEXCOORD_0 mirrored)
  float offset_u = 0.0f;         // KHR_texture_transform offset along u
  bool repeat = false;           // the sampler repeats (else clamps to the edge)
  bool animated_cutoff = false;  // clip 0 animates the cutoff 0.4 at t = 0 to 0.8 at t = 1
};

Model scene(const Caster& c) {
  Primitive plane;
  add_horizontal_quad(plane, kPlaneHalf, 0.0f, false);
  plane.influences = 4;
  for (size_t v = 0; v < plane.positions.size(); ++v) {
    plane.joints.insert(plane.joints.end(), {0, 0, 0, 0});
    plane.weights.insert(plane.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
  Model m = test::chain_model({ChainJoint{}}, plane.positions, plane.normals, 4, plane.joints,
                              plane.weights, plane.indices);
  Material grey;
  grey.base_color_factor = glm::vec4(0.8f, 0.8f, 0.8f, 1.0f);
  grey.metallic_factor = 0.0f;
  m.materials.push_back(grey);
  m.meshes[0].primitives[0].material = 0;

  Primitive quad;
  add_horizontal_quad(quad, kQuadHalf, kQuadHeight, true);
  if (c.texcoord1) {
    quad.texcoords1 = quad.texcoords0;
    for (glm::vec2& uv : quad.texcoords0) uv.x = 1.0f - uv.x;  // the wrong set: mirrored
  }
  quad.material = 1;
  Material caster;
  caster.base_color_factor = glm::vec4(0.9f, 0.9f, 0.9f, c.factor_alpha);
  caster.metallic_factor = 0.0f;
  caster.alpha_mode = c.mode;
  caster.alpha_cutoff = c.cutoff;
  caster.double_sided = true;
  if (c.texture) {
    Image image;
    image.width = image.height = kTexels;
    for (int y = 0; y < kTexels; ++y)
      for (int x = 0; x < kTexels; ++x)
        image.rgba.insert(image.rgba.end(), {230, 230, 230, uint8_t(x < kTexels / 2 ? 0 : 255)});
    m.images.push_back(image);
    caster.base_color.texture = 0;
    caster.base_color.image = 0;
    caster.base_color.texcoord = c.texcoord1 ? 1 : 0;
    const int wrap = c.repeat ? kWrapRepeat : kWrapClampToEdge;
    caster.base_color.sampler.wrap_s = caster.base_color.sampler.wrap_t = wrap;
    if (c.offset_u != 0.0f) {
      caster.base_color.has_transform = true;
      caster.base_color.transform.offset = glm::vec2(c.offset_u, 0.0f);
    }
  }
  m.materials.push_back(caster);
  Mesh mesh;
  mesh.name = "caster";
  mesh.primitives.push_back(quad);
  m.meshes.push_back(std::move(mesh));
  m.nodes[1].mesh = 1;
  m.draws.push_back(DrawItem{1, 1, 0, -1});
  if (c.animated_cutoff) {
    Clip clip;
    clip.name = "cutoff";
    clip.end = 1.0f;
    MaterialChannel channel;
    channel.material = 1;
    channel.property = MaterialProperty::AlphaCutoff;
    channel.pointer = "/materials/1/alphaCutoff";
    channel.keys.components = 1;
    channel.keys.interpolation = Interpolation::Linear;
    channel.keys.times = {0.0f, 1.0f};
    channel.keys.values = {0.4f, 0.8f};
    clip.material_channels.push_back(channel);
    m.clips.push_back(clip);
  }
  return m;
}

const Camera& view() {
  static const Camera camera =
      look_at_camera({0, 6, 6}, {0, 0, 0}, glm::radians(45.0f), float(kWidth) / kHeight);
  return camera;
}

std::vector<uint8_t> draw_pixels(Renderer& renderer, const DrawOptions& options) {
  std::vector<uint8_t> pixels =
      test::draw_to_pixels(renderer, view(), options, kWidth, kHeight, kBackground);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  return pixels;
}

DrawOptions options_for(LightSetup lights, bool shadows, float key_intensity = 2.0f) {
  DrawOptions options;
  options.grid = false;
  options.lights = lights;
  options.shadows = shadows;
  options.key_light = glm::vec3(0.0f, 1.0f, 0.0f);
  options.look.key_intensity = key_intensity;
  return options;
}

// Ground regions, by the point (x, 0, z) a pixel's centre sees where the quad (widened by the
// margin) does not stand in between: under the quad's transparent half, under its opaque half,
// or clear of the quad, each at least `margin` from the borders.
enum class Region { None, UnderLeft, UnderRight, Clear };

std::vector<Region> regions(float margin) {
  std::vector<Region> out(size_t(kWidth) * kHeight, Region::None);
  const ScreenRect rect{0, 0, float(kWidth), float(kHeight)};
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const Ray ray = screen_ray(view(), rect, glm::vec2(x + 0.5f, y + 0.5f));
      glm::vec3 g, q;
      if (!intersect_plane(ray, glm::vec3(0.0f), glm::vec3(0, 1, 0), g)) continue;
      if (std::max(std::abs(g.x), std::abs(g.z)) > kPlaneHalf - margin) continue;
      if (intersect_plane(ray, glm::vec3(0, kQuadHeight, 0), glm::vec3(0, 1, 0), q) &&
          std::max(std::abs(q.x), std::abs(q.z)) < kQuadHalf + margin)
        continue;
      Region& r = out[size_t(y) * kWidth + x];
      const float d = std::max(std::abs(g.x), std::abs(g.z));
      if (d > kQuadHalf + margin)
        r = Region::Clear;
      else if (std::abs(g.z) < kQuadHalf - margin && g.x < -margin && g.x > -kQuadHalf + margin)
        r = Region::UnderLeft;
      else if (std::abs(g.z) < kQuadHalf - margin && g.x > margin && g.x < kQuadHalf - margin)
        r = Region::UnderRight;
    }
  return out;
}

int difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, size_t i) {
  int worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(a[i * 4 + c]) - b[i * 4 + c]));
  return worst;
}

// Per region: how many of its pixels the shadow leaves as without shadows (lit), and how many
// it turns into the picture without the key light (shadowed: only the environment and ambient
// light are left, as shadow.glsl's visibility 0 leaves them).
struct Tally {
  size_t pixels = 0, lit = 0, shadowed = 0;
  bool all_lit() const { return pixels > 60 && lit == pixels; }
  bool all_shadowed() const { return pixels > 60 && shadowed == pixels; }
};
struct Tallies {
  Tally left, right, clear;
};

Tallies shadow_tallies(const std::vector<uint8_t>& with, const std::vector<uint8_t>& without,
                       const std::vector<uint8_t>& unlit) {
  const std::vector<Region> r = regions(0.1f);
  Tallies t;
  for (size_t i = 0; i < r.size(); ++i) {
    Tally* tally = r[i] == Region::UnderLeft    ? &t.left
                   : r[i] == Region::UnderRight ? &t.right
                   : r[i] == Region::Clear      ? &t.clear
                                                : nullptr;
    if (!tally) continue;
    ++tally->pixels;
    tally->lit += difference(with, without, i) <= 1;
    // The key light must make a clear difference for "shadowed" to mean anything.
    tally->shadowed += difference(with, unlit, i) <= 2 && difference(without, unlit, i) > 20;
  }
  return t;
}

std::string describe(const char* name, const Tally& t) {
  return std::string(name) + ": " + std::to_string(t.pixels) + " pixels, " + std::to_string(t.lit) +
         " lit, " + std::to_string(t.shadowed) + " shadowed";
}

// Shadows on, off, and off without the key light, for one look.
Tallies render_tallies(const Model& model, LightSetup lights) {
  test::RendererWithModel setup(model);
  EXPECT_TRUE(setup.ok);
  const std::vector<uint8_t> with = draw_pixels(setup.renderer, options_for(lights, true));
  const std::vector<uint8_t> without = draw_pixels(setup.renderer, options_for(lights, false));
  const std::vector<uint8_t> unlit = draw_pixels(setup.renderer, options_for(lights, false, 0.0f));
  return shadow_tallies(with, without, unlit);
}

TEST(ShadowAlpha, MaskTextureCastsOnlyUnderItsOpaqueHalf) {
  RIG_REQUIRE_GL();
  Caster c;
  c.texture = true;
  const Tallies t = render_tallies(scene(c), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_lit()) << describe("under the transparent half", t.left);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("under the opaque half", t.right);
  EXPECT_TRUE(t.clear.all_lit()) << describe("clear of the quad", t.clear);
}

// The texture is read through the material's own set and transform: TEXCOORD_1 (TEXCOORD_0 is
// mirrored), and an offset of half the texture under a repeating sampler, which swaps the
// halves.
TEST(ShadowAlpha, MaskTextureIsReadThroughItsSetAndTransform) {
  RIG_REQUIRE_GL();
  Caster set1;
  set1.texture = true;
  set1.texcoord1 = true;
  Tallies t = render_tallies(scene(set1), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_lit()) << describe("TEXCOORD_1, transparent half", t.left);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("TEXCOORD_1, opaque half", t.right);
  Caster moved;
  moved.texture = true;
  moved.repeat = true;
  moved.offset_u = 0.5f;
  t = render_tallies(scene(moved), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_shadowed()) << describe("offset 0.5, now opaque left", t.left);
  EXPECT_TRUE(t.right.all_lit()) << describe("offset 0.5, now transparent right", t.right);
}

TEST(ShadowAlpha, BlendCastsWhereItsAlphaReachesOneHalf) {
  RIG_REQUIRE_GL();
  Caster faint;
  faint.mode = AlphaMode::Blend;
  faint.factor_alpha = 0.3f;
  faint.cutoff = 0.1f;  // unused by BLEND: the cut stays 0.5
  Tallies t = render_tallies(scene(faint), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_lit()) << describe("alpha 0.3, left", t.left);
  EXPECT_TRUE(t.right.all_lit()) << describe("alpha 0.3, right", t.right);
  Caster dense = faint;
  dense.factor_alpha = 0.8f;
  t = render_tallies(scene(dense), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_shadowed()) << describe("alpha 0.8, left", t.left);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("alpha 0.8, right", t.right);
  EXPECT_TRUE(t.clear.all_lit()) << describe("alpha 0.8, clear", t.clear);
  // The texture's alpha counts for BLEND too.
  Caster textured;
  textured.mode = AlphaMode::Blend;
  textured.texture = true;
  t = render_tallies(scene(textured), LightSetup::Studio);
  EXPECT_TRUE(t.left.all_lit()) << describe("blend texture, transparent half", t.left);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("blend texture, opaque half", t.right);
}

// The classic look draws MASK and BLEND surfaces whole (it reads no alpha): so is their shadow.
TEST(ShadowAlpha, ClassicLookCastsWhole) {
  RIG_REQUIRE_GL();
  Caster c;
  c.texture = true;
  const Tallies t = render_tallies(scene(c), LightSetup::Viewer);
  EXPECT_EQ(t.left.lit, 0u) << describe("classic, transparent half", t.left);
  EXPECT_EQ(t.right.lit, 0u) << describe("classic, opaque half", t.right);
  EXPECT_GT(t.left.pixels, 60u);
  EXPECT_TRUE(t.clear.all_lit()) << describe("classic, clear", t.clear);
}

// The cutoff animated by the material pose (KHR_animation_pointer): alpha 0.6 casts under the
// cutoff 0.4 (t = 0) and not under 0.8 (t = 1), and the map follows the pose's material alone
// (the nodes do not move): a stale map would keep the first shadow.
TEST(ShadowAlpha, AnimatedCutoffMovesTheShadow) {
  RIG_REQUIRE_GL();
  Caster c;
  c.factor_alpha = 0.6f;
  c.animated_cutoff = true;
  const Model model = scene(c);
  ASSERT_EQ(model.clips.size(), 1u);
  test::RendererWithModel setup(model, PoseSelection{0, 0.0f});
  ASSERT_TRUE(setup.ok);
  Renderer& renderer = setup.renderer;
  const LightSetup studio = LightSetup::Studio;
  const std::vector<uint8_t> without = draw_pixels(renderer, options_for(studio, false));
  const std::vector<uint8_t> unlit = draw_pixels(renderer, options_for(studio, false, 0.0f));
  const std::vector<uint8_t> low = draw_pixels(renderer, options_for(studio, true));
  const uint64_t passes = renderer.shadow_passes_drawn();
  Tallies t = shadow_tallies(low, without, unlit);
  EXPECT_TRUE(t.left.all_shadowed()) << describe("cutoff 0.4", t.left);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("cutoff 0.4", t.right);
  // The same pose again: no new map.
  renderer.update(setup.character);
  draw_pixels(renderer, options_for(studio, true));
  EXPECT_EQ(renderer.shadow_passes_drawn(), passes);
  setup.character.evaluate(PoseSelection{0, 1.0f});
  renderer.update(setup.character);
  const std::vector<uint8_t> high = draw_pixels(renderer, options_for(studio, true));
  EXPECT_EQ(renderer.shadow_passes_drawn(), passes + 1);
  t = shadow_tallies(high, without, unlit);
  EXPECT_TRUE(t.left.all_lit()) << describe("cutoff 0.8", t.left);
  EXPECT_TRUE(t.right.all_lit()) << describe("cutoff 0.8", t.right);
  // Between: t = 0.25 gives 0.5, still at most 0.6: the shadow is back.
  setup.character.evaluate(PoseSelection{0, 0.25f});
  renderer.update(setup.character);
  t = shadow_tallies(draw_pixels(renderer, options_for(studio, true)), without, unlit);
  EXPECT_TRUE(t.right.all_shadowed()) << describe("cutoff 0.5", t.right);
}

}  // namespace
}  // namespace rig::render
