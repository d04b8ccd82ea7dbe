// Transform-feedback read-back of a vertex shader's world-space outputs (v_world_position,
// v_world_normal, v_world_tangent), every vertex once, in order. A complete 1x1 framebuffer stays
// bound meanwhile: GL validates the draw framebuffer even with rasterizer discard, and a
// surfaceless context has no default one.
#pragma once

#include <glad/gl.h>

#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace rig::render::detail {

class FeedbackCapture {
 public:
  void release();
  // Runs the bound program (set up by the caller) over `vertex_count` points of `vao` and
  // reads positions and normals back. The scratch grows to the largest capture. With
  // `instances` > 1 the draw is instanced and the outputs hold instance after instance (spans
  // sized vertex_count × instances). `out_tangents`, when not empty, gets the tangents too.
  void capture(GLuint vao, GLsizei vertex_count, std::span<glm::vec3> out_positions,
               std::span<glm::vec3> out_normals, GLsizei instances = 1,
               std::span<glm::vec4> out_tangents = {});

 private:
  GLuint fbo_ = 0, rb_ = 0, buffer_ = 0;
  GLsizeiptr bytes_ = 0;
  std::vector<float> scratch_;
};

}  // namespace rig::render::detail
