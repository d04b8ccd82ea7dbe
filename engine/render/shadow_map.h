// The key light's shadow map: a depth texture rendered from the light's orthographic view, its
// frustum fitted each frame to the casters' (animated) bounds, and the ground's shadow catcher.
// shaders/shadow.glsl's key_light_visibility() reads it (percentage-closer filtered).
//
//   ShadowMap map;  map.init(error);                          // once, with the context current
//   per frame:  map.fit(caster_bounds, to_light);
//               map.begin();  <depth-only draws with map.light_view_proj()>  map.end();
//               mesh pass with map.frame();  map.draw_catcher(view_proj, ground_y);
//
// No allocation after init(): the fit, the pass and the catcher's corners are fixed-size work.
#pragma once

#include <glad/gl.h>

#include <glm/glm.hpp>
#include <string>

#include "render/camera.h"

namespace rig::render::detail {

inline constexpr GLint kShadowUnit = 7;      // texture unit of the shadow map in the mesh programs
inline constexpr int kShadowMapSize = 1024;  // texels per side

// What a mesh program needs to look the shadow up (shadow.glsl's uniforms).
struct ShadowFrame {
  bool enabled = false;
  glm::mat4 matrix{1.0f};                 // world → (s, t, depth) in [0, 1]
  GLuint texture = 0;                     // depth texture, compare mode on
  float texel = 0.0f;                     // 1 / map size
  float normal_offset = 0.0f;             // world size of one texel
  glm::vec3 direction{0.0f, 1.0f, 0.0f};  // unit, towards the light
};

// shadow.glsl's uniforms in one linked program, looked up once.
struct ShadowUniforms {
  GLint enabled = -1, matrix = -1, texel = -1, normal_offset = -1, direction = -1;
  static ShadowUniforms locate(GLuint program);  // also points u_shadow_map at kShadowUnit
  void set(const ShadowFrame& frame) const;      // binds the map on kShadowUnit when enabled
};

// The light's orthographic view-projection fitted to `casters`: looking along −to_light, the
// box's eight corners span x and y of clip space exactly up to a margin of `margin` (a fraction
// of each side, room for the filter's footprint) and depth [−1, 1] with the same margin. Pure
// maths, no GL. `to_light` need not be unit; a zero one is taken as straight up.
glm::mat4 fit_light_view_proj(const Bounds& casters, glm::vec3 to_light, float margin);

class ShadowMap {
 public:
  bool init(std::string& error);  // texture, framebuffer, catcher program; allocates
  void release();

  // Fits the light's frustum to `casters` (padded for the filter) for a light towards
  // `to_light` (world, unit). false (and nothing to draw) when the bounds are invalid.
  bool fit(const Bounds& casters, glm::vec3 to_light);
  const glm::mat4& light_view_proj() const { return light_view_proj_; }

  // Binds the depth framebuffer (full map viewport, depth cleared, colour writes and the
  // scissor off, slope-scaled polygon offset on); end() restores the draw framebuffer bound
  // before begin() and the colour mask, and turns the offset off (the caller sets its viewport
  // and scissor again).
  void begin();
  void end();

  // The lookup's uniforms for this frame: enabled once fit() succeeded.
  ShadowFrame frame() const;

  // The ground's catcher at height `ground_y`: the region of the ground plane the fitted
  // frustum covers, darkened where the shadow falls and blended over what is drawn (depth
  // tested, not written). Nothing when the light is too low to reach the ground.
  void draw_catcher(const glm::mat4& view_proj, float ground_y);

 private:
  GLuint texture_ = 0, framebuffer_ = 0;
  GLuint catcher_program_ = 0, catcher_vao_ = 0;
  GLint catcher_view_proj_ = -1, catcher_corners_ = -1, catcher_strength_ = -1;
  ShadowUniforms catcher_shadow_;
  GLint previous_framebuffer_ = 0;
  bool fitted_ = false;
  glm::mat4 light_view_proj_{1.0f};
  glm::vec3 to_light_{0.0f, 1.0f, 0.0f};
  float texel_world_ = 0.0f;
};

}  // namespace rig::render::detail
