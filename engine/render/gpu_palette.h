// GPU palettes: per skin, one buffer per skinning-method row (method_info(m).palette_rows vec4
// rows per joint), a uniform block when it fits, else an RGBA32F texture buffer.
#pragma once

#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>

#include "skin/skinning_method.h"

namespace rig::render::detail {

struct GpuPalette {
  GLuint buffer = 0;
  GLuint texture = 0;  // texture buffer; 0 when the palette is a uniform block
};

struct GpuSkin {
  uint32_t joints = 0;
  std::array<GpuPalette, rig::kSkinningMethodCount> palettes{};  // by method

  // Allocates every method's buffer. `uniform_limit_bytes`: the largest uniform-block palette;
  // `block_bytes`: the size each uniform-block buffer is allocated at. false + error when a
  // palette fits neither (over `max_texels` texture-buffer texels).
  bool create(uint32_t joint_count, uint32_t uniform_limit_bytes, GLint block_bytes,
              GLint max_texels, std::string& error);
  void release();
  // Writes rows (palette_rows × joints vec4s) into `method`'s buffer. No allocation.
  void upload(rig::SkinningMethod method, std::span<const glm::vec4> rows) const;
  // Binds `method`'s palette where its programs read it (texture unit or uniform binding).
  void bind(rig::SkinningMethod method) const;
  bool uses_texture_buffer(rig::SkinningMethod method) const {
    return palettes[size_t(method)].texture != 0;
  }
};

}  // namespace rig::render::detail
