// The renderer's read-backs (transform feedback of the skinned vertices), GPU timing and
// introspection for tests and the UI.
#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_util.h"
#include "render/mesh_pass.h"
#include "render/renderer.h"
#include "render/renderer_impl.h"

namespace rig::render {

using detail::GpuDrawItem;
using detail::GpuSkin;
using detail::MeshProgram;

void Renderer::begin_gpu_timer() {
  if (impl_->initialized) impl_->timer.begin();
}

void Renderer::end_gpu_timer() { impl_->timer.end(); }

double Renderer::gpu_time_ms() const { return impl_->timer.last_ms(); }

uint64_t Renderer::shadow_passes_drawn() const { return impl_->shadow_passes; }

bool Renderer::read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                                 std::span<glm::vec3> out_positions,
                                 std::span<glm::vec3> out_normals, std::string& error) {
  return read_back_skinned(draw_index, method, out_positions, out_normals, {}, error);
}

bool Renderer::read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                                 std::span<glm::vec3> out_positions,
                                 std::span<glm::vec3> out_normals,
                                 std::span<glm::vec4> out_tangents, std::string& error) {
  Impl& r = *impl_;
  if (!r.model || draw_index >= r.items.size()) {
    error = "no draw item " + std::to_string(draw_index);
    return false;
  }
  const GpuDrawItem& g = r.items[draw_index];
  const size_t n = size_t(g.vertex_count);
  if (out_positions.size() != n || out_normals.size() != n ||
      (!out_tangents.empty() && out_tangents.size() != n)) {
    error = "read-back spans do not match the vertex count";
    return false;
  }
  if (n == 0) return true;
  const rig::DrawItem& item = r.model->draws[draw_index];
  const GpuSkin* skin = g.skinned() ? &r.skins[item.skin] : nullptr;
  if (skin) r.ensure_palettes(method);
  const bool tbo = skin && skin->uses_texture_buffer(method);
  const MeshProgram& p = r.programs.get(skin ? &rig::method_info(method) : nullptr, tbo, true);
  glUseProgram(p.id);
  glUniformMatrix4fv(p.view_proj, 1, GL_FALSE, glm::value_ptr(glm::mat4(1.0f)));
  if (skin) {
    detail::place_skinned(p, g.influences, GLint(skin->joints));
    skin->bind(method);
  } else {
    detail::place_rigid(p, g.world, g.normal_matrix);
  }
  r.feedback.capture(g.vao, g.vertex_count, out_positions, out_normals, 1, out_tangents);
  glUseProgram(0);
  const uint64_t errors_before = gl_error_count();
  check_gl_errors("Renderer::read_back_skinned");
  if (gl_error_count() != errors_before) {
    error = "the GL reported an error during the transform feedback read-back";
    return false;
  }
  return true;
}

uint32_t Renderer::palette_uniform_limit_bytes() const { return impl_->palette_limit_bytes; }

uint32_t Renderer::max_uniform_joints(rig::SkinningMethod method) const {
  return impl_->palette_limit_bytes / (rig::method_info(method).palette_rows * 16u);
}

bool Renderer::skin_uses_texture_buffer(int skin, rig::SkinningMethod method) const {
  const Impl& r = *impl_;
  if (skin < 0 || skin >= int(r.skins.size())) return false;
  return r.skins[skin].uses_texture_buffer(method);
}

int Renderer::mesh_program_count() const { return impl_->programs.program_count(); }

uint32_t Renderer::mesh_program(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                bool capture) const {
  return impl_->programs.get(method, texture_buffer, capture).id;
}

uint32_t Renderer::depth_program(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                 bool alpha_tested) const {
  return impl_->programs.get({method, 0, texture_buffer, false, true, alpha_tested}).id;
}

uint64_t Renderer::palette_uploads(rig::SkinningMethod method) const {
  return impl_->palette_upload_count[size_t(method)];
}

uint64_t Renderer::gl_error_count() const { return rig::render::gl_error_count(); }

}  // namespace rig::render
