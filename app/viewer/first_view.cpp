#include "viewer/first_view.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace rigview {

namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The name of the right-hand twin of a left-hand joint name (lower case), or "" when the name
// carries no left marker. Table of (left, right) spellings, tried as infix, then as suffix.
std::string right_twin(const std::string& name) {
  static constexpr std::array<std::array<const char*, 2>, 1> kInfix = {{{"left", "right"}}};
  static constexpr std::array<std::array<const char*, 2>, 3> kSuffix = {
      {{"_l", "_r"}, {".l", ".r"}, {"-l", "-r"}}};
  for (const auto& [l, r] : kInfix)
    if (const size_t at = name.find(l); at != std::string::npos)
      return name.substr(0, at) + r + name.substr(at + std::char_traits<char>::length(l));
  for (const auto& [l, r] : kSuffix) {
    const size_t n = std::char_traits<char>::length(l);
    if (name.size() > n && name.compare(name.size() - n, n, l) == 0)
      return name.substr(0, name.size() - n) + r;
  }
  return {};
}

}  // namespace

int preferred_start_clip(const rig::Model& model) {
  if (model.clips.empty()) return -1;
  for (const char* word : {"idle", "stand", "breathe"})
    for (size_t c = 0; c < model.clips.size(); ++c)
      if (lower(model.clips[c].name).find(word) != std::string::npos) return static_cast<int>(c);
  return 0;
}

float facing_yaw(const rig::Model& model, std::span<const glm::mat4> world, float default_yaw) {
  glm::vec3 lateral(0.0f);  // sum of left − right over the pairs
  for (size_t i = 0; i < model.nodes.size() && i < world.size(); ++i) {
    const std::string twin = right_twin(lower(model.nodes[i].name));
    if (twin.empty()) continue;
    for (size_t j = 0; j < model.nodes.size() && j < world.size(); ++j) {
      if (j == i || lower(model.nodes[j].name) != twin) continue;
      lateral += glm::vec3(world[i][3]) - glm::vec3(world[j][3]);
      break;
    }
  }
  // front = lateral × up, on the ground plane.
  const glm::vec2 front(-lateral.z, lateral.x);
  if (glm::length(front) < 1e-6f) return default_yaw;
  // OrbitCamera: yaw 0 puts the eye on +Z of the target, where a +Z-facing front is seen.
  return std::remainder(std::atan2(front.x, front.y) + default_yaw, 2.0f * 3.14159265f);
}

}  // namespace rigview
