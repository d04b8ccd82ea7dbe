// Instanced drawing of a rig::Crowd (engine/character/crowd.h): one draw call per primitive and
// method for every instance. All instances' palettes of a method live in one RGBA32F texture
// buffer (the crowd's flat buffer as it is: instance-major, skin-major rows), which the crowd
// programs (the table row's shader compiled with CROWD) index by gl_InstanceID; each instance's
// grid offset is computed in the shader from gl_InstanceID and the grid's columns and spacing
// (the same arithmetic as Crowd::grid_offset). Rigid primitives are instanced too: each
// instance's world matrix of the item's node comes from a second texture buffer
// (Crowd::rigid_matrices), plus the offset. Materials the clips animate read each instance's
// values from a third texture buffer (render/crowd_materials.h). Morph targets are not applied in
// the crowd (the base mesh is drawn).
//
// The crowd casts the key light's shadow as the single character does (CrowdDrawOptions), and
// is shaded in any of the single character's looks (CrowdDrawOptions::lights, with the studio
// look's settings and the environment of set_environment): the same MeshPassFrame, the same
// back-face culling of single-sided materials and BLEND items after the opaque ones, blended
// without depth writes. Unlike the single character's BLEND items (sorted back to front), the
// instances of one BLEND item are drawn in instance order, in one instanced draw.
//
// Like Renderer, it needs a current 3.3 core context with glad loaded, and must be destroyed
// before the context.
//
//   CrowdRenderer r;  r.init(error);  r.set_crowd(crowd, error);     // once
//   crowd.update(dt);  r.upload(crowd);                              // per frame
//   r.draw(camera, viewport, method);                                // GPU ms: gpu_time_ms()
#pragma once

#include <memory>
#include <span>
#include <string>

#include "character/crowd.h"
#include "render/camera.h"
#include "render/environment_prefilter.h"
#include "render/look.h"
#include "render/scene_lights.h"
#include "skin/skinning_method.h"

namespace rig::render {

// What CrowdRenderer::draw draws besides the crowd.
struct CrowdDrawOptions {
  bool grid = true;  // the ground grid under the whole crowd
  // The key light's shadow (render/shadow_map.h) as the single character's renderer casts it:
  // onto the instances and, with the grid, onto the ground.
  bool shadows = false;
  // The key light's direction towards the light (world); zero: the viewer's default light,
  // fixed relative to the camera.
  glm::vec3 key_light{0.0f};
  // The look, as Renderer's DrawOptions::lights and ::look: the classic key light, or the glTF
  // shading under the reference scene's lights (or none) or the studio look (its environment
  // from set_environment, these settings).
  LightSetup lights = LightSetup::Viewer;
  LookSettings look;
};

class CrowdRenderer {
 public:
  CrowdRenderer();
  ~CrowdRenderer();
  CrowdRenderer(const CrowdRenderer&) = delete;
  CrowdRenderer& operator=(const CrowdRenderer&) = delete;

  // Compiles the crowd programs (every method row, drawing, capture and the shadow's depth
  // pass, and the rigid ones) and the shadow map.
  // false + one-line error on failure.
  bool init(std::string& error);
  // GPU resources for `crowd`'s model and size: vertex buffers, textures, one palette texture
  // buffer per method of crowd.methods(), the ground grid under the whole crowd. `crowd` must
  // outlive its use here. false + error when the palettes exceed GL_MAX_TEXTURE_BUFFER_SIZE.
  // Allocates; not per frame.
  bool set_crowd(const rig::Crowd& crowd, std::string& error);
  // The studio look's environment (render/environment_prefilter.h), uploaded now, as
  // Renderer::set_environment; until then a uniform mid grey. Allocates GPU memory; not per
  // frame. An empty environment is ignored.
  void set_environment(const PrefilteredEnvironment& environment);

  // Uploads every instance's palettes of crowd.methods(), its rigid items' node matrices and
  // its animated materials' values (buffers orphaned, then rewritten). Times itself: upload_ms().
  // No allocation.
  void upload(const rig::Crowd& crowd);
  // Ground grid (when `grid`), then every primitive once, instanced over the crowd, skinned
  // with `method` (which must be in crowd.methods()). GPU time of the pass (timer queries):
  // gpu_time_ms(). Does not clear.
  void draw(const Camera& camera, const Viewport& viewport, rig::SkinningMethod method,
            bool grid = true) {
    draw(camera, viewport, method, CrowdDrawOptions{grid});
  }
  // The same with a shadow: the key light's depth map over every instance (a frustum fitted to
  // the crowd's bounds under every clip), drawn again only when the uploaded pose, the method
  // or the light's frustum changed; the ground's catcher with the grid. The GPU time includes
  // the depth pass. No allocation.
  void draw(const Camera& camera, const Viewport& viewport, rig::SkinningMethod method,
            const CrowdDrawOptions& options);
  uint64_t shadow_passes_drawn() const;  // depth maps drawn so far (for tests)

  // Transform-feedback read-back of draw item `draw_index` for every instance under the last
  // upload: world-space positions and unit normals, instance after instance (spans sized
  // vertex_count × crowd count). false + error on failure.
  bool read_back(size_t draw_index, rig::SkinningMethod method, std::span<glm::vec3> positions,
                 std::span<glm::vec3> normals, std::string& error);

  // Milliseconds: CPU time of the last upload(); GPU time of a recent draw() (< 0 before the
  // first result).
  double upload_ms() const;
  double gpu_time_ms() const;
  uint64_t gl_error_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Bounds of the whole crowd: `one` (a single character's bounds) repeated at every grid offset.
Bounds crowd_bounds(const rig::Crowd& crowd, const Bounds& one);

}  // namespace rig::render
