// Alpha modes in the reference scene, against coverage and colours worked out by hand:
// - MASK: a 16 × 1 texture whose alpha rises texel by texel through the cutoff 0.5 (127/255 is
//   below it, 128/255 above), NEAREST-sampled on an unlit square that exactly fills the view, so
//   each texel is a 4-pixel-wide column of a 64² image: exactly the columns of the texels with
//   alpha ≥ 0.5 are covered (alpha 255), the others are discarded (alpha 0).
// - BLEND: three overlapping 50 % squares, red, green and blue, listed in the file out of depth
//   order, seen from +Z and from −Z. Each view composites them back to front by node origin,
//   src·a + dst·(1 − a) for colour and a + dst·(1 − a) for alpha in the 8-bit framebuffer, so
//   the nearest square dominates: blue from +Z, red from −Z.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace {

using rig::test::Png;
using rig::test::quote;
using rig::test::render;
using rig::test::SceneMesh;

// Alpha per texel, left to right: a gradient that crosses 0.5 between the 7th and 8th.
constexpr std::array<int, 16> kAlphas = {0,   30,  60,  90,  110, 120, 127, 128,
                                         129, 140, 170, 200, 230, 250, 254, 255};

TEST(AlphaModesCli, MaskCoversExactlyTheTexelsAtOrAboveTheCutoff) {
  std::vector<uint8_t> texels;
  for (int a : kAlphas) texels.insert(texels.end(), {255, 255, 255, uint8_t(a)});
  SceneMesh square = rig::test::square_facing_z(0, 0, 0, 1.0f, 0);
  square.texcoords = {0, 1, 1, 1, 1, 0, 0, 0};  // u = (x + 1)/2, v = (1 − y)/2
  std::string json = rig::test::scene_gltf(
      {square},
      "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},\"alphaMode\":\"MASK\","
      "\"extensions\":{\"KHR_materials_unlit\":{}}}]",
      "[\"KHR_materials_unlit\"]");
  json = rig::test::with_image_texture(json, rig::test::encode_png(texels, 16, 1),
                                       "{\"magFilter\":9728,\"minFilter\":9728}");
  const std::string model = rig::test::write_scene(rig::test::scratch_dir() / "mask.gltf", json);
  // 1/tan 15° = 3.7320508: the square's ±1 fills a 30° view exactly.
  const Png png = render(
      model,
      rig::test::scene_flags(64, 64) + "--lights none --camera " + quote("0,0,3.7320508;0,0,0;30"),
      "mask.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  int covered = 0, expected = 0;
  for (int x = 0; x < 64; ++x) {
    const bool kept = kAlphas[size_t(x / 4)] * 2 >= 255;  // a/255 ≥ 0.5
    for (int y = 0; y < 64; ++y) {
      const uint8_t alpha = png.at(x, y)[3];
      EXPECT_EQ(alpha, kept ? 255 : 0) << "pixel " << x << "," << y << " texel " << x / 4;
      covered += alpha != 0;
      expected += kept;
    }
  }
  EXPECT_EQ(expected, 9 * 4 * 64);  // the texels 128 … 255
  EXPECT_EQ(covered, expected);
}

struct Rgba8 {
  double r = 0, g = 0, b = 0, a = 0;  // 0..255, as stored
};

// One BLEND draw of the straight colour `c` with alpha `a` over `dst`, rounded to 8 bits.
Rgba8 blend_over(Rgba8 dst, const double c[3], double a) {
  auto channel = [&](double src, double d) {
    return std::round((src * a + d / 255 * (1 - a)) * 255);
  };
  return {channel(c[0], dst.r), channel(c[1], dst.g), channel(c[2], dst.b),
          std::round((a + dst.a / 255 * (1 - a)) * 255)};
}

TEST(AlphaModesCli, BlendDrawsBackToFrontFromEitherSide) {
  auto material = [](const char* color) {
    return std::string("{\"pbrMetallicRoughness\":{\"baseColorFactor\":") + color +
           "},\"alphaMode\":\"BLEND\",\"doubleSided\":true,"
           "\"extensions\":{\"KHR_materials_unlit\":{}}}";
  };
  const std::string materials = "[" + material("[1,0,0,0.5]") + "," + material("[0,1,0,0.5]") +
                                "," + material("[0,0,1,0.5]") + "]";
  auto square = [](float z, float h, int m) {
    SceneMesh s = rig::test::square_facing_z(0, 0, 0, h, m);
    s.translation[2] = z;
    return s;
  };
  // File order green, blue, red; depth order red (z = 0), green (0.5), blue (1).
  const std::string model = rig::test::write_scene(
      rig::test::scratch_dir() / "blend3.gltf",
      rig::test::scene_gltf({square(0.5f, 0.6f, 1), square(1.0f, 0.3f, 2), square(0.0f, 0.9f, 0)},
                            materials, "[\"KHR_materials_unlit\"]"));
  const double red[3] = {1, 0, 0}, green[3] = {0, 1, 0}, blue[3] = {0, 0, 1};
  const std::string flags = rig::test::scene_flags(64, 64) + "--lights reference ";
  struct View {
    const char* camera;
    const double* back;
    const double* middle;
    const double* front;
  };
  for (const View& view :
       {View{"0,0,4;0,0,0.5;60", red, green, blue}, View{"0,0,-4;0,0,0.5;60", blue, green, red}}) {
    const Png png = render(model, flags + "--camera " + quote(view.camera), "blend3.png");
    if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
    Rgba8 want;
    for (const double* c : {view.back, view.middle, view.front}) want = blend_over(want, c, 0.5);
    // The PNG holds straight colour: the framebuffer's divided by its alpha.
    const uint8_t* p = png.at(32, 32);  // the centre, behind all three squares
    EXPECT_NEAR(p[3], want.a, 1) << view.camera;
    EXPECT_NEAR(p[0], std::min(255.0, want.r * 255 / want.a), 2) << view.camera;
    EXPECT_NEAR(p[1], std::min(255.0, want.g * 255 / want.a), 2) << view.camera;
    EXPECT_NEAR(p[2], std::min(255.0, want.b * 255 / want.a), 2) << view.camera;
  }
}

}  // namespace
