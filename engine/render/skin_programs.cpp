#include "render/skin_programs.h"

#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "analysis/color_map.h"
#include "render/gl_util.h"

namespace rig::render::detail {

MeshProgram mesh_program(GLuint id) {
  MeshProgram p;
  p.id = id;
  p.view_proj = glGetUniformLocation(id, "u_view_proj");
  p.model = glGetUniformLocation(id, "u_model");
  p.normal_matrix = glGetUniformLocation(id, "u_normal_matrix");
  p.influences = glGetUniformLocation(id, "u_influences");
  p.joint_count = glGetUniformLocation(id, "u_joint_count");
  p.base_color_factor = glGetUniformLocation(id, "u_base_color_factor");
  p.has_texture = glGetUniformLocation(id, "u_has_texture");
  p.eye = glGetUniformLocation(id, "u_eye");
  p.key_direction = glGetUniformLocation(id, "u_key_direction");
  p.flat = glGetUniformLocation(id, "u_flat");
  p.flat_color = glGetUniformLocation(id, "u_flat_color");
  p.field_view = glGetUniformLocation(id, "u_field_view");
  p.color_map = glGetUniformLocation(id, "u_color_map");
  p.field_range = glGetUniformLocation(id, "u_field_range");
  p.undefined_color = glGetUniformLocation(id, "u_undefined_color");
  glUseProgram(id);
  // The colour maps never change: set once per program.
  namespace a = rig::analysis;
  auto set_colors = [id](const char* name, const glm::vec3* colors, size_t n) {
    if (GLint loc = glGetUniformLocation(id, name); loc >= 0)
      glUniform3fv(loc, GLsizei(n), glm::value_ptr(colors[0]));
  };
  set_colors("u_heat_stops", a::kHeatStops.data(), a::kHeatStops.size());
  set_colors("u_category_colors", a::kCategoryColors.data(), a::kCategoryColors.size());
  set_colors("u_diverging_stops", a::kDivergingStops.data(), a::kDivergingStops.size());
  set_colors("u_zero_color", &a::kZeroColor, 1);
  set_colors("u_undefined_color", &a::kUndefinedColor, 1);
  if (p.field_view >= 0) glUniform1i(p.field_view, 0);
  if (GLint tex = glGetUniformLocation(id, "u_base_color_texture"); tex >= 0)
    glUniform1i(tex, kBaseColorUnit);
  if (GLint pal = glGetUniformLocation(id, "u_palette_tbo"); pal >= 0)
    glUniform1i(pal, kPaletteUnit);
  if (GLuint block = glGetUniformBlockIndex(id, "Palette"); block != GL_INVALID_INDEX)
    glUniformBlockBinding(id, block, kPaletteBinding);
  glUseProgram(0);
  return p;
}

std::string skinning_layout_header(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                   uint32_t palette_vec4s) {
  std::string h = "#define MAX_INFLUENCES " + std::to_string(rig::kMaxInfluences) + "\n";
  if (!method) return h;
  h += "#define SKINNED 1\n";
  h += "#define PALETTE_ROWS_PER_JOINT " + std::to_string(method->palette_rows) + "\n";
  if (texture_buffer)
    h += "#define PALETTE_TBO 1\n";
  else
    h += "#define PALETTE_VEC4S " + std::to_string(palette_vec4s) + "\n";
  return h;
}

bool SkinPrograms::build(uint32_t palette_vec4s, std::string& error) {
  const std::vector<std::string_view> fs = {"mesh.frag.glsl"};
  const std::vector<const char*> feedback = {"v_world_position", "v_world_normal"};
  for (int capture = 0; capture < 2; ++capture) {
    const std::vector<std::string_view> vs = {"skin_common.glsl", "mesh.vert.glsl"};
    GLuint id = build_program(vs, fs, skinning_layout_header(nullptr, false, palette_vec4s),
                              capture ? feedback : std::vector<const char*>{}, error);
    if (!id) {
      error = "rigid program: " + error;
      return false;
    }
    rigid_[capture] = mesh_program(id);
  }
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    const std::vector<std::string_view> vs = {"skin_common.glsl", m.shader, "mesh.vert.glsl"};
    for (int tbo = 0; tbo < 2; ++tbo)
      for (int capture = 0; capture < 2; ++capture) {
        GLuint id = build_program(vs, fs, skinning_layout_header(&m, tbo != 0, palette_vec4s),
                                  capture ? feedback : std::vector<const char*>{}, error);
        if (!id) {
          error = std::string(m.name) + " program (" + m.shader + "): " + error;
          return false;
        }
        skinned_[size_t(m.method)][tbo][capture] = mesh_program(id);
      }
  }
  // The uniform block's real size (std140) sizes every uniform-block palette buffer: GL wants
  // a bound buffer at least that large.
  palette_block_bytes_ = static_cast<GLint>(palette_vec4s * 16u);
  const GLuint any = skinned_[0][0][0].id;
  if (GLuint block = glGetUniformBlockIndex(any, "Palette"); block != GL_INVALID_INDEX)
    glGetActiveUniformBlockiv(any, block, GL_UNIFORM_BLOCK_DATA_SIZE, &palette_block_bytes_);
  return true;
}

void SkinPrograms::release() {
  for (auto& per_method : skinned_)
    for (auto& per_storage : per_method)
      for (MeshProgram& p : per_storage)
        if (p.id) glDeleteProgram(p.id);
  for (MeshProgram& p : rigid_)
    if (p.id) glDeleteProgram(p.id);
  skinned_ = {};
  rigid_ = {};
}

const MeshProgram& SkinPrograms::get(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                     bool capture) const {
  if (!method) return rigid_[capture ? 1 : 0];
  return skinned_[size_t(method->method)][texture_buffer ? 1 : 0][capture ? 1 : 0];
}

int SkinPrograms::program_count() const {
  int n = 0;
  for (const auto& per_method : skinned_)
    for (const auto& per_storage : per_method)
      for (const MeshProgram& p : per_storage) n += p.id != 0;
  for (const MeshProgram& p : rigid_) n += p.id != 0;
  return n;
}

}  // namespace rig::render::detail
