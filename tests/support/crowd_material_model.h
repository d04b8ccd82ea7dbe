// A rigid model whose clips animate a material (KHR_animation_pointer), for the crowd's
// material tests (engine, render, per frame). Node 0 holds two quads in the y = 0 plane facing
// up: quad 0 (x, z in [-0.4, 0.4] × [-0.4, 0.1]) with material 0, animated; quad 1
// (x, z in [-0.4, 0.4] × [0.2, 0.4]) with material 1, which no clip animates.
//
// Material 0 in the file: base colour (0.2, 0.2, 0.2, 1), metallic 0.5, roughness 0.9, black
// emissive, strength 1, no texture transform. LINEAR keys:
//   clip 0 "A", t in [0, 1]: base colour (1, 0, 0, 1) → (0, 0, 1, 1); roughness 0.2 → 0.6;
//       emissive (0, 0, 0) → (1, 1, 0); emissive strength 2 (constant); the emissive slot's
//       texture rotation 0 → 1; the normal slot's texture offset (0, 0) → (1, 2)
//   clip 1 "B", t in [0, 2]: base colour (0, 1, 0, 1) → (1, 1, 1, 1); metallic 1 → 0
// So A at t: base (1 − t, 0, t, 1), roughness 0.2 + 0.4 t, emissive (t, t, 0), strength 2,
// rotation t, offset (t, 2 t); B at t: base (t/2, 1, t/2, 1), metallic 1 − t/2; each holds the
// file's values for what it does not animate.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "model/model.h"

namespace rig::test {

inline MaterialChannel linear_material_channel(int material, MaterialProperty property,
                                               TextureSlot slot, float end, std::vector<float> from,
                                               std::vector<float> to) {
  MaterialChannel c;
  c.material = material;
  c.property = property;
  c.slot = slot;
  c.keys.components = uint32_t(from.size());
  c.keys.times = {0.0f, end};
  c.keys.values = from;
  c.keys.values.insert(c.keys.values.end(), to.begin(), to.end());
  return c;
}

inline Model crowd_material_model(bool animated = true) {
  Model m;
  m.file = "crowd_material.gltf";
  Node node;
  node.name = "quads";
  node.mesh = 0;
  m.nodes.push_back(node);
  m.scene_roots = {0};
  m.node_order = {0};
  Mesh mesh;
  auto quad = [&](float x0, float x1, float z0, float z1, int material) {
    Primitive p;
    p.positions = {{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}};
    p.normals.assign(4, glm::vec3(0, 1, 0));
    p.indices = {0, 2, 1, 0, 3, 2};
    p.material = material;
    mesh.primitives.push_back(p);
  };
  quad(-0.4f, 0.4f, -0.4f, 0.1f, 0);
  quad(-0.4f, 0.4f, 0.2f, 0.4f, 1);
  m.meshes.push_back(mesh);
  m.draws = {DrawItem{0, 0, 0, -1}, DrawItem{0, 0, 1, -1}};
  Material animated_material;
  animated_material.base_color_factor = {0.2f, 0.2f, 0.2f, 1.0f};
  animated_material.metallic_factor = 0.5f;
  animated_material.roughness_factor = 0.9f;
  Material still;
  still.base_color_factor = {0.3f, 0.6f, 0.3f, 1.0f};
  m.materials = {animated_material, still};
  using P = MaterialProperty;
  using S = TextureSlot;
  Clip a;
  a.name = "A";
  a.end = 1.0f;
  Clip b;
  b.name = "B";
  b.end = 2.0f;
  if (animated) {
    a.material_channels = {
        linear_material_channel(0, P::BaseColorFactor, S::BaseColor, 1, {1, 0, 0, 1}, {0, 0, 1, 1}),
        linear_material_channel(0, P::RoughnessFactor, S::BaseColor, 1, {0.2f}, {0.6f}),
        linear_material_channel(0, P::EmissiveFactor, S::BaseColor, 1, {0, 0, 0}, {1, 1, 0}),
        linear_material_channel(0, P::EmissiveStrength, S::BaseColor, 1, {2}, {2}),
        linear_material_channel(0, P::TextureRotation, S::Emissive, 1, {0}, {1}),
        linear_material_channel(0, P::TextureOffset, S::Normal, 1, {0, 0}, {1, 2})};
    b.material_channels = {
        linear_material_channel(0, P::BaseColorFactor, S::BaseColor, 2, {0, 1, 0, 1}, {1, 1, 1, 1}),
        linear_material_channel(0, P::MetallicFactor, S::BaseColor, 2, {1}, {0})};
  }
  m.clips = {a, b};
  return m;
}

}  // namespace rig::test
