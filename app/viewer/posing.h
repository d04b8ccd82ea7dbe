// The viewer's posing state: layers, IK chains, feet on the ground, a look-at and root motion
// over the playback, as the Posing panel (viewer/posing_panel.cpp) and the handles
// (viewer/pose_handles.cpp) edit them, kept as one rig::PoseSettings and posed by
// rig::PoseBuilder (character/pose_builder.h), the command line's builder too: equal settings
// give the --export-pose pose bit for bit. No ImGui, no GL: the per-frame allocation test
// (tests/perframe) drives it directly.
//
// Edits (add/remove a layer or chain, feet or look-at on/off, root motion mode) change the
// settings' structure and the builder rebuilds on the next evaluate() (allocating); per frame,
// evaluate() and the fields the UI drags (targets, weights, layer times) allocate nothing. The
// one exception is feet on the ground after the base clip changed: its contacts are detected
// again for the new clip, once.
#pragma once

#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/pose_builder.h"
#include "character/pose_settings.h"

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

// A hand rotation typed as local Euler angles in degrees: q_X(x) · q_Y(y) · q_Z(z), each about
// the joint's own axis (--pose-joint's order), and back: angles with R(q) = R_X · R_Y · R_Z, y in
// [−90°, 90°] (at ±90° the whole remaining turn goes on X).
glm::quat euler_xyz_rotation(const float deg[3]);
void rotation_to_euler_xyz(const glm::quat& q, float deg[3]);

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
  size_t ik_count() const { return settings_.ik.size(); }
  rig::TwoBoneIK& ik(size_t i) { return settings_.ik[i]; }
  const rig::TwoBoneIK& ik(size_t i) const { return settings_.ik[i]; }

  // Feet on the ground for the base clip (rig::FeetOnGround on the left and right foot joints).
  // false + one-line error when the model has no such joints.
  bool set_feet_on_ground(bool on, std::string& error);
  bool feet_on_ground() const { return settings_.feet_on_ground; }
  // The contacts the feet are locked to (the current base clip's), or null.
  const rig::FootContacts* contacts() const {
    return builder_.feet() ? &builder_.feet()->contacts() : nullptr;
  }
  std::span<const int> feet_joints() const { return builder_.feet_joints(); }

  // Look-at: `joint`'s local +Z turns towards the camera's eye or the handle (as --look-at).
  bool set_look_at(bool on, int joint, std::string& error);
  bool look_at() const { return settings_.look_at.joint >= 0; }
  int look_at_joint() const { return settings_.look_at.joint; }
  rig::Aim* aim() { return look_at() ? &settings_.look_at.aim : nullptr; }
  bool look_at_follows_camera = true;
  glm::vec3 look_at_handle{0.0f};  // world position, when not following the camera

  // Root motion of every clip sampled (character/pose_builder.h has the rule). Extract starts from
  // where the current clip's motion has taken the root since the clip's start (as --root-motion
  // extract) and then integrates playback.
  void set_root_motion(RootMotionChoice choice);
  RootMotionChoice root_motion() const { return root_motion_; }
  bool follow_camera = false;  // the viewer moves the orbit target with the root (Extract)

  // Per frame: the settings' base is `selection`, posed by the builder. `eye`:
  // the camera position (look-at target when following it). `playing`/`speed`: the playback's,
  // to count loops of an extracted clip. No allocation (see the header comment).
  void evaluate(const rig::PoseSelection& selection, glm::vec3 eye, bool playing, float speed);
  // How far the root joint's world position moved in the last evaluate() (follow camera).
  glm::vec3 root_moved() const { return root_moved_; }

  // Hand rotations of joints (forward kinematics, as --pose-joint): `node`'s local rotation
  // becomes q_clip · delta while the clip plays, before IK and look-at. Setting a joint that has
  // an edit changes it in place (no allocation); a new joint allocates once; the identity keeps
  // the edit (reset_joint removes it).
  void set_joint_rotation(int node, const glm::quat& delta);
  // `node`'s local transform replaced by `local` (rig::FkEditMode::Override, as --twist-demo):
  // in place when the joint has an edit (no allocation), else a new edit.
  void set_joint_override(int node, const rig::Transform& local);
  // The joint's hand rotation; the identity when it has none.
  glm::quat joint_rotation(int node) const;
  bool has_joint_rotation(int node) const;
  void reset_joint(int node);
  void reset_all_joints() { settings_.fk_edits.clear(); }
  size_t joint_rotation_count() const { return settings_.fk_edits.size(); }

  const rig::PoseStack& stack() const { return builder_.stack(); }
  // What the builder poses (the last evaluate()'s base and targets).
  const rig::PoseSettings& settings() const { return settings_; }
  // After the character's clip sources change (compressed playback on or off): additive layers
  // resample their reference poses from the new sources.
  void refresh_references() { builder_.refresh_references(); }

 private:
  const rig::Model& model_;
  rig::Character& character_;
  rig::PoseSettings settings_;
  rig::PoseBuilder builder_;
  std::vector<LayerSettings> layers_;
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
