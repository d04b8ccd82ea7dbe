// The one function that turns PoseSettings (character/pose_settings.h) into a character's pose,
// for the command line and the viewer alike. The order, each stage seeing the one before:
//
//   1. sample the base clip, then the crossfade target (key cursors kept); root motion is
//      applied to each right after its sample (anim/root_motion.h)
//   2. crossfade: base → target by base.blend_weight, over the nodes the two clips animate
//   3. layers in order (sampled at their own times, root motion applied to each sample and to
//      each additive reference too), override or additive, masked by their joints' subtrees
//   4. FK edits in order (character/fk_edit.h)
//   5. Extract: the placement (settings.placement, or the base clip's motion from its start to
//      base.time) composed onto the root motion's root
//   6. local → world, then the constraints: IK chains in order, the feet, the look-at
//   7. skinning matrices
//
// Root motion rule: the root's path on the ground is the base's alone. Every clip sampled gets
// the same treatment (in place, or in place with the base's walk put back as the placement), so
// an override layer of a walk at weight 1, or an additive one, changes how the root is posed
// but never drags it along its own clip's path, snapped back at each of that clip's loops.
//
// build() compares the settings' structure (layer clips, modes and masks; the chains' joints;
// feet, look-at joint, root-motion mode, compressed) with the last call's and rebuilds what
// changed (allocating); a call where only times, weights, targets, placement or FK values change
// allocates nothing (the viewer calls it every frame).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/feet_on_ground.h"
#include "character/pose_settings.h"
#include "character/pose_stack.h"
#include "character/posing_constraints.h"

namespace rig {

class PoseBuilder {
 public:
  // `character` must outlive this, and keeps pointers to this object's constraints while it
  // lives (the destructor clears them).
  explicit PoseBuilder(Character& character);
  ~PoseBuilder();
  PoseBuilder(const PoseBuilder&) = delete;
  PoseBuilder& operator=(const PoseBuilder&) = delete;

  // false + one-line error when an index in `settings` does not fit `model` and the clip set
  // `clips` (the file's clips in the first form). build() skips such entries rather than fail.
  static bool validate(const Model& model, const ClipSet& clips, const PoseSettings& settings,
                       std::string& error);
  static bool validate(const Model& model, const PoseSettings& settings, std::string& error);

  // The compressed source of each clip (null: that clip plays raw), used while
  // settings.compressed is set; they must outlive their use. Not per frame.
  void set_compressed_sources(std::vector<const ClipSource*> sources);

  // Poses the character as `settings` say (the order above).
  void build(const PoseSettings& settings);
  // Only the rebuild of what changed (stack(), feet() then match `settings`), without posing.
  void prepare(const PoseSettings& settings) {
    if (!same_structure(settings)) rebuild(settings);
  }
  // After the character's clip sources were changed elsewhere (the viewer's compressed
  // playback): the additive layers resample their references.
  void refresh_references();

  const PoseStack& stack() const { return stack_; }
  // Feet on the ground: the foot joints found by name (find_feet), and the current contacts.
  std::span<const int> feet_joints() const { return feet_nodes_; }
  const FeetOnGround* feet() const { return feet_.get(); }

 private:
  static bool validate(const Model& model, size_t clip_count, const PoseSettings& settings,
                       std::string& error);
  void rebuild(const PoseSettings& settings);
  bool same_structure(const PoseSettings& settings) const;

  Character& character_;
  const Model& model_;
  PoseStack stack_;
  std::vector<const ClipSource*> compressed_sources_;
  bool sources_compressed_ = false;  // what the character samples now
  bool built_ = false;
  // The structure of the last build.
  std::vector<LayerSetting> layers_;
  std::vector<TwoBoneChain> chains_;
  bool feet_wanted_ = false;
  int feet_clip_ = -2;
  int look_at_joint_ = -1;
  RootMotionMode root_motion_ = RootMotionMode::Keep;
  bool compressed_ = false;

  std::vector<std::unique_ptr<TwoBoneIKConstraint>> ik_;
  std::vector<int> feet_nodes_;
  std::unique_ptr<FeetOnGround> feet_;
  std::unique_ptr<AimConstraint> aim_;
  std::vector<PoseConstraint*> constraints_;
};

}  // namespace rig
