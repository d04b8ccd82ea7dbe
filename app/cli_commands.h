// The batch commands: --info (JSON report), --export-obj (posed mesh as OBJ), and the artefact
// outputs --export-ply / --report (app/artefact_outputs.h), --write-copy.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "clip_files.h"
#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"

namespace rigview {

// `files`: the --clips files, listed as "added_clips" after the file's animations when any.
int print_info(const rig::Model& model, std::FILE* out,
               const std::vector<ClipFile>* files = nullptr);
// `skin`: the skin layer to skin with (app/skin_edits.h: the --weights-op edits); null: the
// model's own influences.
int export_obj(const Options& options, const rig::Model& model, const rig::SkinLayer* skin);
int export_artefacts(const Options& options, const rig::Model& model, const rig::SkinLayer* skin);
int export_pose(const Options& options, const rig::Model& model,
                const rig::SkinLayer* skin);  // --export-pose
// --write-copy: the file at `model_path` written again through the document writer, no edits.
int write_copy(const Options& options, const std::string& model_path);

}  // namespace rigview
