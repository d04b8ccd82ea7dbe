// --lights reference and --lights none against values computed by hand from the reference
// scene's definition (three.js r18x MeshStandardMaterial under one directional light of
// irradiance 3 towards L = (2, 4, 5)/√45 plus ambient 0.3, sRGB-encoded, no tone mapping):
// a grey plane facing L (and a primitive without normals, shaded flat), a metal sphere's specular
// peak, emissive and unlit surfaces without lights, and every skinning method's program.
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
using rig::test::render_from_the_light;
using rig::test::scene_file;
using rig::test::square_facing;
using rig::test::srgb;

// A grey (0.5) dielectric, metallic 0, roughness 1, facing L and seen along L, so
// N·L = N·V = N·H = V·H = 1 and its normal is constant (no geometric roughness):
//   E = 3 (the light's irradiance × N·L), α = 1 so D = 1/π and V = 0.5/(1 + 1) = 0.25;
//   F(V·H = 1) = 0.04 + 0.96·2^(−5.55473 − 6.98316) = 0.04 + 0.96·1.6839e-4 = 0.0401617;
//   direct diffuse = E·0.5/π·(1 − F) = 0.477465·0.959838 = 0.458289;
//   direct specular = E·F·V·D·(1 + 0.04·(1/(A + B) − 1)) = 0.0095882·(…);
//   ambient = 0.3·0.5/π·(1 − (0.04·A + B) − F_ms·(1 − A − B)), F_avg = 0.04 + 0.96/21 and
//   F_ms = (0.04·A + B)·F_avg/(1 − (1 − A − B)·F_avg);
// with A, B the directional albedo split at roughness 1 and N·V = 1, which the table samples at
// its last texel centre (31/32 in both): integrated here by quadrature. The sum is about 0.513,
// sRGB-encoded about 190.
// The sum above, sRGB-encoded.
double grey_plane_facing_light() {
  double a = 0, b = 0;
  dfg_by_quadrature(31.0 / 32.0, 31.0 / 32.0, a, b);
  const double fresnel = 0.04 + 0.96 * std::exp2(-5.55473 - 6.98316);
  const double diffuse = 3 * 0.5 / kPi * (1 - fresnel);
  const double specular = 3 * fresnel * 0.25 / kPi * (1 + 0.04 * (1 / (a + b) - 1));
  const double fss_ess = 0.04 * a + b, e_ms = 1 - a - b, f_avg = 0.04 + 0.96 / 21;
  const double f_ms = fss_ess * f_avg / (1 - e_ms * f_avg);
  const double ambient = 0.3 * 0.5 / kPi * (1 - fss_ess - f_ms * e_ms);
  return srgb(diffuse + specular + ambient);
}

TEST(ReferenceLightingCli, GreyPlaneFacingTheLightHasTheHandComputedValue) {
  const std::string model =
      scene_file("plane.gltf", {square_facing(kL, 1.0f, 0)},
                 "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],"
                 "\"metallicFactor\":0,\"roughnessFactor\":1}}]");
  const Png png = render_from_the_light(model, "plane.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const double fresnel = 0.04 + 0.96 * std::exp2(-5.55473 - 6.98316);
  EXPECT_NEAR(fresnel, 0.0401617, 1e-6);
  const double expected = grey_plane_facing_light();
  EXPECT_NEAR(expected, 190, 2);  // the estimate above
  const uint8_t* centre = png.at(32, 32);
  EXPECT_EQ(centre[3], 255);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(centre[c], expected, 1.0) << "channel " << c;
}

// A metal sphere (radius 1 at the origin, base colour 0.2, metallic 1, roughness 0.5) seen
// from (0, 0, 6): its highlight peaks where the normal is the half vector between L and the
// view direction. That point is found by iteration (p = normalize(L + normalize(eye − p))) and
// projected by hand: yfov 30° on 201 × 201, x = (p.x/(6 − p.z)/tan 15° + 1)/2·201, y from the
// top = (1 − p.y/(6 − p.z)/tan 15°)/2·201. The centroid of the pixels within 5 % of the brightest
// lies there (within 2 pixels: the N·L, visibility and Fresnel factors tilt the lobe slightly).
TEST(ReferenceLightingCli, MetalSphereSpecularPeakSitsWhereTheNormalIsTheHalfVector) {
  const std::string model =
      scene_file("sphere.gltf", {rig::test::sphere(0, 0, 0, 1, 64, 128, 0)},
                 "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.2,0.2,0.2,1],"
                 "\"metallicFactor\":1,\"roughnessFactor\":0.5}}]");
  const Png png = render(
      model,
      rig::test::scene_flags(201, 201) + "--lights reference --camera " + quote("0,0,6;0,0,0;30"),
      "sphere.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  double p[3] = {kL[0], kL[1], kL[2]};
  for (int i = 0; i < 100; ++i) {
    double v[3] = {-p[0], -p[1], 6 - p[2]};
    const double vl = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double h[3] = {kL[0] + v[0] / vl, kL[1] + v[1] / vl, kL[2] + v[2] / vl};
    const double hl = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    for (int k = 0; k < 3; ++k) p[k] = h[k] / hl;
  }
  const double t = std::tan(15.0 * kPi / 180.0);
  const double ex = (p[0] / (6 - p[2]) / t + 1) / 2 * 201;
  const double ey = (1 - p[1] / (6 - p[2]) / t) / 2 * 201;
  int peak = 0;
  for (size_t i = 0; i < png.rgba.size(); i += 4) peak = std::max<int>(peak, png.rgba[i]);
  ASSERT_GT(peak, 100);
  ASSERT_LT(peak, 255);  // not clipped, so the lobe's shape is intact
  double sx = 0, sy = 0, n = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x)
      if (png.at(x, y)[0] >= peak * 0.95) {
        sx += x + 0.5;
        sy += y + 0.5;
        ++n;
      }
  EXPECT_NEAR(sx / n, ex, 2.0);
  EXPECT_NEAR(sy / n, ey, 2.0);
}

// Without lights a lit surface is black (alpha 1), an emissive one shows factor × strength
// (0.5, 0.25, 0) × 2 = (1, 0.5, 0) → sRGB (255, 187.5, 0), and an unlit one its base colour
// (0.2, 0.4, 0.8) → (123.6, 169.6, 231.1). Under the reference lights the unlit one is the same.
TEST(ReferenceLightingCli, NoLightsShowOnlyEmissiveAndUnlitSurfaces) {
  const std::string model = scene_file(
      "emissive.gltf",
      {rig::test::square_facing_z(-1.2f, 0, 0, 0.5f, 0),
       rig::test::square_facing_z(0, 0, 0, 0.5f, 1),
       rig::test::square_facing_z(1.2f, 0, 0, 0.5f, 2)},
      "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1],\"metallicFactor\":0}},"
      "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,0,1]},\"emissiveFactor\":[0.5,0.25,0],"
      "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":2}}},"
      "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.2,0.4,0.8,1]},"
      "\"extensions\":{\"KHR_materials_unlit\":{}}}]",
      "[\"KHR_materials_emissive_strength\",\"KHR_materials_unlit\"]");
  // At distance 4 a 60° vertical field of view sees ±4·tan 30° = ±2.309 vertically and, at
  // aspect 2, ±4.619 horizontally: the squares' centres at x = −1.2, 0, 1.2 land at pixels
  // 80·(1 + x/4.619) = 59.2, 80, 100.8 of 160.
  const std::string flags = rig::test::scene_flags(160, 80) + "--camera " + quote("0,0,4;0,0,0;60");
  const Png none = render(model, flags + " --lights none", "none.png");
  if (none.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const uint8_t* lit = none.at(59, 40);
  EXPECT_EQ(lit[0], 0);
  EXPECT_EQ(lit[1], 0);
  EXPECT_EQ(lit[2], 0);
  EXPECT_EQ(lit[3], 255);
  const uint8_t* emissive = none.at(80, 40);
  EXPECT_EQ(emissive[0], 255);
  EXPECT_NEAR(emissive[1], 187.5, 1);
  EXPECT_EQ(emissive[2], 0);
  const uint8_t* unlit = none.at(100, 40);
  EXPECT_NEAR(unlit[0], 123.6, 1);
  EXPECT_NEAR(unlit[1], 169.6, 1);
  EXPECT_NEAR(unlit[2], 231.1, 1);
  EXPECT_EQ(none.at(0, 0)[3], 0);
  const Png lit_scene = render(model, flags + " --lights reference", "lit.png");
  const uint8_t* unlit_lit = lit_scene.at(100, 40);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(unlit_lit[c], unlit[c]);
  EXPECT_GT(lit_scene.at(59, 40)[0], 100);  // the white lit square is lit now
}

// Alpha modes, on unlit squares (their colour is the base colour, exactly) over a transparent
// background, seen head on from (0, 0, 4):
// - BLEND 50 % red alone: alpha 0.5 → 128 (127.5 rounded), colour straight again: (255, 0, 0).
// - BLEND 50 % green at z = 0.5 over BLEND 50 % red at z = 0, the green one first in the file:
//   drawn back to front, red leaves (0.5, 0, 0, 0.5) → 8-bit (128, 0, 0, 128); green over it
//   gives colour 0.5·(0, 1, 0) + 0.5·(128/255, 0, 0) = (64, 128, 0) (63.99 and 127.5) and alpha
//   0.5 + 0.5·128/255 = 0.751 → 192 (191.5); straight: (64·255/192, 128·255/192) = (85, 170).
//   Drawn in file order instead it would be red over green: (128, 64·…) — red dominant.
// - MASK with cutoff 0.5: alpha 0.3 is discarded (alpha 0), alpha 0.7 is written opaque (255).
TEST(ReferenceLightingCli, AlphaModesBlendBackToFrontAndMaskCutsOff) {
  auto unlit = [](const char* color, const char* mode) {
    return std::string("{\"pbrMetallicRoughness\":{\"baseColorFactor\":") + color +
           "},\"alphaMode\":\"" + mode + "\",\"extensions\":{\"KHR_materials_unlit\":{}}}";
  };
  const std::string materials = "[" + unlit("[1,0,0,0.5]", "BLEND") + "," +
                                unlit("[0,1,0,0.5]", "BLEND") + "," + unlit("[0,0,1,0.3]", "MASK") +
                                "," + unlit("[0,0,1,0.7]", "MASK") + "]";
  // Each square centred on its node's origin (BLEND sorts by the node origin's depth).
  auto square = [](float x, float y, float z, float h, int material) {
    SceneMesh m = rig::test::square_facing_z(0, 0, 0, h, material);
    m.translation[0] = x;
    m.translation[1] = y;
    m.translation[2] = z;
    return m;
  };
  const std::string model = scene_file("alpha.gltf",
                                       {square(0.4f, 0.4f, 0.5f, 0.3f, 1),  // green, nearer, first
                                        square(0.2f, 0.2f, 0, 0.3f, 0),     // red, overlapping it
                                        square(-1.0f, 0.2f, 0, 0.15f, 0),   // red alone
                                        square(-1.0f, -0.8f, 0, 0.2f, 2),   // masked out
                                        square(0.6f, -0.8f, 0, 0.2f, 3)},   // masked in
                                       materials, "[\"KHR_materials_unlit\"]");
  // yfov 60° at distance 4 (z = 0) sees ±2.309; 120 × 120 pixels: x → 60·(1 + x/2.309),
  // y → 60·(1 − y/2.309). At z = 0.5 the distance is 3.5: ±2.021.
  const Png png = render(
      model,
      rig::test::scene_flags(120, 120) + "--lights reference --camera " + quote("0,0,4;0,0,0;60"),
      "alpha.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  auto pixel = [&](double x, double y, double distance) {
    const double half = distance * std::tan(30.0 * kPi / 180.0);
    return png.at(int(60 * (1 + x / half)), int(60 * (1 - y / half)));
  };
  const uint8_t* alone = pixel(-1.0, 0.2, 4);
  EXPECT_NEAR(alone[3], 128, 1);
  EXPECT_NEAR(alone[0], 255, 2);
  EXPECT_EQ(alone[1], 0);
  // Red covers x, y in [−0.1, 0.5] at z = 0, green [0.1, 0.7] at z = 0.5; the line of sight
  // through (0.3, 0.3, 0) meets z = 0.5 at (0.2625, 0.2625): inside both.
  const uint8_t* both = pixel(0.3, 0.3, 4);
  EXPECT_NEAR(both[3], 192, 2);
  EXPECT_NEAR(both[0], 85, 2);
  EXPECT_NEAR(both[1], 170, 2);
  EXPECT_EQ(pixel(-1.0, -0.8, 4)[3], 0);
  const uint8_t* masked_in = pixel(0.6, -0.8, 4);
  EXPECT_EQ(masked_in[3], 255);
  EXPECT_EQ(masked_in[2], 255);
}

// One pixel of the reference shading computed here from its definition, for a grey (0.5),
// metallic 0, roughness 1 surface with normal n seen from v under the reference light; the
// ambient's (A, B) by quadrature at (31/32, N·V) (the table's last roughness texel centre).
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
  const double d = 1 / kPi;  // α = 1: a²/(π(N·H²(a² − 1) + 1)²) = 1/π whatever N·H
  const double vis = 0.5 / (nl + nv);  // α = 1: √(a² + (1 − a²)x²) = 1
  double a = 0, b = 0;
  dfg_by_quadrature(nv, 31.0 / 32.0, a, b);
  const double specular = 3 * nl * f * vis * d * (1 + 0.04 * (1 / (a + b) - 1));
  const double diffuse = 3 * nl * 0.5 / kPi * (1 - f);
  const double fss_ess = 0.04 * a + b, e_ms = 1 - a - b, f_avg = 0.04 + 0.96 / 21;
  const double f_ms = fss_ess * f_avg / (1 - e_ms * f_avg);
  const double ambient = 0.3 * 0.5 / kPi * (1 - fss_ess - f_ms * e_ms);
  return srgb(specular + diffuse + ambient);
}

// A normal map without TANGENT: the tangent frame comes from screen derivatives (three.js's
// getTangentFrame, its loader negating the y scale). On a square facing +Z with u along +X and
// v downwards (glTF's top-left origin), T = +X and B = −Y, so with the y flip a texel encoding
// (x, y, z) means the world normal (x, y, z). The texel (166, 204, 223) decodes to
// (0.30196, 0.6, 0.74902) ≈ L; seen head on from (0, 0, 5) the centre pixel is then the
// hand-computed value for that normal, brighter than the same square without the map.
TEST(ReferenceLightingCli, NormalMapTiltsTheShadingNormal) {
  std::vector<uint8_t> texel;
  for (int i = 0; i < 4; ++i) texel.insert(texel.end(), {166, 204, 223, 255});
  const std::vector<uint8_t> png_bytes = rig::test::encode_png(texel, 2, 2);
  SceneMesh square = rig::test::square_facing_z(0, 0, 0, 1.0f, 0);
  square.texcoords = {0, 1, 1, 1, 1, 0, 0, 0};
  SceneMesh plain = square;
  plain.material = 1;
  const std::string grey =
      "\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],"
      "\"metallicFactor\":0,\"roughnessFactor\":1}";
  auto with_texture = [&](const SceneMesh& mesh, const std::string& name) {
    std::string json = rig::test::scene_gltf(
        {mesh}, "[{" + grey + ",\"normalTexture\":{\"index\":0}},{" + grey + "}]");
    return rig::test::write_scene(rig::test::scratch_dir() / name,
                                  rig::test::with_image_texture(json, png_bytes));
  };
  const std::string flags = rig::test::scene_flags(64, 64) +
                            "--lights reference "
                            "--camera " +
                            quote("0,0,5;0,0,0;30");
  const Png mapped = render(with_texture(square, "mapped.gltf"), flags, "mapped.png");
  if (mapped.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const Png flat = render(with_texture(plain, "flat.gltf"), flags, "flat.png");
  double n[3] = {166 / 255.0 * 2 - 1, 204 / 255.0 * 2 - 1, 223 / 255.0 * 2 - 1};
  const double nl = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (double& c : n) c /= nl;
  const double v[3] = {0, 0, 1}, z[3] = {0, 0, 1};
  const double expected = grey_rough_pixel(n, v);
  const double expected_flat = grey_rough_pixel(z, v);
  EXPECT_GT(expected, expected_flat + 10);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(mapped.at(32, 32)[c], expected, 2.0) << "channel " << c;
    EXPECT_NEAR(flat.at(32, 32)[c], expected_flat, 2.0) << "channel " << c;
  }
}

// Without NORMAL the reference shading uses the face normal (the glTF spec; three.js's screen-
// derivative flat shading). A tent of two indexed triangles sharing the square's diagonal: A
// (corners (−1, −1), (1, −1), (1, 1) in the square's (u, w) plane) faces L, B's far corner is
// lifted 1.5 towards the viewer, so the importer's smooth normals at the shared corners lean
// towards B's normal and would tilt A's shading. The node is moved so A's point (0.4, −0.4)
// sits at the look-at point, seen along L from 5 away: the centre pixel then has the grey
// plane's hand-computed value (N·L = N·V = 1, constant normal).
TEST(ReferenceLightingCli, PrimitiveWithoutNormalsShadesWithItsFaceNormal) {
  SceneMesh tent = square_facing(kL, 1.0f, 0);
  tent.normals.clear();
  const double u[3] = {tent.positions[3] - tent.positions[0], tent.positions[4] - tent.positions[1],
                       tent.positions[5] - tent.positions[2]};  // 2·u: corner 0 → corner 1
  const double w[3] = {tent.positions[6] - tent.positions[3], tent.positions[7] - tent.positions[4],
                       tent.positions[8] - tent.positions[5]};  // 2·w: corner 1 → corner 2
  for (int k = 0; k < 3; ++k) {
    tent.positions[9 + k] += float(1.5 * kL[k]);
    tent.translation[k] = float(-(0.4 * u[k] - 0.4 * w[k]) / 2);
  }
  const std::string model =
      scene_file("tent.gltf", {tent},
                 "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],"
                 "\"metallicFactor\":0,\"roughnessFactor\":1}}]");
  const Png png = render_from_the_light(model, "tent.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const double expected = grey_plane_facing_light();
  const uint8_t* centre = png.at(32, 32);
  EXPECT_EQ(centre[3], 255);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(centre[c], expected, 1.0) << "channel " << c;
}

// The reference shading lives in the mesh fragment shader every skinning method's program
// shares: the bundled mannequin renders under each method's program, lit, without GL errors.
TEST(ReferenceLightingCli, EverySkinningMethodsProgramShadesWithTheReferenceLights) {
  const std::string mannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
  const Png png =
      render(mannequin, rig::test::scene_flags(240, 80) + "--lights reference --skinning compare",
             "compare.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const int columns = 4;
  for (int c = 0; c < columns; ++c) {
    int covered = 0, bright = 0;
    for (int y = 0; y < png.height; ++y)
      for (int x = c * png.width / columns; x < (c + 1) * png.width / columns; ++x) {
        const uint8_t* p = png.at(x, y);
        covered += p[3] == 255;
        bright += p[3] == 255 && p[0] + p[1] + p[2] > 150;
      }
    EXPECT_GT(covered, 100) << "column " << c;
    EXPECT_GT(bright, 20) << "column " << c;
  }
}

}  // namespace
