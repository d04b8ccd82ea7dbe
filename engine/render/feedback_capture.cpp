#include "render/feedback_capture.h"

#include <algorithm>

namespace rig::render::detail {

namespace {
// v_world_position (3), v_world_normal (3), v_world_tangent (4), interleaved.
constexpr size_t kFloatsPerVertex = 10;
}  // namespace

void FeedbackCapture::release() {
  if (buffer_) glDeleteBuffers(1, &buffer_);
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (rb_) glDeleteRenderbuffers(1, &rb_);
  fbo_ = rb_ = buffer_ = 0;
  bytes_ = 0;
}

void FeedbackCapture::capture(GLuint vao, GLsizei vertex_count, std::span<glm::vec3> out_positions,
                              std::span<glm::vec3> out_normals, GLsizei instances,
                              std::span<glm::vec4> out_tangents) {
  const size_t n = size_t(vertex_count) * size_t(std::max<GLsizei>(instances, 1));
  const GLsizeiptr bytes = GLsizeiptr(n * kFloatsPerVertex * sizeof(float));
  if (!buffer_) glGenBuffers(1, &buffer_);
  if (!fbo_) {
    glGenRenderbuffers(1, &rb_);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_);
  }
  GLint previous_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer_);
  if (bytes > bytes_) {
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
    bytes_ = bytes;
  }
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer_, 0, bytes);
  glEnable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(vao);
  // Every vertex once, in order: points, not the primitive's own topology.
  glBeginTransformFeedback(GL_POINTS);
  if (instances > 1)
    glDrawArraysInstanced(GL_POINTS, 0, vertex_count, instances);
  else
    glDrawArrays(GL_POINTS, 0, vertex_count);
  glEndTransformFeedback();
  glBindVertexArray(0);
  glDisable(GL_RASTERIZER_DISCARD);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previous_fbo));
  scratch_.resize(n * kFloatsPerVertex);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, scratch_.data());
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  for (size_t v = 0; v < n; ++v) {
    const float* f = &scratch_[v * kFloatsPerVertex];
    out_positions[v] = glm::vec3(f[0], f[1], f[2]);
    out_normals[v] = glm::vec3(f[3], f[4], f[5]);
    if (!out_tangents.empty()) out_tangents[v] = glm::vec4(f[6], f[7], f[8], f[9]);
  }
}

}  // namespace rig::render::detail
