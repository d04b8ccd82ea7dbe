// Keyframe interpolation primitives, exactly as the glTF 2.0 spec (Appendix C) defines them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>

#include "model/model.h"

namespace rig {

// Shortest-path spherical interpolation of unit quaternions (flips b when dot(a, b) < 0;
// falls back to normalized lerp when they are nearly parallel). Single precision and a
// polynomial for the slerp weights: within 1e-6 (per component) of the reference below.
glm::quat slerp_shortest(glm::quat a, glm::quat b, float t);

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
