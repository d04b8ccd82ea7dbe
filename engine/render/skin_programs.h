// The mesh program variants of both renderers, built in one place: skinning-method table row
// (or rigid) × material features (render/materials.h) × palette storage (uniform block or
// texture buffer) × use (drawing or transform-feedback capture), for plain or instanced
// (crowd) drawing. Each skinned program is "#version" + the generated layout header +
// skin_common.glsl + the row's shader file + mesh.vert.glsl, so adding a method needs no change
// here.
#pragma once

#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "render/shadow_map.h"
#include "skin/skinning_method.h"

namespace rig::render::detail {

inline constexpr GLuint kPaletteBinding = 0;  // uniform-block binding of every palette
inline constexpr GLint kBaseColorUnit = 0;
inline constexpr GLint kPaletteUnit = 1;  // texture unit of texture-buffer palettes
// The reference shading's textures.
inline constexpr GLint kMetallicRoughnessUnit = 2;
inline constexpr GLint kOcclusionUnit = 3;
inline constexpr GLint kEmissiveUnit = 4;
inline constexpr GLint kDfgUnit = 5;
inline constexpr GLint kNormalUnit = 6;
// The studio look's prefiltered environment (unit 7 is the shadow map's, shadow_map.h).
inline constexpr GLint kEnvironmentUnit = 8;
// KHR_materials_specular's two textures (reference shading and studio look).
inline constexpr GLint kSpecularUnit = 9;
inline constexpr GLint kSpecularColorUnit = 10;
// The crowd's animated material values (Crowd::material_rows), a texture buffer.
inline constexpr GLint kCrowdMaterialUnit = 11;

// The mesh fragment program: the material's values (a crowd instance's own when animated), the
// base colour's inputs, the key light's shadow, the shared BRDF, tone mapping and the studio
// look before the main file, which calls them.
inline constexpr std::array<std::string_view, 7> kMeshFragmentShaders = {
    "material_values.glsl", "material_alpha.glsl", "shadow.glsl",   "brdf.glsl",
    "tone_mapping.glsl",    "look.frag.glsl",      "mesh.frag.glsl"};
// The depth pass's fragment stages: empty for opaque casters, the material's alpha cut for the
// others (render/materials.h kShadowCasts), reading the base colour as the shading does.
inline constexpr std::array<std::string_view, 1> kDepthFragmentShaders = {"depth.frag.glsl"};
inline constexpr std::array<std::string_view, 3> kAlphaDepthFragmentShaders = {
    "material_values.glsl", "material_alpha.glsl", "depth_alpha.frag.glsl"};

// Uniforms of the reference shading (mesh.frag.glsl's shade_reference).
struct ReferenceUniforms {
  GLint lighting = -1, light_direction = -1, light_intensity = -1, ambient = -1, view_rotation = -1,
        metallic = -1, roughness = -1, has_metallic_roughness = -1, has_occlusion = -1,
        occlusion_strength = -1, emissive = -1, has_emissive = -1, unlit = -1, alpha_mode = -1,
        alpha_cutoff = -1, has_normal = -1, normal_scale = -1, uv_sets = -1, uv_transforms = -1,
        flat_normals = -1, ior = -1, specular = -1, specular_color = -1, has_specular = -1,
        has_specular_color = -1;
};

// Uniforms of the studio look (look.frag.glsl).
struct StudioUniforms {
  GLint environment_max_lod = -1, irradiance_sh = -1, environment_rotation = -1,
        environment_intensity = -1, tone_mapping = -1, exposure = -1;
};

struct MeshProgram {
  GLuint id = 0;
  GLint view_proj = -1, model = -1, normal_matrix = -1, influences = -1, joint_count = -1,
        base_color_factor = -1, has_texture = -1, eye = -1, key_direction = -1, flat = -1,
        flat_color = -1, field_view = -1, color_map = -1, field_range = -1, undefined_color = -1,
        subpixel_grid = -1;
  ReferenceUniforms reference;
  ShadowUniforms shadow;  // the key light's shadow lookup (shaders/shadow.glsl)
  StudioUniforms studio;
  // Instanced (CROWD) programs only: the grid, each instance's palette rows and rigid matrices.
  GLint grid_columns = -1, grid_rows = -1, grid_spacing = -1, instance_stride = -1,
        palette_base = -1, rigid_stride = -1, rigid_base = -1;
  // A depth program that cuts by the material's alpha: the mesh pass sets its material inputs.
  bool alpha_tested_depth = false;
  // Instanced only: the animated materials' rows (material_values.glsl).
  GLint material_stride = -1, material_base = -1;
};

// Looks up the uniforms of linked program `id` and sets the ones that never change (colour
// maps, texture units, the palette block binding).
MeshProgram mesh_program(GLuint id);

// The one place the palette layout reaches GLSL: #defines generated from the table row
// (nullptr: rigid) and rig::kMaxInfluences. `palette_vec4s` sizes the uniform block; with
// `texture_buffer` the palette is an RGBA32F texture buffer instead.
std::string skinning_layout_header(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                   uint32_t palette_vec4s);

// Plain drawing (Renderer) or one instanced draw for a whole crowd (CrowdRenderer: CROWD
// defined, palettes always in a texture buffer indexed by gl_InstanceID).
enum class Instancing { Off, Crowd };

// One program variant.
struct ProgramKey {
  const rig::SkinningMethodInfo* method = nullptr;  // nullptr: rigid
  uint32_t material_features = 0;                   // GpuMaterial::features
  bool texture_buffer = false;                      // palette storage (skinned, not instanced)
  bool capture = false;                             // transform feedback of the world vertex
  // The shadow's depth pass (shaders/depth.frag.glsl, no colour), without capture.
  bool depth = false;
  // With depth: the alpha-tested stage (depth_alpha.frag.glsl) instead of the empty one.
  bool alpha_tested = false;
};

class SkinPrograms {
 public:
  // Builds every variant for `instancing`. false + error (naming the program) on a compile or
  // link failure.
  bool build(Instancing instancing, uint32_t palette_vec4s, std::string& error);
  void release();

  const MeshProgram& get(const ProgramKey& key) const;
  // method == nullptr: the rigid program (material features 0).
  const MeshProgram& get(const rig::SkinningMethodInfo* method, bool texture_buffer,
                         bool capture) const {
    return get(ProgramKey{method, 0, texture_buffer, capture});
  }
  // std140 size of the palette uniform block (what every uniform-block palette buffer holds).
  GLint palette_block_bytes() const { return palette_block_bytes_; }
  int program_count() const;

 private:
  size_t index(const ProgramKey& key) const;
  std::vector<MeshProgram> programs_;  // every key's slot (index()); id 0 where not built
  Instancing instancing_ = Instancing::Off;
  GLint palette_block_bytes_ = 0;
};

}  // namespace rig::render::detail
