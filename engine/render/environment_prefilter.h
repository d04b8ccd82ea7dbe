// Image-based lighting from an environment map (render/environment_map.h), computed once per
// environment on the CPU (a worker thread in the viewer), uploaded by the renderer.
//
// Split-sum approximation (Karis, "Real Shading in Unreal Engine 4"):
//   specular ≈ prefiltered(R, roughness) · (F0·A + B), (A, B) from the DFG table
//              (render/dfg_lut.h);
//   prefiltered(R, r) = Σ L(l)·(N·l) / Σ (N·l) over GGX-importance-sampled l around N = V = R,
//              α = r²; one equirectangular level per roughness r = level / (levels − 1), each
//              level half the size of the one before (a mip chain the shader reads with
//              textureLod(roughness · (levels − 1))). Samples read a box-filtered pyramid of the
//              source at the level matching their solid angle (filtered importance sampling),
//              so few samples give no fireflies.
//   diffuse irradiance E(n) = ∫ L(l)·max(n·l, 0) dl from the 9 real spherical-harmonic
//              coefficients of L (Ramamoorthi & Hanrahan 2001): E(n) = Σ Â_l·L_lm·Y_lm(n),
//              Â_0 = π, Â_1 = 2π/3, Â_2 = π/4. Lambert-diffuse radiance = albedo·E/π.
#pragma once

#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "render/environment_map.h"

namespace rig::render {

inline constexpr int kEnvironmentBaseWidth = 256;  // level 0 (mirror) width; height = width/2
inline constexpr int kEnvironmentLevels = 5;       // 256×128 down to 16×8
inline constexpr int kPrefilterSamples = 96;       // GGX samples per texel of levels ≥ 1

// Real SH basis up to band 2 at unit direction d (x, y, z as they are), in the order
// Y00, Y1−1 (y), Y10 (z), Y11 (x), Y2−2 (xy), Y2−1 (yz), Y20 (3z²−1), Y21 (xz), Y22 (x²−y²).
std::array<float, 9> sh_basis(glm::vec3 d);
// L_lm = ∫ L(d)·Y_lm(d) dω over the map's texels (each weighted by its solid angle).
std::array<glm::vec3, 9> project_sh(const EnvironmentMap& map);
// Σ Â_l·L_lm·Y_lm(n): the irradiance on a surface with unit normal n.
glm::vec3 sh_irradiance(const std::array<glm::vec3, 9>& coefficients, glm::vec3 n);
// Â_l per coefficient (π, 2π/3 ×3, π/4 ×5).
float sh_band_factor(int index);

struct PrefilteredEnvironment {
  // levels[k]: roughness k/(levels − 1), kEnvironmentBaseWidth >> k wide.
  std::vector<EnvironmentMap> levels;
  // Â_l·L_lm: the shader's irradiance is Σ irradiance_sh[i]·Y_i(n).
  std::array<glm::vec3, 9> irradiance_sh{};
  bool empty() const { return levels.empty(); }
  // Reads as the shader does: trilinear between levels (bilinear within one).
  glm::vec3 specular(glm::vec3 direction, float roughness) const;
};

// Engine-style progress: fraction done; returning false cancels (prefilter returns false).
using PrefilterProgress = bool (*)(void* user, float fraction);

// Prefilters `map` (any size; reduced to the base width first). Allocates; ~0.1 s for the
// studio environment in a release build. false only when cancelled through `progress`.
bool prefilter_environment(const EnvironmentMap& map, PrefilteredEnvironment& out,
                           PrefilterProgress progress = nullptr, void* user = nullptr);

// A constant environment, prefiltered without integration (every level and the irradiance are
// exact): the renderer's stand-in until a real environment arrives.
PrefilteredEnvironment constant_prefiltered_environment(glm::vec3 radiance);

}  // namespace rig::render
