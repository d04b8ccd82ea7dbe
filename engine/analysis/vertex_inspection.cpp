#include "analysis/vertex_inspection.h"

#include <algorithm>

namespace rig {

std::vector<SkinnedPrimitiveRef> skinned_primitives(const Model& model) {
  std::vector<SkinnedPrimitiveRef> out;
  for (size_t m = 0; m < model.meshes.size(); ++m)
    for (size_t p = 0; p < model.meshes[m].primitives.size(); ++p)
      if (model.meshes[m].primitives[p].skinned()) out.push_back({int(m), int(p)});
  return out;
}

int skinned_primitive_index(const Model& model, int mesh, int primitive) {
  int index = 0;
  for (size_t m = 0; m < model.meshes.size(); ++m)
    for (size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      if (!model.meshes[m].primitives[p].skinned()) continue;
      if (int(m) == mesh && int(p) == primitive) return index;
      ++index;
    }
  return -1;
}

int inspected_draw(const Model& model, int primitive, int vertex, std::string& error) {
  const std::vector<SkinnedPrimitiveRef> skinned = skinned_primitives(model);
  if (skinned.empty()) return error = "the model has no skinned primitive", -1;
  if (primitive < 0 || size_t(primitive) >= skinned.size())
    return error = "primitive " + std::to_string(primitive) + " is out of range (skinned " +
                   "primitives 0.." + std::to_string(skinned.size() - 1) + ")",
           -1;
  const SkinnedPrimitiveRef ref = skinned[size_t(primitive)];
  const Primitive& prim = model.meshes[size_t(ref.mesh)].primitives[size_t(ref.primitive)];
  if (vertex < 0 || uint32_t(vertex) >= prim.vertex_count())
    return error = "index " + std::to_string(vertex) + " is out of range (primitive " +
                   std::to_string(primitive) + " has vertices 0.." +
                   std::to_string(prim.vertex_count() - 1) + ")",
           -1;
  const auto drawn = std::find_if(model.draws.begin(), model.draws.end(), [&](const DrawItem& d) {
    return d.mesh == ref.mesh && d.primitive == ref.primitive && d.skin >= 0 &&
           size_t(d.skin) < model.skins.size();
  });
  if (drawn == model.draws.end())
    return error = "primitive " + std::to_string(primitive) + " (mesh " + std::to_string(ref.mesh) +
                   ", primitive " + std::to_string(ref.primitive) + ") is drawn by no skinned node",
           -1;
  return int(drawn - model.draws.begin());
}

bool inspect_vertex(const ArtefactSetup& setup, const Character& character, int primitive,
                    int vertex, VertexInspection& out, std::string& error) {
  const Model& model = character.model();
  out = VertexInspection{};
  const int draw = inspected_draw(model, primitive, vertex, error);
  if (draw < 0) return false;
  const DrawItem* drawn = &model.draws[size_t(draw)];
  const SkinnedPrimitiveRef ref{drawn->mesh, drawn->primitive};
  const Primitive& prim = model.meshes[size_t(ref.mesh)].primitives[size_t(ref.primitive)];
  if (setup.draws.size() != model.draws.size())
    return error = "the artefact setup was built for another model", false;
  out.primitive = primitive;
  out.vertex = vertex;
  out.source = ref;
  out.draw = draw;
  out.skin = drawn->skin;
  const size_t v = size_t(vertex);

  // The vertex as skinned: its morph targets at the pose's weights, as analyze_frame adds them.
  const std::span<const float> morph = character.morph_weights(drawn->node);
  out.bind_position = prim.positions[v];
  for (size_t t = 0; t < std::min(morph.size(), prim.targets.size()); ++t)
    if (morph[t] != 0.0f && prim.targets[t].positions.size() == prim.vertex_count())
      out.bind_position += morph[t] * prim.targets[t].positions[v];

  const std::span<const glm::mat4> skinning = character.skinning_matrices(out.skin);
  const Skin& skin = model.skins[size_t(out.skin)];
  const SkinMesh& mesh = character.skin_layer().get(ref.mesh, ref.primitive);
  const std::span<const uint16_t> joints = mesh.vertex_joints(uint32_t(v));
  const std::span<const float> weights = mesh.vertex_weights(uint32_t(v));
  glm::mat4 lbs(0.0f);
  float weight_sum = 0.0f;
  for (size_t i = 0; i < joints.size(); ++i) {
    if (!(weights[i] > 0.0f) || joints[i] >= skinning.size()) continue;
    const glm::mat4& m = skinning[joints[i]];
    out.influences.push_back({int(joints[i]), skin.joints[joints[i]], weights[i],
                              glm::vec3(m * glm::vec4(out.bind_position, 1.0f))});
    lbs += weights[i] * m;
    weight_sum += weights[i];
  }
  const glm::vec3 center =
      v < mesh.rotation_centers.size() ? mesh.rotation_centers[v] : out.bind_position;
  out.cor_center =
      weight_sum > 0.0f ? glm::vec3(lbs * glm::vec4(center, 1.0f)) / weight_sum : center;

  ArtefactFrame frame = ArtefactFrame::make(model);
  for (SkinningMethod method : all_skinning_methods()) {
    analyze_frame(setup, character, method, frame);
    out.positions[size_t(method)] = frame.positions[size_t(out.draw)][v];
    out.deflation[size_t(method)] = frame.deflation[size_t(out.draw)][v];
  }
  return true;
}

}  // namespace rig
