// Exposure and tone mapping of the studio look: linear scene radiance → display-referred linear
// [0, 1], before the sRGB encoding. The same operators run in GLSL (shaders/tone_mapping.glsl);
// these C++ forms are what the tests check the formulas and the shader against.
//
//   Neutral: the Khronos PBR Neutral operator (Khronos's "PBR Neutral" specification):
//            start of compression 0.8 − 0.04, desaturation 0.15. Base colours up to ~0.8 stay
//            as they are, so a material reads as authored; highlights roll off towards white.
//   Aces:    three.js's ACESFilmicToneMapping (r150 to r187): Stephen Hill's fit of the ACES
//            RRT+ODT, the input scaled by 1/0.6, clamped to [0, 1].
//   None:    the colour as it is (the display clamps).
// Exposure is in EV: the radiance is multiplied by 2^EV before the operator.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string_view>

namespace rig::render {

enum class ToneMapping { Neutral, Aces, None };

// "neutral", "aces", "none" (the --tone-mapping values), and back.
std::optional<ToneMapping> parse_tone_mapping(std::string_view name);
const char* tone_mapping_name(ToneMapping t);

float exposure_scale(float ev);  // 2^ev
glm::vec3 tone_map_neutral(glm::vec3 color);
glm::vec3 tone_map_aces(glm::vec3 color);
// 2^ev · color through `t`.
glm::vec3 tone_map(glm::vec3 color, ToneMapping t, float ev);

}  // namespace rig::render
