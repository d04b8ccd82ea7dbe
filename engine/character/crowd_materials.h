// The packed layout of one animated material's values in a crowd's material buffer
// (Crowd::material_rows): kCrowdMaterialRows vec4 rows per material, defined here once. The
// crowd programs read the same rows (shaders/material_values.glsl, crowd_material_values): the
// renderer turns kCrowdMaterialRowDefines into #defines, so the GLSL names rows, never numbers.
//
//   row  x                    y                   z                     w
//   0    base colour r        g                   b                     a
//   1    emissive r           g                   b                     metallic
//   2    specular colour r    g                   b                     roughness
//   3    alpha cutoff         normal scale        occlusion strength    ior
//   4    specular             rotation of slot 0  rotation of slot 1    rotation of slot 2
//   5    rotation of slot 3   slot 4              slot 5                slot 6
//   6+s  slot s's offset x    offset y            scale x               scale y   (s < 7)
//
// The emissive row is the factor × KHR_materials_emissive_strength, what the shading reads
// (GpuMaterial::emissive); texture slots are in rig::TextureSlot order, each transform as its
// offset, rotation (radians) and scale, which the shader turns into T·R·S.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string_view>

#include "anim/material_pose.h"

namespace rig {

inline constexpr uint32_t kCrowdMaterialBaseColorRow = 0;
inline constexpr uint32_t kCrowdMaterialEmissiveMetallicRow = 1;
inline constexpr uint32_t kCrowdMaterialSpecularRoughnessRow = 2;
inline constexpr uint32_t kCrowdMaterialScalarsRow = 3;
inline constexpr uint32_t kCrowdMaterialRotationRow = 4;   // specular, then rotations 0..2
inline constexpr uint32_t kCrowdMaterialTransformRow = 6;  // first slot's offset and scale
inline constexpr uint32_t kCrowdMaterialRows =
    kCrowdMaterialTransformRow + uint32_t(kTextureSlotCount);

struct CrowdMaterialRowDefine {
  std::string_view name;
  uint32_t value;
};
// The layout as the GLSL sees it: "#define <name> <value>" each.
inline constexpr std::array<CrowdMaterialRowDefine, 7> kCrowdMaterialRowDefines = {{
    {"CROWD_MATERIAL_ROWS", kCrowdMaterialRows},
    {"CROWD_MATERIAL_BASE_COLOR", kCrowdMaterialBaseColorRow},
    {"CROWD_MATERIAL_EMISSIVE_METALLIC", kCrowdMaterialEmissiveMetallicRow},
    {"CROWD_MATERIAL_SPECULAR_ROUGHNESS", kCrowdMaterialSpecularRoughnessRow},
    {"CROWD_MATERIAL_SCALARS", kCrowdMaterialScalarsRow},
    {"CROWD_MATERIAL_ROTATIONS", kCrowdMaterialRotationRow},
    {"CROWD_MATERIAL_TRANSFORMS", kCrowdMaterialTransformRow},
}};

// Writes `f` into `rows` (kCrowdMaterialRows of them) as laid out above. No allocation.
void pack_crowd_material(const MaterialFactors& f, std::span<glm::vec4> rows);

}  // namespace rig
