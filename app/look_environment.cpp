#include "look_environment.h"

namespace rigview {

bool read_environment(const std::string& path, rig::render::EnvironmentMap& out,
                      std::string& error) {
  if (path.empty()) {
    out = rig::render::generate_studio_environment();
    return true;
  }
  return rig::render::load_environment_hdr(path, out, error);
}

bool prepare_environment(const std::string& path, rig::render::PrefilteredEnvironment& out,
                         std::string& error, rig::render::PrefilterProgress progress, void* user) {
  rig::render::EnvironmentMap map;
  if (!read_environment(path, map, error)) return false;
  if (!rig::render::prefilter_environment(map, out, progress, user)) {
    error = "cancelled";
    return false;
  }
  return true;
}

void LookEnvironmentJob::start(const std::string& path) {
  cancel();
  path_ = path;
  result_ = {};
  launch([this](std::string& error) {
    return prepare_environment(path_, result_, error, report, report_user());
  });
}

}  // namespace rigview
