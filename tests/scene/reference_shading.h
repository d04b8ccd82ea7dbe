// The reference scene's lighting worked by hand, shared by the tests that check shading against
// it: the light direction L, sRGB encoding, the GGX directional albedo by quadrature
// (independent of the renderer's table), a square facing a direction, and a render from the
// light.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace rig::test {

inline constexpr double kPi = 3.14159265358979323846;
inline const double kL[3] = {2 / std::sqrt(45.0), 4 / std::sqrt(45.0), 5 / std::sqrt(45.0)};

// 64 × 64, one sample per pixel, from 5 units along L towards the origin with a 30° field.
inline Png render_from_the_light(const std::string& model, const std::string& name) {
  char camera[128];
  std::snprintf(camera, sizeof camera, "%f,%f,%f;0,0,0;30", 5 * kL[0], 5 * kL[1], 5 * kL[2]);
  return render(model, scene_flags(64, 64) + "--lights reference --camera " + quote(camera), name);
}

inline std::string scene_file(const std::string& name, const std::vector<SceneMesh>& meshes,
                              const std::string& materials, const std::string& extensions = "") {
  return write_scene(scratch_dir() / name, scene_gltf(meshes, materials, extensions));
}

inline double srgb(double c) {
  c = std::min(std::max(c, 0.0), 1.0);
  return 255.0 * (c < 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055);
}

// The directional albedo split (A, B) of the GGX lobe (α = roughness², height-correlated Smith,
// Fc = (1 − V·H)^5) for N·V = nv, by plain midpoint quadrature over the hemisphere of light
// directions — independent of the renderer's importance-sampled table:
//   A + B·… = ∫ f_spec/F · (N·L) dω with F split as (1 − Fc) and Fc.
inline void dfg_by_quadrature(double nv, double roughness, double& a_out, double& b_out) {
  const double alpha = roughness * roughness, a2 = alpha * alpha;
  const double v[3] = {std::sqrt(1 - nv * nv), 0, nv};
  const int nt = 400, np = 400;
  double a = 0, b = 0;
  for (int i = 0; i < nt; ++i) {
    const double theta = (i + 0.5) / nt * kPi / 2;
    for (int j = 0; j < np; ++j) {
      const double phi = (j + 0.5) / np * 2 * kPi;
      const double l[3] = {std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                           std::cos(theta)};
      double h[3] = {l[0] + v[0], l[1] + v[1], l[2] + v[2]};
      const double hl = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
      for (double& c : h) c /= hl;
      const double nl = l[2], nh = h[2], vh = v[0] * h[0] + v[2] * h[2];
      const double d = a2 / (kPi * std::pow(nh * nh * (a2 - 1) + 1, 2));
      const double vis =
          0.5 / (nl * std::sqrt(a2 + (1 - a2) * nv * nv) + nv * std::sqrt(a2 + (1 - a2) * nl * nl));
      const double fc = std::pow(1 - vh, 5);
      const double w = d * vis * nl * std::sin(theta) * (kPi / 2 / nt) * (2 * kPi / np);
      a += (1 - fc) * w;
      b += fc * w;
    }
  }
  a_out = a;
  b_out = b;
}

// A square of half size h through the origin, facing `n` (a unit vector), counter-clockwise
// seen from n.
inline SceneMesh square_facing(const double n[3], float h, int material) {
  double u[3] = {n[2], 0, -n[0]};  // (0, 1, 0) × n
  const double ul = std::sqrt(u[0] * u[0] + u[2] * u[2]);
  for (double& c : u) c /= ul;
  const double w[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2],
                       n[0] * u[1] - n[1] * u[0]};  // n × u
  SceneMesh m;
  const int corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& c : corners)
    for (int k = 0; k < 3; ++k) m.positions.push_back(float(h * (c[0] * u[k] + c[1] * w[k])));
  for (int v = 0; v < 4; ++v)
    for (int k = 0; k < 3; ++k) m.normals.push_back(float(n[k]));
  m.indices = {0, 1, 2, 0, 2, 3};
  m.material = material;
  return m;
}

}  // namespace rig::test
