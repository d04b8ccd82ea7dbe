// The character the command line's outputs draw or export: the pose flags (--animation-*,
// --blend-*, --rest-pose), --compressed, the layers (--layer), IK and look-at (--ik,
// --look-at) and root motion (--root-motion) applied in one place, so --export-obj,
// --export-ply, --export-pose, --output and --backend gpu always show the same pose.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/pose_stack.h"
#include "character/posing_constraints.h"
#include "compress/clip_compression.h"
#include "options.h"

namespace rigview {

struct PosedCharacter {
  rig::PoseSelection selection;
  std::unique_ptr<rig::Character> character;                        // evaluated
  std::vector<std::unique_ptr<rig::CompressionResult>> compressed;  // the sources it samples
  std::unique_ptr<rig::PoseStack> stack;                            // base, layers, root motion
  std::vector<std::unique_ptr<rig::PoseConstraint>> constraints;    // IK, look-at
};

// 0, or the exit status (2: a usage error such as a clip out of range or an unknown joint; 1:
// compression failed) with a one-line `error`. `meshes`: the prepared skin meshes to share;
// null prepares them for the methods the options draw (centres of rotation when one needs them).
int pose_from_options(const Options& options, const rig::Model& model, PosedCharacter& out,
                      std::string& error,
                      std::shared_ptr<const rig::SkinMeshes> meshes = nullptr);

// --export-pose: the evaluated pose as JSON (README schema). false + one-line error.
bool write_pose_json(const std::string& path, const rig::Character& character, std::string& error);

}  // namespace rigview
