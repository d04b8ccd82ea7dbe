#include "import/image_decode.h"

#include <stb_image.h>

#include <cstring>
#include <limits>

namespace rig::import {
namespace {

bool starts_with(const uint8_t* bytes, uint64_t size, const char* magic, uint64_t magic_size,
                 uint64_t at = 0) {
  return size >= at + magic_size && std::memcmp(bytes + at, magic, magic_size) == 0;
}

// Formats glTF extensions allow (KHR_texture_basisu, EXT_texture_webp) that stb_image cannot read.
const char* unsupported_format(const uint8_t* bytes, uint64_t size, const std::string& mime_type) {
  static const char kKtx2Magic[] = "\xABKTX 20\xBB\r\n\x1A\n";
  if (mime_type == "image/ktx2" || starts_with(bytes, size, kKtx2Magic, 12)) return "KTX2";
  if (mime_type == "image/webp" ||
      (starts_with(bytes, size, "RIFF", 4) && starts_with(bytes, size, "WEBP", 4, 8))) {
    return "WebP";
  }
  return nullptr;
}

}  // namespace

DecodedImage decode_image(const uint8_t* bytes, uint64_t size, const std::string& mime_type,
                          uint64_t max_pixels, uint64_t max_bytes) {
  DecodedImage image;
  if (const char* format = unsupported_format(bytes, size, mime_type)) {
    if (std::string(format) == "KTX2") {
      image.warning_code = kKtx2NotDecoded;
      image.warning = kKtx2Warning;
      return image;
    }
    image.warning_code = "IMAGE_FORMAT_UNSUPPORTED";
    image.warning = std::string(format) + " images are not supported";
    return image;
  }
  if (bytes == nullptr || size == 0 ||
      size > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
    image.warning_code = "IMAGE_DECODE_FAILED";
    image.warning = "no image data";
    return image;
  }
  const int length = static_cast<int>(size);
  int width = 0, height = 0, channels = 0;
  // PNG: the size is in the IHDR chunk, read here so that a header declaring more than the cap
  // gets the cap's message (stb_image refuses sizes over 2^30 bytes itself, but only says
  // "unknown image type" once its other format probes have run).
  static const char kPngMagic[] = "\x89PNG\r\n\x1A\n";
  if (starts_with(bytes, size, kPngMagic, 8) && starts_with(bytes, size, "IHDR", 4, 12) &&
      size >= 24) {
    auto be32 = [&](uint64_t at) {
      return uint64_t{bytes[at]} << 24 | uint64_t{bytes[at + 1]} << 16 |
             uint64_t{bytes[at + 2]} << 8 | uint64_t{bytes[at + 3]};
    };
    const uint64_t png_width = be32(16), png_height = be32(20);
    if (png_width * png_height > max_pixels) {
      image.warning_code = "IMAGE_TOO_LARGE";
      image.warning = "image is " + std::to_string(png_width) + "x" + std::to_string(png_height) +
                      ", too large (limit " + std::to_string(max_pixels) + " pixels)";
      return image;
    }
  }
  // Ask for the size first so a corrupt header cannot make stb allocate gigabytes.
  if (!stbi_info_from_memory(bytes, length, &width, &height, &channels)) {
    image.warning_code = "IMAGE_DECODE_FAILED";
    image.warning = std::string("stb_image: ") + stbi_failure_reason();
    return image;
  }
  if (width <= 0 || height <= 0) {
    image.warning_code = "IMAGE_DECODE_FAILED";
    image.warning = "image is " + std::to_string(width) + "x" + std::to_string(height);
    return image;
  }
  const uint64_t pixel_count = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
  if (pixel_count > max_pixels) {
    image.warning_code = "IMAGE_TOO_LARGE";
    image.warning = "image is " + std::to_string(width) + "x" + std::to_string(height) +
                    ", too large (limit " + std::to_string(max_pixels) + " pixels)";
    return image;
  }
  if (pixel_count * 4 > max_bytes) {
    image.warning_code = "IMAGE_TOO_LARGE";
    image.warning = "image is " + std::to_string(width) + "x" + std::to_string(height) +
                    ", over what is left of the total image limit (" + std::to_string(max_bytes) +
                    " of the decoded RGBA bytes allowed per model)";
    return image;
  }
  stbi_uc* pixels = stbi_load_from_memory(bytes, length, &width, &height, &channels, 4);
  if (!pixels) {
    image.warning_code = "IMAGE_DECODE_FAILED";
    image.warning = std::string("stb_image: ") + stbi_failure_reason();
    return image;
  }
  image.width = width;
  image.height = height;
  image.rgba.assign(pixels, pixels + static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  stbi_image_free(pixels);
  return image;
}

}  // namespace rig::import
