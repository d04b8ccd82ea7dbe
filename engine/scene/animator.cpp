#include "scene/animator.h"

#include <algorithm>

namespace rig {

Animator::Animator(const Model& model) : model_(&model) {
  init_rest_pose(model, pose_);
  init_rest_pose(model, blend_pose_);
  world_.assign(model.nodes.size(), glm::mat4(1.0f));
  uint32_t total = 0;
  skin_offset_.reserve(model.skins.size() + 1);
  for (const Skin& s : model.skins) {
    skin_offset_.push_back(total);
    total += static_cast<uint32_t>(s.joints.size());
  }
  skin_offset_.push_back(total);
  palette_.assign(total, glm::mat4(1.0f));
  dual_quats_.assign(total, JointDualQuat{});
  evaluate(PoseSelection{});
}

void Animator::evaluate(const PoseSelection& sel) {
  const Model& m = *model_;
  const int clips = static_cast<int>(m.clips.size());
  if (sel.clip >= 0 && sel.clip < clips) {
    sample_clip(m, m.clips[sel.clip], sel.time, pose_);
    if (sel.blend_clip >= 0 && sel.blend_clip < clips) {
      sample_clip(m, m.clips[sel.blend_clip], sel.blend_time, blend_pose_);
      blend_poses(pose_, blend_pose_, std::clamp(sel.blend_weight, 0.0f, 1.0f), pose_);
    }
  } else {
    reset_to_rest(m, pose_);
  }
  compute_world_matrices(m, pose_, world_);
  for (size_t s = 0; s < m.skins.size(); ++s) {
    std::span<glm::mat4> pal(palette_.data() + skin_offset_[s], m.skins[s].joints.size());
    compute_skinning_matrices(m.skins[s], world_, pal);
    compute_joint_dual_quats(
        pal, std::span<JointDualQuat>(dual_quats_.data() + skin_offset_[s], pal.size()));
  }
}

std::span<const glm::mat4> Animator::skinning_matrices(int s) const {
  return {palette_.data() + skin_offset_[s], skin_offset_[s + 1] - skin_offset_[s]};
}

std::span<const JointDualQuat> Animator::joint_dual_quats(int s) const {
  return {dual_quats_.data() + skin_offset_[s], skin_offset_[s + 1] - skin_offset_[s]};
}

std::span<const float> Animator::morph_weights(int node) const {
  const Node& n = model_->nodes[node];
  return std::span<const float>(pose_.morph_weights).subspan(n.morph_offset, n.morph_count);
}

void Animator::skin_draw_item(const DrawItem& item, SkinningMethod method,
                              std::span<glm::vec3> out_positions,
                              std::span<glm::vec3> out_normals) const {
  const Primitive& prim = model_->meshes[item.mesh].primitives[item.primitive];
  apply_morph_targets(prim, morph_weights(item.node), out_positions, out_normals);
  if (item.skin >= 0 && prim.skinned()) {
    // Per the spec the skinned mesh node's own transform is ignored: joints alone place it.
    if (method == SkinningMethod::Linear)
      skin_linear(prim, skinning_matrices(item.skin), out_positions, out_normals, out_positions,
                  out_normals);
    else
      skin_dual_quat(prim, joint_dual_quats(item.skin), out_positions, out_normals, out_positions,
                     out_normals);
    return;
  }
  const glm::mat4& w = world_[item.node];
  const glm::mat3 w3(w);
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(w3));
  for (size_t v = 0; v < out_positions.size(); ++v) {
    out_positions[v] = glm::vec3(w * glm::vec4(out_positions[v], 1.0f));
    glm::vec3 n = normal_matrix * out_normals[v];
    const float len = glm::length(n);
    out_normals[v] = len > 0.0f ? n / len : out_normals[v];
  }
}

}  // namespace rig
