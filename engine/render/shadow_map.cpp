#include "render/shadow_map.h"

#include <algorithm>
#include <array>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_util.h"

namespace rig::render::detail {

namespace {

// Room at each side of the fitted frustum for the filter's footprint (2 × 2 taps half a texel
// out, each a bilinear 2 × 2: 1.5 texels out from the centre) plus a little.
constexpr float kFitMargin = 4.0f / float(kShadowMapSize);
// Depth-pass polygon offset: the slope factor covers the filter's reach (1.5 texels of depth
// change across a sloped caster, and a margin), the constant a few steps of the 24-bit depth.
constexpr float kSlopeBias = 2.5f;
constexpr float kConstantBias = 8.0f;
// How dark the ground's shadow is: the fraction of the background it takes away.
constexpr float kCatcherStrength = 0.45f;
// Below this elevation (sine) the key light grazes the ground: no catcher.
constexpr float kMinGroundLight = 0.05f;

glm::vec3 unit_or_up(glm::vec3 v) {
  const float len = glm::length(v);
  return len > 0.0f ? v / len : glm::vec3(0.0f, 1.0f, 0.0f);
}

}  // namespace

glm::mat4 fit_light_view_proj(const Bounds& casters, glm::vec3 to_light, float margin) {
  const glm::vec3 l = unit_or_up(to_light);
  // Any up not parallel to the light: the map's orientation about the light is free.
  const glm::vec3 up = std::abs(l.y) > 0.99f ? glm::vec3(0.0f, 0.0f, -1.0f) : glm::vec3(0, 1, 0);
  const glm::vec3 center = casters.center();
  const glm::mat4 view = glm::lookAt(center, center - l, up);
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner(i & 1 ? casters.max.x : casters.min.x,
                           i & 2 ? casters.max.y : casters.min.y,
                           i & 4 ? casters.max.z : casters.min.z);
    const glm::vec3 v = glm::vec3(view * glm::vec4(corner, 1.0f));
    lo = glm::min(lo, v);
    hi = glm::max(hi, v);
  }
  // A flat caster seen edge-on (or face-on, in depth) still needs a frustum of some size.
  const float floor = 1e-4f * std::max(casters.diagonal(), 1e-3f);
  const glm::vec3 size = glm::max(hi - lo, glm::vec3(floor));
  lo -= size * margin;
  hi += size * margin;
  // View space looks down −z: near and far are distances along it.
  return glm::ortho(lo.x, hi.x, lo.y, hi.y, -hi.z, -lo.z) * view;
}

bool ShadowMap::init(std::string& error) {
  release();
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, kShadowMapSize, kShadowMapSize, 0,
               GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  // Beyond the map nothing casts: the border is the far plane, which never occludes.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glBindTexture(GL_TEXTURE_2D, 0);

  GLint previous = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, texture_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    error = "the shadow map's depth framebuffer is incomplete";
    release();
    return false;
  }

  catcher_program_ = build_program({"shadow_catcher.vert.glsl"},
                                   {"shadow.glsl", "shadow_catcher.frag.glsl"}, "", {}, error);
  if (!catcher_program_) {
    release();
    return false;
  }
  catcher_view_proj_ = glGetUniformLocation(catcher_program_, "u_view_proj");
  catcher_corners_ = glGetUniformLocation(catcher_program_, "u_corners");
  catcher_strength_ = glGetUniformLocation(catcher_program_, "u_strength");
  catcher_shadow_ = ShadowUniforms::locate(catcher_program_);
  glGenVertexArrays(1, &catcher_vao_);  // core profile draws need one, even without attributes
  check_gl_errors("ShadowMap::init");
  return true;
}

void ShadowMap::release() {
  if (catcher_program_) glDeleteProgram(catcher_program_);
  if (catcher_vao_) glDeleteVertexArrays(1, &catcher_vao_);
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
  catcher_program_ = catcher_vao_ = framebuffer_ = texture_ = 0;
  fitted_ = false;
}

bool ShadowMap::fit(const Bounds& casters, glm::vec3 to_light) {
  fitted_ = texture_ != 0 && casters.valid();
  if (!fitted_) return false;
  to_light_ = unit_or_up(to_light);
  light_view_proj_ = fit_light_view_proj(casters, to_light_, kFitMargin);
  // Clip x and y span 2 over the frustum: a texel's world size from the projection's scale.
  const glm::vec3 row_x(light_view_proj_[0][0], light_view_proj_[1][0], light_view_proj_[2][0]);
  const glm::vec3 row_y(light_view_proj_[0][1], light_view_proj_[1][1], light_view_proj_[2][1]);
  const float width = 2.0f / std::max(glm::length(row_x), 1e-30f);
  const float height = 2.0f / std::max(glm::length(row_y), 1e-30f);
  texel_world_ = std::max(width, height) / float(kShadowMapSize);
  return true;
}

void ShadowMap::begin() {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, kShadowMapSize, kShadowMapSize);
  glDisable(GL_SCISSOR_TEST);
  glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  glClearDepth(1.0);
  glClear(GL_DEPTH_BUFFER_BIT);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(kSlopeBias, kConstantBias);
}

void ShadowMap::end() {
  glDisable(GL_POLYGON_OFFSET_FILL);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previous_framebuffer_));
  check_gl_errors("ShadowMap::end");
}

ShadowFrame ShadowMap::frame() const {
  ShadowFrame f;
  f.enabled = fitted_;
  // Clip space [−1, 1] to texture coordinates and depth in [0, 1].
  const glm::mat4 to_texture = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) *
                               glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
  f.matrix = to_texture * light_view_proj_;
  f.texture = texture_;
  f.texel = 1.0f / float(kShadowMapSize);
  f.normal_offset = texel_world_;
  f.direction = to_light_;
  return f;
}

void ShadowMap::draw_catcher(const glm::mat4& view_proj, float ground_y) {
  if (!fitted_ || to_light_.y < kMinGroundLight) return;
  // The frustum's four side edges, followed along the light down to the ground.
  const glm::mat4 inverse = glm::inverse(light_view_proj_);
  std::array<glm::vec3, 4> corners;
  const glm::vec2 ndc[4] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
  for (int i = 0; i < 4; ++i) {
    const glm::vec4 h = inverse * glm::vec4(ndc[i], 0.0f, 1.0f);
    const glm::vec3 p = glm::vec3(h) / h.w;
    corners[size_t(i)] = p + to_light_ * ((ground_y - p.y) / to_light_.y);
  }
  glUseProgram(catcher_program_);
  glUniformMatrix4fv(catcher_view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform3fv(catcher_corners_, 4, glm::value_ptr(corners[0]));
  glUniform1f(catcher_strength_, kCatcherStrength);
  catcher_shadow_.set(frame());
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glBindVertexArray(catcher_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glUseProgram(0);
  check_gl_errors("ShadowMap::draw_catcher");
}

ShadowUniforms ShadowUniforms::locate(GLuint program) {
  ShadowUniforms u;
  u.enabled = glGetUniformLocation(program, "u_shadow_enabled");
  u.matrix = glGetUniformLocation(program, "u_shadow_matrix");
  u.texel = glGetUniformLocation(program, "u_shadow_texel");
  u.normal_offset = glGetUniformLocation(program, "u_shadow_normal_offset");
  u.direction = glGetUniformLocation(program, "u_shadow_direction");
  if (GLint map = glGetUniformLocation(program, "u_shadow_map"); map >= 0) {
    GLint current = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &current);
    glUseProgram(program);
    glUniform1i(map, kShadowUnit);
    glUseProgram(GLuint(current));
  }
  return u;
}

void ShadowUniforms::set(const ShadowFrame& frame) const {
  glUniform1i(enabled, frame.enabled ? 1 : 0);
  if (!frame.enabled) return;
  glUniformMatrix4fv(matrix, 1, GL_FALSE, glm::value_ptr(frame.matrix));
  glUniform1f(texel, frame.texel);
  glUniform1f(normal_offset, frame.normal_offset);
  glUniform3fv(direction, 1, glm::value_ptr(frame.direction));
  glActiveTexture(GL_TEXTURE0 + kShadowUnit);
  glBindTexture(GL_TEXTURE_2D, frame.texture);
  glActiveTexture(GL_TEXTURE0);
}

}  // namespace rig::render::detail
