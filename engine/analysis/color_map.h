// Colour maps of per-vertex scalar fields (analysis/scalar_field.h). One definition for the mesh
// shader (uploaded as uniforms when the renderer builds its programs) and for legends drawn by
// the app, so the two cannot drift apart. Display (sRGB) colours; the shader lights them like
// any surface. No GL here.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <glm/glm.hpp>

namespace rig::analysis {

enum class ColorMap : uint8_t {
  // Sequential heat map over [min, max] (a joint's weight: 0..1); values at or below `min`
  // show kZeroWeightColor ("not influenced" never looks like "a little influenced").
  Heat,
  // One colour per whole number (rounded to the nearest): kCategoryColors[clamp(v, 0, 8)]
  // (an influence count; 0 is the broken colour).
  Categorical,
  // Blue (min) → white (the middle of the range) → red (max): signed fields such as deflation.
  Diverging,
};
inline constexpr int kColorMapCount = 3;

// Heat map stops at 0, 1/4, 1/2, 3/4 and 1 of the range: dark blue, teal, green, yellow, red.
// Red rises and blue falls monotonically, so the order reads even on a monochrome print.
inline constexpr std::array<glm::vec3, 5> kHeatStops = {
    glm::vec3(0.06f, 0.10f, 0.62f),  // 0 (a tiny but non-zero weight)
    glm::vec3(0.08f, 0.55f, 0.60f),  // 1/4
    glm::vec3(0.25f, 0.75f, 0.25f),  // 1/2
    glm::vec3(0.92f, 0.82f, 0.10f),  // 3/4
    glm::vec3(1.00f, 0.10f, 0.05f),  // 1
};

// Heat map at or below the range's minimum (a weight of exactly 0): neutral grey.
inline constexpr glm::vec3 kZeroColor(0.50f, 0.50f, 0.50f);

// An undefined value (NaN in the field: a vertex skinning cannot place): magenta in every map.
inline constexpr glm::vec3 kUndefinedColor(1.00f, 0.00f, 1.00f);

// Categorical colours by whole value 0..8 (index 0 is the undefined/broken colour).
inline constexpr std::array<glm::vec3, 9> kCategoryColors = {
    kUndefinedColor,
    glm::vec3(0.25f, 0.45f, 0.95f),  // 1 blue
    glm::vec3(0.20f, 0.80f, 0.35f),  // 2 green
    glm::vec3(0.98f, 0.85f, 0.15f),  // 3 yellow
    glm::vec3(1.00f, 0.50f, 0.10f),  // 4 orange
    glm::vec3(0.90f, 0.15f, 0.15f),  // 5 red
    glm::vec3(0.60f, 0.30f, 0.85f),  // 6 violet
    glm::vec3(0.35f, 0.90f, 0.95f),  // 7 cyan
    glm::vec3(0.95f, 0.95f, 0.95f),  // 8 white
};

// Diverging stops at min, middle and max: blue, white, red.
inline constexpr std::array<glm::vec3, 3> kDivergingStops = {
    glm::vec3(0.13f, 0.30f, 0.80f),
    glm::vec3(0.97f, 0.97f, 0.97f),
    glm::vec3(0.80f, 0.12f, 0.10f),
};

// Piecewise-linear interpolation of `stops` at t in [0, 1] (clamped); the shader evaluates the
// same function.
template <size_t N>
glm::vec3 stops_color(const std::array<glm::vec3, N>& stops, float t) {
  const float x = std::clamp(t, 0.0f, 1.0f) * float(N - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(N) - 2);
  return glm::mix(stops[i], stops[i + 1], x - float(i));
}

// The colour `map` gives `value` over [min, max] (NaN: kUndefinedColor). For legends and tests.
inline glm::vec3 color_map_color(ColorMap map, float value, float min, float max) {
  if (value != value) return kUndefinedColor;
  const float t = max > min ? (value - min) / (max - min) : 0.0f;
  switch (map) {
    case ColorMap::Heat:
      return value <= min ? kZeroColor : stops_color(kHeatStops, t);
    case ColorMap::Categorical: {
      const int i = std::clamp(static_cast<int>(std::floor(value + 0.5f)), 0,
                               static_cast<int>(kCategoryColors.size()) - 1);
      return kCategoryColors[size_t(i)];
    }
    case ColorMap::Diverging:
      return stops_color(kDivergingStops, t);
  }
  return kUndefinedColor;
}

}  // namespace rig::analysis
