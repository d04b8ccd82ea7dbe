// What a model opens on in the viewer, chosen from the model alone: the clip (an idle-like one
// rather than whatever the file lists first: a "Death" clip opens a character lying down) and
// the camera's yaw (the character's front, whichever way the file has it face).
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "model/model.h"

namespace rigview {

// The first clip whose name contains "idle", else "stand", else "breathe" (any case), else 0;
// -1 without clips.
int preferred_start_clip(const rig::Model& model);

// The orbit yaw that looks at the character's front `default_yaw` radians round from straight
// on, its front found from its left/right joint pairs ("LeftArm"/"RightArm", "hand_l"/"hand_r",
// "Foot.L"/"Foot.R"): front = (left − right) × up, as a glTF character facing +Z has its left
// on +X. `default_yaw` when the model has no such pairs or they cancel out. `world`: the node
// world matrices of the pose the model opens in.
float facing_yaw(const rig::Model& model, std::span<const glm::mat4> world, float default_yaw);

}  // namespace rigview
