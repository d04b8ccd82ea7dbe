// OpenGL 3.3 core renderer for a rig::Model: GPU skinning (LBS and DQS in the vertex shader),
// shaded meshes, wireframe overlay, ground grid, skeleton overlay, GPU timing and a
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
//   renderer.draw(camera, viewport, options);  // or draw_compare(...)
//   renderer.end_gpu_timer();
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/model.h"
#include "character/character.h"
#include "skin/cpu_skinning.h"

namespace rig::render {

// Axis-aligned box in world space. Empty until the first add().
struct Bounds {
  glm::vec3 min{1e30f};
  glm::vec3 max{-1e30f};

  bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
  void add(glm::vec3 p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void add(const Bounds& b) {
    if (b.valid()) {
      add(b.min);
      add(b.max);
    }
  }
  glm::vec3 center() const { return valid() ? 0.5f * (min + max) : glm::vec3(0.0f); }
  float radius() const { return valid() ? 0.5f * glm::length(max - min) : 1.0f; }
  float diagonal() const { return valid() ? glm::length(max - min) : 0.0f; }
};

// World-space bounds of every draw item under the character's current pose (CPU skinned with
// LBS). Allocates scratch: call on model/clip changes, not per frame.
Bounds pose_bounds(const rig::Character& character);

// Union of pose_bounds over `samples` evenly spaced times of selection.clip (the blend
// settings of `selection` are kept). The rest pose when selection.clip < 0. Allocates.
Bounds clip_bounds(const rig::Model& model, const rig::PoseSelection& selection, int samples = 24);

// The nodes that are joints of some skin, each once (skins in order, then each skin's joints),
// and per node its index in `nodes` (-1: not a joint). Out-of-range joint nodes are skipped.
// Allocates: call on model changes.
struct SkinJointNodes {
  std::vector<int> nodes;
  std::vector<int> slot_of_node;
};
SkinJointNodes skin_joint_nodes(const rig::Model& model);

// Pixel rectangle, origin at the bottom left (GL convention).
struct Viewport {
  int x = 0, y = 0, width = 1, height = 1;
  float aspect() const { return height > 0 ? float(width) / float(height) : 1.0f; }
};

struct Camera {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  glm::vec3 eye{0.0f, 0.0f, 3.0f};  // world-space camera position (lighting)
};

// Orbit camera around `target`. frame() places it so `bounds` fills the view and picks
// near/far planes that keep depth precision (far/near stays well under 10^4).
struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 3.0f;
  float yaw = 0.6f;           // radians about +Y, 0 looks down -Z (front view of a glTF model)
  float pitch = 0.25f;        // radians, positive looks down at the model
  float fov_y = 0.7854f;      // radians (45 degrees)
  float scene_radius = 1.0f;  // for near/far

  void frame(const Bounds& bounds);
  // After frame(): backs off (never closer) so the framed sphere also fits the horizontal field
  // of view of a view `view_aspect` (width / height) wide: a portrait window, a compare half.
  void fit_width(float view_aspect);
  glm::vec3 eye() const;
  Camera camera(float aspect) const;
};

// Skin-weight display of skinned surfaces (rigid items always draw normally). Colours in
// render/weight_colors.h; the surfaces stay lit so the shape reads.
enum class WeightView {
  Off,
  // Heat map of the weight DrawOptions::weight_joint_node has on each vertex: the sum over the
  // vertex's influences on that joint after the skinning's own renormalization (kept GPU
  // influences divided by their sum). Weight exactly 0: grey; no joint chosen: all grey.
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
  WeightView weight_view = WeightView::Off;
  // Node whose weights WeightView::SelectedJoint shows (a node, like selected_joint_node: each
  // skin maps it to its own joint index; a skin it is not a joint of shows all grey). -1: none.
  int weight_joint_node = -1;
  glm::vec3 background{0.20f, 0.21f, 0.23f};
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

  // Compiles and links every shader program (embedded at build time). Needs a current
  // 3.3 core context with glad loaded. false + one-line error on failure.
  bool init(std::string& error);

  // Creates the GPU resources of `model` (vertex buffers, textures, palettes). `model` must
  // outlive the renderer or the next set_model/clear_model. Allocates; not per frame.
  // Also sets the ground grid from the rest-pose bounds (override with set_ground).
  bool set_model(const rig::Model& model, std::string& error);
  void clear_model();
  bool has_model() const;

  // Ground grid at height bounds.min.y, sized to the bounds' footprint.
  void set_ground(const Bounds& bounds);

  // Per frame, after character.evaluate(): uploads the LBS matrices and the DQS joint dual
  // quaternions (rigid part + stretch S) of every skin, the morphed vertices of morphed
  // primitives, rigid node matrices and the skeleton. No allocation. The character must be
  // built on the model given to set_model.
  void update(const rig::Character& character);

  // Clears colour and depth inside the viewport (scissored) to `color`.
  void clear(const Viewport& viewport, glm::vec3 color);

  // Draws grid, surfaces, wireframe and skeleton per `options` into `viewport` of the bound
  // framebuffer. Does not clear.
  void draw(const Camera& camera, const Viewport& viewport, const DrawOptions& options);

  // Split view: LBS in the left half, DQS in the right half of `viewport`, same camera
  // (each half keeps the full view's vertical field of view with its own aspect), a divider
  // and "LBS" / "DQS" labels when `labels` is true. Does not clear.
  void draw_compare(const Camera& camera, const Viewport& viewport, const DrawOptions& options,
                    bool labels = true);

  // Text with the built-in bitmap font (stb_easy_font), top-left corner at pixel (x, y)
  // measured from the viewport's top-left corner; `scale` multiplies the ~7 px glyph height.
  void draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                 const char* text);

  // GPU time of the commands between begin/end (GL_TIME_ELAPSED, a small ring of queries so
  // nothing stalls). gpu_time_ms() is the latest finished measurement, < 0 before the first.
  void begin_gpu_timer();
  void end_gpu_timer();
  double gpu_time_ms() const;

  // Runs the real skinning vertex shader for draw item `draw_index` (model.draws order) under
  // the state of the last update() and reads back world-space positions and unit normals with
  // transform feedback. Spans sized to the primitive's vertex_count(). false + error on failure.
  bool read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                         std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals,
                         std::string& error);

  // Introspection for tests and the UI.
  uint32_t palette_uniform_limit_bytes() const;  // the limit in effect after init()
  uint32_t max_uniform_joints(rig::SkinningMethod method) const;
  bool skin_uses_texture_buffer(int skin, rig::SkinningMethod method) const;
  // Number of GL errors / debug-output errors seen so far (debug builds check after calls).
  uint64_t gl_error_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rig::render
