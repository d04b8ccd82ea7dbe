// KHR_materials_ior and KHR_materials_specular under --lights reference, against values worked
// by hand from three.js r187's MeshPhysicalMaterial, which renders both extensions:
//   dielectric F0 = min(((ior − 1)/(ior + 1))² · specularColor, 1) · specular,
//   F0 = mix(dielectric F0, base colour, metalness), F90 = mix(specular, 1, metalness),
// with specular = specularFactor × specularTexture.a and specularColor = specularColorFactor ×
// specularColorTexture.rgb (sRGB). The direct specular's Fresnel reads (F0, F90); the direct
// diffuse is scaled by 1 − F(dielectric F0, F90) and the ambient by 1 − (F0·A + F90·B) − F_ms·E_ms
// on the dielectric F0.
//
// Each case is reference_lighting_cli_test.cpp's worked plane: facing L, seen along L, roughness
// 1, so N·L = N·V = N·H = V·H = 1, D = 1/π, V = 1/4 and Schlick's Fresnel at V·H = 1 is
// F0 + (F90 − F0)·2^(−5.55473 − 6.98316) (three.js's spherical-Gaussian form).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "reference_shading.h"

namespace {

using rig::test::kL;
using rig::test::kPi;
using rig::test::Png;
using rig::test::srgb;

// One channel of the plane: base colour `base`, metalness `metal`, F0 and F90 after the
// extensions (`dielectric_f0` the dielectric's alone), A and B the directional albedo split.
double plane_channel(double base, double metal, double f0, double dielectric_f0, double f90,
                     double a, double b) {
  const double fc = std::exp2(-5.55473 - 6.98316);
  const double fresnel = f0 * (1 - fc) + f90 * fc;
  const double dielectric_fresnel = dielectric_f0 * (1 - fc) + f90 * fc;
  const double diffuse_color = base * (1 - metal);
  const double diffuse = 3 * diffuse_color / kPi * (1 - dielectric_fresnel);
  const double specular = 3 * fresnel * 0.25 / kPi * (1 + f0 * (1 / (a + b) - 1));
  const double fss_ess = dielectric_f0 * a + f90 * b, e_ms = 1 - a - b;
  const double f_avg = dielectric_f0 + (1 - dielectric_f0) / 21;
  const double f_ms = fss_ess * f_avg / (1 - e_ms * f_avg);
  const double ambient = 0.3 * diffuse_color / kPi * (1 - fss_ess - f_ms * e_ms);
  return srgb(diffuse + specular + ambient);
}

struct Case {
  double dielectric_f0[3];
  double f90;
};

// Renders the grey (0.5) plane with `material_extensions` (the material's "extensions" object
// members) and metalness `metal`, and checks its centre against the hand values of `c`.
void expect_plane(const std::string& name, const std::string& material_extensions, double metal,
                  const Case& c, const std::string& textures = "") {
  rig::test::SceneMesh plane = rig::test::square_facing(kL, 1.0f, 0);
  plane.texcoords = {0, 1, 1, 1, 1, 0, 0, 0};
  std::string json = rig::test::scene_gltf(
      {plane},
      "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],\"metallicFactor\":" +
          std::to_string(metal) + ",\"roughnessFactor\":1},\"extensions\":{" + material_extensions +
          "}}]",
      "[\"KHR_materials_ior\",\"KHR_materials_specular\"]");
  if (!textures.empty()) {
    // One 2 × 2 picture of a single texel value (R 255, G 128, B 0, A 128).
    const std::vector<uint8_t> texels = {255, 128, 0, 128, 255, 128, 0, 128,
                                         255, 128, 0, 128, 255, 128, 0, 128};
    json = rig::test::with_image_texture(json, rig::test::encode_png(texels, 2, 2));
  }
  const std::string model =
      rig::test::write_scene(rig::test::scratch_dir() / (name + ".gltf"), json);
  const Png png = rig::test::render_from_the_light(model, name + ".png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  double a = 0, b = 0;
  rig::test::dfg_by_quadrature(31.0 / 32.0, 31.0 / 32.0, a, b);
  const uint8_t* centre = png.at(32, 32);
  for (int k = 0; k < 3; ++k) {
    const double f0 = c.dielectric_f0[k] * (1 - metal) + 0.5 * metal;
    const double f90 = c.f90 * (1 - metal) + metal;
    const double want = plane_channel(0.5, metal, f0, c.dielectric_f0[k], f90, a, b);
    EXPECT_NEAR(centre[k], want, 1.0) << name << " channel " << k;
  }
}

TEST(SpecularIorCli, IorSetsTheDielectricF0) {
  // ((1.8 − 1)/(1.8 + 1))² = (0.8/2.8)² = 0.0816327: brighter than the core's 0.04 plane (190).
  const double f0 = std::pow(0.8 / 2.8, 2);
  EXPECT_NEAR(f0, 0.0816327, 1e-7);
  expect_plane("ior_1_8", "\"KHR_materials_ior\":{\"ior\":1.8}", 0, {{f0, f0, f0}, 1});
}

TEST(SpecularIorCli, SpecularFactorZeroLeavesALambertSurface) {
  // F0 = F90 = 0: no specular and no Fresnel loss, so the plane is Lambert's
  // (3 + 0.3)·0.5/π = 0.525211, sRGB 255·(1.055·0.525211^(1/2.4) − 0.055) = 191.7.
  EXPECT_NEAR(srgb(3.3 * 0.5 / kPi), 191.7, 0.05);
  expect_plane("specular_0", "\"KHR_materials_specular\":{\"specularFactor\":0}", 0,
               {{0, 0, 0}, 0});
  // ior 1 alone leaves F0 = 0 but F90 = 1. F90 shows at grazing angles (the fidelity scene
  // ior_specular checks it against three.js); facing the light it changes this plane by under
  // one grey level, so this case checks F0 only.
  expect_plane("ior_1", "\"KHR_materials_ior\":{\"ior\":1}", 0, {{0, 0, 0}, 1});
}

TEST(SpecularIorCli, SpecularColourAndFactorScaleEachChannel) {
  // 0.04 × (1, 0.5, 0.25) × 0.5 = (0.02, 0.01, 0.005), F90 = 0.5.
  expect_plane("specular_colour",
               "\"KHR_materials_specular\":{\"specularFactor\":0.5,"
               "\"specularColorFactor\":[1,0.5,0.25]}",
               0, {{0.02, 0.01, 0.005}, 0.5});
  // The colour's product is clamped at 1 before the factor: ior 3 gives 0.25, × 8 → 1 in red.
  expect_plane("specular_clamped",
               "\"KHR_materials_ior\":{\"ior\":3},\"KHR_materials_specular\":{"
               "\"specularColorFactor\":[8,2,0]}",
               0, {{1, 0.5, 0}, 1});
}

TEST(SpecularIorCli, IorZeroIsTheExtensionsPerfectReflector) {
  // The file's 0 is read as 1000 (as three.js reads it): F0 = (999/1001)² = 0.996008.
  const double f0 = std::pow(999.0 / 1001.0, 2);
  expect_plane("ior_0", "\"KHR_materials_ior\":{\"ior\":0}", 0, {{f0, f0, f0}, 1});
}

TEST(SpecularIorCli, MetalsIgnoreTheDielectricSpecular) {
  // Metalness 1: F0 = base colour, F90 = 1, whatever the extensions say.
  expect_plane("metal_specular_0", "\"KHR_materials_specular\":{\"specularFactor\":0}", 1,
               {{0, 0, 0}, 0});
}

TEST(SpecularIorCli, SpecularTexturesScaleTheFactors) {
  // specularTexture's alpha 128/255 scales the factor (linear data); specularColorTexture is
  // sRGB, (255, 128, 0) → (1, 0.2158605, 0) linear: dielectric F0 = 0.04·(1, 0.21586, 0)·0.50196.
  const double s = 128.0 / 255.0, g = std::pow((128.0 / 255.0 + 0.055) / 1.055, 2.4);
  EXPECT_NEAR(g, 0.2158605, 1e-6);
  expect_plane("specular_textures",
               "\"KHR_materials_specular\":{\"specularTexture\":{\"index\":0},"
               "\"specularColorTexture\":{\"index\":0}}",
               0, {{0.04 * s, 0.04 * g * s, 0}, s}, "textures");
}

}  // namespace
