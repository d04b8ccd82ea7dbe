// The mesh programs, one per skinning-method table row × palette storage (uniform block or
// texture buffer) × use (drawing or transform-feedback capture), plus the rigid ones. Each
// skinned program is "#version" + the generated layout header + skin_common.glsl + the row's
// shader file + mesh.vert.glsl, so adding a method needs no change here.
#pragma once

#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <string>

#include "skin/skinning_method.h"

namespace rig::render::detail {

inline constexpr GLuint kPaletteBinding = 0;  // uniform-block binding of every palette
inline constexpr GLint kBaseColorUnit = 0;
inline constexpr GLint kPaletteUnit = 1;  // texture unit of texture-buffer palettes

struct MeshProgram {
  GLuint id = 0;
  GLint view_proj = -1, model = -1, normal_matrix = -1, influences = -1, joint_count = -1,
        base_color_factor = -1, has_texture = -1, eye = -1, key_direction = -1, flat = -1,
        flat_color = -1, field_view = -1, color_map = -1, field_range = -1,
        undefined_color = -1;
};

// Looks up the uniforms of linked program `id` and sets the ones that never change (colour
// maps, texture units, the palette block binding). Also used by the crowd programs.
MeshProgram mesh_program(GLuint id);

// The one place the palette layout reaches GLSL: #defines generated from the table row
// (nullptr: rigid) and rig::kMaxInfluences. `palette_vec4s` sizes the uniform block; with
// `texture_buffer` the palette is an RGBA32F texture buffer instead.
std::string skinning_layout_header(const rig::SkinningMethodInfo* method, bool texture_buffer,
                                   uint32_t palette_vec4s);

class SkinPrograms {
 public:
  // Builds every program. false + error (naming the program) on a compile or link failure.
  bool build(uint32_t palette_vec4s, std::string& error);
  void release();

  // method == nullptr: the rigid program.
  const MeshProgram& get(const rig::SkinningMethodInfo* method, bool texture_buffer,
                         bool capture) const;
  // std140 size of the palette uniform block (what every uniform-block palette buffer holds).
  GLint palette_block_bytes() const { return palette_block_bytes_; }
  int program_count() const;

 private:
  // [method][texture buffer][capture]
  std::array<std::array<std::array<MeshProgram, 2>, 2>, rig::kSkinningMethodCount> skinned_{};
  std::array<MeshProgram, 2> rigid_{};  // [capture]
  GLint palette_block_bytes_ = 0;
};

}  // namespace rig::render::detail
