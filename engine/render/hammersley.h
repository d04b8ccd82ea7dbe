// The Hammersley point set's second coordinate, shared by the GGX integrations (render/dfg_lut,
// render/environment_prefilter): low-discrepancy samples need far fewer points than random ones
// for the same error.
#pragma once

#include <cstdint>

namespace rig::render {

// Van der Corput radical inverse in base 2: the bits of `bits` mirrored behind the binary point.
inline float radical_inverse(uint32_t bits) {
  bits = (bits << 16u) | (bits >> 16u);
  bits = ((bits & 0x55555555u) << 1u) | ((bits & 0xAAAAAAAAu) >> 1u);
  bits = ((bits & 0x33333333u) << 2u) | ((bits & 0xCCCCCCCCu) >> 2u);
  bits = ((bits & 0x0F0F0F0Fu) << 4u) | ((bits & 0xF0F0F0F0u) >> 4u);
  bits = ((bits & 0x00FF00FFu) << 8u) | ((bits & 0xFF00FF00u) >> 8u);
  return float(double(bits) * 2.3283064365386963e-10);
}

}  // namespace rig::render
