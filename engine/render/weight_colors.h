// Colours of the skin-weight views (DrawOptions::weight_view). One definition for the mesh
// shader (uploaded as uniforms at Renderer::init) and for legends drawn by the app, so the two
// cannot drift apart. Display (sRGB) colours; the shader lights them like any surface.
#pragma once

#include <algorithm>
#include <array>
#include <glm/glm.hpp>

namespace rig::render {

// Heat map of a joint's weight, stops at weights 0, 1/4, 1/2, 3/4 and 1: dark blue, teal,
// green, yellow, red. Red rises and blue falls monotonically with the weight, so the order
// reads even on a monochrome print.
inline constexpr std::array<glm::vec3, 5> kWeightHeatStops = {
    glm::vec3(0.06f, 0.10f, 0.62f),  // 0 (a tiny but non-zero weight)
    glm::vec3(0.08f, 0.55f, 0.60f),  // 1/4
    glm::vec3(0.25f, 0.75f, 0.25f),  // 1/2
    glm::vec3(0.92f, 0.82f, 0.10f),  // 3/4
    glm::vec3(1.00f, 0.10f, 0.05f),  // 1
};

// A vertex the joint does not influence at all (weight exactly 0): neutral grey, outside the
// heat map, so "no influence" and "a little influence" never look alike.
inline constexpr glm::vec3 kZeroWeightColor(0.50f, 0.50f, 0.50f);

// A broken vertex: no usable influence (every weight 0, or every joint index outside the skin),
// so skinning cannot place it. Shown in both weight views.
inline constexpr glm::vec3 kBrokenWeightColor(1.00f, 0.00f, 1.00f);

// Influence-count view: colour per number of non-zero influences, index 1..8 (index 0 is the
// broken colour).
inline constexpr std::array<glm::vec3, 9> kInfluenceCountColors = {
    kBrokenWeightColor,
    glm::vec3(0.25f, 0.45f, 0.95f),  // 1 blue
    glm::vec3(0.20f, 0.80f, 0.35f),  // 2 green
    glm::vec3(0.98f, 0.85f, 0.15f),  // 3 yellow
    glm::vec3(1.00f, 0.50f, 0.10f),  // 4 orange
    glm::vec3(0.90f, 0.15f, 0.15f),  // 5 red
    glm::vec3(0.60f, 0.30f, 0.85f),  // 6 violet
    glm::vec3(0.35f, 0.90f, 0.95f),  // 7 cyan
    glm::vec3(0.95f, 0.95f, 0.95f),  // 8 white
};

// The heat map at weight w (clamped to [0, 1]); the shader evaluates the same piecewise-linear
// function. For legends.
inline glm::vec3 weight_heat_color(float w) {
  const float x = std::clamp(w, 0.0f, 1.0f) * float(kWeightHeatStops.size() - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(kWeightHeatStops.size()) - 2);
  return glm::mix(kWeightHeatStops[i], kWeightHeatStops[i + 1], x - float(i));
}

}  // namespace rig::render
