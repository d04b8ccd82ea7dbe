// Image-based lighting (render/environment_map.h, environment_prefilter.h) against independent
// expectations: a constant environment L has irradiance π·L and prefilters to L at every
// roughness; a half-lit sphere's irradiance is known in closed form; SH coefficients of known
// functions; a single bright texel or spot lands where it was put; .hdr files read back their
// RGBE values and bad files fail with the file named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "render/environment_map.h"
#include "render/environment_prefilter.h"
#include "test_support.h"

namespace rig::render {
namespace {

constexpr float kPi = 3.14159265358979f;

EnvironmentMap from_function(int width, glm::vec3 (*f)(glm::vec3)) {
  EnvironmentMap m;
  m.width = width;
  m.height = width / 2;
  m.texels.resize(size_t(m.width) * size_t(m.height));
  for (int j = 0; j < m.height; ++j)
    for (int i = 0; i < m.width; ++i)
      m.texels[size_t(j) * size_t(m.width) + size_t(i)] = f(EnvironmentMap::uv_to_direction(
          {(float(i) + 0.5f) / float(m.width), (float(j) + 0.5f) / float(m.height)}));
  return m;
}

const glm::vec3 kNormals[] = {{0, 1, 0},  {0, -1, 0},         {1, 0, 0},
                              {0, 0, -1}, {0.6f, 0.0f, 0.8f}, {-0.48f, 0.6f, 0.64f}};

TEST(EnvironmentMap, DirectionsAndCoordinatesRoundTrip) {
  // The documented layout: centre is −Z, u = 0.75 is +X, v = 0 the zenith.
  EXPECT_NEAR(glm::distance(EnvironmentMap::uv_to_direction({0.5f, 0.5f}), {0, 0, -1}), 0, 1e-6f);
  EXPECT_NEAR(glm::distance(EnvironmentMap::uv_to_direction({0.75f, 0.5f}), {1, 0, 0}), 0, 1e-6f);
  EXPECT_NEAR(EnvironmentMap::uv_to_direction({0.3f, 0.0f}).y, 1.0f, 1e-6f);
  for (glm::vec3 n : kNormals) {
    if (std::abs(n.y) > 0.99f) continue;  // u is arbitrary at the poles
    const glm::vec2 uv = EnvironmentMap::direction_to_uv(n);
    EXPECT_NEAR(glm::distance(EnvironmentMap::uv_to_direction(uv), glm::normalize(n)), 0, 1e-5f);
  }
  // The texels' solid angles add up to the sphere.
  const EnvironmentMap m = constant_environment(glm::vec3(1.0f), 64, 32);
  double total = 0.0;
  for (int j = 0; j < m.height; ++j) total += m.texel_solid_angle(j) * m.width;
  EXPECT_NEAR(total, 4.0 * 3.14159265358979, 1e-9);
}

TEST(EnvironmentPrefilter, ConstantEnvironmentGivesPiLAndLAtEveryRoughness) {
  const glm::vec3 L(0.3f, 0.5f, 0.7f);
  PrefilteredEnvironment p;
  ASSERT_TRUE(prefilter_environment(constant_environment(L, 64, 32), p));
  ASSERT_EQ(int(p.levels.size()), kEnvironmentLevels);
  for (glm::vec3 n : kNormals) {
    const glm::vec3 e = p.irradiance_sh[0] * 0.282095f;  // the shader's sum (only Y00 is set)
    const glm::vec3 full = [&] {
      glm::vec3 s(0.0f);
      const std::array<float, 9> y = sh_basis(glm::normalize(n));
      for (int k = 0; k < 9; ++k) s += p.irradiance_sh[size_t(k)] * y[size_t(k)];
      return s;
    }();
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(full[c], kPi * L[c], 1e-3f * kPi * L[c]);
      EXPECT_NEAR(e[c], kPi * L[c], 1e-3f * kPi * L[c]);
    }
    for (float roughness : {0.0f, 0.2f, 0.5f, 0.9f, 1.0f}) {
      const glm::vec3 s = p.specular(n, roughness);
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(s[c], L[c], 1e-4f) << roughness;
    }
  }
  for (size_t k = 0; k < p.levels.size(); ++k) {
    EXPECT_EQ(p.levels[k].width, kEnvironmentBaseWidth >> k);
    EXPECT_EQ(p.levels[k].height, p.levels[k].width / 2);
  }
  // The stand-in, made without integration, agrees.
  const PrefilteredEnvironment c = constant_prefiltered_environment(L);
  EXPECT_NEAR(sh_irradiance(project_sh(constant_environment(L, 128, 64)), {0, 1, 0}).g, kPi * L.g,
              1e-3f);
  EXPECT_NEAR(c.irradiance_sh[0].b * 0.282095f, kPi * L.b, 1e-3f);
  EXPECT_NEAR(c.specular({1, 0, 0}, 0.7f).r, L.r, 1e-6f);
}

// Radiance 1 from the upper hemisphere, 0 below: the exact irradiance is π facing up, 0 facing
// down and π/2 facing the horizon, and the band-2 SH is exact for all three (the hemisphere's
// band-2 coefficients vanish; bands 0 and 1 give π/2 ± π/2 and π/2).
TEST(EnvironmentPrefilter, HalfLitSphereIrradianceIsExact) {
  const EnvironmentMap sky = from_function(
      256, [](glm::vec3 d) { return d.y > 0.0f ? glm::vec3(1.0f) : glm::vec3(0.0f); });
  const std::array<glm::vec3, 9> sh = project_sh(sky);
  EXPECT_NEAR(sh_irradiance(sh, {0, 1, 0}).r, kPi, 0.01f * kPi);
  EXPECT_NEAR(sh_irradiance(sh, {0, -1, 0}).r, 0.0f, 0.01f * kPi);
  EXPECT_NEAR(sh_irradiance(sh, {1, 0, 0}).r, 0.5f * kPi, 0.01f * kPi);
  EXPECT_NEAR(sh_irradiance(sh, {0, 0, 1}).r, 0.5f * kPi, 0.01f * kPi);
}

// f(d) = d.y projects onto Y1−1 = 0.488603·y alone, with ∫ y²·0.488603 dω = 0.488603·4π/3.
TEST(EnvironmentPrefilter, ShOfALinearFunctionIsOneCoefficient) {
  const EnvironmentMap m = from_function(256, [](glm::vec3 d) { return glm::vec3(d.y, d.x, d.z); });
  const std::array<glm::vec3, 9> sh = project_sh(m);
  const float expected = 0.488603f * 4.0f * kPi / 3.0f;
  EXPECT_NEAR(sh[1].r, expected, 1e-3f);  // y → Y1−1
  EXPECT_NEAR(sh[3].g, expected, 1e-3f);  // x → Y11
  EXPECT_NEAR(sh[2].b, expected, 1e-3f);  // z → Y10
  for (int k = 0; k < 9; ++k) {
    const glm::vec3 want(k == 1 ? expected : 0.0f, k == 3 ? expected : 0.0f,
                         k == 2 ? expected : 0.0f);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(sh[size_t(k)][c], want[c], 1e-3f) << k << " " << c;
  }
}

// One bright texel of power Φ = V·Ω in direction d0: by the addition theorem
// (Σ_m Y_lm(d0)² = (2l+1)/4π) the band-2 irradiance facing it is
// (π·1 + 2π/3·3 + π/4·5)/4π·Φ = 1.0625·Φ, and facing away (−d0) it is
// (π − 2π/3·3 + π/4·5·P2(−1)=π/4·5)/4π·Φ = (π − 2π + 5π/4)/4π·Φ = 0.0625·Φ.
TEST(EnvironmentPrefilter, SingleBrightTexelIrradianceFollowsTheAdditionTheorem) {
  EnvironmentMap m = constant_environment(glm::vec3(0.0f), 64, 32);
  const int i = 40, j = 11;
  const float value = 1000.0f;
  m.texels[size_t(j) * 64 + size_t(i)] = glm::vec3(value);
  const glm::vec3 d0 = EnvironmentMap::uv_to_direction({(i + 0.5f) / 64.0f, (j + 0.5f) / 32.0f});
  const float power = value * float(m.texel_solid_angle(j));
  const std::array<glm::vec3, 9> sh = project_sh(m);
  EXPECT_NEAR(sh_irradiance(sh, d0).r, 1.0625f * power, 1e-3f * power);
  EXPECT_NEAR(sh_irradiance(sh, -d0).r, 0.0625f * power, 1e-3f * power);
}

// A small bright spot: at every roughness the prefiltered map's brightest texel is the one
// looking at it, within a texel of that level (and at level 0 exactly the spot's texel).
TEST(EnvironmentPrefilter, BrightSpotLandsWhereItWasPut) {
  EnvironmentMap m =
      constant_environment(glm::vec3(0.05f), kEnvironmentBaseWidth, kEnvironmentBaseWidth / 2);
  const int si = 150, sj = 100;
  const glm::vec3 d0 = EnvironmentMap::uv_to_direction(
      {(si + 0.5f) / float(m.width), (sj + 0.5f) / float(m.height)});
  for (int j = 0; j < m.height; ++j)
    for (int i = 0; i < m.width; ++i) {
      const glm::vec3 d = EnvironmentMap::uv_to_direction(
          {(i + 0.5f) / float(m.width), (j + 0.5f) / float(m.height)});
      const float angle = std::acos(std::clamp(glm::dot(d, d0), -1.0f, 1.0f));
      if (angle < glm::radians(2.0f))
        m.texels[size_t(j) * size_t(m.width) + size_t(i)] =
            glm::vec3(50.0f * (1.0f - angle / glm::radians(2.0f)));
    }
  PrefilteredEnvironment p;
  ASSERT_TRUE(prefilter_environment(m, p));
  for (size_t k = 0; k < p.levels.size(); ++k) {
    const EnvironmentMap& level = p.levels[k];
    int best_i = 0, best_j = 0;
    float best = -1.0f;
    for (int j = 0; j < level.height; ++j)
      for (int i = 0; i < level.width; ++i)
        if (level.at(i, j).r > best) best = level.at(i, j).r, best_i = i, best_j = j;
    const glm::vec3 d = EnvironmentMap::uv_to_direction(
        {(best_i + 0.5f) / float(level.width), (best_j + 0.5f) / float(level.height)});
    const float texel_deg = 360.0f / float(level.width);
    EXPECT_LE(glm::degrees(std::acos(std::min(1.0f, glm::dot(d, d0)))), 1.5f * texel_deg)
        << "level " << k;
    if (k == 0) {
      EXPECT_EQ(best_i, si);
      EXPECT_EQ(best_j, sj);
    }
  }
  // Away from the spot (the opposite direction) every level sees the 0.05 background.
  for (float r : {0.0f, 0.4f, 0.6f}) EXPECT_NEAR(p.specular(-d0, r).r, 0.05f, 0.01f) << r;
}

TEST(EnvironmentPrefilter, CancelStopsAndLeavesNothing) {
  PrefilteredEnvironment p;
  int calls = 0;
  EXPECT_FALSE(prefilter_environment(
      constant_environment(glm::vec3(1.0f)), p,
      [](void* user, float) { return ++*static_cast<int*>(user) < 3; }, &calls));
  EXPECT_EQ(calls, 3);
  EXPECT_TRUE(p.empty());
}

TEST(StudioEnvironment, KeyIsTheBrightestAndTheFloorDarkerThanTheCeiling) {
  const EnvironmentMap m = generate_studio_environment(64);
  EXPECT_EQ(m.width, 128);
  const glm::vec3 key = m.sample(glm::vec3(-0.55f, 0.6f, 0.6f));
  const glm::vec3 fill = m.sample(glm::vec3(0.8f, 0.15f, 0.55f));
  EXPECT_GT(key.g, 3.0f * fill.g);
  EXPECT_GT(fill.g, m.sample(glm::vec3(0, -1, 0)).g);
  EXPECT_LT(m.sample(glm::vec3(0, -1, 0)).g, m.sample(glm::vec3(0, 1, 0)).g);
}

std::string temp_path(const std::string& name) {
  return (rig::test::scratch_dir() / ("rigview_env_" + name)).string();
}

TEST(EnvironmentHdr, ReadsRgbeValues) {
  // Flat (not run-length) scanlines: RGBE (128, 64, 32, 129) = (128, 64, 32)·2^(129−136).
  const std::string path = temp_path("flat.hdr");
  {
    std::ofstream f(path, std::ios::binary);
    f << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 4\n";
    for (int k = 0; k < 8; ++k) f.write("\x80\x40\x20\x81", 4);
  }
  EnvironmentMap m;
  std::string error;
  ASSERT_TRUE(load_environment_hdr(path, m, error)) << error;
  EXPECT_EQ(m.width, 4);
  EXPECT_EQ(m.height, 2);
  EXPECT_NEAR(m.at(3, 1).r, 1.0f, 1e-6f);
  EXPECT_NEAR(m.at(3, 1).g, 0.5f, 1e-6f);
  EXPECT_NEAR(m.at(3, 1).b, 0.25f, 1e-6f);
  std::filesystem::remove(path);
}

TEST(EnvironmentHdr, BadFilesFailNamingTheFile) {
  EnvironmentMap m;
  std::string error;
  EXPECT_FALSE(load_environment_hdr(temp_path("missing.hdr"), m, error));
  EXPECT_NE(error.find("missing.hdr"), std::string::npos) << error;
  const std::string text = temp_path("text.hdr");
  { std::ofstream(text) << "not an image\n"; }
  error.clear();
  EXPECT_FALSE(load_environment_hdr(text, m, error));
  EXPECT_NE(error.find(text), std::string::npos) << error;
  EXPECT_NE(error.find("Radiance"), std::string::npos) << error;
  // A truncated header that claims a huge image is refused before decoding.
  const std::string huge = temp_path("huge.hdr");
  {
    std::ofstream(huge, std::ios::binary)
        << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 30000 +X 30000\n";
  }
  error.clear();
  EXPECT_FALSE(load_environment_hdr(huge, m, error));
  EXPECT_NE(error.find(huge), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  std::filesystem::remove(text);
  std::filesystem::remove(huge);
}

}  // namespace
}  // namespace rig::render
