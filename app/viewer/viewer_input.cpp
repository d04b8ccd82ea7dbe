// The viewer's camera framing, keyboard and mouse input, joint picking and the posing stack.
#include "viewer/viewer_app.h"

namespace rigview {

// The renderer fits the bounding sphere to the vertical field of view; a view narrower than it
// is tall (a compare part, a portrait window) needs the horizontal one to fit too. The first
// view (`character_view`) instead fits the box itself, seen from chest height
// (OrbitCamera::frame_character), so the character fills most of the view.
void Viewer::frame_model(bool character_view) {
  const rig::render::Bounds bounds =
      crowd_ ? rig::render::crowd_bounds(*crowd_, doc_.bounds()) : doc_.bounds();
  state_.camera.frame(bounds);
  int width = 0, height = 0;
  platform_.framebuffer_size(width, height);
  if (width <= 0 || height <= 0) return;  // minimized: framed for the vertical view only
  int window_width = 0, window_height = 0;
  platform_.window_size(window_width, window_height);
  const Rect view =
      scene_view(state_, static_cast<float>(window_width), static_cast<float>(window_height));
  if (view.width <= 0.0f || view.height <= 0.0f) return;
  // The single view's fit: compare columns back off from it themselves (view_orbit).
  if (character_view)
    state_.camera.frame_character(bounds, view.width / view.height);
  else
    state_.camera.fit_width(view.width / view.height);
}

// Frames joint `node` with its parent and children (render::joint_neighbourhood_bounds).
void Viewer::frame_joint(int node) {
  state_.camera.frame(rig::render::joint_neighbourhood_bounds(*doc_.model, doc_.bind_boxes(),
                                                              *doc_.character, node));
  state_.camera.keep_above_floor();
}

// Frames every joint Rig health row `finding` names (render::skin_joints_bounds).
void Viewer::frame_finding(int finding) {
  const RigHealth& health = doc_.health();
  if (finding < 0 || size_t(finding) >= health.rows.size()) return;
  const RigHealthRow& row = health.rows[size_t(finding)];
  const rig::render::Bounds bounds = rig::render::skin_joints_bounds(
      *doc_.model, doc_.bind_boxes(), *doc_.character, row.skin, row.joints);
  if (bounds.valid()) state_.camera.frame(bounds);
}

// The start view: the character's front (first_view.h) at a three-quarter angle (the default
// yaw), framed from chest height, the eye kept above the grid.
void Viewer::reset_camera() {
  state_.camera = rig::render::OrbitCamera{};
  reset_camera_angles(state_.camera);
  state_.camera.yaw = facing_yaw(*doc_.model, doc_.character->world(), state_.camera.yaw);
  frame_model(true);
  const rig::render::Bounds bounds = doc_.bounds();
  if (!crowd_ && bounds.valid()) state_.camera.floor = bounds.min.y;
  state_.camera.keep_above_floor();
}

void Viewer::handle_keyboard() {
  const bool typing = ImGui::GetIO().WantCaptureKeyboard;
  for (const KeyPress& press : platform_.take_keys()) apply_key(state_, press, typing);
}

void Viewer::handle_mouse() {
  const ImGuiIO& io = ImGui::GetIO();
  // First, as it rewrites ImGui's pointer state.
  if (doc_.posing) handles_.feed_queued_mouse(*doc_.posing, state_);  // self-test only
  const glm::vec2 mouse(io.MousePos.x, io.MousePos.y);
  // Where each button went down; a press fed by the self-test (no window event) is where
  // ImGui puts the pointer.
  const PointerPress left = platform_.take_press(0), middle = platform_.take_press(2);
  const glm::vec2 left_at = left.pressed ? glm::vec2(left.x, left.y) : mouse;
  const glm::vec2 middle_at = middle.pressed ? glm::vec2(middle.x, middle.y) : mouse;
  // Painting takes the left button first (the camera orbits with the middle one, or Shift).
  if (!io.KeyShift && handle_paint(mouse, io.MouseClicked[0])) {
    left_drag_.cancel();
    return;
  }
  // A handle or ring under the press, or being dragged, takes the left button from the camera.
  if (doc_.posing && (rings_.handle_mouse(*doc_.posing, state_, doc_.character->world(), left_at) ||
                      handles_.handle_mouse(*doc_.posing, state_, left_at))) {
    left_drag_.cancel();
    return;
  }
  if (io.WantCaptureMouse) {
    left_drag_.cancel(), middle_drag_.cancel();
    return;
  }
  // Orbit and pan only once a drag has left its press point: a click never turns the view.
  const glm::vec2 l = left_drag_.update(io.MouseDown[0], io.MouseClicked[0], left_at, mouse);
  const glm::vec2 m = middle_drag_.update(io.MouseDown[2], io.MouseClicked[2], middle_at, mouse);
  const float view_height = scene_view(state_, io.DisplaySize.x, io.DisplaySize.y).height;
  if (l != glm::vec2(0.0f)) {
    if (io.KeyShift)
      pan_camera(state_.camera, l.x, l.y, view_height);
    else
      orbit_camera(state_.camera, l.x, l.y);
  }
  if (m != glm::vec2(0.0f)) pan_camera(state_.camera, m.x, m.y, view_height);
  if (io.MouseWheel != 0.0f) zoom_camera(state_.camera, io.MouseWheel);
  // With the Vertex tab open a click on the surface picks a vertex.
  if (left_drag_.clicked && state_.layout.tab == InspectorTab::Vertex && !state_.panels_hidden) {
    pick_vertex_at(mouse);
    return;
  }
  // A click (press and release without dragging) on a hovered joint selects it.
  if (left_drag_.clicked && state_.hovered_node >= 0) {
    state_.selected_node = state_.hovered_node;
    state_.reveal_selection = true;
  }
}

// Nearest joint to the mouse within a few pixels, projected with the camera of the view (in
// compare mode, one per method) the mouse is over.
void Viewer::update_hover() {
  state_.hovered_node = -1;
  const ImGuiIO& io = ImGui::GetIO();
  if (!state_.show_skeleton || io.WantCaptureMouse || doc_.joint_nodes.empty()) return;
  const float width = io.DisplaySize.x, height = io.DisplaySize.y;
  if (width <= 0.0f || height <= 0.0f) return;
  const Rect view = scene_view(state_, width, height);
  if (!view.contains(io.MousePos.x, io.MousePos.y)) return;
  const int views = static_cast<int>(methods_shown(state_).size());
  const rig::render::ColumnSpan column = rig::render::compare_column(
      view.x, view.width, rig::render::compare_column_at(view.x, view.width, views, io.MousePos.x),
      views);
  const float vx = column.x, vw = column.width;
  const rig::render::Camera camera = view_orbit(state_, width, height).camera(vw / view.height);
  const glm::mat4 view_projection = camera.projection * camera.view;
  const std::span<const glm::mat4> world = doc_.character->world();
  float best = kPickRadiusPixels * kPickRadiusPixels;
  for (int node : doc_.joint_nodes) {
    glm::vec2 pixel;
    if (!project_to_window(view_projection, glm::vec3(world[static_cast<size_t>(node)][3]), vx,
                           view.y, vw, view.height, pixel))
      continue;
    const float d2 = (pixel.x - io.MousePos.x) * (pixel.x - io.MousePos.x) +
                     (pixel.y - io.MousePos.y) * (pixel.y - io.MousePos.y);
    if (d2 <= best) best = d2, state_.hovered_node = node;
  }
}

// The plain selection, or the Posing stack over it when any posing is on.
void Viewer::evaluate_pose(const rig::PoseSelection& selection) {
  Posing* posing = doc_.posing.get();
  if (!posing || !posing->active()) {
    doc_.character->evaluate(selection);
    return;
  }
  const rig::Playback& p = doc_.playback;
  posing->evaluate(selection, state_.camera.eye(), p.playing() && !state_.scrubbing, p.speed());
  // Follow camera: the orbit target moves with the extracted root.
  if (posing->follow_camera && posing->root_motion() == RootMotionChoice::Extract)
    state_.camera.target += posing->root_moved();
}

bool Viewer::export_self_test_pose() {
  std::string error;
  if (!write_pose_json(self_test_.export_pose, *doc_.character, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return false;
  }
  // %.9g: each float exactly, so a test can hand the same numbers to the command line.
  for (size_t i = 0; doc_.posing && i < doc_.posing->ik_count(); ++i) {
    const rig::TwoBoneIK& ik = doc_.posing->ik(i);
    std::printf("ik %s target %.9g,%.9g,%.9g\n", doc_.node_labels[size_t(ik.chain.end)].c_str(),
                double(ik.target.x), double(ik.target.y), double(ik.target.z));
    if (ik.use_pole)
      std::printf("ik %s pole %.9g,%.9g,%.9g\n", doc_.node_labels[size_t(ik.chain.end)].c_str(),
                  double(ik.pole.x), double(ik.pole.y), double(ik.pole.z));
  }
  std::printf("camera yaw %.9g pitch %.9g\n", double(state_.camera.yaw),
              double(state_.camera.pitch));
  if (doc_.posing && doc_.posing->look_at())
    if (const rig::Aim* aim = doc_.posing->aim())
      std::printf("look-at %s target %.9g,%.9g,%.9g\n",
                  doc_.node_labels[size_t(doc_.posing->look_at_joint())].c_str(),
                  double(aim->target.x), double(aim->target.y), double(aim->target.z));
  std::fflush(stdout);
  return true;
}

}  // namespace rigview
