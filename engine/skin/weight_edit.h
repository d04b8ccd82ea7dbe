// What every weight-editing operation shares (weight_ops.h, weight_refit.h, weight_smooth.h,
// weight_mirror.h): a vertex's influences as a short list, the one way an operation commits a
// vertex to the skin layer, what an operation reports, and the groups of prepared primitives
// that share a bind space (those drawn with the same skin).
//
// A vertex is read with its zero weights dropped and a joint listed twice merged into one
// (weights summed, at the first slot), so every operation sees each joint once. An operation
// commits a vertex only when it would read differently, through SkinLayer::set_influences, which
// logs the edit (the renderer uploads those ranges) and drops the primitive's stale centres of
// rotation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"

namespace rig {

// Up to kMaxInfluences (joint, weight) pairs, in slot order.
struct InfluenceList {
  std::array<uint16_t, kMaxInfluences> joints{};
  std::array<float, kMaxInfluences> weights{};
  uint32_t count = 0;

  float sum() const {
    float s = 0.0f;
    for (uint32_t i = 0; i < count; ++i) s += weights[i];
    return s;
  }
  // Appends a pair, or adds to the joint's weight when it is listed already. false when full.
  bool add(uint16_t joint, float weight);
};

// Vertex `v` of `mesh`: non-zero weights only, repeated joints merged.
InfluenceList read_influences(const SkinMesh& mesh, uint32_t v);

// Weights scaled to sum 1 (a list whose weights sum to 0, or to within 1e-6 of 1, is left as
// it is).
void normalize(InfluenceList& list);

// Commits `list` as vertex `v` of prepared primitive `primitive` unless the vertex reads as
// `list` already (read_influences). Returns whether it changed the vertex.
bool commit_influences(SkinLayer& layer, uint32_t primitive, uint32_t v, const InfluenceList& list);

// A vertex of a prepared primitive (SkinMeshes::primitives index).
struct VertexRef {
  uint32_t primitive = 0;
  uint32_t vertex = 0;
  bool operator==(const VertexRef&) const = default;
};

// What one operation did.
struct WeightEditResult {
  size_t vertices_changed = 0;
  std::vector<VertexRef> unmatched;  // mirror: the vertices that found no mirror (unchanged)
  // The operation's progress callback asked it to stop: the layer holds the vertices committed
  // until then (run a long operation on a copy, and drop the copy when this is set).
  bool cancelled = false;
};

// A long operation's progress, `fraction` in [0, 1], from the thread running it; return false to
// stop it (WeightEditResult::cancelled). Called at most a few hundred times per operation.
using EditProgress = bool (*)(void* user, float fraction);

// The prepared primitives drawn with skin `skin` (the first skin a draw item gives their mesh):
// they share one bind space, so positions and joint indices of all of them can be compared.
struct SkinGroup {
  int skin = -1;
  std::vector<uint32_t> primitives;  // prepared primitive indices, ascending
};
// One group per skin that draws a skinned primitive, in skin order. Primitives of meshes no
// skinned draw item uses are in none.
std::vector<SkinGroup> skin_groups(const Model& model, const SkinMeshes& meshes);
// Every skin that draws mesh `mesh` (ascending, no repeats).
std::vector<int> skins_drawing_mesh(const Model& model, int mesh);

// The model primitive behind prepared primitive `primitive`.
const Primitive& model_primitive(const Model& model, const SkinMeshes& meshes, uint32_t primitive);
// The mesh index of prepared primitive `primitive`.
int mesh_of_primitive(const SkinMeshes& meshes, uint32_t primitive);

}  // namespace rig
