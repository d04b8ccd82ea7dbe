// Skin weights as glTF stores them. A vertex's weights over all its influence sets must sum to 1;
// stored as normalized UNSIGNED_BYTE or UNSIGNED_SHORT, the integers must sum to exactly 255 or
// 65535 (glTF 2.0, 3.7.3.3), which rounding each weight on its own often misses (3 × 1/3 → 85 ×
// 3 = 255, but 0.5, 0.25, 0.25 with one at 0.2 and 0.05 … rounds to 254 or 256).
//
// The span forms take one vertex's weights over all of its sets (4 per set, set 0 first), so
// that the sum is exact across the sets; the array forms are one set alone.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace rig::write {

// `weights` (finite, not negative) divided by their sum (all-zero stays zero): the weights of a
// vertex whose only influence set this is. The floats are chosen so that reading them back the
// way the importer does (each divided by their sum in double, rounded to float) gives the same
// bits: the quotients themselves where they already are (most vertices), else the quotients with
// the largest moved by a unit or two in the last place so that they are. `out` has the size of
// `weights`.
void normalized_weights(std::span<const float> weights, std::span<float> out);
std::array<float, 4> normalized_weights(const std::array<float, 4>& weights);

// Whether the importer's normalization (each weight divided by the double sum of all, rounded
// to float) leaves `weights` as they are.
bool reads_back_unchanged(std::span<const float> weights);

// `weights` as integers of `max` units each (255 or 65535), largest-remainder rounding: the
// integers sum to round(Σ weights × max) (exactly `max` for weights summing to 1), each within 1
// of its weight × max; ties go to the earlier weight. `out` has the size of `weights`.
void normalized_integer_weights(std::span<const float> weights, uint32_t max,
                                std::span<uint32_t> out);
std::array<uint32_t, 4> normalized_integer_weights(const std::array<float, 4>& weights,
                                                   uint32_t max);

}  // namespace rig::write
