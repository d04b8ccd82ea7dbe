#include "character/feet_on_ground.h"

#include <algorithm>

namespace rig {

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
