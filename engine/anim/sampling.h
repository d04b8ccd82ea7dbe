// Keyframe interpolation primitives, exactly as the glTF 2.0 spec (Appendix C) defines them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>

#include "model/model.h"

namespace rig {

namespace slerp_detail {

// acos on [0, 1]: Abramowitz & Stegun 4.4.46, sqrt(1 − x) times a degree-7 polynomial,
// |error| ≤ 2e-8 before float rounding.
inline float acos01(float x) {
  // Estrin's scheme: the same polynomial in fewer dependent steps (the latency is what a
  // frame of sampling waits on).
  const float x2 = x * x, x4 = x2 * x2;
  const float p01 = 1.5707963050f - 0.2145988016f * x, p23 = 0.0889789874f - 0.0501743046f * x;
  const float p45 = 0.0308918810f - 0.0170881256f * x, p67 = 0.0066700901f - 0.0012624911f * x;
  const float p = (p01 + p23 * x2) + (p45 + p67 * x2) * x4;
  return std::sqrt(1.0f - x) * p;
}

// sin on [0, π/2]: its Taylor series to x¹¹, truncation ≤ (π/2)¹³/13! ≈ 6e-8.
inline float sin_half_pi(float x) {
  const float x2 = x * x, x4 = x2 * x2;
  const float q01 = -1.0f / 6.0f + (1.0f / 120.0f) * x2;
  const float q23 = -1.0f / 5040.0f + (1.0f / 362880.0f) * x2;
  const float q = q01 + (q23 - (1.0f / 39916800.0f) * x4) * x4;
  return x + x * x2 * q;
}

}  // namespace slerp_detail

// Shortest-path spherical interpolation of unit quaternions (flips b when dot(a, b) < 0;
// falls back to normalized lerp when they are nearly parallel). Single precision, inline and
// without library calls (it runs per rotation channel per frame): acos and sin are the
// polynomials above, and the weights are not divided by sin θ, since their common scale
// cancels in the final renormalization. Within 1e-6 per component of the double-precision
// reference below (tests/engine/skinning_speed_test.cpp).
inline glm::quat slerp_shortest(glm::quat a, glm::quat b, float t) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.0f) {  // q and -q are the same rotation: take the short way round
    b = -b;
    d = -d;
  }
  float s0 = 1.0f - t, s1 = t;  // nearly parallel: normalized lerp, as the reference
  if (!(d > 0.9995f)) {         // then θ = acos(d) lies in (0.0316, π/2]
    const float theta = slerp_detail::acos01(d);
    s0 = slerp_detail::sin_half_pi(s0 * theta);
    s1 = slerp_detail::sin_half_pi(s1 * theta);
  }
  const float x = s0 * a.x + s1 * b.x, y = s0 * a.y + s1 * b.y, z = s0 * a.z + s1 * b.z,
              w = s0 * a.w + s1 * b.w;
  const float len2 = x * x + y * y + z * z + w * w;
  if (!(len2 > 0.0f)) return a;
  const float inv = 1.0f / std::sqrt(len2);
  return glm::quat(w * inv, x * inv, y * inv, z * inv);
}

// The same in double precision with acos and sin, straight from the definition: the oracle the
// fast form is tested against.
glm::quat slerp_shortest_reference(glm::quat a, glm::quat b, float t);

// Index k of the key segment [times[k], times[k+1]] that holds `time` (binary search).
// Requires times.size() >= 2 and times[0] <= time < times.back().
size_t find_key(std::span<const float> times, float time);

// find_key with a cursor: tries the segment `cursor` names and the one after it first (forward
// playback), then binary-searches; updates `cursor`. The same result as find_key for any cursor.
size_t find_key(std::span<const float> times, float time, uint32_t& cursor);

// Samples one channel at `time` into out[0..components). Rotations come back normalized.
void sample_channel(const Channel& channel, float time, std::span<float> out);
// The same with a key cursor kept by the caller between calls (see find_key).
void sample_channel(const Channel& channel, float time, uint32_t& cursor, std::span<float> out);

}  // namespace rig
