#include "render/crowd_materials.h"

namespace rig::render::detail {

bool CrowdMaterialBuffer::create(const rig::Crowd& crowd, GLint max_texels, std::string& error) {
  release();
  const uint64_t texels = crowd.material_rows().size();
  if (texels == 0) return true;
  if (texels > uint64_t(max_texels)) {
    error = std::to_string(crowd.count()) + " instances need " + std::to_string(texels) +
            " material texels, more than the GPU's texture buffer size (" +
            std::to_string(max_texels) + ")";
    return false;
  }
  glGenBuffers(1, &buffer_);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(texels * 16u), nullptr, GL_STREAM_DRAW);
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer_);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return true;
}

void CrowdMaterialBuffer::release() {
  if (buffer_) glDeleteBuffers(1, &buffer_);
  if (texture_) glDeleteTextures(1, &texture_);
  buffer_ = texture_ = 0;
}

void CrowdMaterialBuffer::upload(const rig::Crowd& crowd) const {
  const std::span<const glm::vec4> rows = crowd.material_rows();
  if (!buffer_ || rows.empty()) return;
  // Orphaned first: the driver hands out fresh storage rather than waiting for last frame's
  // draws.
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(rows.size_bytes()), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(rows.size_bytes()), rows.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void CrowdMaterialBuffer::bind(const MeshProgram& p, const rig::Crowd& crowd, int material) const {
  const int slot = texture_ ? crowd.material_slot(material) : -1;
  glUniform1i(p.material_base, slot < 0 ? -1 : slot * GLint(rig::kCrowdMaterialRows));
  if (slot < 0) return;
  glUniform1i(p.material_stride, GLint(crowd.material_rows_per_instance()));
  glActiveTexture(GL_TEXTURE0 + kCrowdMaterialUnit);
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
  glActiveTexture(GL_TEXTURE0);
}

}  // namespace rig::render::detail
