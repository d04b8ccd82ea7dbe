// The character the command line's outputs draw or export: the pose flags (--animation-*,
// --blend-*, --rest-pose) and --compressed applied in one place, so --export-obj, --export-ply,
// --output and --backend gpu always show the same pose.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "compress/clip_compression.h"
#include "options.h"

namespace rigview {

struct PosedCharacter {
  rig::PoseSelection selection;
  std::unique_ptr<rig::Character> character;                        // evaluated at `selection`
  std::vector<std::unique_ptr<rig::CompressionResult>> compressed;  // the sources it samples
};

// 0, or the exit status (2: a usage error such as a clip out of range; 1: compression failed)
// with a one-line `error`.
int pose_from_options(const Options& options, const rig::Model& model, PosedCharacter& out,
                      std::string& error);

}  // namespace rigview
