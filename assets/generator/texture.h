// Procedural base-colour textures, encoded as PNG with stb_image_write (deterministic bytes).
#pragma once

#include <cstdint>
#include <vector>

namespace rig::gen {

// Texture bands of the mannequin's atlas: each body part maps its length into one band of
// texcoord y, so one texture gives every part its own colour.
struct TextureBand {
  double v0, v1;
};
inline constexpr TextureBand kTorsoBand{0.0, 0.25};
inline constexpr TextureBand kArmBand{0.25, 0.5};
inline constexpr TextureBand kLegBand{0.5, 0.75};
inline constexpr TextureBand kExtremityBand{0.75, 1.0};  // head, hands, feet

// 256 x 256 atlas: one colour per band, a red stripe along every tube at texcoord x = 0.25 and
// a blue one at 0.75 (they wind into a helix when a limb twists), and faint grid lines.
std::vector<uint8_t> mannequin_texture_png();

// 128 x 128: eight alternating stripes around the cylinder and rings along it.
std::vector<uint8_t> twist_arm_texture_png();

}  // namespace rig::gen
