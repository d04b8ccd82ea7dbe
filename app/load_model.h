// Loading a model as the command line asks: the import (with --confine), the simulated bug of
// --simulate-bug, and the rig doctor's findings appended to the model's warnings (what --info
// and the viewer report). One place for the CLI, the headless outputs and the viewer.
#pragma once

#include <optional>
#include <string>

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "model/model.h"
#include "options.h"

namespace rigview {

// false + one-line error (without the file name) when the file cannot be used.
bool load_model(const std::string& path, const Options& options, rig::Model& out,
                std::string& error);

// The two halves of load_model, for the viewer, which keeps the imported model pristine to
// simulate the bugs on copies (Teaching aids panel) and to restore it exactly.
// The import alone (with --confine).
bool import_model(const std::string& path, const Options& options, rig::Model& out,
                  std::string& error);
// Simulates `bug` (when set; it adds its own SIMULATED_BUG warning), runs the rig doctor and
// appends its findings to the warnings. Returns the diagnosis (the Rig health panel's rows).
rig::RigDiagnosis simulate_and_diagnose(rig::Model& model, std::optional<rig::SimulatedBug> bug);

}  // namespace rigview
