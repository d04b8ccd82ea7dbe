#include "texture.h"

#include <stb_image_write.h>

#include <array>
#include <cmath>
#include <stdexcept>

namespace rig::gen {
namespace {

using Rgb = std::array<uint8_t, 3>;

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* bytes = static_cast<const uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

template <typename PixelFn>
std::vector<uint8_t> encode_png(int width, int height, PixelFn pixel) {
  std::vector<uint8_t> rgb(size_t(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const Rgb c = pixel(x, y);
      for (int k = 0; k < 3; ++k) rgb[(size_t(y) * width + x) * 3 + k] = c[k];
    }
  }
  std::vector<uint8_t> png;
  if (!stbi_write_png_to_func(append_bytes, &png, width, height, 3, rgb.data(), width * 3))
    throw std::runtime_error("PNG encoding failed");
  return png;
}

Rgb scaled(Rgb c, int percent) {
  for (auto& v : c) v = static_cast<uint8_t>(v * percent / 100);
  return c;
}

}  // namespace

std::vector<uint8_t> mannequin_texture_png() {
  constexpr int kSize = 256;
  const std::array<Rgb, 4> band_colour = {{
      {206, 201, 192},  // torso: warm light grey
      {172, 188, 208},  // arms: light steel blue
      {150, 162, 180},  // legs: slate
      {222, 200, 172},  // head, hands, feet: sand
  }};
  return encode_png(kSize, kSize, [&](int x, int y) -> Rgb {
    const int band = y / (kSize / 4);
    const int in_band = y % (kSize / 4);
    // Stripes 12 texels wide (about 17 degrees of arc) centred on x = 64 and x = 192.
    if (std::abs(x - 64) < 6 || std::abs(x - 63) < 6) return {200, 36, 36};
    if (std::abs(x - 192) < 6 || std::abs(x - 191) < 6) return {36, 72, 196};
    Rgb c = band_colour[band];
    // Faint lines every 1/8 turn and every 1/8 of a part's length make stretching readable.
    const bool line = (x % 32 == 0) || (in_band % 8 == 4);
    return line ? scaled(c, 86) : c;
  });
}

std::vector<uint8_t> twist_arm_texture_png() {
  constexpr int kSize = 128;
  return encode_png(kSize, kSize, [&](int x, int y) -> Rgb {
    const bool dark = (x / (kSize / 8)) % 2 == 1;
    Rgb c = dark ? Rgb{40, 70, 160} : Rgb{235, 225, 200};
    if (x / (kSize / 8) == 0) c = {205, 40, 40};  // one red stripe tells the turns apart
    if (y % 8 == 0) c = scaled(c, 75);            // rings along the cylinder
    return c;
  });
}

}  // namespace rig::gen
