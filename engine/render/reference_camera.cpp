#include "render/reference_camera.h"

#include <cmath>

namespace rig::render {

Camera reference_default_camera(const Bounds& posed, float aspect) {
  const glm::vec3 target = posed.valid() ? posed.center() : glm::vec3(0.0f);
  float r = posed.valid() ? 0.5f * glm::length(posed.max - posed.min) : 0.0f;
  if (!(r > 0.0f) || !std::isfinite(r)) r = 1.0f;
  const float yfov = glm::radians(45.0f);
  const float d = 1.3f * r / std::sin(0.5f * yfov);
  return look_at_camera(target + glm::vec3(0.0f, 0.0f, d), target, yfov, aspect, d / 100.0f,
                        d * 100.0f);
}

}  // namespace rig::render
