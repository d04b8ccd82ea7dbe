// Everything that decides one character's pose, as plain data (node and clip indices, no
// pointers): the command line fills it from its flags (app/posed_character.cpp), the viewer from
// its panels and handles (app/viewer/posing.cpp), and one function, PoseBuilder::build
// (character/pose_builder.h), turns it into the pose, so equal settings give the same pose bit
// for bit on both sides.
#pragma once

#include <optional>
#include <vector>

#include "anim/aim_constraint.h"
#include "anim/pose_selection.h"
#include "anim/root_motion.h"
#include "anim/two_bone_ik.h"
#include "character/fk_edit.h"

namespace rig {

// One layer over the base pose (character/pose_stack.h's PoseLayer, with its mask as joints).
struct LayerSetting {
  int clip = -1;        // -1: the layer is off
  float weight = 1.0f;  // [0, 1]
  bool additive = false;
  float time = 0.0f;  // seconds on the file's timeline
  // The joints whose subtrees the layer covers; empty: the whole body.
  std::vector<int> mask_roots;
};

// A look-at: `joint`'s aim axis (+Z) turns towards aim.target (AimConstraint on that joint).
struct LookAtSetting {
  int joint = -1;  // -1: no look-at
  Aim aim;
};

struct PoseSettings {
  // The base: a clip at a time, optionally crossfaded into a second (clip -1: the rest pose).
  PoseSelection base;
  std::vector<LayerSetting> layers;  // in order, over the base
  // Hand edits of joints' local transforms, after the layers (character/fk_edit.h).
  std::vector<FkEdit> fk_edits;
  // Root motion of every clip sampled (base, crossfade target, layers, additive references):
  // the base decides where the root goes; a layer never moves it along its own clip's path.
  RootMotionMode root_motion = RootMotionMode::Keep;
  // Extract: where the root stands (the walked placement); none: where the base clip has taken
  // it from its start to base.time (what one pose of the command line shows).
  std::optional<RigidMotion> placement;
  std::vector<TwoBoneIK> ik;    // two-bone IK chains, in order
  bool feet_on_ground = false;  // two-bone chains on the feet, locked to the base clip's contacts
  LookAtSetting look_at;
  bool compressed = false;  // sample the compressed sources (PoseBuilder::set_compressed_sources)
};

}  // namespace rig
