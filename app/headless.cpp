// Placeholder until the renderer lands: headless rendering and GPU export report that they are
// unavailable. (Owned by the renderer work; replace wholesale.)
#include <cstdio>

#include "modes.h"

namespace rigview {

int run_headless_render(const Options&, const rig::Model&) {
  std::fprintf(stderr, "rigview: error: --output is not available in this build\n");
  return 1;
}

bool gpu_skin_draw_items(const Options&, const rig::Model&, std::vector<std::vector<float>>&,
                         std::vector<std::vector<float>>&, std::string& error) {
  error = "--backend gpu is not available in this build";
  return false;
}

}  // namespace rigview
