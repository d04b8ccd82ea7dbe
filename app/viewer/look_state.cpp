#include "viewer/look_state.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace rigview {

bool is_environment_file(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".hdr";
}

std::string format_look(const ViewerLook& look) {
  std::ostringstream out;
  const rig::render::LookSettings& s = look.settings;
  out << "studio " << (look.studio ? 1 : 0) << '\n'
      << "rotation " << s.environment_rotation_deg << '\n'
      << "intensity " << s.environment_intensity << '\n'
      << "key " << s.key_intensity << '\n'
      << "tone_mapping " << rig::render::tone_mapping_name(s.tone_mapping) << '\n'
      << "exposure " << s.exposure_ev << '\n';
  if (!look.environment.empty()) out << "environment " << look.environment << '\n';
  return out.str();
}

ViewerLook parse_look(const std::string& text, const ViewerLook& defaults) {
  ViewerLook look = defaults;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    const std::string key = line.substr(0, space), value = line.substr(space + 1);
    char* end = nullptr;
    const float x = std::strtof(value.c_str(), &end);
    const bool number = end && end != value.c_str() && *end == '\0' && std::isfinite(x);
    rig::render::LookSettings& s = look.settings;
    if (key == "studio" && number) look.studio = x != 0.0f;
    if (key == "rotation" && number && std::abs(x) <= 360.0f) s.environment_rotation_deg = x;
    if (key == "intensity" && number && x >= 0.0f && x <= 100.0f) s.environment_intensity = x;
    if (key == "key" && number && x >= 0.0f && x <= 100.0f) s.key_intensity = x;
    if (key == "exposure" && number && std::abs(x) <= 20.0f) s.exposure_ev = x;
    if (key == "tone_mapping")
      if (const auto t = rig::render::parse_tone_mapping(value)) s.tone_mapping = *t;
    if (key == "environment" && is_environment_file(value)) look.environment = value;
  }
  return look;
}

}  // namespace rigview
