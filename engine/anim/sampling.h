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

// Shortest-path spherical interpolation of unit quaternions (flips b when dot(a, b) < 0;
// falls back to normalized lerp when they are nearly parallel). Single precision, inline (it
// runs per rotation channel per frame): within 1e-6 per component of the double-precision
// reference below (tests/engine/skinning_speed_test.cpp). The common scale of the two weights
// cancels in the final renormalization, so only the angle's rounding matters.
inline glm::quat slerp_shortest(glm::quat a, glm::quat b, float t) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.0f) {  // q and -q are the same rotation: take the short way round
    b = -b;
    d = -d;
  }
  float s0 = 1.0f - t, s1 = t;  // nearly parallel: normalized lerp, as the reference
  if (!(d > 0.9995f)) {
    const float theta = std::acos(std::min(d, 1.0f));
    s0 = std::sin(s0 * theta);
    s1 = std::sin(s1 * theta);
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
