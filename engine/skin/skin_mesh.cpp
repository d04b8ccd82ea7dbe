#include "skin/skin_mesh.h"

#include <algorithm>
#include <array>

namespace rig {

namespace {

// Vertex v of a primitive with more than kMaxInfluences influences: keep the largest.
void keep_largest(const uint16_t* joints, const float* weights, uint32_t count, uint16_t* out_joints,
                  float* out_weights) {
  // The importer caps influences per vertex far below this (INFLUENCES_OVER_8 keeps 8 sets).
  constexpr uint32_t kScanLimit = 64;
  const uint32_t n = std::min(count, kScanLimit);
  std::array<bool, kScanLimit> keep{};
  for (uint32_t slot = 0; slot < kMaxInfluences; ++slot) {
    int best = -1;
    for (uint32_t i = 0; i < n; ++i)
      if (!keep[i] && (best < 0 || weights[i] > weights[best])) best = static_cast<int>(i);
    keep[size_t(best)] = true;
  }
  float kept_sum = 0.0f;
  bool dropped_weight = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (keep[i])
      kept_sum += weights[i];
    else if (weights[i] != 0.0f)
      dropped_weight = true;
  }
  const float scale = dropped_weight && kept_sum > 0.0f ? 1.0f / kept_sum : 1.0f;
  uint32_t slot = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    out_joints[slot] = joints[i];
    out_weights[slot] = dropped_weight ? weights[i] * scale : weights[i];
    ++slot;
  }
}

}  // namespace

SkinMesh prepare_skin_mesh(const Primitive& prim) {
  SkinMesh mesh;
  mesh.vertex_count = prim.vertex_count();
  if (!prim.skinned()) return mesh;
  const uint32_t k = prim.influences;
  mesh.influences = std::min(k, kMaxInfluences);
  const size_t n = mesh.vertex_count;
  if (k <= kMaxInfluences) {
    mesh.joints = prim.joints;
    mesh.weights = prim.weights;
    return mesh;
  }
  mesh.joints.assign(n * kMaxInfluences, 0);
  mesh.weights.assign(n * kMaxInfluences, 0.0f);
  for (size_t v = 0; v < n; ++v)
    keep_largest(&prim.joints[v * k], &prim.weights[v * k], k, &mesh.joints[v * kMaxInfluences],
                 &mesh.weights[v * kMaxInfluences]);
  return mesh;
}

SkinMeshes prepare_skin_meshes(const Model& model) {
  SkinMeshes out;
  out.first_of_mesh.reserve(model.meshes.size());
  for (const Mesh& mesh : model.meshes) {
    out.first_of_mesh.push_back(static_cast<uint32_t>(out.primitives.size()));
    for (const Primitive& prim : mesh.primitives) out.primitives.push_back(prepare_skin_mesh(prim));
  }
  return out;
}

}  // namespace rig
