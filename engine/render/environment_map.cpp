#include "render/environment_map.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rig::render {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

glm::vec2 EnvironmentMap::direction_to_uv(glm::vec3 d) {
  const float length = glm::length(d);
  if (!(length > 0.0f)) return {0.5f, 0.5f};
  d /= length;
  const float u = 0.5f + std::atan2(d.x, -d.z) / float(2.0 * kPi);
  const float v = std::acos(std::clamp(d.y, -1.0f, 1.0f)) / float(kPi);
  return {u, v};
}

glm::vec3 EnvironmentMap::uv_to_direction(glm::vec2 uv) {
  const float phi = (uv.x - 0.5f) * float(2.0 * kPi);
  const float theta = uv.y * float(kPi);
  const float s = std::sin(theta);
  return {s * std::sin(phi), std::cos(theta), -s * std::cos(phi)};
}

double EnvironmentMap::texel_solid_angle(int j) const {
  const double t0 = kPi * j / height, t1 = kPi * (j + 1) / height;
  return 2.0 * kPi / width * (std::cos(t0) - std::cos(t1));
}

glm::vec3 EnvironmentMap::sample_uv(float u, float v) const {
  if (empty()) return glm::vec3(0.0f);
  // Texel centres at (i + 0.5)/width: wrap in u, clamp in v.
  const float x = u * float(width) - 0.5f,
              y = std::clamp(v * float(height) - 0.5f, 0.0f, float(height - 1));
  const float fx = std::floor(x), fy = std::floor(y);
  const float tx = x - fx, ty = y - fy;
  auto wrap = [this](long i) { return int(((i % width) + width) % width); };
  const int i0 = wrap(long(fx)), i1 = wrap(long(fx) + 1);
  const int j0 = int(fy), j1 = std::min(j0 + 1, height - 1);
  return glm::mix(glm::mix(at(i0, j0), at(i1, j0), tx), glm::mix(at(i0, j1), at(i1, j1), tx), ty);
}

EnvironmentMap constant_environment(glm::vec3 radiance, int width, int height) {
  EnvironmentMap m;
  m.width = width;
  m.height = height;
  m.texels.assign(size_t(width) * size_t(height), radiance);
  return m;
}

EnvironmentMap generate_studio_environment(int height) {
  struct AreaLight {
    glm::vec3 direction;  // towards the light
    float radius_deg, soft_deg;
    glm::vec3 radiance;
  };
  // The key sits on the camera's side (+Z), above and to the left; the rim behind; the fill low
  // on the right. Radiances chosen so the key dominates without clipping under PBR Neutral.
  const AreaLight lights[] = {
      {glm::normalize(glm::vec3(-0.55f, 0.6f, 0.6f)), 16.0f, 8.0f, glm::vec3(9.0f, 8.6f, 8.0f)},
      {glm::normalize(glm::vec3(0.8f, 0.15f, 0.55f)), 22.0f, 12.0f, glm::vec3(1.6f, 1.65f, 1.75f)},
      {glm::normalize(glm::vec3(0.35f, 0.45f, -0.8f)), 12.0f, 6.0f, glm::vec3(6.0f, 6.0f, 6.2f)},
  };
  EnvironmentMap m;
  m.height = std::max(height, 2);
  m.width = 2 * m.height;
  m.texels.resize(size_t(m.width) * size_t(m.height));
  for (int j = 0; j < m.height; ++j)
    for (int i = 0; i < m.width; ++i) {
      const glm::vec3 d = EnvironmentMap::uv_to_direction(
          {(float(i) + 0.5f) / float(m.width), (float(j) + 0.5f) / float(m.height)});
      // Grey gradient: floor 0.12, horizon 0.3, ceiling 0.45, smooth through the horizon.
      const float t = d.y;
      glm::vec3 c = t >= 0.0f ? glm::mix(glm::vec3(0.30f), glm::vec3(0.45f), std::sqrt(t))
                              : glm::mix(glm::vec3(0.30f), glm::vec3(0.12f), std::sqrt(-t));
      for (const AreaLight& l : lights) {
        const float angle =
            float(std::acos(std::clamp(glm::dot(d, l.direction), -1.0f, 1.0f)) * 180.0 / kPi);
        const float edge0 = l.radius_deg + l.soft_deg, edge1 = l.radius_deg - l.soft_deg;
        const float x = std::clamp((edge0 - angle) / (edge0 - edge1), 0.0f, 1.0f);
        c += l.radiance * (x * x * (3.0f - 2.0f * x));
      }
      m.texels[size_t(j) * size_t(m.width) + size_t(i)] = c;
    }
  return m;
}

bool load_environment_hdr(const std::string& path, EnvironmentMap& out, std::string& error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return error = path + ": cannot open the environment file", false;
  const bool hdr = stbi_is_hdr_from_file(f) != 0;
  int w = 0, h = 0, channels = 0;
  const bool info = hdr && stbi_info_from_file(f, &w, &h, &channels) != 0;
  if (!hdr || !info) {
    std::fclose(f);
    return error = path + ": not a Radiance .hdr image", false;
  }
  if (w < 1 || h < 1 || w > kMaxEnvironmentSide || h > kMaxEnvironmentSide ||
      uint64_t(w) * uint64_t(h) > kMaxEnvironmentPixels) {
    std::fclose(f);
    return error = path + ": the environment image is too large (" + std::to_string(w) + " x " +
                   std::to_string(h) + ")",
           false;
  }
  float* data = stbi_loadf_from_file(f, &w, &h, &channels, 3);
  std::fclose(f);
  if (!data) {
    const char* reason = stbi_failure_reason();
    return error = path + ": cannot decode the environment image (" +
                   std::string(reason ? reason : "unknown") + ")",
           false;
  }
  out = {};
  out.width = w;
  out.height = h;
  out.texels.resize(size_t(w) * size_t(h));
  bool finite = true;
  for (size_t k = 0; k < out.texels.size(); ++k) {
    glm::vec3 c(data[3 * k], data[3 * k + 1], data[3 * k + 2]);
    finite = finite && std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b);
    out.texels[k] = glm::max(c, glm::vec3(0.0f));
  }
  stbi_image_free(data);
  if (!finite) {
    out = {};
    return error = path + ": the environment image has non-finite values", false;
  }
  return true;
}

EnvironmentMap resample_environment(const EnvironmentMap& map, int width) {
  EnvironmentMap r;
  r.width = std::max(width, 2);
  r.height = r.width / 2;
  r.texels.assign(size_t(r.width) * size_t(r.height), glm::vec3(0.0f));
  if (map.empty()) return r;
  if (map.width < r.width || map.height < r.height) {
    for (int j = 0; j < r.height; ++j)
      for (int i = 0; i < r.width; ++i)
        r.texels[size_t(j) * size_t(r.width) + size_t(i)] =
            map.sample_uv((float(i) + 0.5f) / float(r.width), (float(j) + 0.5f) / float(r.height));
    return r;
  }
  // Area average: each source texel adds its overlap with the target texel, weighted by its
  // solid angle (rows near the poles cover less of the sphere).
  std::vector<double> weight(r.texels.size(), 0.0);
  std::vector<glm::dvec3> sum(r.texels.size(), glm::dvec3(0.0));
  for (int j = 0; j < map.height; ++j) {
    const double w_row = map.texel_solid_angle(j);
    const int tj = std::min(int(int64_t(j) * r.height / map.height), r.height - 1);
    for (int i = 0; i < map.width; ++i) {
      const int ti = std::min(int(int64_t(i) * r.width / map.width), r.width - 1);
      const size_t k = size_t(tj) * size_t(r.width) + size_t(ti);
      sum[k] += glm::dvec3(map.at(i, j)) * w_row;
      weight[k] += w_row;
    }
  }
  for (size_t k = 0; k < r.texels.size(); ++k)
    r.texels[k] = weight[k] > 0.0 ? glm::vec3(sum[k] / weight[k]) : glm::vec3(0.0f);
  return r;
}

}  // namespace rig::render
