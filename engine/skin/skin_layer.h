// The editable skin data over the immutable model: per primitive, per vertex, up to
// kMaxInfluences (joint, weight) pairs as skinned (the prepared SkinMeshes), and per skin its
// inverse bind matrices. Everything that skins or measures skinning reads it: the CPU kernels
// and the palettes (Character), the GPU buffers (Renderer), the centres of rotation, the
// analyses, the rig doctor and the crowd. An edit changes the layer in place, moves its
// revision on and logs the vertex range it touched, so the renderer uploads only those ranges.
//
// One writer: the UI thread edits between frames. Whoever runs background work on the layer
// (centres of rotation, scans) must stop it before an edit (app/viewer/document.h bumps the
// input revision first, which cancels and joins every job that read it).
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig {

// Vertices [begin, end) of prepared primitive `primitive` (SkinMeshes::primitives index).
struct SkinEditRange {
  uint32_t primitive = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
};

class SkinLayer {
 public:
  SkinLayer() = default;
  // The model's influences as skinned (prepare_skin_meshes) and its inverse bind matrices.
  explicit SkinLayer(const Model& model);
  // `meshes` prepared from `model`, possibly with per-method data (centres of rotation).
  SkinLayer(const Model& model, SkinMeshes meshes);

  const SkinMeshes& meshes() const { return meshes_; }
  const SkinMesh& get(int mesh, int primitive) const { return meshes_.get(mesh, primitive); }
  size_t skin_count() const { return inverse_bind_.size(); }
  // Skin `skin`'s inverse bind matrices, one per joint in the skin's joint order.
  std::span<const glm::mat4> inverse_bind(size_t skin) const { return inverse_bind_[skin]; }

  // Moves on with every edit of any kind; starts at 1. Consumers keep the value they last
  // synchronized with and ask what changed since (for_each_edit_since).
  uint64_t revision() const { return revision_; }
  // The revision of the last edit of each kind (0: never edited since construction).
  uint64_t weights_revision() const { return weights_revision_; }
  uint64_t inverse_bind_revision() const { return inverse_bind_revision_; }
  uint64_t rotation_centers_revision() const { return centers_revision_; }

  // Replaces vertex `vertex`'s influences in prepared primitive `primitive` by the given pairs
  // (at most kMaxInfluences; unused slots become joint 0, weight 0). Weights must be finite and
  // ≥ 0 and are stored as given (the caller normalizes; every kernel divides by nothing).
  // A primitive with 4 slots widens to 8 when more pairs are given: that one reallocates and
  // logs the whole primitive. Centres of rotation of the primitive no longer match the weights
  // and are dropped (the method then rotates about the vertex itself until they are recomputed).
  // false + one-line error, nothing changed, on a bad primitive, vertex or pair list.
  bool set_influences(uint32_t primitive, uint32_t vertex, std::span<const uint16_t> joints,
                      std::span<const float> weights, std::string& error);
  // Whether set_influences would accept the edit (the same one-line error when not).
  bool check_influences(uint32_t primitive, uint32_t vertex, std::span<const uint16_t> joints,
                        std::span<const float> weights, std::string& error) const;
  // Replaces every influence of prepared primitive `primitive` by `slots` slots per vertex (4 or
  // 8, or 0 for an unskinned primitive) of `joints` and `weights`, bit for bit: what undoing
  // an edit needs (a primitive widened to 8 slots goes back to 4). The whole primitive is
  // logged and its centres of rotation dropped. false + one-line error, nothing changed, when
  // the sizes do not fit the primitive's vertex count or a weight is negative or not finite.
  bool restore_influences(uint32_t primitive, uint32_t slots, std::span<const uint16_t> joints,
                          std::span<const float> weights, std::string& error);
  // Replaces inverse bind matrix `joint` of skin `skin`. false on a bad index.
  bool set_inverse_bind(size_t skin, size_t joint, const glm::mat4& matrix, std::string& error);
  // Whether set_inverse_bind would accept the indices (the same one-line error when not).
  bool check_inverse_bind(size_t skin, size_t joint, std::string& error) const;
  // Takes the centres of rotation of `computed`, made from this layer's weights (same
  // primitives and vertex counts); false, nothing changed, when it does not fit.
  bool set_rotation_centers(const SkinMeshes& computed);

  // Calls f(const SkinEditRange&) for every influence range edited after `since` (oldest
  // first; ranges may overlap, and cover at least the edited vertices: nearby edits of one
  // primitive share a widened range). Returns false when the log no longer reaches back to `since`:
  // the caller then refreshes every primitive. No allocation.
  template <typename F>
  bool for_each_edit_since(uint64_t since, F&& f) const {
    if (since < log_floor_) return false;
    const size_t count = log_count_ < kLogSize ? log_count_ : kLogSize;
    for (size_t i = 0; i < count; ++i) {
      const LogEntry& e = log_[(log_count_ - count + i) % kLogSize];
      if (e.revision > since) f(e.range);
    }
    return true;
  }

 private:
  struct LogEntry {
    uint64_t revision = 0;
    SkinEditRange range;
  };
  // Edits remembered for consumers that lag behind; an older consumer refreshes everything.
  static constexpr size_t kLogSize = 64;
  static constexpr uint32_t kLogMergeGap = 256;  // vertices (see log())
  void log(const SkinEditRange& range);

  SkinMeshes meshes_;
  std::vector<std::vector<glm::mat4>> inverse_bind_;
  uint64_t revision_ = 1;
  uint64_t weights_revision_ = 0, inverse_bind_revision_ = 0, centers_revision_ = 0;
  std::array<LogEntry, kLogSize> log_{};
  size_t log_count_ = 0;    // entries ever logged; the last kLogSize are kept
  uint64_t log_floor_ = 0;  // the oldest `since` the kept entries can answer for
};

}  // namespace rig
