// The batch commands: --info (JSON report), --export-obj (posed mesh as OBJ), and the artefact
// outputs --export-ply / --report (app/artefact_outputs.h).
#pragma once

#include <cstdio>

#include "model/model.h"
#include "options.h"

namespace rigview {

int print_info(const rig::Model& model, std::FILE* out);
int export_obj(const Options& options, const rig::Model& model);
int export_artefacts(const Options& options, const rig::Model& model);
int export_pose(const Options& options, const rig::Model& model);  // --export-pose

}  // namespace rigview
