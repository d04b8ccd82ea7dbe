#include "render/mesh_pass.h"

#include <glm/gtc/type_ptr.hpp>

namespace rig::render::detail {

void MeshPass::use(const MeshProgram& p) {
  if (bound_ == &p) return;
  glUseProgram(p.id);
  if (p.view_proj >= 0)
    glUniformMatrix4fv(p.view_proj, 1, GL_FALSE, glm::value_ptr(frame_.view_proj));
  glUniform3fv(p.eye, 1, glm::value_ptr(frame_.eye));
  glUniform3fv(p.key_direction, 1, glm::value_ptr(frame_.lighting.key_direction));
  glUniform1i(p.flat, frame_.flat ? 1 : 0);
  glUniform4fv(p.flat_color, 1, glm::value_ptr(frame_.flat_color));
  bound_ = &p;
}

void MeshPass::draw(const GpuDrawItem& g, const GpuMaterial& material,
                    const rig::analysis::ScalarField* field, GLsizei instances) {
  const MeshProgram& p = *bound_;
  if (!frame_.flat) {
    glUniform1i(p.field_view, field ? 1 : 0);
    if (field) {
      glUniform1i(p.color_map, static_cast<GLint>(field->map));
      glUniform2f(p.field_range, field->min, field->max);
      glUniform3fv(p.undefined_color, 1, glm::value_ptr(field->undefined_color));
    }
    glUniform4fv(p.base_color_factor, 1, glm::value_ptr(material.base_color_factor));
    glUniform1i(p.has_texture, material.base_color_texture ? 1 : 0);
    glActiveTexture(GL_TEXTURE0 + kBaseColorUnit);
    glBindTexture(GL_TEXTURE_2D, material.base_color_texture);
  } else if (!g.triangles()) {
    return;  // the flat (wireframe) pass only outlines triangles
  }
  if (instances > 0)
    g.draw_instanced(instances);
  else
    g.draw();
}

void MeshPass::end() {
  glBindVertexArray(0);
  glActiveTexture(GL_TEXTURE0);
  bound_ = nullptr;
}

void place_skinned(const MeshProgram& p, int influences, GLint joints) {
  glUniform1i(p.influences, influences);
  glUniform1i(p.joint_count, joints);
}

void place_rigid(const MeshProgram& p, const glm::mat4& world, const glm::mat3& normal_matrix) {
  if (p.model >= 0) glUniformMatrix4fv(p.model, 1, GL_FALSE, glm::value_ptr(world));
  glUniformMatrix3fv(p.normal_matrix, 1, GL_FALSE, glm::value_ptr(normal_matrix));
}

}  // namespace rig::render::detail
