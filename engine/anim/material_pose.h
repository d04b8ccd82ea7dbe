// The animated state of a model's materials: what KHR_animation_pointer channels change
// (factors, cutoff, texture transforms), per material, sampled per frame like the node pose. The
// model's materials stay as the file gave them; the renderer reads this state in their place
// for the materials a clip animates.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

// The animatable values of one material.
struct MaterialFactors {
  glm::vec4 base_color{1.0f};
  float metallic = 1.0f;
  float roughness = 1.0f;
  glm::vec3 emissive{0.0f};
  float emissive_strength = 1.0f;
  float alpha_cutoff = 0.5f;
  float normal_scale = 1.0f;
  float occlusion_strength = 1.0f;
  float ior = 1.5f;
  float specular = 1.0f;
  glm::vec3 specular_color{1.0f};
  // Per TextureSlot. A slot without KHR_texture_transform in the file starts at the identity
  // (offset 0, rotation 0, scale 1), the extension's defaults.
  std::array<TextureTransform, kTextureSlotCount> transforms{};
};

// The file's values of `material`.
MaterialFactors material_factors(const Material& material);

struct MaterialPose {
  std::vector<MaterialFactors> values;  // one per Model::materials
  // Per material: 1 when some clip of the set it was made for animates it (only those need
  // sampling, resetting and uploading).
  std::vector<uint8_t> animated;
  bool any_animated = false;
};

// Sizes `pose` for `model`, every material at its file values, `animated` from the material
// channels of `clips`. Allocates: once per model (and when the clips change).
void init_material_pose(const Model& model, std::span<const Clip* const> clips, MaterialPose& pose);

// Puts every animated material back to its file values. No allocation.
void reset_material_pose(const Model& model, MaterialPose& pose);

// Samples the material channels of `clip` at `time` (seconds on the file's timeline) into
// `pose`, as the core channels are sampled (LINEAR, STEP, CUBICSPLINE; times outside a channel's
// keys hold its end value). Channels on materials out of range are ignored. No allocation.
void sample_material_channels(const Clip& clip, float time, MaterialPose& pose);

}  // namespace rig
