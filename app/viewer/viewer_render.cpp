#include "viewer/viewer_render.h"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "render/offscreen.h"
#include "viewer/camera_controls.h"

namespace rigview {

rig::render::WeightView render_weight_view(SurfaceView mode) {
  switch (mode) {
    case SurfaceView::SelectedJoint:
      return rig::render::WeightView::SelectedJoint;
    case SurfaceView::InfluenceCount:
      return rig::render::WeightView::InfluenceCount;
    case SurfaceView::Off:
    case SurfaceView::Deflation:  // scalar fields of their own (render_scene)
    case SurfaceView::Difference:
    case SurfaceView::Compression:
    case SurfaceView::RigFindings:
      break;
  }
  return rig::render::WeightView::Off;
}

SurfaceView weights_mode(rig::render::WeightView view) {
  switch (view) {
    case rig::render::WeightView::SelectedJoint:
      return SurfaceView::SelectedJoint;
    case rig::render::WeightView::InfluenceCount:
      return SurfaceView::InfluenceCount;
    case rig::render::WeightView::Off:
      break;
  }
  return SurfaceView::Off;
}

bool create_renderer(std::unique_ptr<rig::render::Renderer>& renderer, const Document& doc,
                     std::string& error) {
  renderer = std::make_unique<rig::render::Renderer>();
  if (!renderer->init(error)) {
    error = "renderer: " + error;
    return false;
  }
  if (!renderer->set_model(*doc.model, doc.character->shared_skin_layer(), error)) {
    error = doc.path + ": " + error;
    return false;
  }
  return true;
}

bool switch_renderer_model(rig::render::Renderer& renderer, const Document& current,
                           const Document& next, std::string& error) {
  if (renderer.set_model(*next.model, next.character->shared_skin_layer(), error)) return true;
  std::string restore_error;  // the previous model was accepted before; put it back
  if (!current.model ||
      !renderer.set_model(*current.model, current.character->shared_skin_layer(), restore_error))
    renderer.clear_model();
  return false;
}

// The workspace's viewport (window pixels, top left) in framebuffer pixels, bottom left as GL
// counts them: the framebuffer may be larger than the window (high-DPI).
static rig::render::Viewport scene_viewport(const ViewerState& state,
                                            const rig::render::Viewport& framebuffer,
                                            float window_width) {
  if (window_width <= 0.0f) return framebuffer;
  const float scale = static_cast<float>(framebuffer.width) / window_width;
  const Rect r = scene_view(state, window_width, static_cast<float>(framebuffer.height) / scale);
  rig::render::Viewport view;
  view.x = static_cast<int>(std::lround(r.x * scale));
  view.width = std::max(static_cast<int>(std::lround(r.width * scale)), 1);
  view.height = std::max(static_cast<int>(std::lround(r.height * scale)), 1);
  view.y = framebuffer.height - static_cast<int>(std::lround(r.bottom() * scale));
  return view;
}

void update_renderer(rig::render::Renderer& renderer, const Document& doc,
                     const ViewerState& state) {
  renderer.update(*doc.character, methods_shown(state));
}

// A Learn mistake's two columns, right then wrong, each from its CPU-skinned character, framed
// as compare columns are (view_orbit). The surface colours other than the four-influences error
// and the bones are left out: the bones and fields are the document's character's.
static void render_mistake(rig::render::Renderer& renderer, const ViewerState& state,
                           const MistakeView& mistake, const rig::render::Viewport& view,
                           const rig::render::OrbitCamera& orbit) {
  rig::render::DrawOptions draw;
  draw.surfaces = state.show_surfaces;
  draw.wireframe = state.show_wireframe;
  draw.grid = state.show_grid;
  draw.shadows = state.show_shadows;
  draw.cpu_skinned = true;
  for (int c = 0; c < 2; ++c) {
    for (size_t d = 0; d < mistake.draw_count(); ++d)
      renderer.upload_cpu_skinned(d, mistake.positions(c, d), mistake.normals(c, d));
    const rig::render::Viewport column = rig::render::Renderer::compare_column(view, c, 2);
    draw.field = c == 1 ? mistake.error_field() : nullptr;
    renderer.draw(orbit.camera(column.aspect()), column, draw);
  }
  // The divider, as draw_compare draws it.
  const int line_w = std::max(2, view.height / 360);
  const rig::render::Viewport divider{
      rig::render::Renderer::compare_column(view, 1, 2).x - line_w / 2, view.y, line_w,
      view.height};
  renderer.clear(divider, glm::vec3(0.9f));
}

void render_scene(rig::render::Renderer& renderer, const ViewerState& state, const Document& doc,
                  int fb_width, int fb_height, float window_width, const MistakeView* mistake) {
  const rig::render::Viewport viewport{0, 0, std::max(fb_width, 1), std::max(fb_height, 1)};
  const std::span<const rig::SkinningMethod> methods = methods_shown(state);
  rig::render::DrawOptions draw;
  draw.method = methods.front();
  draw.surfaces = state.show_surfaces;
  draw.wireframe = state.show_wireframe;
  draw.grid = state.show_grid;
  draw.shadows = state.show_shadows;
  draw.skeleton = state.show_skeleton;
  draw.selected_joint_node = state.selected_node;
  // The Rig health row last clicked: while its first joint stays selected, its other joints
  // are highlighted too.
  if (const int f = doc.health().field_finding; f >= 0 && size_t(f) < doc.health().rows.size()) {
    const std::vector<int>& nodes = doc.health().rows[size_t(f)].joint_nodes;
    if (!nodes.empty() && nodes.front() == state.selected_node)
      draw.highlighted_joint_nodes = nodes;
  }
  draw.weight_view = render_weight_view(state.surface_view);
  draw.weight_joint_node = state.selected_node;
  draw.lights =
      state.look.studio ? rig::render::LightSetup::Studio : rig::render::LightSetup::Viewer;
  draw.look = state.look.settings;
  // Artefact heat maps: one field for every view (difference), or each view's own method's
  // deflation.
  std::array<const rig::analysis::ScalarField*, rig::kSkinningMethodCount> columns{};
  if (state.surface_view == SurfaceView::RigFindings) {
    draw.field = &doc.health().field;  // made with the diagnosis (Rig health panel)
  } else if (doc.compression() && state.surface_view == SurfaceView::Compression) {
    draw.field = &doc.compression()->session.displacement_field();
  } else if (doc.artefacts() && state.surface_view == SurfaceView::Difference) {
    draw.field = &doc.artefacts()->difference_field_view();
  } else if (doc.artefacts() && state.surface_view == SurfaceView::Deflation) {
    for (size_t i = 0; i < methods.size() && i < columns.size(); ++i)
      columns[i] = &doc.artefacts()->deflation_field(methods[i]);
    draw.field = columns[0];
    draw.column_fields = std::span<const rig::analysis::ScalarField* const>(
        columns.data(), std::min(methods.size(), columns.size()));
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, viewport.width, viewport.height);
  renderer.begin_gpu_timer();
  renderer.clear(viewport, draw.background);
  const rig::render::Viewport view = scene_viewport(state, viewport, window_width);
  if (mistake && mistake->active() && renderer.cpu_skinning()) {
    const float w = window_width > 0.0f ? window_width : static_cast<float>(viewport.width);
    render_mistake(renderer, state, *mistake, view,
                   view_orbit(state, w, w * static_cast<float>(viewport.height) / viewport.width));
  } else if (methods.size() > 1) {
    // Each column framed to the character, as the headless compare is (view_orbit).
    const float w = window_width > 0.0f ? window_width : static_cast<float>(viewport.width);
    const rig::render::OrbitCamera orbit =
        view_orbit(state, w, w * static_cast<float>(viewport.height) / viewport.width);
    renderer.draw_compare(orbit.camera(view.aspect()), view, draw, methods, false);
  } else {
    renderer.draw(state.camera.camera(view.aspect()), view, draw);
  }
  renderer.end_gpu_timer();
}

void measure_cost(rig::render::Renderer& renderer, const Document& doc, ViewerState& state) {
  constexpr std::array<rig::SkinningMethod, rig::kSkinningMethodCount> all =
      rig::all_skinning_methods();
  rig::render::SkinningCostOptions options;
  options.draws = std::clamp(state.cost_draws, 1, 1000);
  state.cost_error.clear();
  if (!rig::render::measure_skinning_cost(renderer, *doc.model, state.camera.camera(1.0f), all,
                                          options, state.cost, state.cost_error))
    state.cost = {};
}

void render_crowd_scene(rig::render::Renderer& renderer, rig::render::CrowdRenderer& crowd,
                        const ViewerState& state, int fb_width, int fb_height, float window_width) {
  const rig::render::Viewport viewport{0, 0, std::max(fb_width, 1), std::max(fb_height, 1)};
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, viewport.width, viewport.height);
  renderer.clear(viewport, rig::render::DrawOptions{}.background);
  const rig::render::Viewport view = scene_viewport(state, viewport, window_width);
  rig::render::CrowdDrawOptions draw;
  draw.grid = state.show_grid;
  draw.shadows = state.show_shadows;
  // The single character's look (render_scene): the same light setup and look settings; the
  // environment reaches the crowd renderer with the single renderer's (Viewer::update_look).
  draw.lights =
      state.look.studio ? rig::render::LightSetup::Studio : rig::render::LightSetup::Viewer;
  draw.look = state.look.settings;
  crowd.draw(state.camera.camera(view.aspect()), view, methods_shown(state).front(), draw);
}

uint64_t take_gl_errors(const rig::render::Renderer& renderer) {
  uint64_t pending = 0;
  for (GLenum e = glGetError(); e != GL_NO_ERROR && pending < 1000; e = glGetError()) {
    std::fprintf(stderr, "rigview: GL error 0x%04x\n", e);
    ++pending;
  }
  return pending + renderer.gl_error_count();
}

bool write_window_screenshot(const std::string& path, int fb_width, int fb_height) {
  std::vector<uint8_t> top_down;
  glReadBuffer(GL_BACK);
  rig::render::read_pixels_top_down(fb_width, fb_height, top_down);
  // The window's alpha is not meant to be seen (ImGui's blending writes it; some framebuffers
  // have none): force the PNG opaque.
  for (size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;
  std::string error;
  if (!rig::render::write_png(path, fb_width, fb_height, top_down, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return false;
  }
  return true;
}

}  // namespace rigview
