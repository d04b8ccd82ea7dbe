// Placeholder until the viewer lands: prints the model report. (Owned by the viewer work.)
#include <cstdio>

#include "cli_commands.h"
#include "import/gltf_import.h"
#include "modes.h"

namespace rigview {

int run_viewer(const Options&, const std::string& model_path) {
  rig::Model model;
  std::string error;
  if (!rig::import_gltf(model_path, model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model_path.c_str(), error.c_str());
    return 1;
  }
  std::fprintf(stderr, "rigview: the viewer window is not built yet; model report:\n");
  return print_info(model, stdout);
}

}  // namespace rigview
