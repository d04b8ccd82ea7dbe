// The viewer's posing state (issue 11): a layered PoseStack over the playback's selection, IK
// chains, feet on the ground, a look-at and root motion, as the Posing panel
// (viewer/posing_panel.cpp) and the handles (viewer/pose_handles.cpp) edit them. No ImGui, no
// GL: the per-frame allocation test (tests/perframe) drives it directly.
//
// Edits (add/remove a layer or chain, feet or look-at on/off, root motion mode) allocate and
// rebuild the character's constraint list; per frame, evaluate() and the fields the UI drags
// (targets, weights, layer times) allocate nothing. The one exception is feet on the ground
// after the base clip changed: its contacts are detected again for the new clip, once.
//
// Constraints run in this order: IK chains (in creation order), the feet, the look-at, which is
// the command line's order (--ik then --look-at), so the same settings give the same pose.
#pragma once

#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/feet_on_ground.h"
#include "character/pose_stack.h"
#include "character/posing_constraints.h"

namespace rigview {

enum class RootMotionChoice { Off, InPlace, Extract };

// One layer as the panel shows it (the stack's PoseLayer holds the mask it makes).
struct LayerSettings {
  int clip = 0;
  float weight = 1.0f;
  bool additive = false;
  int mask_root = -1;  // node whose subtree the layer covers ("Spine and below"); -1: all
  float time = 0.0f;   // seconds on the file's timeline
};

class Posing {
 public:
  // `character` must be `model`'s and outlive this. The character keeps pointers to this
  // object's constraints: evaluate it through this object, or reset its constraints, once this
  // is gone (the viewer's Document drops both together).
  Posing(const rig::Model& model, rig::Character& character);

  // Whether anything is on: otherwise the viewer evaluates the plain selection.
  bool active() const;

  // Layers. add/remove and a new clip or mask allocate; weight and time changes do not.
  size_t layer_count() const { return layers_.size(); }
  const LayerSettings& layer(size_t i) const { return layers_[i]; }
  void add_layer(const LayerSettings& settings);
  void set_layer(size_t i, const LayerSettings& settings);
  void remove_layer(size_t i);

  // IK chains: `end_node`, its parent and grandparent, twist joints skipped (LeftHand's chain is
  // LeftArm > LeftForeArm > LeftHand, not the forearm's twist joint). The target starts at the
  // end joint's current world position (nothing moves until it is dragged), the pole beside the
  // mid joint, off. false + one-line error when the joint has no grandparent.
  bool add_ik_chain(int end_node, std::string& error);
  void remove_ik_chain(size_t i);
  size_t ik_count() const { return ik_.size(); }
  rig::TwoBoneIK& ik(size_t i) { return ik_[i]->ik; }
  const rig::TwoBoneIK& ik(size_t i) const { return ik_[i]->ik; }

  // Feet on the ground for the base clip (rig::FeetOnGround on the left and right foot joints).
  // false + one-line error when the model has no such joints.
  bool set_feet_on_ground(bool on, std::string& error);
  bool feet_on_ground() const { return feet_wanted_; }
  // The contacts the feet are locked to (the current base clip's), or null.
  const rig::FootContacts* contacts() const { return feet_ ? &feet_->contacts() : nullptr; }
  const std::vector<int>& feet_joints() const { return feet_nodes_; }

  // Look-at: `joint`'s local +Z turns towards the camera's eye or the handle (as --look-at).
  bool set_look_at(bool on, int joint, std::string& error);
  bool look_at() const { return aim_ != nullptr; }
  int look_at_joint() const { return aim_ ? aim_->chain().back() : -1; }
  rig::Aim* aim() { return aim_ ? &aim_->aim : nullptr; }
  bool look_at_follows_camera = true;
  glm::vec3 look_at_handle{0.0f};  // world position, when not following the camera

  // Root motion of every clip. Extract starts from where the current clip's motion has taken
  // the root since the clip's start (as --root-motion extract) and then integrates playback.
  void set_root_motion(RootMotionChoice choice);
  RootMotionChoice root_motion() const { return root_motion_; }
  bool follow_camera = false;  // the viewer moves the orbit target with the root (Extract)

  // Per frame: the stack's base is `selection`, then layers, root motion, constraints. `eye`:
  // the camera position (look-at target when following it). `playing`/`speed`: the playback's,
  // to count loops of an extracted clip. No allocation (see the header comment).
  void evaluate(const rig::PoseSelection& selection, glm::vec3 eye, bool playing, float speed);
  // How far the root joint's world position moved in the last evaluate() (follow camera).
  glm::vec3 root_moved() const { return root_moved_; }

  const rig::PoseStack& stack() const { return stack_; }
  // After the character's clip sources change (compressed playback on or off): additive layers
  // resample their reference poses from the new sources.
  void refresh_references() { stack_.refresh_references(); }

 private:
  void rebuild_constraints();
  void rebuild_feet(int clip);

  const rig::Model& model_;
  rig::Character& character_;
  rig::PoseStack stack_;
  std::vector<LayerSettings> layers_;
  std::vector<std::unique_ptr<rig::TwoBoneIKConstraint>> ik_;
  std::vector<int> feet_nodes_;
  bool feet_wanted_ = false;
  std::unique_ptr<rig::FeetOnGround> feet_;
  int feet_clip_ = -2;  // the clip feet_ was made for
  std::unique_ptr<rig::AimConstraint> aim_;
  std::vector<rig::PoseConstraint*> constraints_;
  RootMotionChoice root_motion_ = RootMotionChoice::Off;
  rig::RootMotionAccumulator walked_;
  bool restart_extract_ = false;
  int previous_clip_ = -1;
  float previous_time_ = 0.0f;
  int root_node_ = -1;
  bool have_root_position_ = false;
  glm::vec3 root_position_{0.0f}, root_moved_{0.0f};
};

}  // namespace rigview
