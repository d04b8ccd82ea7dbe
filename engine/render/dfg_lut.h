// The split-sum table of GGX specular reflection ("DFG"): for a roughness and N·V, the scale A
// and bias B with which the directional albedo of a specular lobe with Fresnel F0 is
// F0·A + B. three.js samples such a table (16 × 16, linear, clamped: its `dfgLUT`) for the
// energy its ambient diffuse term loses to specular reflection and for the multiple-scattering
// compensation of its direct specular; the reference lighting (mesh.frag.glsl) does the same.
// No GL here: the renderer uploads the table.
#pragma once

#include <glm/glm.hpp>
#include <vector>

namespace rig::render {

inline constexpr int kDfgTableSize = 16;
inline constexpr int kDfgTableSamples = 1024;

// ∫ (1 − Fc)·G_vis and ∫ Fc·G_vis over GGX-importance-sampled half vectors (`samples` points of
// the Hammersley set; α = roughness², height-correlated Smith visibility, Fc = (1 − V·H)^5).
glm::vec2 integrate_dfg(float n_dot_v, float roughness, int samples);

// size × size (A, B) pairs, row by row: row j is N·V = (j + 0.5)/size, column i roughness
// (i + 0.5)/size, so texture coordinates (roughness, N·V) address it directly. Allocates.
std::vector<float> dfg_table(int size = kDfgTableSize, int samples = kDfgTableSamples);

}  // namespace rig::render
