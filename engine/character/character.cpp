#include "character/character.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "anim/blending_job.h"
#include "anim/material_blend.h"
#include "anim/sampling_job.h"
#include "skin/cpu_skinning.h"

namespace rig {

void ConstraintContext::update_world(int root) const {
  LocalToWorldJob job;
  job.skeleton = &skeleton;
  job.local = local;
  job.world = world;
  job.root = root;
  job.run();
}

Character::Character(const Model& model) : Character(model, nullptr, nullptr) {}

Character::Character(const Model& model, std::shared_ptr<const SkinLayer> skin)
    : Character(model, std::move(skin), nullptr) {}

Character::Character(const Model& model, std::shared_ptr<const SkinLayer> skin,
                     std::shared_ptr<ClipSet> clips)
    : model_(&model),
      skin_(skin ? std::move(skin) : std::make_shared<const SkinLayer>(model)),
      skeleton_(Skeleton::build(model)),
      clips_(clips ? std::move(clips) : ClipSet::from_model(model)) {
  sync_clips();
  init_rest_pose(model, pose_);
  init_rest_pose(model, blend_pose_);
  crossfade_layers_[0] = {pose_.local, pose_.morph_weights, 1.0f, {}};
  crossfade_layers_[1] = {blend_pose_.local, blend_pose_.morph_weights, 0.0f, {}};
  for (BlendNodeSet& set : blend_node_sets_) set.nodes.reserve(model.nodes.size());
  world_.assign(model.nodes.size(), glm::mat4(1.0f));
  uint32_t total = 0;
  skin_offset_.reserve(model.skins.size() + 1);
  for (const Skin& s : model.skins) {
    skin_offset_.push_back(total);
    total += static_cast<uint32_t>(s.joints.size());
  }
  skin_offset_.push_back(total);
  skinning_.assign(total, glm::mat4(1.0f));
  node_dqs_amount_.assign(model.nodes.size(), 0.0f);
  joint_dqs_amount_.assign(total, 0.0f);
  for (const SkinningMethodInfo& m : skinning_methods())
    palettes_[size_t(m.method)].assign(size_t(total) * m.palette_rows, glm::vec4(0.0f));
  evaluate(PoseSelection{});
}

void Character::set_constraints(std::span<PoseConstraint* const> constraints) {
  constraints_.assign(constraints.begin(), constraints.end());
}

void Character::set_dqs_amounts(std::span<const float> per_node) {
  const bool usable = per_node.size() == node_dqs_amount_.size();
  for (size_t n = 0; n < node_dqs_amount_.size(); ++n) {
    const float m = usable ? per_node[n] : 0.0f;
    node_dqs_amount_[n] = !(m > 0.0f) ? 0.0f : std::min(m, 1.0f);  // NaN → 0
  }
  const Model& model = *model_;
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    for (size_t j = 0; j < joints.size(); ++j) {
      const int node = joints[j];
      joint_dqs_amount_[skin_offset_[s] + j] = node >= 0 && size_t(node) < node_dqs_amount_.size()
                                                   ? node_dqs_amount_[size_t(node)]
                                                   : 0.0f;
    }
  }
  for (const SkinningMethodInfo& m : skinning_methods())
    if (m.write_joint_amounts) palette_valid_ &= ~(1u << static_cast<uint32_t>(m.method));
}

void Character::set_clips(std::shared_ptr<ClipSet> clips) {
  if (!clips) return;
  clips_ = std::move(clips);
  clips_revision_ = 0;  // another set: its revision says nothing about ours
  sync_clips();
}

void Character::sync_clips() {
  if (clips_revision_ == clips_->revision() && clips_revision_ != 0) return;
  clips_revision_ = clips_->revision();
  clip_sources_.resize(clips_->size());
  for (size_t c = 0; c < clips_->size(); ++c) clip_sources_[c] = (*clips_)[c].source.get();
  clip_keys_.resize(clips_->size());
  for (size_t c = 0; c < clips_->size(); ++c) clip_keys_[c] = (*clips_)[c].keys.get();
  init_material_pose(*model_, clip_keys_, material_pose_);
  for (MaterialPose* scratch :
       {&blend_material_pose_, &layer_material_pose_, &reference_material_pose_})
    init_material_pose(*model_, clip_keys_, *scratch);
  for (BlendNodeSet& set : blend_node_sets_)  // the crossfades' node sets are recomputed
    set.a = set.b = nullptr;
  const size_t needed = clips_->max_cursor_count();
  if (needed > cursors_.size()) {
    cursors_.resize(needed, 0);
    blend_cursors_.resize(needed, 0);
  }
}

void Character::sample(int clip, float time, std::span<uint32_t> cursors, Pose& out) const {
  // Every field given at once: a job default-constructed and then assigned is zeroed first
  // (rep stos, tens of cycles per frame for nothing).
  const SamplingJob job{clip_sources_[size_t(clip)], time,      cursors,          skeleton_.rest,
                        model_->rest_morph_weights,  out.local, out.morph_weights};
  job.run();
  if (pitfalls_.has(Pitfall::LerpQuaternions))
    if (const auto* raw = dynamic_cast<const RawClipSource*>(clip_sources_[size_t(clip)]))
      lerp_rotation_keys(raw->clip(), time, out.local);
}

bool Character::animates_materials(int clip) const {
  const Clip* keys = clip_keys_[size_t(clip)];
  return material_pose_.any_animated && keys && !keys->material_channels.empty();
}

void Character::sample_materials(int clip, float time, MaterialPose& out) const {
  if (const Clip* keys = clip_keys_[size_t(clip)]) sample_material_channels(*keys, time, out);
}

void Character::set_pitfalls(Pitfalls pitfalls) {
  pitfalls_ = pitfalls;
  blend_world_.assign(pitfalls.has(Pitfall::AverageMatrices) ? world_.size() : 0, glm::mat4(1.0f));
}

std::span<const int> Character::crossfade_nodes(int clip_a, int clip_b) {
  const ClipSource* a = clip_sources_[size_t(clip_a)];
  const ClipSource* b = clip_sources_[size_t(clip_b)];
  for (const BlendNodeSet& set : blend_node_sets_)
    if (set.a == a && set.b == b) return set.nodes;
  // A new pair: not per frame for one character, once per pair for a crowd thread's.
  BlendNodeSet& set = blend_node_sets_[blend_node_next_];
  blend_node_next_ = (blend_node_next_ + 1) % kBlendNodeSets;
  set.a = a;
  set.b = b;
  const std::span<const int> na = a->animated_nodes(), nb = b->animated_nodes();
  set.nodes.clear();
  // Within the capacity reserved for every node: no allocation.
  if (!na.empty() && !nb.empty())
    std::set_union(na.begin(), na.end(), nb.begin(), nb.end(), std::back_inserter(set.nodes));
  // A source breaking animated_nodes()' contract: blend every node rather than fail the job.
  for (const int i : set.nodes)
    if (i < 0 || size_t(i) >= model_->nodes.size()) {
      set.nodes.clear();
      break;
    }
  return set.nodes;
}

void Character::evaluate(const PoseSelection& sel, std::span<uint32_t> cursors,
                         std::span<uint32_t> blend_cursors) {
  run_pipeline(sel, cursors, blend_cursors, nullptr);
}

void Character::evaluate(PoseStack& stack) {
  run_pipeline(stack.base, cursors_, blend_cursors_, &stack);
}

void Character::run_pipeline(const PoseSelection& sel, std::span<uint32_t> cursors,
                             std::span<uint32_t> blend_cursors, PoseStack* stack) {
  sync_clips();
  if (cursors.size() < cursors_.size()) cursors = cursors_;
  if (blend_cursors.size() < blend_cursors_.size()) blend_cursors = blend_cursors_;
  const Model& m = *model_;
  auto root_motion = [&](int c, std::span<Transform> local) {
    if (stack && size_t(c) < stack->root_motion_.size())
      stack->root_motion_[size_t(c)].apply(local);
  };
  if (valid_clip(sel.clip)) {
    sample(sel.clip, sel.time, cursors, pose_);
    root_motion(sel.clip, pose_.local);
    average_weight_ = -1.0f;
    if (valid_clip(sel.blend_clip) && blend_world_.size() == world_.size()) {
      // average-matrices: the two clips' poses stay apart until their world matrices.
      sample(sel.blend_clip, sel.blend_time, blend_cursors, blend_pose_);
      root_motion(sel.blend_clip, blend_pose_.local);
      average_weight_ = sel.blend_weight;
    } else if (valid_clip(sel.blend_clip)) {
      sample(sel.blend_clip, sel.blend_time, blend_cursors, blend_pose_);
      root_motion(sel.blend_clip, blend_pose_.local);
      // The two layers are members set up once (their buffers never move): building them per
      // frame zeroes two BlendLayers first.
      crossfade_layers_[1].weight = sel.blend_weight;
      const BlendingJob blend{crossfade_layers_, pose_.local, pose_.morph_weights,
                              crossfade_nodes(sel.clip, sel.blend_clip)};
      blend.run();
    }
  } else {
    reset_to_rest(m, pose_);
    average_weight_ = -1.0f;
  }
  // Materials blend as the node pose does: a crossfade mixes the two clips' values (in a clip
  // that does not animate a value, it is the file's), the stack's layers apply in order.
  reset_material_pose(m, material_pose_);
  if (material_pose_.any_animated && valid_clip(sel.clip)) {
    sample_materials(sel.clip, sel.time, material_pose_);
    if (valid_clip(sel.blend_clip) &&
        (animates_materials(sel.clip) || animates_materials(sel.blend_clip))) {
      reset_material_pose(m, blend_material_pose_);
      sample_materials(sel.blend_clip, sel.blend_time, blend_material_pose_);
      blend_material_poses(material_pose_, blend_material_pose_, sel.blend_weight, material_pose_);
    }
  }
  if (stack) apply_stack(*stack);
  clamp_material_pose(material_pose_);
  finish_frame();
}

void Character::apply_stack(PoseStack& stack) {
  const Model& m = *model_;
  auto valid = [&](int c) { return valid_clip(c); };
  auto root_motion = [&](int c, std::span<Transform> local) {
    if (size_t(c) < stack.root_motion_.size()) stack.root_motion_[size_t(c)].apply(local);
  };
  size_t used = 0;
  std::vector<BlendLayer>& blend = stack.blend_layers_;
  blend[used++] = {pose_.local, pose_.morph_weights, 1.0f, {}};
  for (PoseStack::LayerState& state : stack.layers_) {
    const PoseLayer& layer = state.layer;
    if (!valid(layer.clip) || !(layer.weight > 0.0f)) continue;
    if (state.cursors.size() < cursors_.size()) {  // a larger clip source arrived since
      state.cursors.resize(cursors_.size(), 0);
      state.reference_cursors.resize(cursors_.size(), 0);
    }
    sample(layer.clip, layer.time, state.cursors, state.pose);
    root_motion(layer.clip, state.pose.local);
    BlendLayer b{state.pose.local, state.pose.morph_weights, layer.weight, {}};
    if (layer.mask.size() == m.nodes.size()) b.joint_weights = layer.mask;
    if (layer.mode == BlendMode::Additive) {
      const int ref_clip = valid(layer.reference_clip) ? layer.reference_clip : layer.clip;
      const float ref_time = std::isnan(layer.reference_time)
                                 ? clip_sources_[size_t(ref_clip)]->start()
                                 : layer.reference_time;
      if (state.cached_reference_clip != ref_clip || state.cached_reference_time != ref_time) {
        sample(ref_clip, ref_time, state.reference_cursors, state.reference);
        root_motion(ref_clip, state.reference.local);
        state.cached_reference_clip = ref_clip;
        state.cached_reference_time = ref_time;
      }
      b.mode = BlendMode::Additive;
      b.reference = state.reference.local;
      b.reference_morph_weights = state.reference.morph_weights;
      if (animates_materials(layer.clip) || animates_materials(ref_clip)) {
        reset_material_pose(m, layer_material_pose_);
        sample_materials(layer.clip, layer.time, layer_material_pose_);
        reset_material_pose(m, reference_material_pose_);
        sample_materials(ref_clip, ref_time, reference_material_pose_);
        add_material_difference(material_pose_, layer_material_pose_, reference_material_pose_,
                                layer.weight, material_pose_);
      }
    } else if (animates_materials(layer.clip)) {
      // Starting from the result so far, the values the layer's clip does not animate blend
      // into themselves: an override layer changes only what its clip animates.
      copy_material_pose(material_pose_, layer_material_pose_);
      sample_materials(layer.clip, layer.time, layer_material_pose_);
      blend_material_poses(material_pose_, layer_material_pose_, layer.weight, material_pose_);
    }
    blend[used++] = b;
  }
  if (used > 1) {
    BlendingJob job;
    job.layers = std::span<const BlendLayer>(blend.data(), used);
    job.output = pose_.local;
    job.output_morph_weights = pose_.morph_weights;
    job.run();
  }
  for (const FkEdit& edit : stack.fk_edits)
    if (edit.node >= 0 && size_t(edit.node) < pose_.local.size())
      pose_.local[size_t(edit.node)] = apply_fk_edit(edit, pose_.local[size_t(edit.node)]);
  if (stack.placement_node >= 0 && size_t(stack.placement_node) < pose_.local.size())
    pose_.local[size_t(stack.placement_node)] =
        apply(stack.placement, pose_.local[size_t(stack.placement_node)], stack.placement_up);
}

void Character::finish_frame() {
  const Model& m = *model_;
  const LocalToWorldJob to_world{&skeleton_, pose_.local, world_, -1};  // by depth
  to_world.run();
  if (average_weight_ >= 0.0f && blend_world_.size() == world_.size()) {
    const LocalToWorldJob target{&skeleton_, blend_pose_.local, blend_world_, -1};
    target.run();
    for (size_t i = 0; i < world_.size(); ++i)
      world_[i] = average_matrices(world_[i], blend_world_[i], average_weight_);
  }

  // The constraint stage: after blending, with current world matrices.
  if (!constraints_.empty()) {
    const ConstraintContext context{skeleton_, pose_.local, world_};
    for (PoseConstraint* c : constraints_) c->apply(context);
  }

  for (size_t s = 0; s < m.skins.size(); ++s) {
    std::span<glm::mat4> out(skinning_.data() + skin_offset_[s], m.skins[s].joints.size());
    compute_skinning_matrices(m.skins[s].joints, skin_->inverse_bind(s), world_, out);
  }
  palette_valid_ = 0;
}

std::span<const glm::mat4> Character::skinning_matrices(int s) const {
  return {skinning_.data() + skin_offset_[size_t(s)],
          skin_offset_[size_t(s) + 1] - skin_offset_[size_t(s)]};
}

void Character::write_palettes(SkinningMethod method, std::span<glm::vec4> rows) const {
  const SkinningMethodInfo& info = method_info(method);
  info.write_palette(skinning_, rows);
  if (info.write_joint_amounts) info.write_joint_amounts(joint_dqs_amount_, rows);
}

std::span<const glm::vec4> Character::palette(int s, SkinningMethod method) const {
  const SkinningMethodInfo& info = method_info(method);
  std::vector<glm::vec4>& rows = palettes_[size_t(method)];
  const uint32_t bit = 1u << static_cast<uint32_t>(method);
  if (!(palette_valid_ & bit)) {
    write_palettes(method, rows);
    palette_valid_ |= bit;
  }
  const size_t first = size_t(skin_offset_[size_t(s)]) * info.palette_rows;
  const size_t count =
      size_t(skin_offset_[size_t(s) + 1] - skin_offset_[size_t(s)]) * info.palette_rows;
  return {rows.data() + first, count};
}

std::span<const float> Character::morph_weights(int node) const {
  const Node& n = model_->nodes[size_t(node)];
  return std::span<const float>(pose_.morph_weights).subspan(n.morph_offset, n.morph_count);
}

void Character::skin_draw_item(const DrawItem& item, SkinningMethod method,
                               std::span<glm::vec3> out_positions,
                               std::span<glm::vec3> out_normals) const {
  const Primitive& prim = model_->meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
  apply_morph_targets(prim, morph_weights(item.node), out_positions, out_normals);
  const SkinMesh& mesh = skin_->get(item.mesh, item.primitive);
  if (item.skin >= 0 && mesh.skinned()) {
    // Per the spec the skinned mesh node's own transform is ignored: joints alone place it.
    if (method == SkinningMethod::DualQuaternion && pitfalls_.has(Pitfall::NoHemisphere))
      skin_dual_quat_unaligned(mesh, palette(item.skin, method), out_positions, out_normals,
                               out_positions, out_normals);
    else
      method_info(method).skin(mesh, palette(item.skin, method), out_positions, out_normals,
                               out_positions, out_normals);
    if (method == SkinningMethod::Linear && mesh.raw_weight_sums.size() == out_positions.size())
      for (size_t v = 0; v < out_positions.size(); ++v)
        if (mesh.raw_weight_sums[v] > 0.0f) out_positions[v] *= mesh.raw_weight_sums[v];
    return;
  }
  const glm::mat4& w = world_[size_t(item.node)];
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
