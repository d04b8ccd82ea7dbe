#include "analysis/scalar_field.h"

#include <cmath>
#include <limits>

namespace rig::analysis {

namespace {

// What the weight views show for one vertex: (weight of `joint`, usable influence count), with
// the same operations, in the same order, as the skinning shaders' renormalization.
void weight_info(const SkinMesh& mesh, uint32_t v, uint32_t joint_count, int joint, float& weight,
                 int& used) {
  weight = 0.0f;
  used = 0;
  std::span<const float> w = mesh.vertex_weights(v);
  std::span<const uint16_t> j = mesh.vertex_joints(v);
  float sum = 0.0f;
  for (float x : w) sum += x;
  if (!(sum > 0.0f)) return;
  const float inv = 1.0f / sum;
  for (size_t i = 0; i < w.size(); ++i) {
    const float x = w[i] * inv;
    if (x == 0.0f || j[i] >= joint_count) continue;
    ++used;
    if (int(j[i]) == joint) weight += x;
  }
}

bool skinned_item(const Model& model, const SkinMeshes& meshes, const DrawItem& item) {
  return item.skin >= 0 && item.skin < int(model.skins.size()) &&
         meshes.get(item.mesh, item.primitive).skinned();
}

// Sizes `values` like the model's draw items: empty for rigid ones.
void shape(const Model& model, const SkinMeshes& meshes, std::vector<std::vector<float>>& values) {
  values.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const DrawItem& item = model.draws[d];
    if (skinned_item(model, meshes, item))
      values[d].resize(meshes.get(item.mesh, item.primitive).vertex_count);
    else
      values[d].clear();
  }
}

}  // namespace

void fill_joint_weights(const Model& model, const SkinMeshes& meshes, int joint_node,
                        std::vector<std::vector<float>>& values) {
  shape(model, meshes, values);
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  for (size_t d = 0; d < model.draws.size(); ++d) {
    if (values[d].empty()) continue;
    const DrawItem& item = model.draws[d];
    const Skin& skin = model.skins[size_t(item.skin)];
    int joint = -1;
    for (size_t j = 0; joint_node >= 0 && j < skin.joints.size(); ++j)
      if (skin.joints[j] == joint_node) {
        joint = static_cast<int>(j);
        break;
      }
    const SkinMesh& mesh = meshes.get(item.mesh, item.primitive);
    const uint32_t joint_count = static_cast<uint32_t>(skin.joints.size());
    for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
      float weight = 0.0f;
      int used = 0;
      weight_info(mesh, v, joint_count, joint, weight, used);
      values[d][v] = used > 0 ? weight : kNaN;
    }
  }
}

void joint_weight_field(const Model& model, const SkinMeshes& meshes, int joint_node,
                        ScalarField& out) {
  fill_joint_weights(model, meshes, joint_node, out.values);
  out.min = 0.0f;
  out.max = 1.0f;
  out.map = ColorMap::Heat;
  out.title = "weight";
  if (joint_node >= 0 && joint_node < int(model.nodes.size()))
    out.title += " of '" + model.nodes[size_t(joint_node)].name + "'";
  out.ticks = {{0.0f, "0"}, {0.25f, "0.25"}, {0.5f, "0.5"}, {0.75f, "0.75"}, {1.0f, "1"}};
  ++out.revision;
}

void fill_influence_counts(const Model& model, const SkinMeshes& meshes,
                           std::vector<std::vector<float>>& values) {
  shape(model, meshes, values);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    if (values[d].empty()) continue;
    const DrawItem& item = model.draws[d];
    const SkinMesh& mesh = meshes.get(item.mesh, item.primitive);
    const uint32_t joint_count =
        static_cast<uint32_t>(model.skins[size_t(item.skin)].joints.size());
    for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
      float weight = 0.0f;
      int used = 0;
      weight_info(mesh, v, joint_count, -1, weight, used);
      values[d][v] = float(used);
    }
  }
}

void influence_count_field(const Model& model, const SkinMeshes& meshes, ScalarField& out) {
  fill_influence_counts(model, meshes, out.values);
  out.min = 0.0f;
  out.max = float(kMaxInfluences);
  out.map = ColorMap::Categorical;
  out.title = "influences";
  out.ticks.clear();
  for (uint32_t n = 1; n <= kMaxInfluences; ++n) out.ticks.push_back({float(n), std::to_string(n)});
  out.ticks.push_back({0.0f, "none usable (broken)"});
  ++out.revision;
}

}  // namespace rig::analysis
