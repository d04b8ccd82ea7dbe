#include "analysis/skin_layer_edits.h"

#include <algorithm>
#include <cstring>

namespace rig {

namespace {

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_matrices(std::span<const glm::mat4> a, const std::vector<glm::mat4>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::mat4)) == 0);
}

// The layer's slots [4 set, 4 set + 4) of every vertex, zeros past its slot count. (Filled in
// place: GCC 12 warns of uninitialized members when such a struct is moved into the variant.)
void influence_set(const SkinMesh& mesh, int m, int p, int set, write::SetSkinWeights& edit) {
  edit.mesh = m;
  edit.primitive = p;
  edit.set = set;
  edit.encoding = write::WeightEncoding::Keep;
  edit.joints.assign(mesh.vertex_count, {0, 0, 0, 0});
  edit.weights.assign(mesh.vertex_count, {0.0f, 0.0f, 0.0f, 0.0f});
  const uint32_t first = uint32_t(set) * 4;
  if (first >= mesh.influences) return;
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const std::span<const uint16_t> joints = mesh.vertex_joints(v);
    const std::span<const float> weights = mesh.vertex_weights(v);
    for (uint32_t k = 0; k < 4; ++k) {
      edit.joints[v][k] = joints[first + k];
      edit.weights[v][k] = weights[first + k];
    }
  }
}

// Whether any vertex has a non-zero weight past its first 4 slots.
bool uses_second_set(const SkinMesh& mesh) {
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const std::span<const float> weights = mesh.vertex_weights(v);
    for (uint32_t k = 4; k < mesh.influences; ++k)
      if (weights[k] != 0.0f) return true;
  }
  return false;
}

}  // namespace

bool influences_as_in_file(const Model& model, const SkinLayer& layer, int mesh, int primitive) {
  const SkinMesh file = prepare_skin_mesh(model.meshes[size_t(mesh)].primitives[size_t(primitive)]);
  const SkinMesh& now = layer.get(mesh, primitive);
  return file.influences == now.influences && file.vertex_count == now.vertex_count &&
         same_bits(file.joints, now.joints) && same_bits(file.weights, now.weights);
}

bool skin_layer_edits(const Model& model, const SkinLayer& layer,
                      const SkinLayerEditOptions& options, SkinLayerEdits& out,
                      std::string& error) {
  out = {};
  const SkinMeshes& meshes = layer.meshes();
  if (meshes.first_of_mesh.size() != model.meshes.size() ||
      layer.skin_count() != model.skins.size()) {
    error = "the skin layer does not belong to this model";
    return false;
  }
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const std::vector<Primitive>& primitives = model.meshes[m].primitives;
    for (size_t p = 0; p < primitives.size(); ++p) {
      const size_t index = meshes.first_of_mesh[m] + p;
      if (index >= meshes.primitives.size() ||
          meshes.primitives[index].vertex_count != primitives[p].vertex_count()) {
        error = "the skin layer does not belong to this model (mesh " + std::to_string(m) +
                " primitive " + std::to_string(p) + ")";
        return false;
      }
      const SkinMesh& mesh = meshes.primitives[index];
      if (!mesh.skinned() || !primitives[p].skinned()) continue;
      if (!options.every_skinned_primitive && influences_as_in_file(model, layer, int(m), int(p)))
        continue;
      const int file_sets = int(primitives[p].influences / 4);
      const int sets = std::max(file_sets, uses_second_set(mesh) ? 2 : 1);
      for (int s = 0; s < sets; ++s)
        influence_set(mesh, int(m), int(p), s,
                      std::get<write::SetSkinWeights>(
                          out.edits.emplace_back(std::in_place_type<write::SetSkinWeights>)));
      ++out.primitives;
    }
  }
  for (size_t s = 0; s < model.skins.size(); ++s) {
    if (!options.every_skin && same_matrices(layer.inverse_bind(s), model.skins[s].inverse_bind))
      continue;
    const std::span<const glm::mat4> matrices = layer.inverse_bind(s);
    auto& edit = std::get<write::SetInverseBindMatrices>(
        out.edits.emplace_back(std::in_place_type<write::SetInverseBindMatrices>));
    edit.skin = int(s);
    edit.matrices.assign(matrices.begin(), matrices.end());
    ++out.skins;
  }
  return true;
}

}  // namespace rig
