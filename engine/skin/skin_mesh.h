// The prepared skin mesh: per primitive, the influences that both the CPU kernels and the GPU
// shaders skin with, built once per model. Keeping one copy means the CPU reference and the
// shaders can never disagree about which influences a vertex has.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

struct SkinMesh {
  // Influence slots per vertex: 0 (not skinned), 4 or 8. Vertex v owns
  // [v * influences, (v + 1) * influences) of `joints` and `weights`.
  uint32_t influences = 0;
  uint32_t vertex_count = 0;
  std::vector<uint16_t> joints;
  std::vector<float> weights;
  // Per-method per-vertex data, filled by the methods that need it (empty otherwise): e.g. the
  // precomputed centres of rotation of centre-of-rotation skinning, one per vertex.
  std::vector<glm::vec3> rotation_centers;
  // The raw-weights pitfall (skin/pitfalls.h): the file's weight sum per vertex, empty when off.
  // LBS without renormalization is Σ w_i M_i p = s · (the renormalized blend): the CPU's linear
  // blend scales its result by s about the world origin (Character::skin_draw_item).
  std::vector<float> raw_weight_sums;

  bool skinned() const { return influences > 0; }
  std::span<const uint16_t> vertex_joints(uint32_t v) const {
    return {joints.data() + size_t(v) * influences, influences};
  }
  std::span<const float> vertex_weights(uint32_t v) const {
    return {weights.data() + size_t(v) * influences, influences};
  }
};

// The prepared meshes of a whole model: one SkinMesh per (mesh, primitive).
struct SkinMeshes {
  std::vector<uint32_t> first_of_mesh;  // index in `primitives` of mesh m's primitive 0
  std::vector<SkinMesh> primitives;

  const SkinMesh& get(int mesh, int primitive) const {
    return primitives[first_of_mesh[size_t(mesh)] + size_t(primitive)];
  }
};

// A primitive's influences as skinned: the file's influences when it has at most
// kMaxInfluences; otherwise the kMaxInfluences largest (the earlier one wins a tie; kept
// influences stay in file order, so the DQS pivot, the first largest, is unchanged),
// renormalized when a non-zero weight was dropped. A primitive without JOINTS gets none.
SkinMesh prepare_skin_mesh(const Primitive& primitive);

// Every primitive of every mesh. Allocates: once per model.
SkinMeshes prepare_skin_meshes(const Model& model);

}  // namespace rig
