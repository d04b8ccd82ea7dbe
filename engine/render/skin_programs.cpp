#include "render/skin_programs.h"

#include <glm/gtc/type_ptr.hpp>
#include <iterator>
#include <span>
#include <vector>

#include "analysis/color_map.h"
#include "character/crowd_materials.h"
#include "render/gl_util.h"
#include "render/materials.h"

namespace rig::render::detail {

MeshProgram mesh_program(GLuint id) {
  MeshProgram p;
  p.id = id;
  p.view_proj = glGetUniformLocation(id, "u_view_proj");
  p.subpixel_grid = glGetUniformLocation(id, "u_subpixel_grid");
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
  p.grid_columns = glGetUniformLocation(id, "u_grid_columns");
  p.grid_rows = glGetUniformLocation(id, "u_grid_rows");
  p.grid_spacing = glGetUniformLocation(id, "u_grid_spacing");
  p.instance_stride = glGetUniformLocation(id, "u_instance_stride");
  p.palette_base = glGetUniformLocation(id, "u_palette_base");
  p.rigid_stride = glGetUniformLocation(id, "u_rigid_stride");
  p.rigid_base = glGetUniformLocation(id, "u_rigid_base");
  p.material_stride = glGetUniformLocation(id, "u_material_stride");
  p.material_base = glGetUniformLocation(id, "u_material_base");
  ReferenceUniforms& r = p.reference;
  r.lighting = glGetUniformLocation(id, "u_lighting");
  r.light_direction = glGetUniformLocation(id, "u_light_direction");
  r.light_intensity = glGetUniformLocation(id, "u_light_intensity");
  r.ambient = glGetUniformLocation(id, "u_ambient");
  r.view_rotation = glGetUniformLocation(id, "u_view_rotation");
  r.metallic = glGetUniformLocation(id, "u_metallic_factor");
  r.roughness = glGetUniformLocation(id, "u_roughness_factor");
  r.has_metallic_roughness = glGetUniformLocation(id, "u_has_metallic_roughness");
  r.has_occlusion = glGetUniformLocation(id, "u_has_occlusion");
  r.occlusion_strength = glGetUniformLocation(id, "u_occlusion_strength");
  r.emissive = glGetUniformLocation(id, "u_emissive");
  r.has_emissive = glGetUniformLocation(id, "u_has_emissive");
  r.unlit = glGetUniformLocation(id, "u_unlit");
  r.alpha_mode = glGetUniformLocation(id, "u_alpha_mode");
  r.alpha_cutoff = glGetUniformLocation(id, "u_alpha_cutoff");
  r.has_normal = glGetUniformLocation(id, "u_has_normal");
  r.normal_scale = glGetUniformLocation(id, "u_normal_scale");
  r.uv_sets = glGetUniformLocation(id, "u_uv_sets");
  r.uv_transforms = glGetUniformLocation(id, "u_uv_transforms");
  r.flat_normals = glGetUniformLocation(id, "u_flat_normals");
  r.ior = glGetUniformLocation(id, "u_ior");
  r.specular = glGetUniformLocation(id, "u_specular_factor");
  r.specular_color = glGetUniformLocation(id, "u_specular_color_factor");
  r.has_specular = glGetUniformLocation(id, "u_has_specular");
  r.has_specular_color = glGetUniformLocation(id, "u_has_specular_color");
  p.shadow = ShadowUniforms::locate(id);
  StudioUniforms& st = p.studio;
  st.environment_max_lod = glGetUniformLocation(id, "u_environment_max_lod");
  st.irradiance_sh = glGetUniformLocation(id, "u_irradiance_sh");
  st.environment_rotation = glGetUniformLocation(id, "u_environment_rotation");
  st.environment_intensity = glGetUniformLocation(id, "u_environment_intensity");
  st.tone_mapping = glGetUniformLocation(id, "u_tone_mapping");
  st.exposure = glGetUniformLocation(id, "u_exposure");
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
  const std::pair<const char*, GLint> units[] = {
      {"u_metallic_roughness_texture", kMetallicRoughnessUnit},
      {"u_occlusion_texture", kOcclusionUnit},
      {"u_emissive_texture", kEmissiveUnit},
      {"u_dfg", kDfgUnit},
      {"u_normal_texture", kNormalUnit},
      {"u_environment", kEnvironmentUnit},
      {"u_specular_texture", kSpecularUnit},
      {"u_specular_color_texture", kSpecularColorUnit},
      {"u_material_tbo", kCrowdMaterialUnit}};
  for (const auto& [name, unit] : units)
    if (GLint loc = glGetUniformLocation(id, name); loc >= 0) glUniform1i(loc, unit);
  if (GLint pal = glGetUniformLocation(id, "u_palette_tbo"); pal >= 0)
    glUniform1i(pal, kPaletteUnit);
  // Instanced rigid programs read the node matrices on the palette's unit (they have none).
  if (GLint rigid = glGetUniformLocation(id, "u_rigid_tbo"); rigid >= 0)
    glUniform1i(rigid, kPaletteUnit);
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

namespace {

// Material feature bits → #defines (none yet: kMaterialFeatureCount is 0).
std::string material_feature_defines(uint32_t features) {
  std::string defines;
  for (uint32_t bit = 0; bit < kMaterialFeatureCount; ++bit)
    if (features & (1u << bit))
      defines += "#define MATERIAL_FEATURE_" + std::to_string(bit) + " 1\n";
  return defines;
}

constexpr size_t kRows = rig::kSkinningMethodCount + 1;  // every method, then rigid

// What a program is for: one row per use, the key's flags, the fragment stage and whether the
// instanced (crowd) set has it. The crowd has every one: it is shaded in the single
// character's looks, so under the studio look it casts MASK and BLEND surfaces cut by alpha.
struct Purpose {
  bool capture, depth, alpha_tested;
  std::span<const std::string_view> fragment;
  bool instanced;
  const char* label;
};
constexpr Purpose kPurposes[] = {
    {false, false, false, kMeshFragmentShaders, true, ""},
    {true, false, false, kMeshFragmentShaders, true, ""},
    {false, true, false, kDepthFragmentShaders, true, " (depth)"},
    {false, true, true, kAlphaDepthFragmentShaders, true, " (alpha-tested depth)"},
};
constexpr size_t kPurposeCount = std::size(kPurposes);

size_t purpose_of(const ProgramKey& key) {
  return key.capture ? 1 : !key.depth ? 0 : key.alpha_tested ? 3 : 2;
}

}  // namespace

size_t SkinPrograms::index(const ProgramKey& key) const {
  const size_t row = key.method ? size_t(key.method->method) : rig::kSkinningMethodCount;
  const size_t features = key.material_features & (kMaterialFeatureVariants - 1u);
  // Rigid programs have no palette, and instanced ones keep theirs in a texture buffer: one
  // storage slot each.
  const bool tbo = key.method && instancing_ == Instancing::Off && key.texture_buffer;
  const size_t purpose = size_t(purpose_of(key));
  return ((row * kMaterialFeatureVariants + features) * 2 + (tbo ? 1 : 0)) * kPurposeCount +
         purpose;
}

bool SkinPrograms::build(Instancing instancing, uint32_t palette_vec4s, std::string& error) {
  release();
  instancing_ = instancing;
  programs_.assign(kRows * kMaterialFeatureVariants * 2 * kPurposeCount, MeshProgram{});
  const bool crowd = instancing == Instancing::Crowd;
  std::string instancing_define;
  if (crowd) {
    instancing_define = "#define CROWD 1\n";
    // The crowd's material rows (character/crowd_materials.h), named for the GLSL.
    for (const rig::CrowdMaterialRowDefine& d : rig::kCrowdMaterialRowDefines)
      instancing_define += "#define " + std::string(d.name) + " " + std::to_string(d.value) + "\n";
  }
  const char* kind = crowd ? " crowd program" : " program";
  const std::vector<const char*> feedback = {"v_world_position", "v_world_normal",
                                             "v_world_tangent"};
  auto build_one = [&](const ProgramKey& key, const std::string& label) {
    std::vector<std::string_view> vs = {"skin_common.glsl", "mesh.vert.glsl"};
    if (key.method) vs.insert(vs.begin() + 1, key.method->shader);
    const std::string defines =
        skinning_layout_header(key.method, crowd || key.texture_buffer, crowd ? 0 : palette_vec4s) +
        material_feature_defines(key.material_features) + instancing_define;
    const std::span<const std::string_view> stage = kPurposes[purpose_of(key)].fragment;
    const std::vector<std::string_view> fs(stage.begin(), stage.end());
    const GLuint id =
        build_program(vs, fs, defines, key.capture ? feedback : std::vector<const char*>{}, error);
    if (!id) {
      error = label + ": " + error;
      return false;
    }
    MeshProgram& program = programs_[index(key)];
    program = mesh_program(id);
    program.alpha_tested_depth = key.depth && key.alpha_tested;
    return true;
  };
  for (uint32_t features = 0; features < kMaterialFeatureVariants; ++features)
    for (const Purpose& purpose : kPurposes) {
      if (crowd && !purpose.instanced) continue;
      const std::string what = std::string(kind) + purpose.label;
      auto key = [&](const rig::SkinningMethodInfo* method, bool tbo) {
        return ProgramKey{method,          features,      tbo,
                          purpose.capture, purpose.depth, purpose.alpha_tested};
      };
      if (!build_one(key(nullptr, false), "rigid" + what)) return false;
      for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
        for (int tbo = 0; tbo < (crowd ? 1 : 2); ++tbo)
          if (!build_one(key(&m, tbo != 0), std::string(m.name) + what + " (" + m.shader + ")"))
            return false;
    }
  // The uniform block's real size (std140) sizes every uniform-block palette buffer: GL wants
  // a bound buffer at least that large.
  palette_block_bytes_ = static_cast<GLint>(palette_vec4s * 16u);
  const GLuint any = get(&rig::skinning_methods()[0], false, false).id;
  if (GLuint block = glGetUniformBlockIndex(any, "Palette"); block != GL_INVALID_INDEX)
    glGetActiveUniformBlockiv(any, block, GL_UNIFORM_BLOCK_DATA_SIZE, &palette_block_bytes_);
  return true;
}

void SkinPrograms::release() {
  for (MeshProgram& p : programs_)
    if (p.id) glDeleteProgram(p.id);
  programs_.clear();
}

const MeshProgram& SkinPrograms::get(const ProgramKey& key) const {
  static const MeshProgram kNone;
  return programs_.empty() ? kNone : programs_[index(key)];
}

int SkinPrograms::program_count() const {
  int n = 0;
  for (const MeshProgram& p : programs_) n += p.id != 0;
  return n;
}

}  // namespace rig::render::detail
