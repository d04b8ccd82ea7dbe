// How the reference shading addresses textures, against texel colours worked out by hand: a
// 2 × 2 texture of four distinct colours, NEAREST-sampled, on an unlit square that exactly fills
// the view (yfov 30° at distance 1/tan 15°, so the square's edges are the image's edges), drawn
// with --lights none: each pixel is then its texel's colour, sRGB in and out, unchanged.
//
// The texture's rows from the top: (red, green), (blue, white). glTF's UV origin is the image's
// top-left corner, so with u = (x + 1)/2 and v = (1 − y)/2 on the square the untransformed
// quadrants read red (top left), green (top right), blue (bottom left), white (bottom right).
// The image is 62 pixels square so quadrant centres fall on pixel centres (15.5 and 46.5).
#include <gtest/gtest.h>

#include <algorithm>
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

struct Rgb {
  int r, g, b;
};
constexpr Rgb kRed{255, 0, 0}, kGreen{0, 255, 0}, kBlue{0, 0, 255}, kWhite{255, 255, 255};

// The 2 × 2 picture above as a PNG.
std::vector<uint8_t> four_texels() {
  const std::vector<uint8_t> texels = {255, 0, 0,   255, 0,   255, 0,   255,
                                       0,   0, 255, 255, 255, 255, 255, 255};
  return rig::test::encode_png(texels, 2, 2);
}

// The square (half size 1, facing +Z) with UVs u = (x + 1)/2, v = (1 − y)/2 scaled by `k`.
SceneMesh textured_square(float k = 1.0f) {
  SceneMesh square = rig::test::square_facing_z(0, 0, 0, 1.0f, 0);
  square.texcoords = {0, k, k, k, k, 0, 0, 0};
  return square;
}

// A scene of `mesh` with one unlit material whose baseColorTexture is `texture_info` (the JSON
// object's members after "index":0) and the picture sampled by `sampler` (JSON object).
std::string textured_scene(const std::string& name, const SceneMesh& mesh,
                           const std::string& texture_info, const std::string& sampler) {
  std::string json =
      rig::test::scene_gltf({mesh},
                            "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0" +
                                texture_info + "}},\"extensions\":{\"KHR_materials_unlit\":{}}}]",
                            "[\"KHR_materials_unlit\",\"KHR_texture_transform\"]");
  return rig::test::write_scene(rig::test::scratch_dir() / name,
                                rig::test::with_image_texture(json, four_texels(), sampler));
}

const std::string kNearest = "{\"magFilter\":9728,\"minFilter\":9728}";

// 1/tan 15° = 3.7320508: the square's ±1 fills the view exactly.
const std::string kFlags =
    rig::test::scene_flags(62, 62) + "--lights none --camera " + quote("0,0,3.7320508;0,0,0;30");

void expect_pixel(const Png& png, int x, int y, Rgb want, const char* where) {
  const uint8_t* p = png.at(x, y);
  EXPECT_NEAR(p[0], want.r, 1) << where << " red";
  EXPECT_NEAR(p[1], want.g, 1) << where << " green";
  EXPECT_NEAR(p[2], want.b, 1) << where << " blue";
  EXPECT_EQ(p[3], 255) << where;
}

// Quadrant centres in image pixels: left/top 15, right/bottom 46.
void expect_quadrants(const Png& png, Rgb top_left, Rgb top_right, Rgb bottom_left,
                      Rgb bottom_right) {
  expect_pixel(png, 15, 15, top_left, "top left");
  expect_pixel(png, 46, 15, top_right, "top right");
  expect_pixel(png, 15, 46, bottom_left, "bottom left");
  expect_pixel(png, 46, 46, bottom_right, "bottom right");
}

TEST(TextureMappingCli, UntransformedTextureShowsItsTexelsInPlace) {
  const Png png =
      render(textured_scene("plain_uv.gltf", textured_square(), "", kNearest), kFlags, "plain.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_quadrants(png, kRed, kGreen, kBlue, kWhite);
}

// KHR_texture_transform with rotation π/2 and offset (0, 1): the extension's matrix is
//   T·R·S = [1 0 0; 0 1 1; 0 0 1]·[cos sin 0; −sin cos 0; 0 0 1] = [0 1 0; −1 0 1; 0 0 1],
// so u' = v and v' = 1 − u. Quadrant centres:
//   top left (u, v) = (¼, ¼) → (¼, ¾): blue;    top right (¾, ¼) → (¼, ¼): red;
//   bottom left (¼, ¾) → (¾, ¾): white;         bottom right (¾, ¾) → (¾, ¼): green.
TEST(TextureMappingCli, TextureTransformRotationMovesTexelsWhereTheSpecsMatrixSends) {
  const std::string transform =
      ",\"extensions\":{\"KHR_texture_transform\":{\"rotation\":1.5707963267948966,"
      "\"offset\":[0,1]}}";
  const Png png = render(textured_scene("rotated.gltf", textured_square(), transform, kNearest),
                         kFlags, "rotated.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_quadrants(png, kBlue, kRed, kWhite, kGreen);
}

// All three parts in the extension's order, T·R·S: scale (0.5, 1), rotation π/2, offset
// (0.5, 1). S·uv = (u/2, v), R turns (x, y) into (y, −x): (v, −u/2), T adds the offset:
// u' = v + ½, v' = 1 − u/2 (REPEAT past 1). Quadrant centres:
//   top left (¼, ¼) → (¾, ⅞): white;    top right (¾, ¼) → (¾, ⅝): white;
//   bottom left (¼, ¾) → (1¼, ⅞) = (¼, ⅞): blue;    bottom right (¾, ¾) → (¼, ⅝): blue.
// Another order reads otherwise: T·S·R (scaling after the rotation) gives green at the top
// right, R·T·S (rotating the offset too) red at the top left.
TEST(TextureMappingCli, TextureTransformAppliesScaleThenRotationThenOffset) {
  const std::string transform =
      ",\"extensions\":{\"KHR_texture_transform\":{\"rotation\":1.5707963267948966,"
      "\"scale\":[0.5,1],\"offset\":[0.5,1]}}";
  const Png png =
      render(textured_scene("trs.gltf", textured_square(), transform, kNearest), kFlags, "trs.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_quadrants(png, kWhite, kWhite, kBlue, kBlue);
}

// TEXCOORD_1: TEXCOORD_0 is (0, 0) everywhere (red if it were read); the material's texCoord 1
// picks the second set, which carries the square's UVs, so all four texels appear in place.
TEST(TextureMappingCli, TexCoordOneAddressesTheSecondSet) {
  SceneMesh square = textured_square();
  square.texcoords1 = square.texcoords;
  square.texcoords.assign(8, 0.0f);
  const Png png =
      render(textured_scene("uv1.gltf", square, ",\"texCoord\":1", kNearest), kFlags, "uv1.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_quadrants(png, kRed, kGreen, kBlue, kWhite);
}

// The transform's texCoord override wins over the textureInfo's: texCoord 0 in the material,
// 1 in KHR_texture_transform (identity otherwise), so the second set is read.
TEST(TextureMappingCli, TextureTransformTexCoordOverridesTheMaterials) {
  SceneMesh square = textured_square();
  square.texcoords1 = square.texcoords;
  square.texcoords.assign(8, 0.0f);
  const std::string info =
      ",\"texCoord\":0,\"extensions\":{\"KHR_texture_transform\":{\"texCoord\":1}}";
  const Png png =
      render(textured_scene("uv1_override.gltf", square, info, kNearest), kFlags, "uv1o.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_quadrants(png, kRed, kGreen, kBlue, kWhite);
}

// UVs over [0, 2] (u = x + 1, v = 1 − y) through each wrap mode, NEAREST. Pixel column c has
// u = (c + ½)/31: columns 7, 23, 38, 54 read u = 0.242, 0.758, 1.242, 1.758, rows 7 and 54
// likewise v. REPEAT keeps the fraction (0.242, 0.758, 0.242, 0.758), CLAMP_TO_EDGE holds the
// last texel past 1 (0.242, 0.758, 1, 1), MIRRORED_REPEAT runs backwards over [1, 2]
// (0.242, 0.758, 0.758, 0.242): texel column 0, 1, … by u < ½, texel row likewise by v.
TEST(TextureMappingCli, WrapModesRepeatClampAndMirrorUvsOutsideTheUnitSquare) {
  struct Case {
    const char* name;
    int wrap;
    int columns[4];  // texel column (and row) at the four sampled u (v) values
  };
  const Case cases[] = {{"repeat", 10497, {0, 1, 0, 1}},
                        {"clamp", 33071, {0, 1, 1, 1}},
                        {"mirrored", 33648, {0, 1, 1, 0}}};
  const Rgb texels[2][2] = {{kRed, kGreen}, {kBlue, kWhite}};
  const int pixels[4] = {7, 23, 38, 54};
  for (const Case& c : cases) {
    const std::string sampler =
        "{\"magFilter\":9728,\"minFilter\":9728,\"wrapS\":" + std::to_string(c.wrap) +
        ",\"wrapT\":" + std::to_string(c.wrap) + "}";
    const Png png =
        render(textured_scene(std::string(c.name) + ".gltf", textured_square(2.0f), "", sampler),
               kFlags, std::string(c.name) + ".png");
    if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
    for (int row : {0, 3})
      for (int column = 0; column < 4; ++column) {
        const std::string where = std::string(c.name) + " at (" + std::to_string(pixels[column]) +
                                  ", " + std::to_string(pixels[row]) + ")";
        expect_pixel(png, pixels[column], pixels[row], texels[c.columns[row]][c.columns[column]],
                     where.c_str());
      }
  }
}

double srgb(double c) {
  c = std::min(std::max(c, 0.0), 1.0);
  return 255.0 * (c < 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055);
}

// Filters: pixel (30, 15) has u = 30.5/62 = 0.49194, between the red and green texel centres
// (¼, ¾). NEAREST reads red; without a sampler the renderer's LINEAR magnification mixes them
// (decoded to linear first, the texture being sRGB) with weight t = 2u − ½ = 0.48387 on green:
// (srgb(1 − t), srgb(t), 0) ≈ (190, 185, 0).
TEST(TextureMappingCli, SamplerFiltersNearestOrTheDefaultLinear) {
  const Png nearest = render(textured_scene("nearest.gltf", textured_square(), "", kNearest),
                             kFlags, "nearest.png");
  if (nearest.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  expect_pixel(nearest, 30, 15, kRed, "nearest");
  const Png linear =
      render(textured_scene("linear.gltf", textured_square(), "", "{}"), kFlags, "linear.png");
  const double t = 2 * 30.5 / 62 - 0.5;
  const uint8_t* p = linear.at(30, 15);
  EXPECT_NEAR(p[0], srgb(1 - t), 2);
  EXPECT_NEAR(p[1], srgb(t), 2);
  EXPECT_EQ(p[2], 0);
}

}  // namespace
