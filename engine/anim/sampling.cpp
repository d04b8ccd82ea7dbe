#include "anim/sampling.h"

#include <algorithm>
#include <cmath>

namespace rig {

glm::quat slerp_shortest_reference(glm::quat a, glm::quat b, float t) {
  // Double precision inside: acos near 1 loses digits in float, and the spec's reference
  // (Appendix C) is written for exact arithmetic.
  double ax = a.x, ay = a.y, az = a.z, aw = a.w;
  double bx = b.x, by = b.y, bz = b.z, bw = b.w;
  double d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0.0) {  // q and -q are the same rotation: take the short way round
    bx = -bx, by = -by, bz = -bz, bw = -bw;
    d = -d;
  }
  double s0, s1;
  if (d > 0.9995) {  // nearly parallel: sin(theta) ~ 0, lerp is exact enough, renormalized
    s0 = 1.0 - t;
    s1 = t;
  } else {
    double theta0 = std::acos(std::min(d, 1.0));
    double sin0 = std::sin(theta0);
    s0 = std::sin((1.0 - t) * theta0) / sin0;
    s1 = std::sin(t * theta0) / sin0;
  }
  double x = s0 * ax + s1 * bx, y = s0 * ay + s1 * by, z = s0 * az + s1 * bz, w = s0 * aw + s1 * bw;
  double len = std::sqrt(x * x + y * y + z * z + w * w);
  if (len <= 0.0) return a;
  return glm::quat(static_cast<float>(w / len), static_cast<float>(x / len),
                   static_cast<float>(y / len), static_cast<float>(z / len));
}

size_t find_key(std::span<const float> times, float time) {
  // Last key whose time is <= `time`; the caller guarantees times[0] <= time < times.back().
  auto it = std::upper_bound(times.begin(), times.end(), time);
  size_t k = static_cast<size_t>(it - times.begin());
  return k == 0 ? 0 : std::min(k - 1, times.size() - 2);
}

size_t find_key(std::span<const float> times, float time, uint32_t& cursor) {
  const size_t n = times.size();
  size_t k = cursor;
  // The segment of the previous sample, or the next one: playback moves forward a frame at a
  // time, so one of the two holds `time` nearly always.
  for (int step = 0; step < 2; ++step, ++k)
    if (k + 1 < n && times[k] <= time && time < times[k + 1]) {
      cursor = static_cast<uint32_t>(k);
      return k;
    }
  k = find_key(times, time);
  cursor = static_cast<uint32_t>(k);
  return k;
}

namespace {

inline void normalize4(float* v) {
  double len = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2] +
                         double(v[3]) * v[3]);
  if (len > 0.0)
    for (int i = 0; i < 4; ++i) v[i] = static_cast<float>(v[i] / len);
}

// Value element of key k (CUBICSPLINE keys hold in-tangent, value, out-tangent).
inline const float* key_value(const Channel& c, size_t k) {
  size_t stride = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
  return c.values.data() + (k * stride + (stride == 3 ? 1 : 0)) * c.components;
}

}  // namespace

void sample_channel(const Channel& c, float time, std::span<float> out) {
  uint32_t cursor = 0;
  sample_channel(c, time, cursor, out);
}

void sample_channel(const Channel& c, float time, uint32_t& cursor, std::span<float> out) {
  const size_t n = c.times.size();
  const uint32_t m = c.components;
  if (n == 0 || out.size() < m) return;
  const bool rotation = c.path == TargetPath::Rotation;
  const float* times = c.times.data();

  size_t k = cursor;
  // Forward playback: the cursor's segment nearly always holds `time`; then no clamp applies
  // (time > the first key, below the last) and no search is needed.
  if (!(k + 1 < n && times[k] <= time && time < times[k + 1] && time > times[0])) {
    // Outside [first, last] the end value holds (spec: clamp).
    if (n == 1 || !(time > times[0])) {
      std::copy_n(key_value(c, 0), m, out.data());
      return;
    }
    if (time >= times[n - 1]) {
      std::copy_n(key_value(c, n - 1), m, out.data());
      return;
    }
    k = find_key(c.times, time, cursor);
  }
  const float t0 = times[k], t1 = times[k + 1];
  const float td = t1 - t0;
  const float u = (time - t0) / td;

  switch (c.interpolation) {
    case Interpolation::Step:
      std::copy_n(key_value(c, k), m, out.data());
      return;
    case Interpolation::Linear: {
      const float* a = key_value(c, k);
      const float* b = key_value(c, k + 1);
      if (rotation) {
        glm::quat q =
            slerp_shortest(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
      } else {
        for (uint32_t i = 0; i < m; ++i) out[i] = a[i] + (b[i] - a[i]) * u;
      }
      return;
    }
    case Interpolation::CubicSpline: {
      // Spec Appendix C: p(u) = (2u³-3u²+1)v_k + td(u³-2u²+u)b_k + (-2u³+3u²)v_k+1 + td(u³-u²)a_k+1
      // with b_k the out-tangent of key k and a_k+1 the in-tangent of key k+1.
      const float* base = c.values.data();
      const float* v0 = base + (3 * k + 1) * m;
      const float* b0 = base + (3 * k + 2) * m;
      const float* a1 = base + (3 * (k + 1) + 0) * m;
      const float* v1 = base + (3 * (k + 1) + 1) * m;
      const float u2 = u * u, u3 = u2 * u;
      const float h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * td;
      const float h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * td;
      for (uint32_t i = 0; i < m; ++i)
        out[i] = h00 * v0[i] + h10 * b0[i] + h01 * v1[i] + h11 * a1[i];
      if (rotation) normalize4(out.data());
      return;
    }
  }
}

}  // namespace rig
