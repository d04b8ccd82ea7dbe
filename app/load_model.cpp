#include "load_model.h"

#include "import/gltf_import.h"

namespace rigview {

bool import_model(const std::string& path, const Options& options, rig::Model& out,
                  std::string& error) {
  rig::ImportOptions import;
  import.confine = options.confine;
  return rig::import_gltf(path, import, out, error);
}

rig::RigDiagnosis simulate_and_diagnose(rig::Model& model, std::optional<rig::SimulatedBug> bug) {
  if (bug) rig::simulate_bug(model, *bug);  // adds its own SIMULATED_BUG warning
  rig::RigDiagnosis diagnosis = rig::examine_rig(model);
  for (const rig::RigFinding& finding : diagnosis.findings)
    model.warnings.push_back(finding.warning);
  return diagnosis;
}

bool load_model(const std::string& path, const Options& options, rig::Model& out,
                std::string& error) {
  if (!import_model(path, options, out, error)) return false;
  // Options were validated: an unknown name cannot reach here (it would simulate nothing).
  simulate_and_diagnose(out, rig::find_simulated_bug(options.simulate_bug));
  return true;
}

}  // namespace rigview
