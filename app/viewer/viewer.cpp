// The interactive viewer's frame loop: the open Document, the ViewerState, the platform window
// (viewer/platform_glfw.h), the renderer (all its calls in viewer/viewer_render.cpp), key
// actions (viewer/actions.h) and panels (viewer/panels.h). Self-test hooks: viewer/self_test.h.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "character/crowd.h"
#include "leak_check.h"
#include "modes.h"
#include "pose_options.h"
#include "posed_character.h"
#include "render/crowd_renderer.h"
#include "render/renderer.h"
#include "render/weight_view.h"
#include "viewer/actions.h"
#include "viewer/camera_controls.h"
#include "viewer/document.h"
#include "viewer/panels.h"
#include "viewer/platform_glfw.h"
#include "viewer/pose_handles.h"
#include "viewer/posing_panel.h"
#include "viewer/self_test.h"
#include "viewer/soak.h"
#include "viewer/viewer_render.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {

namespace {

constexpr float kPickRadiusPixels = 8.0f;
constexpr float kFixedTestStep = 1.0f / 30.0f;

class Viewer {
 public:
  explicit Viewer(const Options& options)
      : options_(options), state_(initial_viewer_state(options)) {}
  ~Viewer();

  // Loads the first model and applies the command-line pose and --weights. 0, or the exit
  // status after printing one line (1: the model, 2: a usage error).
  int load_initial(const std::string& path);
  // Window, GL, ImGui, renderer. Returns 0, or the exit status after printing one line.
  int open_window();
  int run();

 private:
  // Opens `path` as the new document; on failure the current one stays and the error is shown.
  void open_model(const std::string& path);
  void frame_joint(int node);
  void frame_finding(int finding);
  // Teaching aids: replaces the document by one derived from its pristine model with `bug`
  // (-1: none), keeping the camera and the playback position, so the change is seen in place.
  void simulate_bug(int bug);
  bool write_rig_health(const std::string& path) const;
  void update_artefacts();
  void update_compression();
  void update_rotation_centers();
  void frame_model();
  void reset_camera();
  void serve_requests();
  // --crowd: (re)makes the crowd for doc_ and the first method on screen. false + error.
  bool rebuild_crowd(std::string& error);
  // Per frame: advances and uploads the crowd (rebuilt first when the method on screen or the
  // skin meshes changed: user actions, not every frame).
  void update_crowd(float dt);

  void handle_keyboard();
  void handle_mouse();
  void update_hover();
  void evaluate_pose(const rig::PoseSelection& selection);
  // RIGVIEW_VIEWER_EXPORT_POSE: the pose as --export-pose writes it, and the posing targets.
  bool export_self_test_pose();

  Options options_;
  SelfTest self_test_;
  ViewerSettings settings_;
  ViewerState state_;
  Document doc_;
  Document pending_doc_;  // scratch for loads, so a failed load leaves doc_ alone
  std::unique_ptr<rig::render::BindBoxes> bind_boxes_;  // doc_'s, made on the first joint framing
  bool compressed_playback_ = false;   // doc_'s character samples the compressed clips
  double requested_tolerance_ = -1.0;  // what doc_.compression was last asked for (Cancel stays)
  std::vector<int> test_bugs_;         // RIGVIEW_VIEWER_BUGS, parsed
  PoseHandles handles_;                // IK / look-at handles over the 3D view
  Soak soak_;                          // RIGVIEW_VIEWER_SOAK
  double soak_start_ = 0.0;
  uint64_t soak_gl_errors_ = 0, soak_gl_errors_seen_ = 0;
  GlfwPlatform platform_;
  bool window_open_ = false;
  // Declared after the platform: destroyed first, while the GL context still exists.
  std::unique_ptr<rig::render::Renderer> renderer_;
  std::unique_ptr<rig::render::CrowdRenderer> crowd_renderer_;  // --crowd only
  std::unique_ptr<rig::Crowd> crowd_;
  uint64_t crowd_amounts_revision_ = 0;  // doc_.dqs_amounts_revision the crowd has
};

Viewer::~Viewer() {
  if (window_open_ && !self_test_.active()) settings_.save_window(platform_.geometry());
  crowd_renderer_.reset();
  renderer_.reset();
}

int Viewer::load_initial(const std::string& path) {
  std::string error;
  if (!load_document(path, options_, doc_, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  state_.playback = &doc_.playback;
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options_, *doc_.model, selection, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  // --weights opens the viewer on that view (and joint, selected and revealed in the tree).
  int weight_joint = -1;
  rig::render::WeightView view = rig::render::WeightView::Off;
  if (!rig::render::weight_view_from_name(*doc_.model, options_.weights_view, view, weight_joint,
                                          error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  if (!options_.weights_view.empty()) state_.surface_view = weights_mode(view);
  std::vector<float> dqs_amounts;
  if (!dqs_amounts_from_options(options_, *doc_.model, dqs_amounts, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  doc_.set_dqs_amounts(std::move(dqs_amounts));
  if (weight_joint >= 0) {
    state_.selected_node = weight_joint;
    state_.reveal_selection = true;
  }
  rig::Playback& p = doc_.playback;
  if (selection.clip >= 0) {
    p.select_clip(selection.clip);
    p.set_time(selection.time);
    state_.fade_target = selection.clip;
  }
  if (selection.clip >= 0 && selection.blend_clip >= 0) {
    state_.fade_target = selection.blend_clip;
    if (p.start_crossfade(selection.blend_clip, state_.fade_duration, false))
      p.set_fade_progress(selection.blend_weight, selection.blend_time);
  }
  // An explicit time or blend on the command line asks for that exact pose: start paused.
  if (options_.animation_time.has_value() || selection.blend_clip >= 0) p.set_playing(false);
  // --focus JOINT|worst: select the joint and frame it on the first frame, in the start pose.
  if (!options_.focus.empty()) {
    doc_.character->evaluate(p.selection());
    const rig::SkinningMethod method = methods_shown(state_).front();
    if (options_.focus == "worst") {
      doc_.artefacts =
          std::make_unique<ArtefactAnalysis>(*doc_.model, doc_.character->skin_meshes());
      doc_.artefacts->analyze(*doc_.character, {&method, 1});
    }
    const int node = focus_joint(options_.focus, *doc_.model, doc_.artefacts.get(), method, error);
    if (node < 0) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
      return 2;
    }
    state_.selected_node = node;
    state_.reveal_selection = true;
    state_.requests.frame_node = node;
  }
  state_.open_field = path;
  return 0;
}

int Viewer::open_window() {
  self_test_ = self_test_from_environment();
  if (self_test_.soak_seconds > 0.0) {
    std::vector<std::string> models;
    for (size_t start = 0; start < self_test_.soak_models.size();) {
      const size_t colon =
          std::min(self_test_.soak_models.find(':', start), self_test_.soak_models.size());
      if (colon > start) models.push_back(self_test_.soak_models.substr(start, colon - start));
      start = colon + 1;
    }
    soak_ = Soak(self_test_.soak_seconds, std::move(models));
  }
  for (size_t start = 0; start < self_test_.bugs.size();) {
    const size_t comma = std::min(self_test_.bugs.find(',', start), self_test_.bugs.size());
    const std::string name = self_test_.bugs.substr(start, comma - start);
    int bug = -1;
    if (!parse_simulated_bug_choice(name, bug)) {
      std::fprintf(stderr, "rigview: error: RIGVIEW_VIEWER_BUGS: unknown bug '%s'\n", name.c_str());
      return 2;
    }
    test_bugs_.push_back(bug);
    start = comma + 1;
  }
  if (!self_test_.posing.empty()) {
    // Bad steps fail here, in one line, before any window: a trial run on a scratch character.
    rig::Character scratch(*doc_.model, doc_.character->shared_skin_meshes());
    scratch.evaluate(doc_.playback.selection());
    Posing trial(*doc_.model, scratch);
    std::string error;
    if (!apply_posing_steps(self_test_.posing, state_, doc_, trial, nullptr, {}, error)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 2;
    }
  }
  state_.show_help = self_test_.help;
  state_.panels_hidden = self_test_.hide_ui;

  settings_.load();
  WindowGeometry geometry = settings_.window();
  if (geometry.width <= 0 || self_test_.active()) {
    geometry.width = options_.width;
    geometry.height = options_.height;
    geometry.x = geometry.y = -1;
  }
  if (const int status =
          platform_.open(geometry, doc_.window_title, !self_test_.active(),
                         settings_.persistent() ? settings_.imgui_ini_path().c_str() : nullptr);
      status != 0)
    return status;
  window_open_ = true;

  std::string error;
  if (!create_renderer(renderer_, doc_, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  if (options_.crowd > 0) {
    crowd_renderer_ = std::make_unique<rig::render::CrowdRenderer>();
    if (!crowd_renderer_->init(error) || !rebuild_crowd(error)) {
      std::fprintf(stderr, "rigview: error: --crowd: %s\n", error.c_str());
      return 1;
    }
  }
  settings_.add_recent(doc_.path);
  reset_camera();
  return 0;
}

bool Viewer::rebuild_crowd(std::string& error) {
  crowd_.reset();  // its threads end before the new crowd starts its own
  state_.crowd_count = 0;
  rig::CrowdConfig config;
  config.count = options_.crowd;
  crowd_ = std::make_unique<rig::Crowd>(*doc_.model, doc_.character->shared_skin_meshes(), config);
  const rig::SkinningMethod method = methods_shown(state_).front();
  crowd_->set_methods({&method, 1});
  crowd_->set_dqs_amounts(doc_.dqs_amounts);
  crowd_amounts_revision_ = doc_.dqs_amounts_revision;
  if (!crowd_renderer_->set_crowd(*crowd_, error)) {
    crowd_.reset();
    return false;
  }
  state_.crowd_count = crowd_->count();
  state_.crowd_threads = crowd_->thread_count();
  return true;
}

void Viewer::update_crowd(float dt) {
  if (!crowd_renderer_) return;
  std::string error;
  if (!crowd_ || crowd_->methods().front() != methods_shown(state_).front() ||
      &crowd_->model() != doc_.model.get() ||
      crowd_->shared_skin_meshes() != doc_.character->shared_skin_meshes()) {
    if (!rebuild_crowd(error)) {
      // The crowd is off from here on (the single character shows): not retried every frame.
      state_.error_message = "--crowd: " + error;
      crowd_renderer_.reset();
      return;
    }
  }
  if (crowd_amounts_revision_ != doc_.dqs_amounts_revision) {  // a mix checkbox changed
    crowd_->set_dqs_amounts(doc_.dqs_amounts);
    crowd_amounts_revision_ = doc_.dqs_amounts_revision;
    crowd_->update(0.0f);
  }
  if (!state_.rest_pose && !state_.scrubbing && doc_.playback.playing())
    crowd_->update(dt * doc_.playback.speed());
  crowd_renderer_->upload(*crowd_);
  state_.crowd_update_ms = crowd_->last_update_ms();
  state_.crowd_update_cpu_ms = crowd_->last_update_cpu_ms();
  state_.crowd_upload_ms = crowd_renderer_->upload_ms();
  state_.crowd_gpu_ms = crowd_renderer_->gpu_time_ms();
}

// The renderer fits the bounding sphere to the vertical field of view; a view narrower than it
// is tall (a compare part, a portrait window) needs the horizontal one to fit too.
void Viewer::frame_model() {
  state_.camera.frame(crowd_ ? rig::render::crowd_bounds(*crowd_, doc_.bounds) : doc_.bounds);
  int width = 0, height = 0;
  platform_.framebuffer_size(width, height);
  if (width <= 0 || height <= 0) return;  // minimized: framed for the vertical view only
  int window_width = 0, window_height = 0;
  platform_.window_size(window_width, window_height);
  const float left = window_width > 0 ? single_view_left(state_, static_cast<float>(window_width)) *
                                            static_cast<float>(width) / window_width
                                      : 0.0f;
  const float views = static_cast<float>(methods_shown(state_).size());
  state_.camera.fit_width((static_cast<float>(width) - left) / static_cast<float>(height) / views);
}

// Frames the part of the mesh that joint `node` moves (render::joint_bounds).
void Viewer::frame_joint(int node) {
  if (!bind_boxes_)
    bind_boxes_ = std::make_unique<rig::render::BindBoxes>(
        rig::render::bind_boxes(*doc_.model, doc_.character->skin_meshes()));
  state_.camera.frame(rig::render::joint_bounds(*doc_.model, *bind_boxes_, *doc_.character, node));
}

// Frames every joint Rig health row `finding` names (render::skin_joints_bounds).
void Viewer::frame_finding(int finding) {
  if (finding < 0 || size_t(finding) >= doc_.health.rows.size()) return;
  const RigHealthRow& row = doc_.health.rows[size_t(finding)];
  if (!bind_boxes_)
    bind_boxes_ = std::make_unique<rig::render::BindBoxes>(
        rig::render::bind_boxes(*doc_.model, doc_.character->skin_meshes()));
  const rig::render::Bounds bounds = rig::render::skin_joints_bounds(
      *doc_.model, *bind_boxes_, *doc_.character, row.skin, row.joints);
  if (bounds.valid()) state_.camera.frame(bounds);
}

void Viewer::simulate_bug(int bug) {
  if (bug == doc_.simulated_bug || !doc_.pristine) return;
  derive_document(doc_, bug, pending_doc_);
  std::string error;
  if (!switch_renderer_model(*renderer_, doc_, pending_doc_, error)) {
    state_.error_message = doc_.path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    pending_doc_.stop_background_work();
    pending_doc_ = Document{};
    return;
  }
  // The same clip, time and playback settings (the derived model has the file's clips).
  const rig::Playback& old = doc_.playback;
  rig::Playback& p = pending_doc_.playback;
  if (old.clip() >= 0) {
    p.select_clip(old.clip());
    p.set_time(old.time());
  }
  p.set_playing(old.playing());
  p.set_looping(old.looping());
  p.set_speed(old.speed());
  std::swap(doc_, pending_doc_);
  pending_doc_.stop_background_work();
  pending_doc_ = Document{};
  bind_boxes_.reset();
  compressed_playback_ = false;
  requested_tolerance_ = -1.0;
  state_.playback = &doc_.playback;
  // reversed-multiply adds nodes and keeps the old ones: a selected node stays valid; it is
  // checked anyway.
  if (state_.selected_node >= static_cast<int>(doc_.model->nodes.size())) state_.selected_node = -1;
  state_.hovered_node = -1;
}

// The Rig health panel's content (RIGVIEW_VIEWER_RIG_HEALTH), plus what the viewer did with it.
bool Viewer::write_rig_health(const std::string& path) const {
  std::ofstream out(path);
  out << rig_health_report(doc_.health);
  out << "bug "
      << (doc_.simulated_bug >= 0
              ? rig::simulated_bug_name(rig::kSimulatedBugs[size_t(doc_.simulated_bug)])
              : "none")
      << "\n";
  out << "selected "
      << (state_.selected_node >= 0 ? doc_.node_labels[size_t(state_.selected_node)] : "-") << "\n";
  out << "view " << (state_.surface_view == SurfaceView::RigFindings ? "rig-findings" : "other")
      << " finding " << doc_.health.field_finding << "\n";
  out << "camera " << state_.camera.target.x << " " << state_.camera.target.y << " "
      << state_.camera.target.z << " " << state_.camera.distance << "\n";
  out.close();
  if (!out) {
    std::fprintf(stderr, "rigview: error: %s: cannot write the rig health report\n", path.c_str());
    return false;
  }
  return true;
}

// The artefact measures of the current pose, for what needs them this frame: the Artefacts
// panel (its method), the deflation heat map (every method on screen) and the difference map
// (LBS and DQS). The panel also keeps a scan of the current clip going in the background.
// The document's centres of rotation: while the background job runs, the methods that need
// them are marked as preparing (with its progress); once ready they reach the character and
// the renderer, and those methods become selectable.
void Viewer::update_rotation_centers() {
  uint32_t preparing = 0;
  if (doc_.centers_job && !doc_.centers_applied) {
    if (self_test_.active()) doc_.centers_job->wait();  // repeatable test frames
    if (std::shared_ptr<const rig::SkinMeshes> meshes = doc_.centers_job->result()) {
      doc_.character->set_skin_meshes(meshes);
      std::string error;
      if (!renderer_->set_skin_meshes(meshes, error))
        std::fprintf(stderr, "rigview: error: %s: %s\n", doc_.path.c_str(), error.c_str());
      doc_.artefacts.reset();  // remade on next use, with the centres
      doc_.centers_applied = true;
    } else if (doc_.centers_job->running()) {
      for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
        if (m.uses_rotation_centers) preparing |= 1u << static_cast<uint32_t>(m.method);
      state_.preparing_progress = doc_.centers_job->progress();
    }
  }
  state_.methods_preparing = preparing;
  if (!preparing) state_.skinning_notice.clear();
}

void Viewer::update_artefacts() {
  const SurfaceView view = state_.surface_view;
  const bool maps = view == SurfaceView::Deflation || view == SurfaceView::Difference;
  if (!maps && !state_.artefacts_open) return;
  if (!doc_.artefacts)
    doc_.artefacts = std::make_unique<ArtefactAnalysis>(*doc_.model, doc_.character->skin_meshes());
  std::array<rig::SkinningMethod, rig::kSkinningMethodCount> wanted{};
  size_t count = 0;
  auto want = [&](rig::SkinningMethod m) {
    if (std::find(wanted.begin(), wanted.begin() + count, m) == wanted.begin() + count)
      wanted[count++] = m;
  };
  if (view == SurfaceView::Deflation)
    for (rig::SkinningMethod m : methods_shown(state_)) want(m);
  if (view == SurfaceView::Difference) {
    want(ArtefactAnalysis::kDifferenceA);
    want(ArtefactAnalysis::kDifferenceB);
  }
  if (state_.artefacts_open) want(state_.artefact_method);
  doc_.artefacts->analyze(*doc_.character, {wanted.data(), count});
  if (view == SurfaceView::Deflation)
    for (rig::SkinningMethod m : methods_shown(state_)) doc_.artefacts->refresh_deflation_field(m);
  if (view == SurfaceView::Difference) doc_.artefacts->refresh_difference_field();
  if (state_.artefacts_open && doc_.playback.clip() >= 0)
    doc_.artefacts->request_scan(doc_.playback.clip(), doc_.dqs_amounts);
}

// The Compression panel's background work and what playback samples. Raw sources are restored
// before a new tolerance replaces the results the character may point at.
void Viewer::update_compression() {
  const bool wanted = state_.compression_open || state_.surface_view == SurfaceView::Compression;
  if (!wanted && !doc_.compression) return;
  if (!doc_.compression)
    doc_.compression =
        std::make_unique<CompressionSession>(*doc_.model, doc_.character->shared_skin_meshes());
  CompressionSession& c = *doc_.compression;
  if (wanted && requested_tolerance_ != double(state_.tolerance_cm)) {
    c.use_compressed(*doc_.character, false);
    if (compressed_playback_ && doc_.posing) doc_.posing->refresh_references();
    compressed_playback_ = false;
    c.request(state_.tolerance_cm);
    requested_tolerance_ = state_.tolerance_cm;
  }
  const bool play = state_.play_compressed && c.results() != nullptr;
  if (play != compressed_playback_) {
    c.use_compressed(*doc_.character, play);
    compressed_playback_ = play;
    if (doc_.posing) doc_.posing->refresh_references();
  }
}

void Viewer::reset_camera() {
  state_.camera = rig::render::OrbitCamera{};
  reset_camera_angles(state_.camera);
  frame_model();
}

void Viewer::open_model(const std::string& path) {
  if (!has_model_extension(path)) {
    state_.error_message = path + ": not a .gltf or .glb file";
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    return;
  }
  std::string error;
  if (!load_document(path, options_, pending_doc_, error)) {
    state_.error_message = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    return;
  }
  if (!switch_renderer_model(*renderer_, doc_, pending_doc_, error)) {
    state_.error_message = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", state_.error_message.c_str());
    pending_doc_ = Document{};
    return;
  }
  std::swap(doc_, pending_doc_);
  // The old document's background work stops before its model goes (a plain assignment
  // would free the model first).
  pending_doc_.stop_background_work();
  pending_doc_ = Document{};
  bind_boxes_.reset();
  handles_.cancel();
  compressed_playback_ = false;
  requested_tolerance_ = -1.0;
  state_.playback = &doc_.playback;
  state_.error_message.clear();
  state_.selected_node = state_.hovered_node = -1;
  state_.tree_skin = 0;
  state_.fade_target = 0;
  state_.scroll_to_clip = true;
  state_.open_field = path;
  settings_.add_recent(path);
  platform_.set_title(doc_.window_title);
  if (crowd_renderer_ && !rebuild_crowd(error)) {
    state_.error_message = "--crowd: " + error;
    crowd_renderer_.reset();
  }
  reset_camera();
}

// Requests posted by key actions and panels during the last frame.
void Viewer::serve_requests() {
  ViewerRequests& r = state_.requests;
  if (r.quit) platform_.request_close();
  if (r.reset_camera) reset_camera();
  if (r.frame_model) frame_model();
  if (r.frame_node >= 0) frame_joint(r.frame_node);
  if (r.simulate_bug != ViewerRequests::kNoBugRequest) simulate_bug(r.simulate_bug);
  if (r.frame_finding >= 0) frame_finding(r.frame_finding);
  r.quit = r.reset_camera = r.frame_model = false;
  r.frame_node = r.frame_finding = -1;
  r.simulate_bug = ViewerRequests::kNoBugRequest;
  if (!r.open_path.empty()) {
    std::string path;
    path.swap(r.open_path);
    open_model(path);
  }
  // focus_open_field is served (and cleared) by the File panel.
}

void Viewer::handle_keyboard() {
  const bool typing = ImGui::GetIO().WantCaptureKeyboard;
  for (const KeyPress& press : platform_.take_keys()) apply_key(state_, press, typing);
}

void Viewer::handle_mouse() {
  const ImGuiIO& io = ImGui::GetIO();
  // A handle under the cursor, or being dragged, takes the left button from the camera.
  if (doc_.posing) handles_.feed_queued_mouse(*doc_.posing, state_);  // self-test only
  if (doc_.posing && handles_.handle_mouse(*doc_.posing, state_)) return;
  if (io.WantCaptureMouse) return;
  const float dx = io.MouseDelta.x, dy = io.MouseDelta.y;
  const bool moved = dx != 0.0f || dy != 0.0f;
  if (moved && io.MouseDown[0] && !io.KeyShift) orbit_camera(state_.camera, dx, dy);
  if (moved && (io.MouseDown[2] || (io.MouseDown[0] && io.KeyShift)))
    pan_camera(state_.camera, dx, dy, io.DisplaySize.y);
  if (io.MouseWheel != 0.0f) zoom_camera(state_.camera, io.MouseWheel);
  // A click (press and release without dragging) on a hovered joint selects it.
  if (ImGui::IsMouseReleased(0) && io.MouseDragMaxDistanceSqr[0] < 9.0f &&
      state_.hovered_node >= 0) {
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
  float vx = single_view_left(state_, width), vw = width - vx;
  const size_t views = methods_shown(state_).size();
  if (views > 1) {
    const float part = std::floor(vw / static_cast<float>(views));
    const float index =
        std::clamp(std::floor((io.MousePos.x - vx) / part), 0.0f, static_cast<float>(views - 1));
    vx += index * part;
    vw = index + 1 < static_cast<float>(views) ? part : vw - index * part;
  }
  const rig::render::Camera camera = state_.camera.camera(vw / height);
  const glm::mat4 view_projection = camera.projection * camera.view;
  const std::span<const glm::mat4> world = doc_.character->world();
  float best = kPickRadiusPixels * kPickRadiusPixels;
  for (int node : doc_.joint_nodes) {
    glm::vec2 pixel;
    if (!project_to_window(view_projection, glm::vec3(world[static_cast<size_t>(node)][3]), vx,
                           0.0f, vw, height, pixel))
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

int Viewer::run() {
  using Clock = std::chrono::steady_clock;
  double previous = platform_.time();
  int exit_status = 0;
  for (int frame = 1; !platform_.should_close(); ++frame) {
    platform_.poll_events();
    if (std::string dropped = platform_.take_drop(); !dropped.empty())
      state_.requests.open_path = dropped;
    if (frame == 2 && !self_test_.drop.empty()) state_.requests.open_path = self_test_.drop;
    if (frame == 2 && self_test_.measure_cost_draws > 0) {
      state_.cost_draws = self_test_.measure_cost_draws;
      state_.requests.measure_cost = true;
    }
    if (frame >= 2 && size_t(frame - 2) < test_bugs_.size())
      state_.requests.simulate_bug = test_bugs_[size_t(frame - 2)];
    if (self_test_.finding >= 0 && size_t(frame) == 2 + test_bugs_.size())
      select_finding(state_, doc_, self_test_.finding);
    if (frame == 2) {
      for (const char c : self_test_.keys) {
        KeyPress press;
        press.key = std::toupper(static_cast<unsigned char>(c));
        if (std::isalnum(static_cast<unsigned char>(c))) platform_.queue_key(press);
      }
    }
    if (soak_.active()) {
      if (frame == 1) soak_start_ = platform_.time();
      soak_.drive(state_, doc_, frame);
    }
    serve_requests();

    const double now = platform_.time();
    // A stall (window drag, breakpoint) must not fling the animation forward.
    const float dt = self_test_.active() ? kFixedTestStep
                                         : static_cast<float>(std::clamp(now - previous, 0.0, 0.1));
    const double frame_ms = (now - previous) * 1000.0;
    state_.frame_ms = state_.frame_ms == 0.0 ? frame_ms : 0.9 * state_.frame_ms + 0.1 * frame_ms;
    previous = now;

    platform_.begin_imgui_frame();
    handle_keyboard();
    handle_mouse();
    serve_requests();  // F, Ctrl+Q and friends act this frame
    update_rotation_centers();

    if (!state_.rest_pose && !state_.scrubbing) doc_.playback.advance(dt);
    const rig::PoseSelection selection =
        state_.rest_pose ? rig::PoseSelection{} : doc_.playback.selection();
    if (frame == 2 && !self_test_.posing.empty()) {
      std::string error;
      const ImVec2 display = ImGui::GetIO().DisplaySize;
      if (!apply_posing_steps(self_test_.posing, state_, doc_, *doc_.posing, &handles_,
                              glm::vec2(display.x, display.y), error)) {
        std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
        return 2;
      }
    }
    const Clock::time_point t0 = Clock::now();
    evaluate_pose(selection);
    const double cpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    state_.animation_cpu_ms =
        state_.animation_cpu_ms == 0.0 ? cpu_ms : 0.9 * state_.animation_cpu_ms + 0.1 * cpu_ms;
    update_compression();
    update_artefacts();
    if (doc_.compression && state_.surface_view == SurfaceView::Compression)
      doc_.compression->displacement(selection);
    update_renderer(*renderer_, doc_, state_);
    if (state_.requests.measure_cost) {  // outside render_scene's GPU timer: queries don't nest
      state_.requests.measure_cost = false;
      measure_cost(*renderer_, doc_, state_);
      if (self_test_.measure_cost_draws > 0) {  // the self-test reads what the panel shows
        if (!state_.cost_error.empty()) std::printf("cost error: %s\n", state_.cost_error.c_str());
        for (const rig::render::SkinningCost& c : state_.cost.methods)
          std::printf("%-4s %10.3f ms per million skinned vertices  x%.2f\n",
                      rig::method_info(c.method).label, c.ms_per_million, c.ratio);
        std::fflush(stdout);
      }
    }
    update_crowd(dt);

    update_hover();
    if (doc_.posing) handles_.draw(*doc_.posing, state_, doc_.character->world());
    draw_hover_tooltip(state_, doc_);
    draw_ui(state_, doc_, settings_, renderer_->gpu_time_ms());
    ImGui::Render();

    int fb_width = 0, fb_height = 0;
    platform_.framebuffer_size(fb_width, fb_height);
    const bool minimized = fb_width <= 0 || fb_height <= 0;
    if (!minimized) {
      if (crowd_)
        render_crowd_scene(*renderer_, *crowd_renderer_, state_, fb_width, fb_height,
                           ImGui::GetIO().DisplaySize.x);
      else
        render_scene(*renderer_, state_, doc_, fb_width, fb_height, ImGui::GetIO().DisplaySize.x);
      platform_.render_imgui();
    }
    const bool last_test_frame = self_test_.active() && frame >= self_test_.frames;
    if (last_test_frame && !self_test_.export_pose.empty() && !export_self_test_pose())
      exit_status = 1;
    if (last_test_frame && !self_test_.screenshot.empty() &&
        !write_window_screenshot(self_test_.screenshot, fb_width, fb_height))
      exit_status = 1;
    if (last_test_frame && !self_test_.rig_health.empty() &&
        !write_rig_health(self_test_.rig_health))
      exit_status = 1;
    platform_.swap_buffers();
    if (last_test_frame) break;
    if (soak_.active()) {
      soak_gl_errors_ += take_gl_errors(*renderer_) - soak_gl_errors_seen_;
      soak_gl_errors_seen_ = renderer_->gl_error_count();
      if (soak_.measure(frame_ms, platform_.time() - soak_start_)) {
        exit_status = soak_.finish(soak_gl_errors_);
        break;
      }
    }
    // Minimized: nothing to draw, and swapping may not wait for vsync; sleep until an event
    // (restore, close) or a short timeout so playback still advances.
    if (minimized && !self_test_.active()) platform_.wait_events(0.1);
  }
  return exit_status;
}

}  // namespace

int run_viewer(const Options& options, const std::string& model_path) {
  Viewer viewer(options);
  if (const int status = viewer.load_initial(model_path); status != 0) return status;
  leak_check_before_gl();
  if (const int status = viewer.open_window(); status != 0) return status;
  return viewer.run();
}

}  // namespace rigview
