// The per-frame pose as an explicit, ordered stack, for Character::evaluate(PoseStack&):
//
//   base      a clip at a time, optionally crossfaded into a second (PoseSelection, as today)
//   layers    in order, each a clip at its own time with a weight and an optional joint mask:
//             Override layers blend towards their pose, Additive layers add
//             (clip(time) ⊖ reference) × weight, the reference being the layer clip's first frame
//             or a chosen frame of a chosen clip (anim/blending_job.h has the math)
//   root motion  per clip, applied right after each sample of that clip (anim/root_motion.h);
//             with Extract the viewer integrates the motion (RootMotionAccumulator) and puts it
//             back as `placement` on `placement_node` after the layers
//   FK edits  hand edits of joints' local transforms (character/fk_edit.h), after the layers,
//             before the placement
//   then the Character's constraints (IK, aim: character/posing_constraints.h) and skinning.
//
// Setting up (allocates; do it when the stack changes, not per frame):
//   PoseStack stack(character);
//   stack.base = {walk, 0.0f};
//   PoseLayer wave;  wave.clip = wave_clip;  wave.mask = subtree_mask(model, {"RightShoulder"});
//   const size_t w = stack.add_layer(wave);
//   PoseLayer breathe;  breathe.clip = bend;  breathe.mode = BlendMode::Additive;
//   breathe.weight = 0.3f;  stack.add_layer(breathe);
//   stack.set_root_motion(walk, {RootMotionMode::InPlace});
// Per frame (no allocation): edit base, layer(i).time / .weight, placement; then
//   character.evaluate(stack);
// A layer with clip < 0 or weight 0 costs nothing and changes nothing.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "anim/blending_job.h"
#include "anim/clip_set.h"
#include "anim/pose.h"
#include "anim/pose_selection.h"
#include "anim/root_motion.h"
#include "character/fk_edit.h"

namespace rig {

class Character;

struct PoseLayer {
  int clip = -1;        // -1: the layer is off
  float time = 0.0f;    // seconds on the file's timeline (clamped by sampling)
  float weight = 1.0f;  // [0, 1]
  BlendMode mode = BlendMode::Override;
  std::vector<float> mask;  // one weight per node in [0, 1]; empty: every joint at 1
  // Additive reference: clip `reference_clip` (−1: the layer's own clip) at `reference_time`
  // (NaN: that clip's first frame). Resampled only when these change (or after
  // PoseStack::refresh_references()).
  int reference_clip = -1;
  float reference_time = std::numeric_limits<float>::quiet_NaN();
};

class PoseStack {
 public:
  // Sized for `character`'s model and clip sources; root motion reads its clip set.
  explicit PoseStack(const Character& character);

  PoseSelection base;

  // Adds a layer on top; returns its index. Allocates.
  size_t add_layer(const PoseLayer& layer);
  void remove_layer(size_t index);
  void clear_layers();
  // Resamples every additive reference on the next evaluate (after Character::set_clip_source).
  void refresh_references();
  size_t layer_count() const { return layers_.size(); }
  PoseLayer& layer(size_t index) { return layers_[index].layer; }
  const PoseLayer& layer(size_t index) const { return layers_[index].layer; }

  // Root motion handling of clip `clip` (an index in the character's clip set) wherever it is
  // sampled (base, crossfade, layers, additive references). Measures the clip's raw keys once
  // (a clip without keys has none): not per frame.
  void set_root_motion(int clip, const RootMotionSettings& settings);
  // A clip without settings (one added to the set since) has none: Keep.
  const RootMotionClip& root_motion(int clip) const {
    static const RootMotionClip none;
    return clip >= 0 && size_t(clip) < root_motion_.size() ? root_motion_[size_t(clip)] : none;
  }

  // Extract: composed onto node `placement_node`'s local transform after the layers, before
  // local → world (−1: none). Usually root_motion(clip).root() and an accumulator's placement().
  int placement_node = -1;
  RigidMotion placement;
  glm::vec3 placement_up{0.0f, 1.0f, 0.0f};

  // Applied in order after the layers, before the placement. Assign when they change (a
  // same-sized assignment reuses the storage: no allocation).
  std::vector<FkEdit> fk_edits;

 private:
  friend class Character;
  struct LayerState {
    PoseLayer layer;
    Pose pose, reference;
    std::vector<uint32_t> cursors, reference_cursors;
    int cached_reference_clip = -2;  // what `reference` holds
    float cached_reference_time = 0.0f;
  };
  const Model* model_;
  std::shared_ptr<const ClipSet> clips_;  // the character's
  size_t cursor_count_;
  std::vector<LayerState> layers_;
  std::vector<BlendLayer> blend_layers_;     // base, crossfade, one per layer: filled per frame
  std::vector<RootMotionClip> root_motion_;  // per clip
};

}  // namespace rig
