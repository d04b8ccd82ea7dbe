// The Weights tab's paint brush in the view (skin/weight_brush.h): while Paint is on, a left drag
// on the surface dabs the selected joint's weight at the vertex under the pointer every frame
// (the front-most within 12 pixels, posed with the method on screen, so it works while the clip
// plays); the press opens a stroke and the release records it as one undoable edit.
#include "viewer/viewer_app.h"

namespace rigview {

namespace {

// The bind-space diagonal of the skinned primitives: the brush radius is a fraction of it.
float bind_diagonal(const rig::Model& model) {
  rig::render::Bounds b;
  for (const rig::DrawItem& d : model.draws)
    if (d.skin >= 0)
      for (const glm::vec3& p :
           model.meshes[size_t(d.mesh)].primitives[size_t(d.primitive)].positions)
        b.add(p);
  return b.valid() ? glm::length(b.max - b.min) : 1.0f;
}

}  // namespace

bool Viewer::handle_paint(glm::vec2 mouse, bool pressed) {
  WeightTools& t = state_.weight_tools;
  t.brush_pixel_radius = 0.0f;
  const ImGuiIO& io = ImGui::GetIO();
  const bool on = t.paint && state_.layout.tab == InspectorTab::Weights && !state_.panels_hidden &&
                  !state_.compare && state_.crowd_count == 0 && state_.selected_node >= 0 &&
                  doc_.skin && doc_.simulated_bug < 0;
  if (!on || (!t.painting && io.WantCaptureMouse)) {
    if (t.painting) {
      t.painting = false;
      editing_.end_stroke(doc_, "Paint");
    }
    return false;
  }
  const SingleView single = single_view(state_, io.DisplaySize.x, io.DisplaySize.y);
  const Rect& view = single.view;
  const rig::render::ScreenRect& rect = single.rect;
  const rig::render::Camera& camera = single.camera;
  const PickedVertex hit = pick_vertex(*doc_.character, methods_shown(state_).front(), camera, rect,
                                       mouse, kVertexPickPixels, vertex_scratch_);
  if (brush_model_ != doc_.model.get()) {
    brush_model_ = doc_.model.get();
    brush_diagonal_ = bind_diagonal(*doc_.model);
  }
  const float radius = t.brush_radius * brush_diagonal_;
  if (hit.draw >= 0) {
    // The circle: the brush radius at the vertex, scaled from bind to world by the skinning.
    const glm::vec3 posed = vertex_scratch_.positions[size_t(hit.vertex)];
    glm::vec2 centre, edge;
    const glm::vec3 right = glm::vec3(glm::transpose(camera.view)[0]);
    const float world = radius * glm::length(doc_.bounds().max - doc_.bounds().min) /
                        std::max(brush_diagonal_, 1e-12f);
    if (rig::render::world_to_screen(camera, rect, posed, centre) &&
        rig::render::world_to_screen(camera, rect, posed + right * world, edge)) {
      t.brush_pixel = centre;
      t.brush_pixel_radius = glm::length(edge - centre);
    }
  }
  if (!t.painting && !(pressed && view.contains(mouse.x, mouse.y) && hit.draw >= 0)) return false;
  if (!t.painting) {
    t.painting = true;
    editing_.begin_stroke(doc_);
  }
  if (!io.MouseDown[0]) {
    t.painting = false;
    if (editing_.end_stroke(doc_, "Paint")) state_.edits.message = "painted";
    return true;
  }
  if (hit.draw < 0) return true;  // off the surface: the stroke waits
  int skin_joint = -1;
  const rig::DrawItem& item = doc_.model->draws[size_t(hit.draw)];
  const std::vector<int>& joints = doc_.model->skins[size_t(item.skin)].joints;
  for (size_t j = 0; j < joints.size(); ++j)
    if (joints[j] == state_.selected_node) skin_joint = int(j);
  if (skin_joint < 0) return true;  // the selected joint is not in this skin
  rig::BrushDab dab;
  dab.skin = item.skin;
  dab.joint = uint16_t(skin_joint);
  dab.center = doc_.model->meshes[size_t(item.mesh)]
                   .primitives[size_t(item.primitive)]
                   .positions[size_t(hit.vertex)];
  dab.radius = radius;
  dab.strength = t.brush_strength;
  dab.value = t.brush_value;
  dab.mode = rig::BrushMode(std::clamp(t.brush_mode, 0, 3));
  dab.falloff = rig::BrushFalloff(std::clamp(t.brush_falloff, 0, 2));
  dab.x_mirror = t.brush_mirror;
  doc_.edit_skin(true, false, [&](rig::SkinLayer& layer) {
    if (!brush_.prepared_for(layer)) brush_.prepare(*doc_.model, layer);
    brush_.dab(layer, dab);
  });
  return true;
}

}  // namespace rigview
