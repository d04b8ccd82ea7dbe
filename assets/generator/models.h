// The bundled assets.
#pragma once

#include "asset.h"

namespace rig::gen {

// Humanoid mannequin: 24 joints, tubes and capsules, Idle/Walk/Run/Wave/Twist/Bend clips.
Asset build_mannequin();

// Second humanoid for retargeting: 1.44 m, A-pose rest, Rigify-like names, one ArmRaise clip.
Asset build_humanoid_apose();

// A striped cylinder along +X with two joints and one Twist clip (0 -> 180 -> 0 degrees).
Asset build_twist_arm();

// The twist arm's cylinder bending at its middle joint (one Bend clip), its shared vertices
// weighted 0.7 and 0.5: deliberately unnormalized, for Learn mode's raw-weights mistake.
Asset build_raw_weights_example();

// Rounds every joint's local translation to float and recomputes rest_world from the rounded
// values, so the file's node translations and inverse bind matrices agree to the last bit the
// generator can control.
void snap_skeleton_to_float(std::vector<JointDef>& joints);

}  // namespace rig::gen
