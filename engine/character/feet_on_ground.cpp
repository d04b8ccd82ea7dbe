#include "character/feet_on_ground.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace rig {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The foot joint of one side, or -1.
int find_foot(const Model& model, bool left) {
  const char* side = left ? "left" : "right";
  const char* suffixes[] = {left ? "foot_l" : "foot_r", left ? "foot.l" : "foot.r",
                            left ? "foot l" : "foot r"};
  int loose = -1;
  for (const Skin& skin : model.skins)
    for (int node : skin.joints) {
      if (node < 0 || size_t(node) >= model.nodes.size()) continue;
      const std::string name = lower(model.nodes[size_t(node)].name);
      const size_t at = name.find(std::string(side) + "foot");
      if (at != std::string::npos && at + std::char_traits<char>::length(side) + 4 == name.size())
        return node;
      for (const char* s : suffixes)
        if (loose < 0 && name.find(s) != std::string::npos) loose = node;
      if (loose < 0 && name.find("foot") != std::string::npos &&
          name.find(side) != std::string::npos)
        loose = node;
    }
  return loose;
}

}  // namespace

std::vector<int> find_feet(const Model& model) {
  const int left = find_foot(model, true), right = find_foot(model, false);
  if (left >= 0 && right >= 0 && left != right) return {left, right};
  return {};
}

FeetOnGround::FeetOnGround(const Model& model, int clip, std::span<const int> feet,
                           const FootContactSettings& settings)
    : contacts_(detect_foot_contacts(model, clip, feet, settings)) {
  for (int foot : feet) {
    auto c = std::make_unique<TwoBoneIKConstraint>(two_bone_chain(model, foot));
    c->ik.keep_end_rotation = true;
    c->ik.weight = 0.0f;
    pointers_.push_back(c.get());
    chains_.push_back(std::move(c));
  }
}

void FeetOnGround::update(float time, const RigidMotion* placement, glm::vec3 up) {
  for (size_t f = 0; f < chains_.size(); ++f) {
    TwoBoneIK& ik = chains_[f]->ik;
    ik.weight = 0.0f;
    if (!enabled || !ik.chain.valid()) continue;
    glm::vec3 target;
    float distance = 0.0f;
    if (!contacts_.nearest_target(f, time, blend_time, target, distance)) continue;
    float w = 1.0f;
    if (distance > 0.0f) {
      const float x = std::clamp(1.0f - distance / std::max(blend_time, 1e-6f), 0.0f, 1.0f);
      w = x * x * (3.0f - 2.0f * x);
    }
    if (placement) {
      Transform p;
      p.translation = target;
      target = apply(*placement, p, up).translation;
    }
    ik.target = target;
    ik.weight = w;
  }
}

}  // namespace rig
