#include "render/environment_prefilter.h"

#include <algorithm>
#include <cmath>

#include "render/hammersley.h"

namespace rig::render {

namespace {

constexpr double kPi = 3.14159265358979323846;

EnvironmentMap half_size(const EnvironmentMap& m) {
  EnvironmentMap h;
  h.width = std::max(m.width / 2, 1);
  h.height = std::max(m.height / 2, 1);
  h.texels.resize(size_t(h.width) * size_t(h.height));
  for (int j = 0; j < h.height; ++j)
    for (int i = 0; i < h.width; ++i) {
      const int i1 = std::min(2 * i + 1, m.width - 1), j1 = std::min(2 * j + 1, m.height - 1);
      h.texels[size_t(j) * size_t(h.width) + size_t(i)] =
          0.25f * (m.at(2 * i, 2 * j) + m.at(i1, 2 * j) + m.at(2 * i, j1) + m.at(i1, j1));
    }
  return h;
}

glm::vec3 trilinear(const std::vector<EnvironmentMap>& pyramid, glm::vec2 uv, float lod) {
  lod = std::clamp(lod, 0.0f, float(pyramid.size() - 1));
  const int l0 = int(lod), l1 = std::min(l0 + 1, int(pyramid.size()) - 1);
  const float t = lod - float(l0);
  const glm::vec3 a = pyramid[size_t(l0)].sample_uv(uv);
  return t > 0.0f ? glm::mix(a, pyramid[size_t(l1)].sample_uv(uv), t) : a;
}

// A GGX sample in the frame of N = V = (0, 0, 1): the light direction, its N·L and the source
// level that matches its solid angle.
struct LobeSample {
  glm::vec3 l;
  float n_dot_l, lod;
};

std::vector<LobeSample> lobe_samples(float roughness, int count, float texel_solid_angle,
                                     int source_levels) {
  std::vector<LobeSample> samples;
  const float a = roughness * roughness, a2 = a * a;
  for (int i = 0; i < count; ++i) {
    const float xi1 = (float(i) + 0.5f) / float(count), xi2 = radical_inverse(uint32_t(i));
    const float phi = float(2.0 * kPi) * xi1;
    const float cos_h = std::sqrt((1.0f - xi2) / (1.0f + (a2 - 1.0f) * xi2));
    const float sin_h = std::sqrt(std::max(0.0f, 1.0f - cos_h * cos_h));
    const glm::vec3 h(sin_h * std::cos(phi), sin_h * std::sin(phi), cos_h);
    const glm::vec3 l = 2.0f * cos_h * h - glm::vec3(0.0f, 0.0f, 1.0f);
    if (l.z <= 0.0f) continue;
    // pdf(l) = D(h)·(N·H)/(4·V·H) = D(h)/4 with V = N.
    const float denom = cos_h * cos_h * (a2 - 1.0f) + 1.0f;
    const float d = a2 / (float(kPi) * denom * denom);
    const float sample_solid_angle = 1.0f / (float(count) * d * 0.25f + 1e-6f);
    const float lod = std::clamp(0.5f * std::log2(sample_solid_angle / texel_solid_angle) + 1.0f,
                                 0.0f, float(source_levels - 1));
    samples.push_back({l, l.z, lod});
  }
  return samples;
}

}  // namespace

std::array<float, 9> sh_basis(glm::vec3 d) {
  return {0.282095f,
          0.488603f * d.y,
          0.488603f * d.z,
          0.488603f * d.x,
          1.092548f * d.x * d.y,
          1.092548f * d.y * d.z,
          0.315392f * (3.0f * d.z * d.z - 1.0f),
          1.092548f * d.x * d.z,
          0.546274f * (d.x * d.x - d.y * d.y)};
}

float sh_band_factor(int index) {
  if (index == 0) return float(kPi);
  if (index < 4) return float(2.0 * kPi / 3.0);
  return float(kPi / 4.0);
}

std::array<glm::vec3, 9> project_sh(const EnvironmentMap& map) {
  std::array<glm::dvec3, 9> sum{};
  for (int j = 0; j < map.height; ++j) {
    const double w = map.texel_solid_angle(j);
    for (int i = 0; i < map.width; ++i) {
      const glm::vec3 d = EnvironmentMap::uv_to_direction(
          {(float(i) + 0.5f) / float(map.width), (float(j) + 0.5f) / float(map.height)});
      const std::array<float, 9> y = sh_basis(d);
      const glm::dvec3 c = glm::dvec3(map.at(i, j)) * w;
      for (int k = 0; k < 9; ++k) sum[size_t(k)] += c * double(y[size_t(k)]);
    }
  }
  std::array<glm::vec3, 9> out;
  for (int k = 0; k < 9; ++k) out[size_t(k)] = glm::vec3(sum[size_t(k)]);
  return out;
}

glm::vec3 sh_irradiance(const std::array<glm::vec3, 9>& c, glm::vec3 n) {
  const std::array<float, 9> y = sh_basis(n);
  glm::vec3 e(0.0f);
  for (int k = 0; k < 9; ++k) e += sh_band_factor(k) * c[size_t(k)] * y[size_t(k)];
  return e;
}

glm::vec3 PrefilteredEnvironment::specular(glm::vec3 direction, float roughness) const {
  if (levels.empty()) return glm::vec3(0.0f);
  return trilinear(levels, EnvironmentMap::direction_to_uv(direction),
                   std::clamp(roughness, 0.0f, 1.0f) * float(levels.size() - 1));
}

bool prefilter_environment(const EnvironmentMap& map, PrefilteredEnvironment& out,
                           PrefilterProgress progress, void* user) {
  out = {};
  // The source pyramid: the base size, halved down to 4 × 2.
  std::vector<EnvironmentMap> pyramid;
  pyramid.push_back(resample_environment(map, kEnvironmentBaseWidth));
  while (pyramid.back().width > 4) pyramid.push_back(half_size(pyramid.back()));

  PrefilteredEnvironment result;
  const std::array<glm::vec3, 9> sh = project_sh(pyramid.front());
  for (int k = 0; k < 9; ++k) result.irradiance_sh[size_t(k)] = sh_band_factor(k) * sh[size_t(k)];
  result.levels.push_back(pyramid.front());

  uint64_t total = 0, done = 0;
  for (int level = 1; level < kEnvironmentLevels; ++level)
    total +=
        uint64_t(kEnvironmentBaseWidth >> level) * uint64_t(kEnvironmentBaseWidth >> level) / 2;
  const float base_texel = float(4.0 * kPi) / float(pyramid.front().texels.size());
  for (int level = 1; level < kEnvironmentLevels; ++level) {
    const float roughness = float(level) / float(kEnvironmentLevels - 1);
    const std::vector<LobeSample> samples =
        lobe_samples(roughness, kPrefilterSamples, base_texel, int(pyramid.size()));
    EnvironmentMap out_level;
    out_level.width = kEnvironmentBaseWidth >> level;
    out_level.height = out_level.width / 2;
    out_level.texels.resize(size_t(out_level.width) * size_t(out_level.height));
    for (int j = 0; j < out_level.height; ++j) {
      for (int i = 0; i < out_level.width; ++i) {
        const glm::vec3 n =
            EnvironmentMap::uv_to_direction({(float(i) + 0.5f) / float(out_level.width),
                                             (float(j) + 0.5f) / float(out_level.height)});
        const glm::vec3 up = std::abs(n.y) < 0.999f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        const glm::vec3 t = glm::normalize(glm::cross(up, n));
        const glm::vec3 b = glm::cross(n, t);
        glm::vec3 sum(0.0f);
        float weight = 0.0f;
        for (const LobeSample& s : samples) {
          const glm::vec3 l = t * s.l.x + b * s.l.y + n * s.l.z;
          sum += trilinear(pyramid, EnvironmentMap::direction_to_uv(l), s.lod) * s.n_dot_l;
          weight += s.n_dot_l;
        }
        out_level.texels[size_t(j) * size_t(out_level.width) + size_t(i)] =
            weight > 0.0f ? sum / weight : glm::vec3(0.0f);
      }
      done += uint64_t(out_level.width);
      if (progress && !progress(user, float(double(done) / double(total)))) return false;
    }
    result.levels.push_back(std::move(out_level));
  }
  out = std::move(result);
  return true;
}

PrefilteredEnvironment constant_prefiltered_environment(glm::vec3 radiance) {
  PrefilteredEnvironment p;
  p.levels.push_back(constant_environment(radiance, 2, 1));
  // L_00 = L·Y_00·4π and Â_0 = π; every other coefficient of a constant is 0.
  p.irradiance_sh[0] = float(kPi) * radiance * 0.282095f * float(4.0 * kPi);
  return p;
}

}  // namespace rig::render
