// One animated character: the per-character buffers of a model and the per-frame pose pipeline,
// run as small jobs in order:
//
//   sample (SamplingJob per playing clip, cursors kept)  → blend (BlendingJob: base + layers;
//   a crossfade only over the nodes its two clips animate)
//   → local → world (LocalToWorldJob, by depth)  → constraints (the plug-in point below)
//   → skinning matrices (world × inverse bind)  → palettes, lazily, per method asked for.
//
// Alongside the blend, the materials' animated state (KHR_animation_pointer): sampled for the
// base and crossfade target, mixed, then each layer's in order (anim/material_blend.h), clamped.
//
// Constraints (IK, look-at) plug in after blending, where they see the blended local pose and
// current world matrices; one that edits a chain's local transforms refreshes only that
// chain's subtree (ConstraintContext::update_world) before the skinning matrices are made.
//
// Clips are entries of a clip set (anim/clip_set.h), which crowds share; jobs walk the model's
// Skeleton (anim/skeleton.h), built once here.
//
// All buffers are sized once in the constructor; evaluate() and palette() allocate nothing.
// One thread per character: palette() fills a cache on first use after evaluate().
#pragma once

#include <array>
#include <memory>
#include <span>
#include <vector>

#include "anim/blending_job.h"
#include "anim/clip_set.h"
#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/material_pose.h"
#include "anim/pose.h"
#include "anim/pose_selection.h"
#include "anim/skeleton.h"
#include "character/pose_stack.h"
#include "model/model.h"
#include "skin/pitfalls.h"
#include "skin/skin_layer.h"
#include "skin/skin_mesh.h"
#include "skin/skinning_method.h"

namespace rig {

// What a constraint may read and change.
struct ConstraintContext {
  const Skeleton& skeleton;
  std::span<Transform> local;  // the blended local pose, one per node
  std::span<glm::mat4> world;  // current for every node on entry
  // Recomputes the world matrices of `root` and its descendants after their locals changed.
  void update_world(int root) const;
};

class PoseConstraint {
 public:
  virtual ~PoseConstraint() = default;
  virtual void apply(const ConstraintContext& context) = 0;
};

class Character {
 public:
  // Skins with a skin layer of its own, made from `model` (skin/skin_layer.h).
  explicit Character(const Model& model);
  // Skins with `skin`, a layer made from `model`: shared with other characters of the same model
  // (a crowd) and with whoever edits it (the viewer's document), so an edit reaches every
  // character at its next evaluate(). nullptr: a layer of its own, as the one-argument form.
  Character(const Model& model, std::shared_ptr<const SkinLayer> skin);
  // Also shares a clip set (anim/clip_set.h; its sources sample clips of `model`): a crowd's
  // characters then read one copy of every clip's keys, which stays in cache, instead of one
  // copy each. nullptr: ClipSet::from_model(model), the file's clips.
  Character(const Model& model, std::shared_ptr<const SkinLayer> skin,
            std::shared_ptr<ClipSet> clips);

  // Runs the pipeline for `selection`: the base clip, crossfaded into the second over the nodes
  // the two clips animate. `cursors`, `blend_cursors`: the key cursors of the two sampled clips
  // given by the caller (cursor_count() slots each; shorter spans, the default: the Character's
  // own), so one Character can pose many instances in turn, each keeping its own cursors (a
  // crowd's worker thread). Cursors only save key searches, so the pose does not depend on what
  // they hold. No allocation.
  void evaluate(const PoseSelection& selection, std::span<uint32_t> cursors = {},
                std::span<uint32_t> blend_cursors = {});
  // The same pipeline for a layered stack (character/pose_stack.h): the base and crossfade as
  // above (root motion per clip after each sample), then the layers in order, the FK edits, the
  // stack's placement, then the constraints. The stack keeps per-layer cursors and cached
  // reference poses, hence non-const. No allocation (unless a clip source needing more cursors
  // was set after the stack was made).
  void evaluate(PoseStack& stack);
  // Key-cursor slots one sampled clip needs (the most any clip source asks for).
  size_t cursor_count() const { return cursors_.size(); }

  // Constraints run in order inside evaluate(). The pointers must outlive their use; call when
  // the set changes, not per frame (allocates).
  void set_constraints(std::span<PoseConstraint* const> constraints);
  // The clips this character plays: PoseSelection::clip and PoseLayer::clip index it. Edits
  // (a clip added, a compressed source substituted) take effect at the next evaluate(), for
  // every character sharing the set; not during one. Not per frame.
  ClipSet& clips() { return *clips_; }
  const ClipSet& clips() const { return *clips_; }
  std::shared_ptr<ClipSet> shared_clips() const { return clips_; }
  // Plays another set from now on (nullptr: ignored). Not per frame.
  void set_clips(std::shared_ptr<ClipSet> clips);
  // Picks up edits of the set now (evaluate() does it too, and then allocates if the set grew
  // or a source needs more key cursors): call after editing the set, before the frames.
  void sync_clips();
  // Samples entry `clip` from `source` (ClipSet::substitute; nullptr restores the entry's own)
  // and picks that up at once. `source` must outlive its use. Not per frame.
  void set_clip_source(int clip, const ClipSource* source) {
    clips_->substitute(clip, borrowed_source(source));
    sync_clips();
  }

  const Model& model() const { return *model_; }
  // The skin layer this character skins with: its influences and inverse bind matrices.
  const SkinLayer& skin_layer() const { return *skin_; }
  std::shared_ptr<const SkinLayer> shared_skin_layer() const { return skin_; }
  const SkinMeshes& skin_meshes() const { return skin_->meshes(); }
  const Skeleton& skeleton() const { return skeleton_; }
  const NodeHierarchy& hierarchy() const { return skeleton_.hierarchy; }
  const Pose& pose() const { return pose_; }
  // The materials' animated state (KHR_animation_pointer channels of the selection's clips,
  // crossfaded, then the stack's layers; anim/material_blend.h) as of the last evaluate(): what
  // the renderer draws in place of the file's factors.
  const MaterialPose& material_pose() const { return material_pose_; }
  std::span<const glm::mat4> world() const { return world_; }
  // Skinning matrices (world × inverse bind, the layer's inverse bind matrices as of the last
  // evaluate()) of skin `s`, in the skin's joint order.
  std::span<const glm::mat4> skinning_matrices(int s) const;
  // Palette of skin `s` for `method`: method_info(method).palette_rows vec4 rows per joint.
  // Computed on the first call after evaluate() and cached, so only methods that are drawn or
  // asked for cost anything.
  std::span<const glm::vec4> palette(int s, SkinningMethod method) const;
  // Every skin's palette of `method`, skin after skin, written into `rows` (the total joint
  // count × palette_rows), uncached: what palette() computes, for a caller's own buffer (a crowd).
  void write_palettes(SkinningMethod method, std::span<glm::vec4> rows) const;
  // Whether `method`'s palettes were computed since the last evaluate() (tests, statistics).
  bool palette_computed(SkinningMethod method) const {
    return (palette_valid_ >> static_cast<uint32_t>(method)) & 1u;
  }
  // Per-joint DQS amounts of the "mix" method (skin/mix_kernel.h), one per node in [0, 1]
  // (clamped; NaN reads 0): each skin joint takes its node's. Every node starts at 0 (the mix
  // is LBS). A span of the wrong size sets every node to 0. Not per frame (it is settings), but
  // it allocates nothing; the mix palettes are rewritten on their next use.
  void set_dqs_amounts(std::span<const float> per_node);
  std::span<const float> dqs_amounts() const { return node_dqs_amount_; }

  // Learn mode's classic mistakes (skin/pitfalls.h) this character makes from the next
  // evaluate: lerp-quaternions (raw clips' LINEAR rotation keys lerped, not slerped),
  // average-matrices (a crossfade averages the two clips' world matrices instead of blending
  // their local poses; the stack and constraints apply to the averaged pose, local() keeps the
  // first clip's) and no-hemisphere (skin_draw_item's DQS blends unaligned). Not per frame: it
  // allocates a second world buffer for average-matrices.
  void set_pitfalls(Pitfalls pitfalls);
  Pitfalls pitfalls() const { return pitfalls_; }

  // Morph weights of node `node` under the current pose (empty without targets).
  std::span<const float> morph_weights(int node) const;

  // World-space positions and normals of one draw item under the current pose, skinned on the
  // CPU with `method` (rigid items use their node's world matrix). out spans sized
  // prim.vertex_count(). Normals come back unit length.
  void skin_draw_item(const DrawItem& item, SkinningMethod method,
                      std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) const;

 private:
  bool valid_clip(int clip) const { return clip >= 0 && size_t(clip) < clip_sources_.size(); }
  void sample(int clip, float time, std::span<uint32_t> cursors, Pose& out) const;
  // Whether entry `clip` has material channels (a source without raw keys has none) on a model
  // some clip of the set animates materials of.
  bool animates_materials(int clip) const;
  // Samples entry `clip`'s material channels over `out` (nothing for a clip without raw keys).
  void sample_materials(int clip, float time, MaterialPose& out) const;
  // The one pipeline both evaluate() forms run; `stack` null: no layers, root motion or edits.
  void run_pipeline(const PoseSelection& selection, std::span<uint32_t> cursors,
                    std::span<uint32_t> blend_cursors, PoseStack* stack);
  // The stack's layers, FK edits and placement over pose_ (the base, already blended).
  void apply_stack(PoseStack& stack);
  // The nodes to blend in a crossfade of clip_a and clip_b (empty: every node); cached per pair.
  std::span<const int> crossfade_nodes(int clip_a, int clip_b);
  // local → world, constraints, skinning matrices; invalidates the palettes.
  void finish_frame();

  const Model* model_;
  std::shared_ptr<const SkinLayer> skin_;
  Skeleton skeleton_;
  std::shared_ptr<ClipSet> clips_;
  uint64_t clips_revision_ = 0;                  // of clips_ when clip_sources_ was made
  std::vector<const ClipSource*> clip_sources_;  // per clip set entry: its source
  std::vector<const Clip*> clip_keys_;           // per clip set entry: its raw keys, or null
  MaterialPose material_pose_;
  // Sized with material_pose_: the crossfade's second clip, a layer's clip and an additive
  // layer's reference (resampled per frame: material channels are few and cheap to sample).
  MaterialPose blend_material_pose_, layer_material_pose_, reference_material_pose_;
  std::vector<PoseConstraint*> constraints_;
  Pose pose_, blend_pose_;
  BlendLayer crossfade_layers_[2];  // pose_ under blend_pose_ (its weight set per frame)
  std::vector<uint32_t> cursors_, blend_cursors_;  // key cursors of the two sampled clips
  // The nodes a crossfade of clip `a` with clip `b` blends: the union of their sources' animated
  // nodes (empty: all). The last kBlendNodeSets pairs are kept (a crowd thread's Character
  // alternates between its instances' pairs), each list with capacity for every node, reserved
  // once; a new pair replaces the oldest.
  struct BlendNodeSet {
    const ClipSource* a = nullptr;
    const ClipSource* b = nullptr;
    std::vector<int> nodes;
  };
  static constexpr size_t kBlendNodeSets = 8;
  std::array<BlendNodeSet, kBlendNodeSets> blend_node_sets_;
  size_t blend_node_next_ = 0;  // the entry a new pair takes
  std::vector<glm::mat4> world_;
  Pitfalls pitfalls_;
  std::vector<glm::mat4> blend_world_;   // average-matrices: the crossfade target's world
  float average_weight_ = -1.0f;         // average-matrices this frame: the weight, else < 0
  std::vector<glm::mat4> skinning_;      // all skins, flat
  std::vector<uint32_t> skin_offset_;    // first joint of each skin in skinning_, plus the total
  std::vector<float> node_dqs_amount_;   // set_dqs_amounts, per node
  std::vector<float> joint_dqs_amount_;  // the same per skin joint, flat like skinning_
  mutable std::array<std::vector<glm::vec4>, kSkinningMethodCount> palettes_;  // all skins
  mutable uint32_t palette_valid_ = 0;  // bit per method: palettes_[m] matches skinning_
};

}  // namespace rig
