#include "render/dfg_lut.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "render/hammersley.h"

namespace rig::render {

glm::vec2 integrate_dfg(float n_dot_v, float roughness, int samples) {
  const double pi = 3.14159265358979323846;
  const double nv = std::clamp(double(n_dot_v), 1e-4, 1.0);
  // The view in the normal's frame (N = +Z), in the XZ plane.
  const double vx = std::sqrt(1.0 - nv * nv), vz = nv;
  const double alpha = double(roughness) * double(roughness);
  const double a2 = alpha * alpha;
  double a = 0.0, b = 0.0;
  for (int i = 0; i < samples; ++i) {
    const double u = double(i) / samples, w = radical_inverse(uint32_t(i));
    // GGX-distributed half vector: cos²θ = (1 − w)/(1 + (α² − 1)·w).
    const double phi = 2.0 * pi * u;
    const double cos_h = std::sqrt((1.0 - w) / (1.0 + (a2 - 1.0) * w));
    const double sin_h = std::sqrt(std::max(0.0, 1.0 - cos_h * cos_h));
    const double hx = sin_h * std::cos(phi), hz = cos_h;
    const double v_dot_h = vx * hx + vz * hz;
    // L = reflect(−V, H).
    const double lz = 2.0 * v_dot_h * hz - vz;
    if (lz <= 0.0 || v_dot_h <= 0.0) continue;
    const double nl = lz;
    // Height-correlated Smith: V = 0.5/(NL·√(α² + (1−α²)NV²) + NV·√(α² + (1−α²)NL²)), so
    // G = 4·NL·NV·V, and the estimator's weight is G·(V·H)/((N·H)·(N·V)).
    const double gv = nl * std::sqrt(a2 + (1.0 - a2) * nv * nv);
    const double gl = nv * std::sqrt(a2 + (1.0 - a2) * nl * nl);
    const double g = 4.0 * nl * nv * (0.5 / std::max(gv + gl, 1e-12));
    const double g_vis = g * v_dot_h / (hz * nv);
    const double fc = std::pow(1.0 - v_dot_h, 5.0);
    a += (1.0 - fc) * g_vis;
    b += fc * g_vis;
  }
  return glm::vec2(float(a / samples), float(b / samples));
}

std::vector<float> dfg_table(int size, int samples) {
  std::vector<float> table(size_t(size) * size_t(size) * 2);
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < size; ++i) {
      const glm::vec2 ab = integrate_dfg((j + 0.5f) / size, (i + 0.5f) / size, samples);
      table[(size_t(j) * size + i) * 2] = ab.x;
      table[(size_t(j) * size + i) * 2 + 1] = ab.y;
    }
  return table;
}

}  // namespace rig::render
