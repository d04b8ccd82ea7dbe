// The skinning-method table: one row per method. Everything that differs between methods lives
// in its row: the name the command line and the viewer show, the palette layout, the function
// that writes the palette from the skinning matrices, the CPU kernel and the GLSL file of the
// vertex shader. Renderer, command line, viewer and analyses iterate this table; none of them
// branches on a method (what a method needs is a row field: uses_rotation_centers,
// write_joint_amounts). A row is named only where a definition names it: the LBS-DQS
// difference measure, LBS as the skinning that framing and the compression metric measure, and
// the benchmark cases compared with ozz-animation.
//
// Adding a method: a row here (and its enum value), one CPU kernel (skin/skin_kernels.h plus its
// .cpp) and one shader file (shaders/skin_<name>.glsl). Nothing else.
//
// Per-joint parameters: a method may read one float per joint besides the skinning matrices
// (the mix's DQS amount, skin/mix_kernel.h). Character::set_dqs_amounts holds them; the row's
// PaletteAmountsWriter puts them into the palette after its PaletteWriter, so rows without
// parameters and every caller that only has matrices are unchanged (amounts then read 0).
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <string_view>

#include "skin/skin_mesh.h"

namespace rig {

// A row of the table (the enum value is the row index).
enum class SkinningMethod : uint8_t { Linear, DualQuaternion, CentersOfRotation, Mix };
inline constexpr size_t kSkinningMethodCount = 4;

// Every method, in table order (the enum value is the row index, checked in skinning_method.cpp).
constexpr std::array<SkinningMethod, kSkinningMethodCount> all_skinning_methods() {
  std::array<SkinningMethod, kSkinningMethodCount> all{};
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<SkinningMethod>(i);
  return all;
}

// Writes one skin's palette: palette_rows vec4 rows per joint, from its skinning matrices
// (world × inverse bind). rows.size() == matrices.size() * palette_rows. No allocation.
using PaletteWriter = void (*)(std::span<const glm::mat4> skinning_matrices,
                               std::span<glm::vec4> rows);

// Writes per-joint amounts (one per joint, in [0, 1]) into a palette its row's PaletteWriter
// wrote. No allocation.
using PaletteAmountsWriter = void (*)(std::span<const float> joint_amounts,
                                      std::span<glm::vec4> rows);

// Skins every vertex of `mesh` from bind-space (morphed) positions and normals, reading the
// palette the row's PaletteWriter wrote: world-space positions, unit normals. Joint indices at
// or past the palette's joint count are skipped; a vertex whose weights sum to 0 keeps its
// position (and its normalized normal). In and out may alias. No allocation.
using SkinKernel = void (*)(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                            std::span<const glm::vec3> positions,
                            std::span<const glm::vec3> normals, std::span<glm::vec3> out_positions,
                            std::span<glm::vec3> out_normals);

// The positions-only form of a SkinKernel (same positions, no normals). Optional in a row.
using SkinPositionsKernel = void (*)(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                                     std::span<const glm::vec3> positions,
                                     std::span<glm::vec3> out_positions);

struct SkinningMethodInfo {
  SkinningMethod method;
  const char* name;         // command-line spelling, lower case: "lbs"
  const char* label;        // short label on views, legends and tables: "LBS"
  const char* description;  // "linear blend"
  uint32_t palette_rows;    // vec4 rows per joint
  PaletteWriter write_palette;
  SkinKernel skin;
  // Whether the method reads SkinMesh::rotation_centers (skin/rotation_centers.h): whoever
  // skins with it computes them first (without them it rotates each vertex about itself).
  bool uses_rotation_centers;
  // GLSL file (shaders/) that defines this method's skin_vertex(); the renderer builds one
  // program per row. Its palette layout is palette_rows, passed as a generated #define.
  const char* shader;
  // Optional: positions without normals, faster where only positions are needed; nullptr when
  // the method has none (call `skin` then).
  SkinPositionsKernel skin_positions = nullptr;
  // Optional: the method reads a per-joint amount (Character::set_dqs_amounts) through this;
  // nullptr for methods that read only the skinning matrices.
  PaletteAmountsWriter write_joint_amounts = nullptr;
};

std::span<const SkinningMethodInfo> skinning_methods();
const SkinningMethodInfo& method_info(SkinningMethod method);
// The row whose name is `name` (case-sensitive), nullptr when none.
const SkinningMethodInfo* find_skinning_method(std::string_view name);
// Every method's name joined by `separator`, in table order ("lbs|dqs|cor|mix"): usage, errors.
std::string skinning_method_names(std::string_view separator = "|");
// The names of the methods that read per-joint amounts (write_joint_amounts), joined by
// `separator` in table order ("mix").
std::string joint_amount_method_names(std::string_view separator = "|");

}  // namespace rig
