#include "render/mesh_pass.h"

#include <array>
#include <glm/gtc/type_ptr.hpp>

#include "render/scene_lights.h"

namespace rig::render::detail {

namespace {
// The texture unit of each texture slot (GpuMaterial's per-slot order).
constexpr std::array<GLint, rig::kTextureSlotCount> kSamplerUnits = {
    kBaseColorUnit, kMetallicRoughnessUnit, kOcclusionUnit,    kEmissiveUnit,
    kNormalUnit,    kSpecularUnit,          kSpecularColorUnit};
}  // namespace

void MeshPass::use(const MeshProgram& p) {
  if (bound_ == &p) return;
  glUseProgram(p.id);
  if (p.view_proj >= 0)
    glUniformMatrix4fv(p.view_proj, 1, GL_FALSE, glm::value_ptr(frame_.view_proj));
  glUniform3fv(p.subpixel_grid, 1, glm::value_ptr(frame_.subpixel_grid));
  glUniform3fv(p.eye, 1, glm::value_ptr(frame_.eye));
  glUniform3fv(p.key_direction, 1, glm::value_ptr(frame_.lighting.key_direction));
  glUniform1i(p.flat, frame_.flat ? 1 : 0);
  glUniform4fv(p.flat_color, 1, glm::value_ptr(frame_.flat_color));
  if (!frame_.flat) p.shadow.set(frame_.shadow);
  const ReferenceUniforms& r = p.reference;
  const LightSetup setup = frame_.lighting.setup;
  glUniform1i(r.lighting, setup == LightSetup::Viewer      ? 0
                          : setup == LightSetup::Reference ? 1
                          : setup == LightSetup::None      ? 2
                                                           : 3);
  if (setup == LightSetup::Studio) {
    const StudioFrame& s = frame_.studio;
    const StudioUniforms& u = p.studio;
    glUniform3fv(r.light_direction, 1, glm::value_ptr(frame_.lighting.key_direction));
    glUniform1f(r.light_intensity, s.key_intensity);
    glUniform1f(r.ambient, 0.0f);
    glUniform1f(u.environment_max_lod, s.max_lod);
    glUniform3fv(u.irradiance_sh, 9, glm::value_ptr(s.irradiance_sh[0]));
    glUniformMatrix3fv(u.environment_rotation, 1, GL_FALSE, glm::value_ptr(s.environment_rotation));
    glUniform1f(u.environment_intensity, s.environment_intensity);
    glUniform1i(u.tone_mapping, s.tone_mapping);
    glUniform1f(u.exposure, s.exposure);
    glActiveTexture(GL_TEXTURE0 + kEnvironmentUnit);
    glBindTexture(GL_TEXTURE_2D, s.environment_texture);
  } else if (setup != LightSetup::Viewer) {
    const bool lit = setup == LightSetup::Reference;
    glUniform3fv(r.light_direction, 1, kReferenceLightDirection);
    glUniform1f(r.light_intensity, lit ? kReferenceLightIntensity : 0.0f);
    glUniform1f(r.ambient, lit ? kReferenceAmbient : 0.0f);
  }
  if (setup != LightSetup::Viewer) {
    glUniformMatrix3fv(r.view_rotation, 1, GL_FALSE, glm::value_ptr(frame_.lighting.view_rotation));
    glActiveTexture(GL_TEXTURE0 + kDfgUnit);
    glBindTexture(GL_TEXTURE_2D, frame_.dfg_texture);
  }
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
    if (frame_.lighting.setup != LightSetup::Viewer) {
      set_reference_material(p, material);
      glUniform1i(p.reference.flat_normals, g.flat_normals ? 1 : 0);
    }
  } else if (!g.triangles()) {
    return;  // the flat (wireframe, depth) passes only draw triangles
  } else if (p.alpha_tested_depth) {
    set_cast_material(p, material);
  }
  if (instances > 0)
    g.draw_instanced(instances);
  else
    g.draw();
}

void MeshPass::set_reference_material(const MeshProgram& p, const GpuMaterial& m) {
  const ReferenceUniforms& r = p.reference;
  glUniform1f(r.metallic, m.metallic);
  glUniform1f(r.roughness, m.roughness);
  glUniform1i(r.has_metallic_roughness, m.metallic_roughness_texture ? 1 : 0);
  glUniform1i(r.has_occlusion, m.occlusion_texture ? 1 : 0);
  glUniform1f(r.occlusion_strength, m.occlusion_strength);
  glUniform3fv(r.emissive, 1, glm::value_ptr(m.emissive));
  glUniform1i(r.has_emissive, m.emissive_texture ? 1 : 0);
  glUniform1i(r.unlit, m.unlit ? 1 : 0);
  glUniform1i(r.alpha_mode, m.alpha_mode == rig::AlphaMode::Mask    ? 1
                            : m.alpha_mode == rig::AlphaMode::Blend ? 2
                                                                    : 0);
  glUniform1f(r.alpha_cutoff, m.alpha_cutoff);
  glUniform1i(r.has_normal, m.normal_texture ? 1 : 0);
  // The shader negates y where it derives the tangent frame on screen (no TANGENT), as three.js's
  // glTF loader does.
  glUniform2f(r.normal_scale, m.normal_scale, m.normal_scale);
  glUniform1f(r.ior, m.ior);
  glUniform1f(r.specular, m.specular);
  glUniform3fv(r.specular_color, 1, glm::value_ptr(m.specular_color));
  glUniform1i(r.has_specular, m.specular_texture ? 1 : 0);
  glUniform1i(r.has_specular_color, m.specular_color_texture ? 1 : 0);
  glUniform1iv(r.uv_sets, GLsizei(m.uv_sets.size()), m.uv_sets.data());
  glUniformMatrix3fv(r.uv_transforms, GLsizei(m.uv_transforms.size()), GL_FALSE,
                     glm::value_ptr(m.uv_transforms[0]));
  const std::pair<GLint, GLuint> textures[] = {
      {kMetallicRoughnessUnit, m.metallic_roughness_texture},
      {kOcclusionUnit, m.occlusion_texture},
      {kEmissiveUnit, m.emissive_texture},
      {kNormalUnit, m.normal_texture},
      {kSpecularUnit, m.specular_texture},
      {kSpecularColorUnit, m.specular_color_texture}};
  for (const auto& [unit, texture] : textures) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
  }
  // The file's samplers override the textures' own parameters for this shading only; end()
  // unbinds them so the viewer's look and other passes sample as before.
  for (size_t slot = 0; slot < kSamplerUnits.size(); ++slot)
    glBindSampler(GLuint(kSamplerUnits[slot]), m.samplers[slot]);
}

void MeshPass::set_cast_material(const MeshProgram& p, const GpuMaterial& m) {
  // What material_alpha.glsl reads, as set_reference_material and draw() set it for the frame.
  glUniform4fv(p.base_color_factor, 1, glm::value_ptr(m.base_color_factor));
  glUniform1i(p.has_texture, m.base_color_texture ? 1 : 0);
  glActiveTexture(GL_TEXTURE0 + kBaseColorUnit);
  glBindTexture(GL_TEXTURE_2D, m.base_color_texture);
  glBindSampler(GLuint(kBaseColorUnit), m.samplers[0]);
  cast_sampler_bound_ = true;
  glUniform1iv(p.reference.uv_sets, GLsizei(m.uv_sets.size()), m.uv_sets.data());
  glUniformMatrix3fv(p.reference.uv_transforms, GLsizei(m.uv_transforms.size()), GL_FALSE,
                     glm::value_ptr(m.uv_transforms[0]));
  glUniform1f(p.reference.alpha_cutoff, shadow_cutoff(m));
}

void MeshPass::end() {
  if (frame_.lighting.setup != LightSetup::Viewer)
    for (GLint unit : kSamplerUnits) glBindSampler(GLuint(unit), 0);
  if (cast_sampler_bound_) glBindSampler(GLuint(kBaseColorUnit), 0);
  cast_sampler_bound_ = false;
  glBindVertexArray(0);
  glActiveTexture(GL_TEXTURE0);
  bound_ = nullptr;
}

void cull_faces_for(const GpuMaterial& material, bool mirrored) {
  if (material.double_sided) {
    glDisable(GL_CULL_FACE);
    return;
  }
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glFrontFace(mirrored ? GL_CW : GL_CCW);
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
