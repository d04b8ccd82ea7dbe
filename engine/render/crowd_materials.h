// A crowd's animated material values on the GPU (CrowdRenderer's part for them): one RGBA32F
// texture buffer holding Crowd::material_rows as it is, rewritten per frame (orphaned first,
// like the palettes), which the crowd programs read by instance in place of the material
// uniforms for the materials the clips animate (shaders/material_values.glsl). A crowd whose
// clips animate no material has no buffer, and every item keeps its uniforms.
#pragma once

#include <glad/gl.h>

#include <string>

#include "character/crowd.h"
#include "render/skin_programs.h"

namespace rig::render::detail {

class CrowdMaterialBuffer {
 public:
  // Sizes the buffer for `crowd` (none when nothing is animated). false + error when the rows
  // exceed `max_texels` (GL_MAX_TEXTURE_BUFFER_SIZE). Allocates; not per frame.
  bool create(const rig::Crowd& crowd, GLint max_texels, std::string& error);
  void release();
  // Writes every instance's rows. No allocation.
  void upload(const rig::Crowd& crowd) const;
  // Points program `p` at `material`'s rows (binding the buffer on kCrowdMaterialUnit), or at
  // its uniforms (u_material_base -1) when no clip animates it.
  void bind(const MeshProgram& p, const rig::Crowd& crowd, int material) const;

 private:
  GLuint buffer_ = 0, texture_ = 0;
};

}  // namespace rig::render::detail
