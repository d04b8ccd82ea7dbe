#include "viewer/vertex_picking.h"

#include <algorithm>
#include <limits>

#include "analysis/vertex_inspection.h"

namespace rigview {

PickedVertex pick_vertex(const rig::Character& character, rig::SkinningMethod method,
                         const rig::render::Camera& camera, const rig::render::ScreenRect& rect,
                         glm::vec2 pointer, float radius, VertexPickScratch& scratch) {
  const rig::Model& model = character.model();
  PickedVertex best;
  float best_depth = std::numeric_limits<float>::infinity();
  const glm::vec3 eye = glm::vec3(glm::inverse(camera.view)[3]);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    if (item.skin < 0) continue;
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    const size_t n = prim.positions.size();
    if (scratch.positions.size() < n) scratch.positions.resize(n), scratch.normals.resize(n);
    character.skin_draw_item(item, method, {scratch.positions.data(), n},
                             {scratch.normals.data(), n});
    for (size_t v = 0; v < n; ++v) {
      glm::vec2 pixel;
      if (!rig::render::world_to_screen(camera, rect, scratch.positions[v], pixel)) continue;
      if (glm::length(pixel - pointer) > radius) continue;
      const float depth = glm::length(scratch.positions[v] - eye);
      if (depth >= best_depth) continue;
      best_depth = depth;
      best.draw = int(d);
      best.vertex = int(v);
    }
  }
  if (best.draw < 0) return {};
  // The skinned primitive's number, as --inspect-vertex counts them.
  const rig::DrawItem& item = model.draws[size_t(best.draw)];
  best.primitive = rig::skinned_primitive_index(model, item.mesh, item.primitive);
  return best.primitive >= 0 ? best : PickedVertex{};
}

bool live_opinions(const rig::Character& character, int skin, const int* joints,
                   const float* weights, int count, glm::vec3 bind_position, LiveOpinions& out) {
  out = LiveOpinions{};
  if (skin < 0 || size_t(skin) >= character.model().skins.size()) return false;
  const std::span<const glm::mat4> m = character.skinning_matrices(skin);
  float total = 0.0f;
  for (int i = 0; i < count && i < int(out.opinion.size()); ++i) {
    if (joints[i] < 0 || size_t(joints[i]) >= m.size()) return false;
    out.opinion[size_t(i)] = glm::vec3(m[size_t(joints[i])] * glm::vec4(bind_position, 1.0f));
    out.weight[size_t(i)] = weights[i];
    out.lbs += weights[i] * out.opinion[size_t(i)];
    total += weights[i];
    out.count = i + 1;
  }
  if (total > 0.0f) out.lbs /= total;
  return true;
}

}  // namespace rigview
