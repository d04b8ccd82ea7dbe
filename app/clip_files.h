// Clips from other files (--clips FILE, and the viewer's "Add clips from file…"): another glTF's
// animations turned into clips on this character's nodes. When the other file's skeleton has the
// same joint names and rest pose (every node its clips animate is found here by name, with the
// same rest transform), its channels are moved onto the same-named nodes and play as they are.
// Otherwise they are retargeted through the humanoid bone map (character/retarget.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/clip_set.h"
#include "character/bone_map.h"
#include "character/retarget.h"
#include "model/model.h"
#include "options.h"

namespace rigview {

struct FileClip {
  std::string name;  // "stem:clip-name" ("stem:N" for an unnamed animation N)
  rig::ClipOrigin origin = rig::ClipOrigin::Added;  // Added (same skeleton) or Retargeted
  rig::Clip keys;                                   // on the character's nodes
  std::string source_clip;                          // its name in the file
  rig::RetargetMeasures measures;                   // when retargeted
};

struct ClipFile {
  std::string path;
  std::string stem;
  bool retargeted = false;
  rig::BoneMap map;                          // the pairs used, when retargeted
  std::vector<std::string> source_names;     // per pair: its source joint's name
  std::shared_ptr<const rig::Model> source;  // the file's model (the viewer's ghost, remaps)
  float source_hip_height = 0.0f, target_hip_height = 0.0f;  // when retargeted (model units)
  bool feet_planted = false;                                 // --retarget-feet
  std::vector<std::string> unmapped_source;                  // the source's joints no pair uses
  std::vector<std::string> unmapped_target;  // the character's joints no pair drives
  std::vector<std::string> missing_core;     // core bones not found (either side)
  size_t dropped_channels = 0;               // same skeleton: channels on nodes not found here
  std::vector<FileClip> clips;
};

// "stem:clip-name", or "stem:N" for the file's unnamed animation N.
std::string file_clip_name(const std::string& stem, const rig::Clip& clip, size_t index);

// Loads `path` and turns its clips into clips on `target`'s nodes. `bone_map` is the --bone-map
// file ("" for none), `keep_feet` --retarget-feet. false + one line naming the file.
bool load_clip_file(const std::string& path, const rig::Model& target, const Options& options,
                    ClipFile& out, std::string& error);

// The --clips files of `options`, each loaded once per process for `model` (later calls return
// the same list). nullptr + one line naming the file when one cannot be used.
const std::vector<ClipFile>* clip_files_from_options(const Options& options,
                                                     const rig::Model& model, std::string& error);

// Appends the clips of `files` to `set` in order (their indices follow the set's).
void add_file_clips(rig::ClipSet& set, const rig::Model& model, const std::vector<ClipFile>& files);

// The clip set the command line's character plays: the file's clips, then every --clips file's.
// nullptr + one line when a --clips file cannot be used.
std::shared_ptr<rig::ClipSet> clip_set_from_options(const Options& options, const rig::Model& model,
                                                    std::string& error);

}  // namespace rigview
