#include "render/gpu_palette.h"

#include "render/skin_programs.h"

namespace rig::render::detail {

bool GpuSkin::create(uint32_t joint_count, uint32_t uniform_limit_bytes, GLint block_bytes,
                     GLint max_texels, std::string& error) {
  joints = joint_count;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    GpuPalette& p = palettes[size_t(m.method)];
    const uint64_t rows = uint64_t(joints) * m.palette_rows;
    glGenBuffers(1, &p.buffer);
    if (rows * 16u <= uniform_limit_bytes) {
      glBindBuffer(GL_UNIFORM_BUFFER, p.buffer);
      glBufferData(GL_UNIFORM_BUFFER, block_bytes, nullptr, GL_DYNAMIC_DRAW);
      glBindBuffer(GL_UNIFORM_BUFFER, 0);
      continue;
    }
    if (rows > uint64_t(max_texels)) {
      error =
          "a skin with " + std::to_string(joints) + " joints exceeds the GPU's texture buffer size";
      return false;
    }
    glBindBuffer(GL_TEXTURE_BUFFER, p.buffer);
    glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(rows * 16u), nullptr, GL_DYNAMIC_DRAW);
    glGenTextures(1, &p.texture);
    glBindTexture(GL_TEXTURE_BUFFER, p.texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, p.buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
  }
  return true;
}

void GpuSkin::release() {
  for (GpuPalette& p : palettes) {
    if (p.buffer) glDeleteBuffers(1, &p.buffer);
    if (p.texture) glDeleteTextures(1, &p.texture);
    p = {};
  }
}

void GpuSkin::upload(rig::SkinningMethod method, std::span<const glm::vec4> rows) const {
  if (rows.empty()) return;
  glBindBuffer(GL_COPY_WRITE_BUFFER, palettes[size_t(method)].buffer);
  glBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(rows.size_bytes()), rows.data());
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

void GpuSkin::bind(rig::SkinningMethod method) const {
  const GpuPalette& p = palettes[size_t(method)];
  if (p.texture) {
    glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
    glBindTexture(GL_TEXTURE_BUFFER, p.texture);
    glActiveTexture(GL_TEXTURE0);
  } else {
    glBindBufferBase(GL_UNIFORM_BUFFER, kPaletteBinding, p.buffer);
  }
}

}  // namespace rig::render::detail
