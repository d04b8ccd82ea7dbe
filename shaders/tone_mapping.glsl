// Exposure and tone mapping of the studio look, the GLSL twin of engine/render/tone_mapping.h
// (the formulas and their sources are documented there; a test renders a gradient through
// both). u_tone_mapping: 0 Khronos PBR Neutral, 1 three.js ACES filmic, 2 none.

vec3 tone_map_neutral(vec3 color) {
  const float start_compression = 0.8 - 0.04;
  const float desaturation = 0.15;
  float x = min(color.r, min(color.g, color.b));
  float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  color -= offset;
  float peak = max(color.r, max(color.g, color.b));
  if (peak < start_compression) return color;
  const float d = 1.0 - start_compression;
  float new_peak = 1.0 - d * d / (peak + d - start_compression);
  color *= new_peak / peak;
  float g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
  return mix(color, vec3(new_peak), g);
}

vec3 tone_map_aces(vec3 color) {
  const mat3 input_mat = mat3(vec3(0.59719, 0.07600, 0.02840), vec3(0.35458, 0.90834, 0.13383),
                              vec3(0.04823, 0.01566, 0.83777));
  const mat3 output_mat = mat3(vec3(1.60475, -0.10208, -0.00327),
                               vec3(-0.53108, 1.10813, -0.07276),
                               vec3(-0.07367, -0.00605, 1.07602));
  vec3 v = input_mat * (color / 0.6);
  vec3 a = v * (v + 0.0245786) - 0.000090537;
  vec3 b = v * (0.983729 * v + 0.4329510) + 0.238081;
  return clamp(output_mat * (a / b), 0.0, 1.0);
}

// 2^ev · color through operator `mode` (0 neutral, 1 ACES, 2 none).
vec3 tone_map(vec3 color, int mode, float ev) {
  color *= exp2(ev);
  if (mode == 0) return tone_map_neutral(color);
  if (mode == 1) return tone_map_aces(color);
  return color;
}
