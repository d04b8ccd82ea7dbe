#include "skin/skin_layer.h"

#include <algorithm>
#include <cmath>

namespace rig {

SkinLayer::SkinLayer(const Model& model) : SkinLayer(model, prepare_skin_meshes(model)) {}

SkinLayer::SkinLayer(const Model& model, SkinMeshes meshes) : meshes_(std::move(meshes)) {
  inverse_bind_.reserve(model.skins.size());
  for (const Skin& skin : model.skins) {
    std::vector<glm::mat4> ibm = skin.inverse_bind;
    // The importer gives one per joint; the layer keeps that promise for any model.
    ibm.resize(skin.joints.size(), glm::mat4(1.0f));
    inverse_bind_.push_back(std::move(ibm));
  }
  log_floor_ = revision_;
}

void SkinLayer::log(const SkinEditRange& range) {
  // An edit on the last entry's primitive within kLogMergeGap vertices of its range (a brush dab,
  // an operation walking the vertices in order) widens that entry instead of taking a new one. A
  // consumer that synced between the two gets the union, a superset; and a dab of hundreds of
  // vertices stays one small upload instead of overflowing the log into a whole refresh.
  if (log_count_ > 0) {
    LogEntry& last = log_[(log_count_ - 1) % kLogSize];
    if (last.range.primitive == range.primitive && range.begin <= last.range.end + kLogMergeGap &&
        last.range.begin <= range.end + kLogMergeGap) {
      last.range.begin = std::min(last.range.begin, range.begin);
      last.range.end = std::max(last.range.end, range.end);
      last.revision = revision_;
      return;
    }
  }
  LogEntry& slot = log_[log_count_ % kLogSize];
  // The entry about to be overwritten is lost: a consumer that has not seen it must refresh all.
  if (log_count_ >= kLogSize) log_floor_ = slot.revision;
  slot = {revision_, range};
  ++log_count_;
}

bool SkinLayer::check_influences(uint32_t primitive, uint32_t vertex,
                                 std::span<const uint16_t> joints, std::span<const float> weights,
                                 std::string& error) const {
  if (primitive >= meshes_.primitives.size()) {
    error = "no prepared primitive " + std::to_string(primitive);
    return false;
  }
  const SkinMesh& mesh = meshes_.primitives[primitive];
  if (!mesh.skinned()) {
    error = "primitive " + std::to_string(primitive) + " is not skinned";
    return false;
  }
  if (vertex >= mesh.vertex_count) {
    error = "primitive " + std::to_string(primitive) + " has no vertex " + std::to_string(vertex);
    return false;
  }
  if (joints.size() != weights.size() || joints.size() > kMaxInfluences) {
    error = "a vertex takes at most " + std::to_string(kMaxInfluences) +
            " (joint, weight) pairs, one weight per joint";
    return false;
  }
  for (float w : weights)
    if (!std::isfinite(w) || w < 0.0f) {
      error = "weights must be finite and not negative";
      return false;
    }
  return true;
}

bool SkinLayer::set_influences(uint32_t primitive, uint32_t vertex,
                               std::span<const uint16_t> joints, std::span<const float> weights,
                               std::string& error) {
  if (!check_influences(primitive, vertex, joints, weights, error)) return false;
  SkinMesh& mesh = meshes_.primitives[primitive];
  ++revision_;
  SkinEditRange range{primitive, vertex, vertex + 1};
  if (joints.size() > mesh.influences) {
    // 4 → 8 slots: every vertex moves, so the whole primitive is logged.
    const uint32_t from = mesh.influences, to = kMaxInfluences;
    std::vector<uint16_t> wide_joints(size_t(mesh.vertex_count) * to, 0);
    std::vector<float> wide_weights(size_t(mesh.vertex_count) * to, 0.0f);
    for (size_t v = 0; v < mesh.vertex_count; ++v)
      for (uint32_t s = 0; s < from; ++s) {
        wide_joints[v * to + s] = mesh.joints[v * from + s];
        wide_weights[v * to + s] = mesh.weights[v * from + s];
      }
    mesh.joints = std::move(wide_joints);
    mesh.weights = std::move(wide_weights);
    mesh.influences = to;
    range = {primitive, 0, mesh.vertex_count};
  }
  const size_t first = size_t(vertex) * mesh.influences;
  for (uint32_t s = 0; s < mesh.influences; ++s) {
    mesh.joints[first + s] = s < joints.size() ? joints[s] : 0;
    mesh.weights[first + s] = s < weights.size() ? weights[s] : 0.0f;
  }
  if (!mesh.rotation_centers.empty()) {
    // Centres of rotation depend on every weight of the mesh: stale now, dropped everywhere the
    // primitive's centres are uploaded.
    mesh.rotation_centers.clear();
    centers_revision_ = revision_;
  }
  weights_revision_ = revision_;
  log(range);
  return true;
}

bool SkinLayer::restore_influences(uint32_t primitive, uint32_t slots,
                                   std::span<const uint16_t> joints, std::span<const float> weights,
                                   std::string& error) {
  if (primitive >= meshes_.primitives.size()) {
    error = "no prepared primitive " + std::to_string(primitive);
    return false;
  }
  SkinMesh& mesh = meshes_.primitives[primitive];
  const size_t size = size_t(mesh.vertex_count) * slots;
  if ((slots != 0 && slots != 4 && slots != kMaxInfluences) || joints.size() != size ||
      weights.size() != size) {
    error = "primitive " + std::to_string(primitive) + ": " + std::to_string(joints.size()) +
            " joints and " + std::to_string(weights.size()) + " weights are not " +
            std::to_string(slots) + " slots of " + std::to_string(mesh.vertex_count) + " vertices";
    return false;
  }
  for (float w : weights)
    if (!std::isfinite(w) || w < 0.0f) {
      error = "weights must be finite and not negative";
      return false;
    }
  ++revision_;
  mesh.influences = slots;
  mesh.joints.assign(joints.begin(), joints.end());
  mesh.weights.assign(weights.begin(), weights.end());
  if (!mesh.rotation_centers.empty()) {
    mesh.rotation_centers.clear();
    centers_revision_ = revision_;
  }
  weights_revision_ = revision_;
  log({primitive, 0, mesh.vertex_count});
  return true;
}

bool SkinLayer::check_inverse_bind(size_t skin, size_t joint, std::string& error) const {
  if (skin < inverse_bind_.size() && joint < inverse_bind_[skin].size()) return true;
  error = "no joint " + std::to_string(joint) + " in skin " + std::to_string(skin);
  return false;
}

bool SkinLayer::set_inverse_bind(size_t skin, size_t joint, const glm::mat4& matrix,
                                 std::string& error) {
  if (!check_inverse_bind(skin, joint, error)) return false;
  ++revision_;
  inverse_bind_[skin][joint] = matrix;
  inverse_bind_revision_ = revision_;
  return true;
}

bool SkinLayer::set_rotation_centers(const SkinMeshes& computed) {
  if (computed.primitives.size() != meshes_.primitives.size()) return false;
  for (size_t p = 0; p < computed.primitives.size(); ++p) {
    const SkinMesh& from = computed.primitives[p];
    if (from.vertex_count != meshes_.primitives[p].vertex_count ||
        (!from.rotation_centers.empty() && from.rotation_centers.size() != from.vertex_count))
      return false;
  }
  ++revision_;
  for (size_t p = 0; p < computed.primitives.size(); ++p)
    meshes_.primitives[p].rotation_centers = computed.primitives[p].rotation_centers;
  centers_revision_ = revision_;
  return true;
}

}  // namespace rig
