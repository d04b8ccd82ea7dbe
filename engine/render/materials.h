// Materials, textures and lights on the GPU, one module for both renderers (Renderer and
// CrowdRenderer): the textures made from the model's images, what the mesh programs read of
// each material (GpuMaterial), and the light of the mesh pass (Lighting). The mesh pass
// (render/mesh_pass.h) hands them to the programs.
//
// The viewer's shading reads the base colour (factor × sRGB texture) alone; the reference
// shading (LightSetup::Reference, None) reads metallic-roughness, normal, occlusion, emissive,
// unlit, alpha mode and double-sidedness too, each texture through its TEXCOORD set,
// KHR_texture_transform and glTF sampler (a GL sampler object; the viewer's look keeps the
// textures' own linear-mipmap-linear, repeating parameters).
#pragma once

#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "anim/material_pose.h"
#include "model/model.h"
#include "render/camera.h"
#include "render/scene_lights.h"

namespace rig::render::detail {

// Material features that select a program variant (one #define each, the bit's index in
// kMaterialFeatureDefines). None yet: every input of today's shading is a uniform, so one
// variant serves every material; shading that needs a compiled-in path (normal maps, alpha
// masks) adds its bit here and SkinPrograms builds the variants.
inline constexpr uint32_t kMaterialFeatureCount = 0;
inline constexpr uint32_t kMaterialFeatureVariants = 1u << kMaterialFeatureCount;

// What the mesh programs read of one material.
struct GpuMaterial {
  // A neutral grey for primitives without a material.
  glm::vec4 base_color_factor{0.8f, 0.8f, 0.8f, 1.0f};
  GLuint base_color_texture = 0;  // 0: none (or its picture could not be decoded)
  uint32_t features = 0;          // program variant bits (kMaterialFeatureCount)
  // The rest of the glTF material, read by the reference shading only.
  float metallic = 1.0f, roughness = 1.0f;
  GLuint metallic_roughness_texture = 0;  // linear
  GLuint occlusion_texture = 0;           // linear
  float occlusion_strength = 1.0f;
  glm::vec3 emissive{0.0f};     // factor × KHR_materials_emissive_strength
  GLuint emissive_texture = 0;  // sRGB
  GLuint normal_texture = 0;    // linear
  float normal_scale = 1.0f;
  bool unlit = false, double_sided = false;
  // KHR_materials_ior and KHR_materials_specular (the defaults give the core material's F0 0.04).
  float ior = 1.5f, specular = 1.0f;
  glm::vec3 specular_color{1.0f};
  GLuint specular_texture = 0;        // linear, A
  GLuint specular_color_texture = 0;  // sRGB
  rig::AlphaMode alpha_mode = rig::AlphaMode::Opaque;
  float alpha_cutoff = 0.5f;
  // Per texture slot (rig::TextureSlot order, the order of the shader's u_uv_* arrays): its
  // TEXCOORD set (0 or 1, the transform's override winning) and KHR_texture_transform matrix,
  // uv' = T·R·S·uv (identity without one).
  std::array<GLint, rig::kTextureSlotCount> uv_sets{};
  std::array<glm::mat3, rig::kTextureSlotCount> uv_transforms = identity_transforms();
  // Per texture slot: the glTF sampler as a GL sampler object (MaterialTable owns them).
  std::array<GLuint, rig::kTextureSlotCount> samplers{};

  static std::array<glm::mat3, rig::kTextureSlotCount> identity_transforms() {
    std::array<glm::mat3, rig::kTextureSlotCount> m;
    m.fill(glm::mat3(1.0f));
    return m;
  }
};

// How a material casts the key light's shadow, by alpha mode (rig::AlphaMode order). OPAQUE
// through the depth pass's empty fragment stage (the cheap one); MASK cut where the glTF shading
// cuts it, at the material's (animated) cutoff; BLEND cut at a fixed 0.5, so a half-opaque sheet
// still shadows and its transparent margins do not. A plain cut, not a dithered one: the
// shadow lookup's filter softens its edge and it stays deterministic frame to frame.
struct ShadowCast {
  bool alpha_tested;     // the alpha-tested depth program (depth_alpha.frag.glsl)
  bool material_cutoff;  // the material's alpha_cutoff, else `cutoff`
  float cutoff;
};
inline constexpr std::array<ShadowCast, 3> kShadowCasts = {{
    {false, false, 0.0f},  // OPAQUE
    {true, true, 0.0f},    // MASK
    {true, false, 0.5f},   // BLEND
}};

// The KHR_texture_transform matrix of the extension's definition: translation · rotation ·
// scale, the rotation counter-clockwise in UV space by `rotation` radians.
glm::mat3 texture_transform_matrix(const rig::TextureTransform& t);

// The key light: from above and to the left of the camera, fixed in view space so the visible
// side is always lit. A unit vector in world space, from the surface towards the light.
// With a LightSetup other than the viewer's, the reference scene's lights (or none) instead.
struct Lighting {
  glm::vec3 key_direction{0.0f, 1.0f, 0.0f};
  LightSetup setup = LightSetup::Viewer;
  glm::mat3 view_rotation{1.0f};  // world → view (the reference shading's normal derivatives)
  static Lighting for_camera(const Camera& camera, LightSetup setup = LightSetup::Viewer);
  // A frame's light in both renderers: for_camera, the key turned towards `key_override` (a
  // unit world direction towards the light) unless it is zero.
  static Lighting for_frame(const Camera& camera, LightSetup setup, glm::vec3 key_override);
};

class MaterialTable {
 public:
  MaterialTable() = default;
  MaterialTable(const MaterialTable&) = delete;
  MaterialTable& operator=(const MaterialTable&) = delete;
  ~MaterialTable() = default;  // GL objects go in release(), with the context current

  // One sRGB, mipmapped, repeating texture per image a material uses as its base colour (none
  // for images whose pixels are missing or malformed), and one GpuMaterial per material.
  // Allocates; once per model. Needs the GL context.
  void create(const rig::Model& model);
  // Deletes the textures. Needs the GL context when create() made any.
  void release();
  // The animated materials of `pose` (anim/material_pose.h) take its values in place of the
  // file's: factors, cutoff and texture-transform matrices. Per frame; no allocation, no GL.
  void apply(const rig::MaterialPose& pose);
  // Moves on whenever apply() changes what an alpha-tested cast reads (a base colour factor's
  // alpha, a cutoff, a base colour texture transform): the shadow map is drawn again then.
  uint64_t cast_revision() const { return cast_revision_; }
  // The GpuMaterial of a primitive's material index (-1 or out of range: the neutral grey; under
  // the reference shading the glTF default material: white, metallic 1, roughness 1).
  const GpuMaterial& get(int material, bool reference = false) const {
    if (material >= 0 && size_t(material) < materials_.size()) return materials_[size_t(material)];
    return reference ? gltf_default_ : default_;
  }
  // The DFG table (render/dfg_lut.h) as an RG32F texture, made by create().
  GLuint dfg_texture() const { return dfg_texture_; }
  size_t texture_count() const;  // base colour textures made (for tests)
  // The sampler object of a glTF sampler, made on first use: its wraps and filters, the
  // renderer's choice (linear, linear-mipmap-linear) where the file gives none. Needs the GL
  // context.
  GLuint sampler(const rig::TextureSampler& sampler);

 private:
  std::vector<GLuint> textures_;         // sRGB, per model image, 0 where none was made
  std::vector<GLuint> linear_textures_;  // the same pictures as linear data
  std::vector<GpuMaterial> materials_;
  // One GL sampler object per distinct glTF sampler, keyed by (mag, min, wrap S, wrap T).
  std::vector<std::array<GLint, 4>> sampler_keys_;
  std::vector<GLuint> samplers_;
  GpuMaterial default_;
  GpuMaterial gltf_default_{glm::vec4(1.0f)};
  GLuint dfg_texture_ = 0;
  uint64_t cast_revision_ = 0;
};

inline const ShadowCast& shadow_cast(const GpuMaterial& m) {
  return kShadowCasts[size_t(m.alpha_mode)];
}
inline float shadow_cutoff(const GpuMaterial& m) {
  const ShadowCast& c = shadow_cast(m);
  return c.material_cutoff ? m.alpha_cutoff : c.cutoff;
}

}  // namespace rig::render::detail
