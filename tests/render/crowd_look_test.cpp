// The crowd in the single character's looks (CrowdDrawOptions::lights, ::look,
// CrowdRenderer::set_environment).
//
// Studio look: a crowd of 2 instances of a character whose crowd pose is its rest pose (no
// clips) draws, at each instance's pixels, what the single Renderer draws for that character
// moved by the instance's grid offset, under the same camera, environment and look settings
// (a tinted, turned studio environment, so a crowd that ignores either differs). The character
// has an opaque single-sided sphere, a single-sided BLEND quad in front of it (blended over the
// sphere, not hiding it) and a single-sided quad whose back faces the camera (culled).
//
// MASK: a quad facing the camera whose alpha is the factor's 0.6 times the texture's (128/255
// on its left half, 1 on its right) under a cutoff of 0.5: the left half (0.30) is discarded,
// so its pixels are the background exactly; the right half (0.6) is drawn. The classic look
// draws the whole quad. Its shadow is cut the same way.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "character/crowd.h"
#include "render/crowd_renderer.h"
#include "render/environment_map.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

constexpr int kWidth = 240, kHeight = 120;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);
const glm::ivec3 kBackgroundBytes(51, 102, 153);

// A primitive skinned wholly to joint 0 (chain_model's single joint), with `material`.
Primitive skinned_primitive(std::vector<glm::vec3> positions, std::vector<glm::vec3> normals,
                            std::vector<uint32_t> indices, int material) {
  Primitive p;
  p.influences = 4;
  for (size_t v = 0; v < positions.size(); ++v) {
    p.joints.insert(p.joints.end(), {0, 0, 0, 0});
    p.weights.insert(p.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
  p.positions = std::move(positions);
  p.normals = std::move(normals);
  p.indices = std::move(indices);
  p.material = material;
  return p;
}

// A quad in the plane z = `z`, x in [x0, x1], y in [y0, y1], counter-clockwise seen from +z
// (front facing +z) or, with `towards_minus_z`, from −z; texture coordinates u along x, v
// along y, each 0..1.
Primitive quad(float x0, float x1, float y0, float y1, float z, bool towards_minus_z,
               int material) {
  const float nz = towards_minus_z ? -1.0f : 1.0f;
  std::vector<uint32_t> indices = towards_minus_z ? std::vector<uint32_t>{0, 2, 1, 0, 3, 2}
                                                  : std::vector<uint32_t>{0, 1, 2, 0, 2, 3};
  Primitive p = skinned_primitive({{x0, y0, z}, {x1, y0, z}, {x1, y1, z}, {x0, y1, z}},
                                  std::vector<glm::vec3>(4, glm::vec3(0, 0, nz)),
                                  std::move(indices), material);
  p.texcoords0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  return p;
}

// A UV sphere of radius r about c, counter-clockwise seen from outside.
Primitive sphere(glm::vec3 c, float r, int material) {
  constexpr int kRings = 16, kSegments = 24;
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint32_t> idx;
  for (int i = 0; i <= kRings; ++i)
    for (int j = 0; j <= kSegments; ++j) {
      const float theta = 3.14159265f * float(i) / kRings;
      const float phi = 2.0f * 3.14159265f * float(j) / kSegments;
      const glm::vec3 n(std::sin(theta) * std::cos(phi), std::cos(theta),
                        -std::sin(theta) * std::sin(phi));
      pos.push_back(c + r * n);
      nrm.push_back(n);
    }
  for (int i = 0; i < kRings; ++i)
    for (int j = 0; j < kSegments; ++j) {
      const uint32_t a = uint32_t(i * (kSegments + 1) + j), b = a + kSegments + 1;
      idx.insert(idx.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
  return skinned_primitive(pos, nrm, idx, material);
}

Material material(glm::vec4 color, AlphaMode mode = AlphaMode::Opaque) {
  Material m;
  m.base_color_factor = color;
  m.metallic_factor = 0.2f;
  m.roughness_factor = 0.4f;
  m.alpha_mode = mode;
  m.double_sided = false;
  return m;
}

// chain_model's mesh node with `primitives` in mesh 0, each drawn skinned to joint 0, which
// stands at `at`.
Model character(std::vector<Primitive> primitives, std::vector<Material> materials, glm::vec3 at) {
  Model m = test::chain_model({test::ChainJoint{at}}, {}, {}, 4, {}, {}, {});
  m.meshes[0].primitives = std::move(primitives);
  m.materials = std::move(materials);
  m.draws.clear();
  for (size_t p = 0; p < m.meshes[0].primitives.size(); ++p)
    m.draws.push_back(DrawItem{0, 0, int(p), 0});
  return m;
}

Model studio_character(glm::vec3 at) {
  return character(
      {sphere({0, 0.5f, 0}, 0.5f, 0), quad(-0.3f, 0.3f, 0.2f, 0.8f, 0.7f, false, 1),
       quad(-0.45f, -0.1f, 0.1f, 0.5f, 0.9f, true, 2)},
      {material({0.8f, 0.3f, 0.2f, 1.0f}), material({0.2f, 0.5f, 0.9f, 0.5f}, AlphaMode::Blend),
       material({0.1f, 1.0f, 0.1f, 1.0f})},
      at);
}

// The bundled studio tinted away from grey, prefiltered once.
const PrefilteredEnvironment& environment() {
  static const PrefilteredEnvironment env = [] {
    EnvironmentMap map = generate_studio_environment(32);
    for (glm::vec3& t : map.texels) t *= glm::vec3(1.4f, 0.8f, 0.5f);
    PrefilteredEnvironment out;
    EXPECT_TRUE(prefilter_environment(map, out));
    return out;
  }();
  return env;
}

LookSettings look() {
  LookSettings l;
  l.environment_rotation_deg = 70.0f;
  l.environment_intensity = 1.3f;
  l.key_intensity = 1.5f;
  l.exposure_ev = 0.4f;
  return l;
}

const Camera& view() {
  static const Camera camera =
      look_at_camera({0, 1.2f, 5}, {0, 0.5f, 0}, glm::radians(30.0f), float(kWidth) / kHeight);
  return camera;
}

Crowd two_of(const Model& m) {
  CrowdConfig config;
  config.count = 2;
  config.spacing = 2.0f;
  return Crowd(m, nullptr, config);
}

std::vector<uint8_t> draw_crowd(const Model& m, const Camera& camera, LightSetup lights,
                                bool shadows = false, glm::vec3 key_light = glm::vec3(0.0f)) {
  std::string error;
  Crowd crowd = two_of(m);
  crowd.update(0.0f);
  CrowdRenderer renderer;
  EXPECT_TRUE(renderer.init(error)) << error;
  EXPECT_TRUE(renderer.set_crowd(crowd, error)) << error;
  renderer.set_environment(environment());
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  glClearColor(kBackground.r, kBackground.g, kBackground.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  renderer.upload(crowd);
  CrowdDrawOptions options;
  options.grid = false;
  options.lights = lights;
  options.look = look();
  options.shadows = shadows;
  options.key_light = key_light;
  renderer.draw(camera, Viewport{0, 0, kWidth, kHeight}, SkinningMethod::Linear, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  return pixels;
}

std::vector<uint8_t> draw_single(const Model& m) {
  std::string error;
  test::RendererWithModel single(m);
  EXPECT_TRUE(single.ok);
  single.renderer.set_environment(environment());
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, kWidth, kHeight};
  single.renderer.clear(viewport, kBackground);
  DrawOptions options;
  options.grid = false;
  options.lights = LightSetup::Studio;
  options.look = look();
  single.renderer.draw(view(), viewport, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(single.renderer.gl_error_count(), 0u);
  return pixels;
}

int difference(const std::vector<uint8_t>& a, size_t i, glm::ivec3 rgb) {
  int worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(a[i * 4 + size_t(c)]) - rgb[c]));
  return worst;
}

glm::ivec3 rgb_at(const std::vector<uint8_t>& a, size_t i) {
  return {a[i * 4], a[i * 4 + 1], a[i * 4 + 2]};
}

TEST(CrowdLook, StudioInstancesEqualTheSingleCharacterAtTheirOffsets) {
  RIG_REQUIRE_GL();
  const Model base = studio_character(glm::vec3(0.0f));
  const Crowd layout = two_of(base);
  const std::vector<uint8_t> crowd = draw_crowd(base, view(), LightSetup::Studio);
  std::vector<std::vector<uint8_t>> single;
  for (int k = 0; k < 2; ++k) single.push_back(draw_single(studio_character(layout.offset(k))));

  size_t covered[2] = {0, 0}, matched[2] = {0, 0}, clear = 0, clear_matched = 0;
  size_t blended = 0;  // the BLEND quad's pixels: neither the sphere's colour nor the background
  for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
    const bool in0 = difference(single[0], i, kBackgroundBytes) > 0;
    const bool in1 = difference(single[1], i, kBackgroundBytes) > 0;
    ASSERT_FALSE(in0 && in1) << "the instances overlap on screen at pixel " << i;
    if (!in0 && !in1) {
      ++clear;
      clear_matched += difference(crowd, i, kBackgroundBytes) <= 1;
      continue;
    }
    const int k = in0 ? 0 : 1;
    ++covered[k];
    matched[k] += difference(crowd, i, rgb_at(single[size_t(k)], i)) <= 2;
    const glm::ivec3 c = rgb_at(single[size_t(k)], i);
    blended += c.b > c.r;  // the sphere is red over blue-less; the quad pulls towards blue
  }
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE("instance " + std::to_string(k));
    EXPECT_GT(covered[k], 800u);
    // Silhouette pixels may flip with the last bit of a vertex (the crowd adds the offset in
    // the shader, the single renderer through the joint): a handful, not more.
    EXPECT_GE(matched[k], covered[k] - covered[k] / 50) << matched[k] << " of " << covered[k];
  }
  EXPECT_GT(blended, 100u);
  EXPECT_GE(clear_matched, clear - clear / 100) << clear_matched << " of " << clear;
}

// The MASK character: a quad x, y in [−0.5, 0.5] at z = 0 facing +z.
Model mask_character() {
  Model m = character({quad(-0.5f, 0.5f, -0.5f, 0.5f, 0.0f, false, 0)},
                      {material({0.9f, 0.9f, 0.9f, 0.6f}, AlphaMode::Mask)}, glm::vec3(0.0f));
  m.materials[0].alpha_cutoff = 0.5f;
  Image image;
  image.width = image.height = 16;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x)
      image.rgba.insert(image.rgba.end(), {230, 230, 230, uint8_t(x < 8 ? 128 : 255)});
  m.images.push_back(image);
  m.materials[0].base_color.texture = 0;
  m.materials[0].base_color.image = 0;
  m.materials[0].base_color.sampler.wrap_s = m.materials[0].base_color.sampler.wrap_t =
      kWrapClampToEdge;
  return m;
}

TEST(CrowdLook, MaskDiscardsWhereAlphaIsBelowTheCutoff) {
  RIG_REQUIRE_GL();
  const Model m = mask_character();
  const Crowd layout = two_of(m);
  // Straight on, orthographic: x in [−2, 2] over the width, y in [−1, 1] over the height, so
  // pixel (px, py) sees the world point (−2 + (px + 0.5)/60, −1 + (py + 0.5)/60).
  Camera camera;
  camera.eye = glm::vec3(0, 0, 5);
  camera.view = glm::lookAt(camera.eye, glm::vec3(0.0f), glm::vec3(0, 1, 0));
  camera.projection = glm::ortho(-2.0f, 2.0f, -1.0f, 1.0f, 0.1f, 20.0f);
  const std::vector<uint8_t> studio = draw_crowd(m, camera, LightSetup::Studio);
  const std::vector<uint8_t> classic = draw_crowd(m, camera, LightSetup::Viewer);
  size_t cut = 0, kept = 0;
  for (int k = 0; k < 2; ++k) {
    const glm::vec3 o = layout.offset(k);
    ASSERT_EQ(o.y, 0.0f);
    ASSERT_EQ(o.z, 0.0f);
    for (int py = 0; py < kHeight; ++py)
      for (int px = 0; px < kWidth; ++px) {
        const float x = -2.0f + (float(px) + 0.5f) / 60.0f - o.x, y = -1.0f + (py + 0.5f) / 60.0f;
        // At least a tenth from the quad's edges and from the texture's alpha edge (u = 0.5).
        if (std::abs(y) > 0.4f || std::abs(x) > 0.4f || std::abs(x) < 0.1f) continue;
        const size_t i = size_t(py) * kWidth + size_t(px);
        SCOPED_TRACE("instance " + std::to_string(k) + " pixel " + std::to_string(px) + "," +
                     std::to_string(py));
        if (x < 0.0f) {
          ++cut;
          EXPECT_EQ(rgb_at(studio, i), kBackgroundBytes);
        } else {
          ++kept;
          EXPECT_GT(difference(studio, i, kBackgroundBytes), 20);
        }
        // The classic look draws MASK surfaces whole.
        EXPECT_GT(difference(classic, i, kBackgroundBytes), 20);
      }
  }
  // 2 instances × 18 × 48 pixels per half.
  EXPECT_EQ(cut, 2u * 18u * 48u);
  EXPECT_EQ(kept, 2u * 18u * 48u);
}

// The MASK quad's shadow under the studio look, cut by alpha as the single character's: an
// opaque wall (x, y in [−0.9, 0.9], facing +z) stands 0.5 behind the MASK quad, lit from
// (1, 0, 1), so the wall point (x, y, −0.5) is shadowed by the quad's point (x + 0.5, y, 0).
// Left of the quad (x in [−0.85, −0.6]) the light passes through its discarded left half: lit;
// seen through that half (x in [−0.4, −0.1]) it is stopped by the opaque right half: shadowed.
// Cast whole, the left of the quad would be shadowed too.
TEST(CrowdLook, StudioShadowIsCutByAlpha) {
  RIG_REQUIRE_GL();
  Model m = mask_character();
  m.meshes[0].primitives.push_back(quad(-0.9f, 0.9f, -0.9f, 0.9f, -0.5f, false, 1));
  m.materials.push_back(material({0.8f, 0.8f, 0.8f, 1.0f}));
  m.draws.push_back(DrawItem{0, 0, 1, 0});
  const Crowd layout = two_of(m);
  Camera camera;
  camera.eye = glm::vec3(0, 0, 5);
  camera.view = glm::lookAt(camera.eye, glm::vec3(0.0f), glm::vec3(0, 1, 0));
  camera.projection = glm::ortho(-2.0f, 2.0f, -1.0f, 1.0f, 0.1f, 20.0f);
  const glm::vec3 light(1.0f, 0.0f, 1.0f);
  const std::vector<uint8_t> lit = draw_crowd(m, camera, LightSetup::Studio, false, light);
  const std::vector<uint8_t> shadowed = draw_crowd(m, camera, LightSetup::Studio, true, light);
  size_t beside = 0, behind = 0;
  for (int k = 0; k < 2; ++k) {
    const float ox = layout.offset(k).x;
    for (int py = 0; py < kHeight; ++py)
      for (int px = 0; px < kWidth; ++px) {
        const float x = -2.0f + (float(px) + 0.5f) / 60.0f - ox, y = -1.0f + (py + 0.5f) / 60.0f;
        if (std::abs(y) > 0.4f) continue;
        const size_t i = size_t(py) * kWidth + size_t(px);
        SCOPED_TRACE("instance " + std::to_string(k) + " pixel " + std::to_string(px) + "," +
                     std::to_string(py));
        if (x > -0.85f && x < -0.6f) {
          ++beside;
          EXPECT_LE(difference(shadowed, i, rgb_at(lit, i)), 2);
        } else if (x > -0.4f && x < -0.1f) {
          ++behind;
          const glm::ivec3 a = rgb_at(lit, i), b = rgb_at(shadowed, i);
          EXPECT_GT(a.r + a.g + a.b - (b.r + b.g + b.b), 30);
        }
      }
  }
  EXPECT_EQ(beside, 2u * 15u * 48u);
  EXPECT_EQ(behind, 2u * 18u * 48u);
}

}  // namespace
}  // namespace rig::render
