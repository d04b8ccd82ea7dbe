// Loading a model as the command line asks: the import (with --confine), the simulated bug of
// --simulate-bug, and the rig doctor's findings appended to the model's warnings (what --info
// and the viewer report). One place for the CLI, the headless outputs and the viewer.
#pragma once

#include <string>

#include "model/model.h"
#include "options.h"

namespace rigview {

// false + one-line error (without the file name) when the file cannot be used.
bool load_model(const std::string& path, const Options& options, rig::Model& out,
                std::string& error);

}  // namespace rigview
