// Shared helpers for the bundled-asset tests: load the committed .glb once, find nodes and
// clips by name, skin the single draw item with the engine's CPU skinning.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <glm/glm.hpp>
#include <map>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "model/model.h"
#include "character/character.h"

namespace rig::test {

// The committed asset (assets/<file>), imported once per test binary.
inline const Model& bundled_asset(const std::string& file) {
  static std::map<std::string, Model> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    Model model;
    std::string error;
    const std::string path = std::string(RIGVIEW_SOURCE_DIR) + "/assets/" + file;
    const bool ok = import_gltf(path, model, error);
    EXPECT_TRUE(ok) << path << ": " << error;
    it = cache.emplace(file, std::move(model)).first;
  }
  return it->second;
}

inline int node_named(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.nodes.size(); ++i)
    if (model.nodes[i].name == name) return static_cast<int>(i);
  return -1;
}

inline int clip_named(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.clips.size(); ++i)
    if (model.clips[i].name == name) return static_cast<int>(i);
  return -1;
}

inline glm::vec3 origin_of(const glm::mat4& m) { return glm::vec3(m[3]); }

// The one skinned primitive both assets consist of.
inline const Primitive& only_primitive(const Model& model) {
  const DrawItem& item = model.draws.at(0);
  return model.meshes.at(item.mesh).primitives.at(item.primitive);
}

// World-space positions of the single draw item under `selection`, skinned on the CPU.
inline std::vector<glm::vec3> skinned_positions(Character& character, const PoseSelection& selection,
                                                SkinningMethod method) {
  const Model& model = character.model();
  character.evaluate(selection);
  const DrawItem& item = model.draws.at(0);
  const uint32_t n = only_primitive(model).vertex_count();
  std::vector<glm::vec3> positions(n), normals(n);
  character.skin_draw_item(item, method, positions, normals);
  return positions;
}

// Distance from p to the line through `point` along `direction` (any length).
inline float distance_to_line(glm::vec3 p, glm::vec3 point, glm::vec3 direction) {
  const glm::vec3 d = glm::normalize(direction);
  const glm::vec3 v = p - point;
  return glm::length(v - glm::dot(v, d) * d);
}

}  // namespace rig::test
