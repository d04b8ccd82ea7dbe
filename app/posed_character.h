// The character the command line's outputs draw or export: the pose flags (--animation-*,
// --blend-*, --rest-pose), --compressed, the layers (--layer), IK, feet and look-at (--ik,
// --feet-on-ground, --look-at) and root motion (--root-motion) filled into one
// rig::PoseSettings and posed by rig::PoseBuilder, the viewer's builder too, so --export-obj,
// --export-ply, --export-pose, --output and --backend gpu always show the same pose, and the
// viewer the same pose for the same settings.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/pose_builder.h"
#include "character/pose_settings.h"
#include "compress/clip_compression.h"
#include "options.h"

namespace rigview {

struct PosedCharacter {
  rig::PoseSelection selection;
  std::unique_ptr<rig::Character> character;                        // evaluated
  std::vector<std::unique_ptr<rig::CompressionResult>> compressed;  // the sources it samples
  rig::PoseSettings settings;                                       // what the flags ask for
  std::unique_ptr<rig::PoseBuilder> builder;                        // poses `character`

  // Poses the character as `settings` say again (after something else evaluated it).
  void pose() { builder->build(settings); }
};

// The flags' PoseSettings (usage errors: false + one-line error); --layer's CLIP is an index or
// a name in `clips`, the set the character plays. `selection`: the base, from
// pose_selection_from_options.
bool pose_settings_from_options(const Options& options, const rig::Model& model,
                                const rig::ClipSet& clips, const rig::PoseSelection& selection,
                                rig::PoseSettings& out, std::string& error);

// 0, or the exit status (2: a usage error such as a clip out of range or an unknown joint; 1:
// compression failed) with a one-line `error`. `meshes`: the prepared skin meshes to share;
// null prepares them for the methods the options draw (centres of rotation when one needs them).
int pose_from_options(const Options& options, const rig::Model& model, PosedCharacter& out,
                      std::string& error, std::shared_ptr<const rig::SkinLayer> meshes = nullptr);

// --export-pose: the evaluated pose as JSON (README schema). false + one-line error.
bool write_pose_json(const std::string& path, const rig::Character& character, std::string& error);

}  // namespace rigview
