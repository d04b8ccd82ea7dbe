// OpenGL 3.3 core renderer for a rig::Model: GPU skinning (one vertex program per row of the
// skinning-method table, skin/skinning_method.h), shaded meshes, scalar-field views
// (analysis/scalar_field.h), wireframe overlay, ground grid, skeleton overlay, GPU timing and a
// transform-feedback read-back of the skinned vertices (the GPU export and its tests).
//
// The renderer never creates a GL context: the app (GLFW) or rig::render::HeadlessContext
// (EGL, engine/render/headless_context.h) makes a 3.3 core context current and loads glad
// (gladLoadGL) before Renderer::init(). Every call needs that context current, the destructor
// too: destroy the renderer before the context (it deletes its GL objects).
//
// Typical frame:
//   renderer.update(character);                 // after character.evaluate(selection)
//   renderer.begin_gpu_timer();
//   renderer.clear(viewport, options.background);
//   renderer.draw(camera, viewport, options);   // or draw_compare(camera, viewport, options,
//   renderer.end_gpu_timer();                   //                 methods)
//
// Palettes are uploaded per method on first use after update(): a frame that draws only LBS
// never asks the character for (or uploads) a DQS palette. So the character given to update()
// must stay alive and unchanged until the frame's last draw / read-back.
//
// Field views: DrawOptions::field points at a rig::analysis::ScalarField (one float per vertex
// per draw item, a range, a colour map); the renderer uploads it as a vertex attribute when its
// address or revision changes. DrawOptions::weight_view is a shorthand for the two built-in
// fields (a joint's weights, influence counts), which the renderer fills itself.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/scalar_field.h"
#include "character/character.h"
#include "model/model.h"
#include "render/camera.h"
#include "render/environment_prefilter.h"
#include "render/look.h"
#include "render/scene_lights.h"
#include "skin/cpu_skinning.h"
#include "skin/skin_layer.h"
#include "skin/skinning_method.h"

namespace rig::render {

// Skin-weight display of skinned surfaces (rigid items always draw normally): shorthand for the
// built-in scalar fields (analysis::joint_weight_field / influence_count_field). Colours in
// analysis/color_map.h (render/weight_colors.h); the surfaces stay lit so the shape reads.
enum class WeightView {
  Off,
  // Heat map of the weight DrawOptions::weight_joint_node has on each vertex: the sum over the
  // vertex's influences on that joint after the skinning's own renormalization (the prepared
  // SkinMesh influences divided by their sum). Weight exactly 0: grey; no joint chosen: grey.
  SelectedJoint,
  // Number of non-zero influences per vertex (1..8), each count its own colour.
  InfluenceCount,
};

struct DrawOptions {
  rig::SkinningMethod method = rig::SkinningMethod::Linear;  // ignored by draw_compare
  bool surfaces = true;                                      // shaded meshes
  bool wireframe = false;        // edges over (or instead of) the surfaces
  bool grid = true;              // ground grid (see Renderer::set_ground)
  bool skeleton = false;         // bones joint→parent and joint markers, drawn through the mesh
  int selected_joint_node = -1;  // node index drawn highlighted in the skeleton overlay
  // Nodes drawn with a second, smaller highlight in the skeleton overlay (the other joints of a
  // rig-doctor finding). Must stay alive while drawn.
  std::span<const int> highlighted_joint_nodes;
  // A scalar field colours the surfaces (items with values), when set; it wins over
  // weight_view. Must stay alive while drawn; bump its revision after changing it.
  const rig::analysis::ScalarField* field = nullptr;
  // draw_compare: column i shows column_fields[i] instead of `field` where it is set (each
  // method's own heat map). Must stay alive while drawn.
  std::span<const rig::analysis::ScalarField* const> column_fields;
  WeightView weight_view = WeightView::Off;
  // Node whose weights WeightView::SelectedJoint shows (a node, like selected_joint_node: each
  // skin maps it to its own joint index; a skin it is not a joint of shows all grey). -1: none.
  int weight_joint_node = -1;
  glm::vec3 background{0.20f, 0.21f, 0.23f};
  // Draw the positions and normals last given to Renderer::upload_cpu_skinned (world space, the
  // rigid program at the identity) instead of skinning on the GPU; needs set_cpu_skinning(true).
  bool cpu_skinned = false;
  // The viewer's key light, or the reference scene's lights (or none) with glTF shading: then
  // single-sided materials have their back faces culled and double-sided ones flip the normal.
  LightSetup lights = LightSetup::Viewer;
  // The viewer's key light casts a shadow (a shadow map fitted to the character's animated
  // bounds) onto the surfaces and, with the grid, onto the ground. The classic and studio looks
  // only: the reference scene has no shadows. Off where the surfaces are off.
  bool shadows = false;
  // World direction towards the viewer's key light; zero: the default, fixed relative to the
  // camera (above, to the left, in front), so the light turns with the view.
  glm::vec3 key_light{0.0f};
  // The studio look's environment turn and intensity, key light, exposure and tone mapping
  // (LightSetup::Studio only).
  LookSettings look;
  // Snap every vertex to a grid of 1/2^subpixel_bits pixel before rasterising, so coverage is
  // that of a rasteriser with this sub-pixel precision (SwiftShader, the fidelity suite's
  // reference, has 4 bits; llvmpipe and most GPUs 8). 0: the GL's own precision. Surfaces only.
  int subpixel_bits = 0;
};

struct RendererConfig {
  // Bytes a palette may use in a uniform block. 0: GL_MAX_UNIFORM_BLOCK_SIZE, at most 64 KiB
  // (some drivers report 2 GiB, and every uniform-block palette is allocated at that size). A
  // skin whose palette is larger uses a texture buffer instead (tests force a small value).
  uint32_t palette_uniform_limit_bytes = 0;
};

class Renderer {
 public:
  explicit Renderer(const RendererConfig& config = {});
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Compiles and links every shader program (embedded at build time): per skinning-method row
  // × uniform-block / texture-buffer palette × draw / capture, and the rigid ones. Needs a
  // current 3.3 core context with glad loaded. false + one-line error on failure.
  bool init(std::string& error);

  // Creates the GPU resources of `model` (vertex buffers with the skin layer's influences,
  // textures, one palette buffer per skin and method) and a first state: the rest pose, so
  // draw() works before the first update(). `model` must outlive the renderer or the next
  // set_model/clear_model. `skin`: the skin layer drawn (pass Character::shared_skin_layer(), the
  // one the character skins with); nullptr, and the one-argument form: a layer made from the
  // model. Allocates; not per frame. Also sets the ground grid from the rest-pose bounds
  // (override with set_ground).
  bool set_model(const rig::Model& model, std::string& error);
  bool set_model(const rig::Model& model, std::shared_ptr<const rig::SkinLayer> skin,
                 std::string& error);
  void clear_model();
  // The skin layer drawn (nullptr without a model). update() brings the GPU buffers up to its
  // revision: it uploads only the vertex ranges edited since (SkinLayer::for_each_edit_since),
  // and the centres of rotation when they changed.
  const rig::SkinLayer* skin_layer() const;
  // Vertices whose influences were uploaded for edits so far, over all draw items (tests).
  uint64_t influence_vertices_uploaded() const;

  // The studio look's environment (render/environment_prefilter.h), uploaded now; until the
  // first call, a constant grey stand-in. Allocates GPU memory; not per frame. Needs init().
  void set_environment(const PrefilteredEnvironment& environment);
  // Environments uploaded so far (the stand-in included): a viewer's load shows up here.
  uint64_t environment_revision() const;

  // Ground grid at height bounds.min.y, sized to the bounds' footprint.
  void set_ground(const Bounds& bounds);

  // Per frame, after character.evaluate(): uploads the skin layer's edits since the last update,
  // the morphed vertices of morphed primitives,
  // rigid node matrices and the skeleton, and marks every palette stale; each method's
  // palettes are asked from the character and uploaded when first drawn / read back. The
  // second form uploads `methods` now. No allocation. The character must be built on the model
  // given to set_model, and outlive this frame's draws.
  void update(const rig::Character& character);
  void update(const rig::Character& character, std::span<const rig::SkinningMethod> methods);

  // CPU skinning, for what only the CPU paths skin (Learn mode's mistakes: the raw-weights and
  // no-hemisphere pitfalls, a second character's pose): on, every draw item gets a second vertex
  // array fed by upload_cpu_skinned, which DrawOptions::cpu_skinned draws. Allocates when turned
  // on; set_model and clear_model turn it off.
  void set_cpu_skinning(bool on);
  bool cpu_skinning() const;
  // World-space positions and unit normals of draw item `draw_index` (model.draws order), spans
  // of its vertex count, uploaded into the buffers set_cpu_skinning made. Several uploads in
  // one frame are allowed (each draw uses the last). No allocation.
  void upload_cpu_skinned(size_t draw_index, std::span<const glm::vec3> positions,
                          std::span<const glm::vec3> normals);

  // Clears colour and depth inside the viewport (scissored) to `color`.
  // Clears colour and depth inside the viewport (scissored) to `color` (alpha 1), or to an
  // RGBA colour (a transparent background: alpha 0).
  void clear(const Viewport& viewport, glm::vec3 color);
  void clear(const Viewport& viewport, glm::vec4 color);

  // Draws grid, surfaces, wireframe and skeleton per `options` into `viewport` of the bound
  // framebuffer. Does not clear.
  void draw(const Camera& camera, const Viewport& viewport, const DrawOptions& options);

  // Compare view: `viewport` split into methods.size() equal columns (compare_column), column i
  // drawn with methods[i] and the same camera (same vertical field of view, the column's own
  // aspect: Camera::with_aspect), dividers between columns and the table's labels ("LBS") when
  // `labels` is true. Does not clear. The second form compares every row of the table.
  void draw_compare(const Camera& camera, const Viewport& viewport, const DrawOptions& options,
                    std::span<const rig::SkinningMethod> methods, bool labels = true);
  void draw_compare(const Camera& camera, const Viewport& viewport, const DrawOptions& options,
                    bool labels = true);
  // Column `i` of `columns` of `viewport` (pixel edges at x + width * i / columns).
  static Viewport compare_column(const Viewport& viewport, int i, int columns);

  // Text with the built-in bitmap font (stb_easy_font), top-left corner at pixel (x, y)
  // measured from the viewport's top-left corner; `scale` multiplies the ~7 px glyph height.
  void draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                 const char* text);

  // GPU time of the commands between begin/end (GL_TIME_ELAPSED, a small ring of queries so
  // nothing stalls). gpu_time_ms() is the latest finished measurement, < 0 before the first.
  void begin_gpu_timer();
  void end_gpu_timer();
  double gpu_time_ms() const;
  // Key-light shadow maps drawn so far: the map is drawn again only when the pose, the method,
  // CPU skinning or the light's fitted frustum changed since the last one.
  uint64_t shadow_passes_drawn() const;

  // Runs the real skinning vertex shader for draw item `draw_index` (model.draws order) under
  // the state of the last update() and reads back world-space positions and unit normals with
  // transform feedback. Spans sized to the primitive's vertex_count(). false + error on failure.
  bool read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals,
                         std::string& error);
  // The same with the world-space tangents too: unit xyz, w the handedness; (0, 0, 0, 0) for a
  // primitive without TANGENT.
  bool read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals,
                         std::span<glm::vec4> out_tangents, std::string& error);

  // Introspection for tests and the UI.
  uint32_t palette_uniform_limit_bytes() const;  // the limit in effect after init()
  uint32_t max_uniform_joints(rig::SkinningMethod method) const;
  bool skin_uses_texture_buffer(int skin, rig::SkinningMethod method) const;
  // Linked mesh programs (8 per table row + 4 rigid after a successful init(): drawing, capture
  // and the shadow's depth pass, opaque and alpha-tested), and the id of one (0 when missing):
  // method nullptr is the rigid program.
  int mesh_program_count() const;
  uint32_t mesh_program(const rig::SkinningMethodInfo* method, bool texture_buffer,
                        bool capture) const;
  uint32_t depth_program(const rig::SkinningMethodInfo* method, bool texture_buffer,
                         bool alpha_tested = false) const;
  // Palettes uploaded so far for `method` (one per skin per upload): rises only for methods
  // that are drawn, read back or named in update(character, methods).
  uint64_t palette_uploads(rig::SkinningMethod method) const;
  // Number of GL errors / debug-output errors seen so far (debug builds check after calls).
  uint64_t gl_error_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rig::render
