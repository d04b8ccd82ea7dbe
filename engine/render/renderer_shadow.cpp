// The renderer's key-light shadow (render/shadow_map.h): the depth pass over every draw item
// through the same skinning vertex shaders as the frame, with the depth programs' empty
// fragment stage (shaders/depth.frag.glsl) for opaque materials and the alpha-tested one
// (depth_alpha.frag.glsl) for the ones the look cuts by alpha, and the ground's catcher.
#include <glad/gl.h>

#include "render/gl_util.h"
#include "render/renderer_impl.h"

namespace rig::render {

detail::Lighting Renderer::Impl::lighting(const Camera& camera, LightSetup setup) const {
  return detail::Lighting::for_frame(camera, setup, key_override);
}

void Renderer::Impl::draw_shadow_pass(const Camera& camera, const DrawOptions& options) {
  const glm::vec3 to_light = lighting(camera, LightSetup::Viewer).key_direction;
  if (!shadow.fit(caster_bounds, to_light)) return;
  const bool cpu = options.cpu_skinned && cpu_skinning;
  // The classic look (and the CPU-skinned frame, drawn in it) draws MASK and BLEND surfaces
  // whole, so they cast whole there; the glTF shading of the studio look cuts them by alpha,
  // and so does their shadow.
  const bool alpha = options.lights != LightSetup::Viewer && !cpu;
  ShadowKey key{pose_serial, options.method, cpu, shadow.light_view_proj()};
  key.alpha_cast = alpha;
  key.material_cast_revision = alpha ? materials.cast_revision() : 0;
  if (!shadow_valid || !(key == shadow_key)) {
    Camera light;
    light.view = glm::mat4(1.0f);
    light.projection = shadow.light_view_proj();
    light.eye = caster_bounds.center() + to_light * caster_bounds.diagonal();
    shadow.begin();
    depth_pass = true;
    depth_alpha = alpha;
    if (cpu)
      draw_cpu_items(light, true, glm::vec4(0.0f), nullptr);
    else
      draw_items(light, options.method, true, glm::vec4(0.0f), nullptr);
    depth_pass = false;
    depth_alpha = false;
    shadow.end();
    shadow_key = key;
    shadow_valid = true;
    ++shadow_passes;
  }
  frame_shadow = shadow.frame();
  check_gl_errors("Renderer::draw_shadow_pass");
}

void Renderer::Impl::draw_shadow_catcher(const glm::mat4& view_proj) {
  if (frame_shadow.enabled) shadow.draw_catcher(view_proj, ground_y);
}

}  // namespace rig::render
