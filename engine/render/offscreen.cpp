#include "render/offscreen.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <algorithm>

#include "render/gl_util.h"

namespace rig::render {

OffscreenTarget::~OffscreenTarget() { destroy(); }

bool OffscreenTarget::create(int width, int height, int samples, std::string& error) {
  destroy();
  GLint max_size = 0, max_samples = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  if (width < 1 || height < 1 || width > max_size || height > max_size) {
    error = "resolution " + std::to_string(width) + "x" + std::to_string(height) +
            " is outside 1.." + std::to_string(max_size);
    return false;
  }
  width_ = width;
  height_ = height;
  samples_ = samples > max_samples ? max_samples : (samples < 1 ? 1 : samples);
  const bool msaa = samples_ > 1;
  glGenFramebuffers(1, &draw_fbo_);
  glGenRenderbuffers(1, &color_rb_);
  glGenRenderbuffers(1, &depth_rb_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_rb_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, msaa ? samples_ : 0, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_rb_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, msaa ? samples_ : 0, GL_DEPTH_COMPONENT24,
                                   width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_rb_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_rb_);
  bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (complete && msaa) {
    glGenFramebuffers(1, &resolve_fbo_);
    glGenRenderbuffers(1, &resolve_rb_);
    glBindRenderbuffer(GL_RENDERBUFFER, resolve_rb_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolve_rb_);
    complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  }
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  check_gl_errors("OffscreenTarget::create");
  if (!complete) {
    error = "the offscreen framebuffer is incomplete";
    destroy();
    return false;
  }
  return true;
}

void OffscreenTarget::destroy() {
  if (draw_fbo_) glDeleteFramebuffers(1, &draw_fbo_);
  if (resolve_fbo_) glDeleteFramebuffers(1, &resolve_fbo_);
  const GLuint rbs[] = {color_rb_, depth_rb_, resolve_rb_};
  for (GLuint rb : rbs)
    if (rb) glDeleteRenderbuffers(1, &rb);
  draw_fbo_ = resolve_fbo_ = color_rb_ = depth_rb_ = resolve_rb_ = 0;
  width_ = height_ = 0;
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo_);
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::read_rgba(std::vector<uint8_t>& out_top_down) {
  GLuint read_fbo = draw_fbo_;
  if (resolve_fbo_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    read_fbo = resolve_fbo_;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo);
  read_pixels_top_down(width_, height_, out_top_down);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  check_gl_errors("OffscreenTarget::read_rgba");
}

void read_pixels_top_down(int width, int height, std::vector<uint8_t>& out_top_down) {
  const size_t row = size_t(std::max(width, 0)) * 4;
  const size_t rows = size_t(std::max(height, 0));
  out_top_down.resize(row * rows);
  if (out_top_down.empty()) return;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out_top_down.data());
  for (size_t y = 0; y < rows / 2; ++y)
    std::swap_ranges(out_top_down.begin() + std::ptrdiff_t(y * row),
                     out_top_down.begin() + std::ptrdiff_t((y + 1) * row),
                     out_top_down.begin() + std::ptrdiff_t((rows - 1 - y) * row));
}

void unpremultiply_alpha(std::vector<uint8_t>& rgba) {
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    const unsigned a = rgba[i + 3];
    if (a == 0 || a == 255) continue;
    for (size_t c = 0; c < 3; ++c)
      rgba[i + c] = uint8_t(std::min(255u, (unsigned(rgba[i + c]) * 255u + a / 2u) / a));
  }
}

bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
               std::string& error) {
  if (rgba.size() != size_t(width) * size_t(height) * 4) {
    error = "image size does not match its pixels";
    return false;
  }
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4)) {
    error = "cannot write the PNG";
    return false;
  }
  return true;
}

}  // namespace rig::render
