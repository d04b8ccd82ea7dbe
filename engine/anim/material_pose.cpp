#include "anim/material_pose.h"

#include "anim/sampling.h"

namespace rig {

MaterialFactors material_factors(const Material& m) {
  MaterialFactors f;
  f.base_color = m.base_color_factor;
  f.metallic = m.metallic_factor;
  f.roughness = m.roughness_factor;
  f.emissive = m.emissive_factor;
  f.emissive_strength = m.emissive_strength;
  f.alpha_cutoff = m.alpha_cutoff;
  f.normal_scale = m.normal_scale;
  f.occlusion_strength = m.occlusion_strength;
  f.ior = m.ior;
  f.specular = m.specular_factor;
  f.specular_color = m.specular_color_factor;
  const auto slots = texture_slots(m);
  for (size_t s = 0; s < kTextureSlotCount; ++s) {
    if (slots[s]->has_transform) f.transforms[s] = slots[s]->transform;
  }
  return f;
}

void init_material_pose(const Model& model, std::span<const Clip* const> clips,
                        MaterialPose& pose) {
  pose.values.resize(model.materials.size());
  pose.animated.assign(model.materials.size(), 0);
  pose.any_animated = false;
  for (size_t m = 0; m < model.materials.size(); ++m)
    pose.values[m] = material_factors(model.materials[m]);
  for (const Clip* clip : clips) {
    if (!clip) continue;
    for (const MaterialChannel& channel : clip->material_channels) {
      if (channel.material < 0 || size_t(channel.material) >= pose.animated.size()) continue;
      pose.animated[size_t(channel.material)] = 1;
      pose.any_animated = true;
    }
  }
}

void reset_material_pose(const Model& model, MaterialPose& pose) {
  if (!pose.any_animated || pose.values.size() != model.materials.size()) return;
  for (size_t m = 0; m < pose.values.size(); ++m)
    if (pose.animated[m]) pose.values[m] = material_factors(model.materials[m]);
}

void sample_material_channels(const Clip& clip, float time, MaterialPose& pose) {
  for (const MaterialChannel& channel : clip.material_channels) {
    if (channel.material < 0 || size_t(channel.material) >= pose.values.size()) continue;
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (channel.keys.components > 4) continue;
    sample_channel(channel.keys, time, std::span<float>(v, 4));
    MaterialFactors& f = pose.values[size_t(channel.material)];
    TextureTransform& t = f.transforms[size_t(channel.slot)];
    switch (channel.property) {
      case MaterialProperty::BaseColorFactor:
        f.base_color = glm::vec4(v[0], v[1], v[2], v[3]);
        break;
      case MaterialProperty::MetallicFactor:
        f.metallic = v[0];
        break;
      case MaterialProperty::RoughnessFactor:
        f.roughness = v[0];
        break;
      case MaterialProperty::EmissiveFactor:
        f.emissive = glm::vec3(v[0], v[1], v[2]);
        break;
      case MaterialProperty::EmissiveStrength:
        f.emissive_strength = v[0];
        break;
      case MaterialProperty::AlphaCutoff:
        f.alpha_cutoff = v[0];
        break;
      case MaterialProperty::NormalScale:
        f.normal_scale = v[0];
        break;
      case MaterialProperty::OcclusionStrength:
        f.occlusion_strength = v[0];
        break;
      case MaterialProperty::Ior:
        // The file's 0 means infinitely reflective, stored as 1000 (model.h Material::ior).
        f.ior = v[0] == 0.0f ? 1000.0f : v[0];
        break;
      case MaterialProperty::SpecularFactor:
        f.specular = v[0];
        break;
      case MaterialProperty::SpecularColorFactor:
        f.specular_color = glm::vec3(v[0], v[1], v[2]);
        break;
      case MaterialProperty::TextureOffset:
        t.offset = glm::vec2(v[0], v[1]);
        break;
      case MaterialProperty::TextureRotation:
        t.rotation = v[0];
        break;
      case MaterialProperty::TextureScale:
        t.scale = glm::vec2(v[0], v[1]);
        break;
    }
  }
}

}  // namespace rig
