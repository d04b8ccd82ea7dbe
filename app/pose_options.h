// Turns the pose flags of the command line into the engine's PoseSelection.
#pragma once

#include <string>
#include <vector>

#include "anim/clip_set.h"
#include "anim/pose_selection.h"
#include "model/model.h"
#include "options.h"

namespace rigview {

// Validates clip indices against the clip set (false + one-line error when out of range) and
// fills `out`: --animation-time defaults to the clip's start and is clamped to [start, end];
// --blend-time is clamped to the target clip; a set without clips gives the rest pose.
bool pose_selection_from_options(const Options& o, const rig::ClipSet& clips,
                                 rig::PoseSelection& out, std::string& error);
// The same over the file's clips (a set made here: allocates).
bool pose_selection_from_options(const Options& o, const rig::Model& model, rig::PoseSelection& out,
                                 std::string& error);

// --dqs-joints: the mix's DQS amount per node (rig::Character::set_dqs_amounts): 1 on each
// named node and its whole subtree, 0 elsewhere; all 0 without the flag. false + one-line
// error naming the first unknown joint.
bool dqs_amounts_from_options(const Options& o, const rig::Model& model,
                              std::vector<float>& per_node, std::string& error);

}  // namespace rigview
