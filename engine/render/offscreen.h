// Offscreen colour+depth framebuffer (optionally multisampled) and PNG output, for headless
// renders and tests. Needs a current GL context with glad loaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rig::render {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  // width x height RGBA8 + 24-bit depth; samples > 1 renders multisampled and resolves on
  // read. false + error when the size is invalid or the framebuffer is incomplete.
  bool create(int width, int height, int samples, std::string& error);
  void destroy();
  void bind() const;  // binds the draw framebuffer and sets the full viewport
  int width() const { return width_; }
  int height() const { return height_; }

  // Resolves (when multisampled) and reads the colour, rows top to bottom, RGBA8.
  void read_rgba(std::vector<uint8_t>& out_top_down);

 private:
  int width_ = 0, height_ = 0, samples_ = 1;
  unsigned draw_fbo_ = 0, color_rb_ = 0, depth_rb_ = 0;
  unsigned resolve_fbo_ = 0, resolve_rb_ = 0;
};

// Reads pixels (0, 0)..(width, height) of the bound read framebuffer as RGBA8 rows, top to
// bottom (GL's rows start at the bottom, images' at the top).
void read_pixels_top_down(int width, int height, std::vector<uint8_t>& out_top_down);

// Straight alpha from premultiplied: where the framebuffer holds colour·coverage (a
// multisample resolve of an edge over a transparent clear, blending over it) the colour is
// divided by the alpha, rounded; alpha 0 and 255 stay as they are.
void unpremultiply_alpha(std::vector<uint8_t>& rgba);

// Writes RGBA8 rows (top to bottom) to a PNG. false + error when the file cannot be written.
bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
               std::string& error);

}  // namespace rig::render
