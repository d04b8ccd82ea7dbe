// Materials, textures and lights on the GPU, one module for both renderers (Renderer and
// CrowdRenderer): the textures made from the model's images, what the mesh programs read of
// each material (GpuMaterial), and the light of the mesh pass (Lighting). The mesh pass
// (render/mesh_pass.h) hands them to the programs.
//
// Today's shading reads the base colour (factor × sRGB texture) alone; rig::Material keeps the
// rest of the glTF material (metallic-roughness, normal, occlusion, emissive, alpha), which
// reaches the GPU here when the shading that uses it does.
#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "model/model.h"
#include "render/camera.h"

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
};

// The key light: from above and to the left of the camera, fixed in view space so the visible
// side is always lit. A unit vector in world space, from the surface towards the light.
struct Lighting {
  glm::vec3 key_direction{0.0f, 1.0f, 0.0f};
  static Lighting for_camera(const Camera& camera);
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
  // The GpuMaterial of a primitive's material index (-1 or out of range: the neutral grey).
  const GpuMaterial& get(int material) const {
    return material >= 0 && size_t(material) < materials_.size() ? materials_[size_t(material)]
                                                                 : default_;
  }
  size_t texture_count() const;  // textures made (for tests)

 private:
  std::vector<GLuint> textures_;  // per model image, 0 where none was made
  std::vector<GpuMaterial> materials_;
  GpuMaterial default_;
};

}  // namespace rig::render::detail
