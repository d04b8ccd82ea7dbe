#include "render/tone_mapping.h"

#include <algorithm>
#include <cmath>

namespace rig::render {

std::optional<ToneMapping> parse_tone_mapping(std::string_view name) {
  if (name == "neutral") return ToneMapping::Neutral;
  if (name == "aces") return ToneMapping::Aces;
  if (name == "none") return ToneMapping::None;
  return std::nullopt;
}

const char* tone_mapping_name(ToneMapping t) {
  switch (t) {
    case ToneMapping::Neutral:
      return "neutral";
    case ToneMapping::Aces:
      return "aces";
    case ToneMapping::None:
      return "none";
  }
  return "none";
}

float exposure_scale(float ev) { return std::exp2(ev); }

glm::vec3 tone_map_neutral(glm::vec3 color) {
  constexpr float kStartCompression = 0.8f - 0.04f;
  constexpr float kDesaturation = 0.15f;
  const float x = std::min(color.r, std::min(color.g, color.b));
  // Near black the offset fades out quadratically, so the curve keeps a zero slope's continuity.
  const float offset = x < 0.08f ? x - 6.25f * x * x : 0.04f;
  color -= offset;
  const float peak = std::max(color.r, std::max(color.g, color.b));
  if (peak < kStartCompression) return color;
  constexpr float d = 1.0f - kStartCompression;
  const float new_peak = 1.0f - d * d / (peak + d - kStartCompression);
  color *= new_peak / peak;
  const float g = 1.0f - 1.0f / (kDesaturation * (peak - new_peak) + 1.0f);
  return glm::mix(color, glm::vec3(new_peak), g);
}

glm::vec3 tone_map_aces(glm::vec3 color) {
  // sRGB → AP1 with the RRT's saturation, and back (column-major, as GLSL's mat3).
  const glm::mat3 input(glm::vec3(0.59719f, 0.07600f, 0.02840f),
                        glm::vec3(0.35458f, 0.90834f, 0.13383f),
                        glm::vec3(0.04823f, 0.01566f, 0.83777f));
  const glm::mat3 output(glm::vec3(1.60475f, -0.10208f, -0.00327f),
                         glm::vec3(-0.53108f, 1.10813f, -0.07276f),
                         glm::vec3(-0.07367f, -0.00605f, 1.07602f));
  glm::vec3 v = input * (color / 0.6f);
  const glm::vec3 a = v * (v + 0.0245786f) - 0.000090537f;
  const glm::vec3 b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
  v = output * (a / b);
  return glm::clamp(v, 0.0f, 1.0f);
}

glm::vec3 tone_map(glm::vec3 color, ToneMapping t, float ev) {
  color *= exposure_scale(ev);
  switch (t) {
    case ToneMapping::Neutral:
      return tone_map_neutral(color);
    case ToneMapping::Aces:
      return tone_map_aces(color);
    case ToneMapping::None:
      return color;
  }
  return color;
}

}  // namespace rig::render
