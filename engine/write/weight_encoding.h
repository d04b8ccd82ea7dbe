// Skin weights as glTF stores them. A vertex's weights over all its influence sets must sum to 1;
// stored as normalized UNSIGNED_BYTE or UNSIGNED_SHORT, the integers must sum to exactly 255 or
// 65535 (glTF 2.0, 3.7.3.3), which rounding each weight on its own often misses (3 × 1/3 → 85 ×
// 3 = 255, but 0.5, 0.25, 0.25 with one at 0.2 and 0.05 … rounds to 254 or 256).
#pragma once

#include <array>
#include <cstdint>

namespace rig::write {

// `weights` (finite, not negative) divided by their sum (all-zero stays zero): the weights of a
// vertex whose only influence set this is.
std::array<float, 4> normalized_weights(const std::array<float, 4>& weights);

// `weights` as integers of `max` units each (255 or 65535), largest-remainder rounding: the
// integers sum to round(Σ weights × max) (exactly `max` for weights summing to 1), each within 1
// of its weight × max; ties go to the earlier weight.
std::array<uint32_t, 4> normalized_integer_weights(const std::array<float, 4>& weights,
                                                   uint32_t max);

}  // namespace rig::write
