// The batch commands: --info (JSON report) and --export-obj (posed mesh as OBJ).
#pragma once

#include <cstdio>

#include "model/model.h"
#include "options.h"

namespace rigview {

int print_info(const rig::Model& model, std::FILE* out);
int export_obj(const Options& options, const rig::Model& model);

}  // namespace rigview
