// The reference-scene tests' side of a render: rigview's --output run headless, the PNG read back
// as RGBA, and small pictures encoded as PNG for embedding as textures.
#pragma once

#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_support.h"

namespace rig::test {

struct Png {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  const uint8_t* at(int x, int y) const { return &rgba[(size_t(y) * size_t(width) + x) * 4]; }
};

// `path` as 8-bit RGBA; empty when it cannot be read.
inline Png read_png(const std::string& path) {
  Png png;
  int channels = 0;
  if (stbi_uc* p = stbi_load(path.c_str(), &png.width, &png.height, &channels, 4)) {
    png.rgba.assign(p, p + size_t(png.width) * size_t(png.height) * 4);
    stbi_image_free(p);
  }
  return png;
}

// The reference scene's image flags: W × H, one sample per pixel, no grid, transparent
// background (straight alpha). Lights and camera follow.
inline std::string scene_flags(int width, int height) {
  return "--resolution " + std::to_string(width) + "," + std::to_string(height) +
         " --msaa 1 --no-grid --background transparent ";
}

// Renders `model` with `flags` into the scratch folder as `name` and reads it back; empty when
// there is no headless OpenGL (the caller skips), a failed run is reported.
inline Png render(const std::string& model, const std::string& flags, const std::string& name) {
  const std::string path = (scratch_dir() / name).string();
  const auto r = run_rigview(quote(model) + " " + flags + " --output " + quote(path));
  if (r.status != 0 && r.err.find("no headless OpenGL") != std::string::npos) return {};
  EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
  return read_png(path);
}

// `rgba` (width × height texels, rows top first) encoded as a PNG file's bytes.
inline std::vector<uint8_t> encode_png(const std::vector<uint8_t>& rgba, int width, int height) {
  std::vector<uint8_t> png;
  stbi_write_png_to_func(
      [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(context);
        out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
      },
      &png, width, height, 4, rgba.data(), width * 4);
  return png;
}

}  // namespace rig::test
