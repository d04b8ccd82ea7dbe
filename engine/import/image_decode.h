// Image bytes (PNG, JPEG, ...) → RGBA8 with stb_image. A picture that cannot be decoded only costs
// its texture, never the model: the result says why and the importer turns that into a warning.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rig::import {

struct DecodedImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // width*height*4, empty when decoding failed
  std::string warning_code;   // empty on success, else IMAGE_DECODE_FAILED /
                              // IMAGE_FORMAT_UNSUPPORTED / IMAGE_TOO_LARGE / KTX2_NOT_DECODED
  std::string warning;        // why, for the warning message
};

// KHR_texture_basisu's KTX2 pictures: Debian has no decoder, so each costs its texture (or the
// texture falls back to its plain `source`), with this warning.
inline constexpr const char* kKtx2NotDecoded = "KTX2_NOT_DECODED";
inline constexpr const char* kKtx2Warning =
    "a KHR_texture_basisu (KTX2) picture, which rigview cannot decode (textures with a fallback "
    "source use it; the others are drawn without that texture)";

// Largest image accepted by default, in pixels (16384 x 16384 would already be 1 GiB of RGBA).
constexpr uint64_t kMaxImagePixels = uint64_t{1} << 26;

// Decodes only when the header's size is within `max_pixels` and its RGBA8 bytes within
// `max_bytes` (what is left of the model's total image budget): the size is read from the
// header first, so a corrupt or hostile header cannot make stb allocate.
DecodedImage decode_image(const uint8_t* bytes, uint64_t size, const std::string& mime_type,
                          uint64_t max_pixels = kMaxImagePixels,
                          uint64_t max_bytes = kMaxImagePixels * 4);

}  // namespace rig::import
