// The rig workbench's batch outputs (formatting only; the measures are the engine's):
//   --range-of-motion with --rom-report FILE.json  the sweep of analysis/range_of_motion.h;
//   --inspect-vertex PRIM:INDEX                    analysis/vertex_inspection.h, on stdout.
// Schemas in the README (Output formats).
#pragma once

#include <cstdio>

#include "model/model.h"
#include "options.h"

namespace rigview {

// 0, or the exit status (2: usage, such as an unknown joint; 1: the report cannot be written),
// with a one-line error on stderr.
int run_range_of_motion(const Options& options, const rig::Model& model);
int print_vertex_inspection(const Options& options, const rig::Model& model, std::FILE* out);

}  // namespace rigview
