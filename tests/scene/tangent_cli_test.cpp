// Normal maps with a TANGENT attribute under --lights reference, against values computed by hand
// from the reference scene's definition (three.js r187 MeshStandardMaterial under one directional
// light of irradiance 3 towards L = (2, 4, 5)/√45 plus ambient 0.3, sRGB-encoded): the tangent
// frame is (T, normalize(cross(N, T)) · w, N) from the attribute, the normal scale not negated,
// whatever the texture coordinates say.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "reference_shading.h"
#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace {

using rig::test::Png;
using rig::test::quote;
using rig::test::render;
using rig::test::SceneMesh;

using rig::test::dfg_by_quadrature;
using rig::test::kL;
using rig::test::kPi;
using rig::test::srgb;

// One pixel of a grey (0.5), metallic 0, roughness 1 surface with unit normal n seen from v
// under the reference light: direct GGX specular with multiple-scattering compensation, Lambert
// times (1 − F), and the ambient on the diffuse less the lobe's share (A, B at the table's last
// roughness texel centre, 31/32).
double grey_rough_pixel(const double n[3], const double v[3]) {
  auto dot = [](const double* a, const double* b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  double h[3] = {kL[0] + v[0], kL[1] + v[1], kL[2] + v[2]};
  const double hl = std::sqrt(dot(h, h));
  for (double& c : h) c /= hl;
  const double nl = std::max(dot(n, kL), 0.0), nv = std::max(dot(n, v), 0.0),
               vh = std::max(dot(v, h), 0.0);
  const double f = 0.04 + 0.96 * std::exp2((-5.55473 * vh - 6.98316) * vh);
  const double d = 1 / kPi;            // α = 1: the GGX distribution is 1/π whatever N·H
  const double vis = 0.5 / (nl + nv);  // α = 1: the Smith terms' square roots are 1
  double a = 0, b = 0;
  dfg_by_quadrature(nv, 31.0 / 32.0, a, b);
  const double specular = 3 * nl * f * vis * d * (1 + 0.04 * (1 / (a + b) - 1));
  const double diffuse = 3 * nl * 0.5 / kPi * (1 - f);
  const double fss_ess = 0.04 * a + b, e_ms = 1 - a - b, f_avg = 0.04 + 0.96 / 21;
  const double f_ms = fss_ess * f_avg / (1 - e_ms * f_avg);
  const double ambient = 0.3 * 0.5 / kPi * (1 - fss_ess - f_ms * e_ms);
  return srgb(specular + diffuse + ambient);
}

// The decoded, normalized texel (r, g, b) of an 8-bit normal map.
void decode_texel(const int texel[3], double n[3]) {
  for (int k = 0; k < 3; ++k) n[k] = texel[k] / 255.0 * 2 - 1;
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int k = 0; k < 3; ++k) n[k] /= len;
}

// A square facing +Z seen head on from (0, 0, 5): u runs along +X and v downwards (glTF's
// top-left origin), so the texture coordinates' frame is T = +X, B = −Y. Its TANGENT is turned
// 90° from that on purpose: +Y with handedness w, so the attribute's frame is T = +Y,
// B = cross(+Z, +Y) · w = −X · w. Returns the centre pixel under a 2 × 2 normal map of `texel`.
Png render_square(const int texel[3], float w, const std::string& name) {
  std::vector<uint8_t> pixels;
  for (int i = 0; i < 4; ++i)
    pixels.insert(pixels.end(), {uint8_t(texel[0]), uint8_t(texel[1]), uint8_t(texel[2]), 255});
  SceneMesh square = rig::test::square_facing_z(0, 0, 0, 1.0f, 0);
  square.texcoords = {0, 1, 1, 1, 1, 0, 0, 0};
  for (int v = 0; v < 4; ++v) square.tangents.insert(square.tangents.end(), {0, 1, 0, w});
  const std::string json = rig::test::scene_gltf(
      {square},
      "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],\"metallicFactor\":0,"
      "\"roughnessFactor\":1},\"normalTexture\":{\"index\":0}}]");
  const std::string model = rig::test::write_scene(
      rig::test::scratch_dir() / (name + ".gltf"),
      rig::test::with_image_texture(json, rig::test::encode_png(pixels, 2, 2)));
  return render(
      model,
      rig::test::scene_flags(64, 64) + "--lights reference --camera " + quote("0,0,5;0,0,0;30"),
      name + ".png");
}

// The texel (204, 90, 223) decodes to (0.6, −0.294, 0.749). Read in the TANGENT frame (w = +1:
// T = +Y, B = −X) it is the world normal (0.294, 0.6, 0.749) ≈ L, the brightest the square can
// be; read in the texture coordinates' frame (T = +X, B = −Y, three.js's y flip) it would be
// (0.6, −0.294, 0.749), a normal 56° from L.
TEST(TangentCli, NormalMapIsReadInTheTangentAttributesFrame) {
  const int texel[3] = {204, 90, 223};
  const Png png = render_square(texel, 1.0f, "tangent_turned");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  double t[3];
  decode_texel(texel, t);
  const double along_tangent[3] = {-t[1], t[0], t[2]};
  const double along_uv[3] = {t[0], t[1], t[2]};
  const double v[3] = {0, 0, 1};
  const double expected = grey_rough_pixel(along_tangent, v);
  ASSERT_GT(expected, grey_rough_pixel(along_uv, v) + 20);  // the two frames tell apart
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(png.at(32, 32)[c], expected, 2.0) << "channel " << c;
}

// Handedness w = −1 turns the bitangent round: B = +X. The texel (204, 165, 223) decodes to
// (0.6, 0.294, 0.749), the world normal (0.294, 0.6, 0.749) ≈ L with w = −1; the same square
// with w = +1 reads it as (−0.294, 0.6, 0.749).
TEST(TangentCli, NegativeHandednessFlipsTheBitangent) {
  const int texel[3] = {204, 165, 223};
  const Png flipped = render_square(texel, -1.0f, "tangent_w_minus");
  if (flipped.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const Png plain = render_square(texel, 1.0f, "tangent_w_plus");
  double t[3];
  decode_texel(texel, t);
  const double with_minus[3] = {t[1], t[0], t[2]};
  const double with_plus[3] = {-t[1], t[0], t[2]};
  const double v[3] = {0, 0, 1};
  const double expected_minus = grey_rough_pixel(with_minus, v);
  const double expected_plus = grey_rough_pixel(with_plus, v);
  ASSERT_GT(expected_minus, expected_plus + 10);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(flipped.at(32, 32)[c], expected_minus, 2.0) << "channel " << c;
    EXPECT_NEAR(plain.at(32, 32)[c], expected_plus, 2.0) << "channel " << c;
  }
}

}  // namespace
