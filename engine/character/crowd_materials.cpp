#include "character/crowd_materials.h"

namespace rig {

void pack_crowd_material(const MaterialFactors& f, std::span<glm::vec4> rows) {
  if (rows.size() < kCrowdMaterialRows) return;
  rows[kCrowdMaterialBaseColorRow] = f.base_color;
  rows[kCrowdMaterialEmissiveMetallicRow] = glm::vec4(f.emissive * f.emissive_strength, f.metallic);
  rows[kCrowdMaterialSpecularRoughnessRow] = glm::vec4(f.specular_color, f.roughness);
  rows[kCrowdMaterialScalarsRow] =
      glm::vec4(f.alpha_cutoff, f.normal_scale, f.occlusion_strength, f.ior);
  // Seven rotations after the specular factor fill rows 4 and 5 exactly.
  rows[kCrowdMaterialRotationRow].x = f.specular;
  for (size_t s = 0; s < kTextureSlotCount; ++s) {
    const size_t i = s + 1;
    rows[kCrowdMaterialRotationRow + i / 4][int(i % 4)] = f.transforms[s].rotation;
  }
  for (size_t s = 0; s < kTextureSlotCount; ++s) {
    const TextureTransform& t = f.transforms[s];
    rows[kCrowdMaterialTransformRow + s] = glm::vec4(t.offset, t.scale);
  }
}

}  // namespace rig
