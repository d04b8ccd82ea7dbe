#include "render/crowd_materials.h"

#include "render/gl_util.h"

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
  create_texture_buffer(texels, buffer_, texture_);
  return true;
}

void CrowdMaterialBuffer::release() {
  if (buffer_) glDeleteBuffers(1, &buffer_);
  if (texture_) glDeleteTextures(1, &texture_);
  buffer_ = texture_ = 0;
}

void CrowdMaterialBuffer::upload(const rig::Crowd& crowd) const {
  const std::span<const glm::vec4> rows = crowd.material_rows();
  stream_texture_buffer(buffer_, rows.data(), rows.size_bytes());
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
