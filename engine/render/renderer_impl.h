// The renderer's private state, shared by its source files (renderer.cpp: models, updates and
// the frame's passes; renderer_compare.cpp: compare columns and text; renderer_queries.cpp:
// read-backs, timing and introspection).
#pragma once

#include <glad/gl.h>

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "render/environment_gpu.h"
#include "render/feedback_capture.h"
#include "render/gpu_mesh.h"
#include "render/gpu_palette.h"
#include "render/gpu_timer.h"
#include "render/materials.h"
#include "render/overlays.h"
#include "render/renderer.h"
#include "render/shadow_map.h"
#include "render/skin_programs.h"

namespace rig::render {

struct Renderer::Impl {
  RendererConfig config;
  bool initialized = false;
  // init() has run, so GL objects may exist (also after a failed init) and a context is known:
  // release_all() deletes them. Without it, release_all() makes no GL call at all.
  bool owns_gl_objects = false;
  uint32_t palette_limit_bytes = 0;  // bytes usable by a uniform-block palette
  GLint max_texture_buffer_texels = 0;

  detail::SkinPrograms programs;
  detail::Overlays overlays;
  detail::GpuTimer timer;
  detail::FeedbackCapture feedback;
  detail::GpuEnvironment environment;
  detail::StudioFrame studio_frame;  // this frame's (draw()): the environment and look settings
  glm::vec3 subpixel_grid{0.0f};     // this frame's (draw()): MeshPassFrame::subpixel_grid

  const rig::Model* model = nullptr;
  // The skin layer drawn, and the revisions of it the GPU buffers hold (influences, centres).
  std::shared_ptr<const rig::SkinLayer> skin;
  uint64_t synced_revision = 0, synced_centers = 0;
  uint64_t influence_vertices_uploaded = 0;
  std::vector<detail::StaticVertex> static_scratch;  // one primitive's vertices, for edit uploads
  // Per prepared primitive (SkinMeshes::primitives), the draw items that draw it.
  std::vector<std::vector<uint32_t>> items_of_primitive;
  std::vector<detail::GpuDrawItem> items;
  std::vector<detail::GpuSkin> skins;
  detail::MaterialTable materials;
  std::vector<glm::vec3> morph_positions, morph_normals;
  std::vector<float> morph_interleaved;
  std::vector<glm::vec4> morph_tangents;  // sized for the largest item with TANGENT deltas
  bool cpu_skinning = false;
  std::vector<float> cpu_interleaved;  // the largest item's vertices, 6 floats each

  // Palettes: the character of the last update() and, per method (bit), whether its palettes
  // still have to be asked from it and uploaded.
  const rig::Character* character = nullptr;
  uint32_t stale_palettes = 0;
  std::array<uint64_t, rig::kSkinningMethodCount> palette_upload_count{};

  // Scalar field on the GPU: which field (and revision) the items' field buffers hold, and per
  // item whether it has values. `own_field` backs DrawOptions::weight_view.
  const rig::analysis::ScalarField* uploaded_field = nullptr;
  uint64_t uploaded_revision = 0;
  std::vector<char> item_has_field;
  // The reference shading's BLEND items of this frame: (NDC depth of the node origin, item),
  // reserved per model so a frame does not allocate.
  std::vector<std::pair<float, uint32_t>> blend_order;
  std::vector<float> field_scratch;
  // The key light's shadow: the map, the bind boxes that bound every pose cheaply, the casters'
  // bounds under the last uploaded pose, the ground's height, and this draw's light and lookup.
  detail::ShadowMap shadow;
  BindBoxes boxes;
  Bounds caster_bounds;
  float ground_y = 0.0f;
  glm::vec3 key_override{0.0f};
  detail::ShadowFrame frame_shadow;
  // What the map was last drawn from. It is drawn again only when one of these changed: the
  // pose (pose_serial moves on when the world matrices or morph weights differ from the last
  // upload, on skin edits and on CPU-skinned vertices), the method, CPU skinning or the light's
  // fitted frustum (its direction and the casters' bounds). A paused character under a still
  // camera costs no shadow pass.
  struct ShadowKey {
    uint64_t pose_serial = 0;
    rig::SkinningMethod method = rig::SkinningMethod::Linear;
    bool cpu_skinned = false;
    glm::mat4 light_view_proj{0.0f};
    // Whether MASK and BLEND materials cast cut by alpha (the looks whose shading cuts them),
    // and the materials' animated values they are cut by (MaterialTable::cast_revision).
    bool alpha_cast = false;
    uint64_t material_cast_revision = 0;
    bool operator==(const ShadowKey&) const = default;
  };
  ShadowKey shadow_key;
  bool depth_pass = false;   // draw_items and draw_cpu_items use the depth programs
  bool depth_alpha = false;  // with depth_pass: draw_items cuts MASK and BLEND by alpha
  bool shadow_valid = false;
  uint64_t shadow_passes = 0;  // maps drawn (for tests)
  uint64_t pose_serial = 1;
  std::vector<glm::mat4> last_world;  // the last uploaded pose, sized once per model
  std::vector<float> last_morph_weights;
  rig::analysis::ScalarField own_field;
  WeightView own_view = WeightView::Off;
  int own_joint_node = -1;

  ~Impl() { release_all(); }

  void release_model();
  // Brings the draw items' influences and centres up to the skin layer's revision: only the
  // vertex ranges edited since the last sync (all when the layer's log no longer reaches back).
  void sync_skin();
  void upload_influence_range(uint32_t primitive, uint32_t begin, uint32_t end);
  void release_all();
  void upload_state(std::span<const glm::mat4> world, std::span<const float> morph_weights);
  // Moves pose_serial on when `world` or `morph_weights` differ from the last pose noted. No
  // allocation once the model's sizes are reached.
  void note_pose(std::span<const glm::mat4> world, std::span<const float> morph_weights);
  void ensure_palettes(rig::SkinningMethod method);
  const rig::analysis::ScalarField* active_field(const DrawOptions& options);
  void upload_field(const rig::analysis::ScalarField* field);
  void draw_items(const Camera& camera, rig::SkinningMethod method, bool flat, glm::vec4 flat_color,
                  const rig::analysis::ScalarField* field, LightSetup lights = LightSetup::Viewer);
  void draw_cpu_items(const Camera& camera, bool flat, glm::vec4 flat_color,
                      const rig::analysis::ScalarField* field);
  // The frame's light: the default or DrawOptions::key_light (renderer_shadow.cpp).
  detail::Lighting lighting(const Camera& camera, LightSetup setup) const;
  // Renders the shadow map for `options` and sets frame_shadow, left off when nothing casts.
  // Changes the viewport: call before setting the frame's.
  void draw_shadow_pass(const Camera& camera, const DrawOptions& options);
  // The ground's shadow catcher at ground_y, when this draw has a shadow.
  void draw_shadow_catcher(const glm::mat4& view_proj);
};

}  // namespace rig::render
