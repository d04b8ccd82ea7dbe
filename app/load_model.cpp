#include "load_model.h"

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "import/gltf_import.h"

namespace rigview {

bool load_model(const std::string& path, const Options& options, rig::Model& out,
                std::string& error) {
  rig::ImportOptions import;
  import.confine = options.confine;
  if (!rig::import_gltf(path, import, out, error)) return false;
  if (!options.simulate_bug.empty()) {
    if (const auto bug = rig::find_simulated_bug(options.simulate_bug))
      rig::simulate_bug(out, *bug);  // adds its own SIMULATED_BUG warning
  }
  for (rig::ImportWarning& finding : rig::diagnose_rig(out))
    out.warnings.push_back(std::move(finding));
  return true;
}

}  // namespace rigview
