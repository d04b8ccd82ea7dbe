#include "skin/weight_edit.h"

#include <algorithm>
#include <cmath>

namespace rig {

bool InfluenceList::add(uint16_t joint, float weight) {
  for (uint32_t i = 0; i < count; ++i)
    if (joints[i] == joint) {
      weights[i] += weight;
      return true;
    }
  if (count == kMaxInfluences) return false;
  joints[count] = joint;
  weights[count] = weight;
  ++count;
  return true;
}

InfluenceList read_influences(const SkinMesh& mesh, uint32_t v) {
  InfluenceList list;
  const std::span<const uint16_t> joints = mesh.vertex_joints(v);
  const std::span<const float> weights = mesh.vertex_weights(v);
  for (size_t s = 0; s < joints.size(); ++s)
    if (weights[s] != 0.0f) list.add(joints[s], weights[s]);
  return list;
}

void normalize(InfluenceList& list) {
  const float sum = list.sum();
  // Within float rounding of 1 already: dividing again would only move the last bits.
  if (!(sum > 0.0f) || std::abs(sum - 1.0f) <= 1e-6f) return;
  for (uint32_t i = 0; i < list.count; ++i) list.weights[i] /= sum;
}

bool commit_influences(SkinLayer& layer, uint32_t primitive, uint32_t v,
                       const InfluenceList& list) {
  // The same pairs in the same order skin the same: slots compacted or merged differently are
  // not worth an edit.
  const InfluenceList now = read_influences(layer.meshes().primitives[primitive], v);
  bool same = now.count == list.count;
  for (uint32_t i = 0; same && i < list.count; ++i)
    same = now.joints[i] == list.joints[i] && now.weights[i] == list.weights[i];
  if (same) return false;
  std::string error;
  // The lists come from the layer's own vertices: the primitive, vertex and pairs are valid.
  return layer.set_influences(primitive, v, std::span(list.joints.data(), list.count),
                              std::span(list.weights.data(), list.count), error);
}

std::vector<int> skins_drawing_mesh(const Model& model, int mesh) {
  std::vector<int> skins;
  for (const DrawItem& d : model.draws)
    if (d.mesh == mesh && d.skin >= 0) skins.push_back(d.skin);
  std::sort(skins.begin(), skins.end());
  skins.erase(std::unique(skins.begin(), skins.end()), skins.end());
  return skins;
}

int mesh_of_primitive(const SkinMeshes& meshes, uint32_t primitive) {
  const auto it =
      std::upper_bound(meshes.first_of_mesh.begin(), meshes.first_of_mesh.end(), primitive);
  return int(it - meshes.first_of_mesh.begin()) - 1;
}

const Primitive& model_primitive(const Model& model, const SkinMeshes& meshes, uint32_t primitive) {
  const int mesh = mesh_of_primitive(meshes, primitive);
  return model.meshes[size_t(mesh)].primitives[primitive - meshes.first_of_mesh[size_t(mesh)]];
}

std::vector<SkinGroup> skin_groups(const Model& model, const SkinMeshes& meshes) {
  std::vector<SkinGroup> groups(model.skins.size());
  for (size_t s = 0; s < groups.size(); ++s) groups[s].skin = int(s);
  for (size_t m = 0; m < model.meshes.size() && m < meshes.first_of_mesh.size(); ++m) {
    int skin = -1;
    for (const DrawItem& d : model.draws)
      if (d.mesh == int(m) && d.skin >= 0 && size_t(d.skin) < groups.size()) {
        skin = d.skin;
        break;
      }
    if (skin < 0) continue;
    for (size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      const uint32_t prepared = meshes.first_of_mesh[m] + uint32_t(p);
      if (prepared < meshes.primitives.size() && meshes.primitives[prepared].skinned())
        groups[size_t(skin)].primitives.push_back(prepared);
    }
  }
  std::vector<SkinGroup> used;
  for (SkinGroup& g : groups)
    if (!g.primitives.empty()) used.push_back(std::move(g));
  return used;
}

}  // namespace rig
