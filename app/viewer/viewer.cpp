// The interactive viewer: a GLFW window with an OpenGL 3.3 core context, Dear ImGui panels, the
// engine's Character and Playback, and the renderer's GPU skinning.
//
// Hidden self-test hooks (for tests/app/viewer_smoke_test.cpp; not part of the CLI):
//   RIGVIEW_VIEWER_FRAMES=N        render N frames with a fixed 1/30 s step, then exit 0
//   RIGVIEW_VIEWER_SCREENSHOT=F    write the last frame (UI included) to the PNG F
//   RIGVIEW_VIEWER_DROP=PATH       on frame 2, open PATH as if it had been dropped on the window
//   RIGVIEW_VIEWER_HELP=1          start with the Help panel open
//   RIGVIEW_VIEWER_HIDE_UI=1       draw no panels (screenshots of the scene alone)
//   RIGVIEW_VIEWER_KEYS=KEYS       on frame 2, press these shortcut keys (letters, digits)
#include <cstdio>

#include "leak_check.h"
#include "modes.h"

#if !defined(RIGVIEW_HAS_RENDER)

#include "cli_commands.h"
#include "import/gltf_import.h"

namespace rigview {

int run_viewer(const Options&, const std::string& model_path) {
  std::fprintf(stderr,
               "rigview: error: this build has no renderer; use --info or --export-obj (%s)\n",
               model_path.c_str());
  return 1;
}

}  // namespace rigview

#else

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "pose_options.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render/weight_colors.h"
#include "render/weight_view.h"
#include "viewer/camera_controls.h"
#include "viewer/document.h"
#include "viewer/viewer_settings.h"

namespace rigview {

namespace {

constexpr float kPanelWidth = 380.0f;
constexpr float kPickRadiusPixels = 8.0f;
constexpr float kFixedTestStep = 1.0f / 30.0f;
// Read-only overlays over the 3D view (stats, weight legend): no frame, no input, no focus.
constexpr ImGuiWindowFlags kOverlayFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs |
    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;

std::string g_glfw_error;  // last GLFW error, for the one-line failure messages

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : ""; }

bool has_model_extension(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "gltf" || ext == "glb";
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (end && *end == '\0' && n >= 0 && n < 1000000) ? static_cast<int>(n) : fallback;
}

const char* skinning_name(SkinningMode mode) {
  switch (mode) {
    case SkinningMode::Lbs:
      return "LBS";
    case SkinningMode::Dqs:
      return "DQS";
    case SkinningMode::Compare:
      return "LBS | DQS";
  }
  return "";
}

class Viewer {
 public:
  explicit Viewer(const Options& options) : options_(options) {}
  ~Viewer();

  // Loads the first model and applies the command-line pose and --weights. 0, or the exit
  // status after printing one line (1: the model, 2: a usage error).
  int load_initial(const std::string& path);
  // Window, GL, ImGui, renderer. Returns 0, or the exit status after printing one line.
  int open_window();
  int run();

  void queue_drop(const std::string& path) { pending_open_ = path; }
  void queue_key(int key, int action, int mods) {
    if (queued_key_count_ < kMaxQueuedKeys) queued_keys_[queued_key_count_++] = {key, action, mods};
  }

 private:
  // Opens `path` as the new document; on failure the current one stays and the error is shown.
  void open_model(const std::string& path);
  void apply_command_line_pose();
  void frame_model();
  void reset_camera();

  void handle_keyboard();
  void handle_mouse();
  void update_hover();
  void render_scene(int fb_width, int fb_height);
  void draw_ui();
  void draw_file_section();
  void draw_animation_section();
  void draw_crossfade_section();
  void draw_display_section();
  void draw_skeleton_section();
  void draw_joint_tree(int skin, int joint);
  void draw_stats_overlay();
  void draw_weight_legend();
  void draw_compare_labels();
  void draw_help_window();
  bool write_screenshot(const std::string& path, int fb_width, int fb_height);
  rig::render::Camera current_camera(float aspect) const { return camera_.camera(aspect); }
  // Left edge (window pixels) of the 3D view: right of the side panel while the panel sits at
  // the window's left edge, so the framed model is not hidden behind it. In compare mode that
  // free area is what is split into the LBS (left) and DQS (right) halves, so neither half is
  // covered; with the panels hidden (Tab) the halves are exactly the window's halves.
  float single_view_left(float window_width) const {
    return (!hide_ui_ && panel_right_ > 0.0f && window_width - panel_right_ >= 200.0f)
               ? panel_right_
               : 0.0f;
  }

  Options options_;
  ViewerSettings settings_;
  Document doc_;
  Document pending_doc_;  // scratch for loads, so a failed load leaves doc_ alone
  GLFWwindow* window_ = nullptr;
  bool imgui_ready_ = false;
  // Heap, so it can be destroyed while the GL context still exists (see ~Viewer).
  std::unique_ptr<rig::render::Renderer> renderer_;
  rig::render::OrbitCamera camera_;

  // View state.
  SkinningMode skinning_ = SkinningMode::Lbs;
  bool rest_pose_ = false;
  bool show_skeleton_ = false;
  bool show_surfaces_ = true;
  bool show_wireframe_ = false;
  bool show_grid_ = true;
  bool show_help_ = false;
  // Skin-weight view; SelectedJoint shows selected_node_'s weights.
  rig::render::WeightView weight_view_ = rig::render::WeightView::Off;
  int selected_node_ = -1;
  int hovered_node_ = -1;
  bool reveal_selection_ = false;
  int tree_skin_ = 0;

  // Crossfade controls.
  int fade_target_ = 0;
  float fade_duration_ = 0.5f;
  bool fade_phase_sync_ = false;

  // Open field and messages.
  std::string open_path_;
  std::string pending_open_;
  std::string error_message_;
  bool focus_open_field_ = false;

  // Timing.
  bool scrubbing_ = false;
  bool scroll_to_clip_ = true;  // bring the current clip into the list's view after a load
  double frame_ms_ = 0.0;
  double animation_cpu_ms_ = 0.0;

  // Self-test.
  int test_frames_ = 0;
  std::string test_screenshot_, test_drop_, test_keys_;
  bool hide_ui_ = false;
  float panel_right_ = 8.0f + kPanelWidth;  // where the panel ends; its first-use place until drawn
  float stats_height_ = 50.0f;  // of the stats overlay, as last drawn (the legend sits above it)

  // Key presses since the last frame (fixed storage: no allocation per event).
  struct QueuedKey {
    int key, action, mods;
  };
  static constexpr int kMaxQueuedKeys = 32;
  QueuedKey queued_keys_[kMaxQueuedKeys] = {};
  int queued_key_count_ = 0;
};

Viewer::~Viewer() {
  if (window_) {
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetWindowPos(window_, &x, &y);
    glfwGetWindowSize(window_, &w, &h);
    if (test_frames_ == 0) settings_.save_window({x, y, w, h});
  }
  renderer_.reset();
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

int Viewer::load_initial(const std::string& path) {
  std::string error;
  if (!load_document(path, doc_, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options_, *doc_.model, selection, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  // --weights opens the viewer on that view (and joint, selected and revealed in the tree).
  int weight_joint = -1;
  if (!rig::render::weight_view_from_name(*doc_.model, options_.weights_view, weight_view_,
                                          weight_joint, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 2;
  }
  if (weight_joint >= 0) {
    selected_node_ = weight_joint;
    reveal_selection_ = true;
  }
  skinning_ = options_.skinning;
  rest_pose_ = options_.rest_pose;
  show_skeleton_ = options_.armature;
  rig::Playback& p = doc_.playback;
  if (selection.clip >= 0) {
    p.select_clip(selection.clip);
    p.set_time(selection.time);
    fade_target_ = selection.clip;
  }
  if (selection.clip >= 0 && selection.blend_clip >= 0) {
    fade_target_ = selection.blend_clip;
    if (p.start_crossfade(selection.blend_clip, fade_duration_, false))
      p.set_fade_progress(selection.blend_weight, selection.blend_time);
  }
  // An explicit time or blend on the command line asks for that exact pose: start paused.
  if (options_.animation_time.has_value() || selection.blend_clip >= 0) p.set_playing(false);
  open_path_ = path;
  return 0;
}

int Viewer::open_window() {
  test_frames_ = env_int("RIGVIEW_VIEWER_FRAMES", 0);
  if (const char* s = std::getenv("RIGVIEW_VIEWER_SCREENSHOT")) test_screenshot_ = s;
  if (const char* s = std::getenv("RIGVIEW_VIEWER_DROP")) test_drop_ = s;
  if (const char* s = std::getenv("RIGVIEW_VIEWER_KEYS")) test_keys_ = s;
  show_help_ = env_int("RIGVIEW_VIEWER_HELP", 0) != 0;
  hide_ui_ = env_int("RIGVIEW_VIEWER_HIDE_UI", 0) != 0;

  const char* no_display =
      "rigview: error: no display to open a window on (DISPLAY/WAYLAND_DISPLAY unset or GLFW "
      "could not connect%s%s); render offscreen instead with --output FILE.png\n";
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  glfwSetErrorCallback(on_glfw_error);
  if ((!display || !*display) && (!wayland || !*wayland)) {
    std::fprintf(stderr, no_display, "", "");
    return 1;
  }
  if (!glfwInit()) {
    std::fprintf(stderr, no_display, g_glfw_error.empty() ? "" : ": ", g_glfw_error.c_str());
    return 1;
  }

  settings_.load();
  WindowGeometry geometry = settings_.window();
  if (geometry.width <= 0 || test_frames_ > 0) {
    geometry.width = options_.width;
    geometry.height = options_.height;
    geometry.x = geometry.y = -1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
#ifdef RIGVIEW_GL_DEBUG
  // A debug context makes every driver deliver KHR_debug messages (see render/gl_util.h).
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
  window_ = glfwCreateWindow(geometry.width, geometry.height, doc_.window_title.c_str(), nullptr,
                             nullptr);
  if (!window_) {  // multisampling is a nicety; retry without it
    glfwWindowHint(GLFW_SAMPLES, 0);
    window_ = glfwCreateWindow(geometry.width, geometry.height, doc_.window_title.c_str(), nullptr,
                               nullptr);
  }
  if (!window_) {
    std::fprintf(stderr, "rigview: error: could not open an OpenGL 3.3 core window: %s\n",
                 g_glfw_error.c_str());
    return 1;
  }
  if (geometry.x >= 0 && geometry.y >= 0) glfwSetWindowPos(window_, geometry.x, geometry.y);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(test_frames_ > 0 ? 0 : 1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    std::fprintf(stderr, "rigview: error: could not load the OpenGL 3.3 functions\n");
    return 1;
  }

  glfwSetWindowUserPointer(window_, this);
  // Installed before ImGui's backend, which chains to it.
  glfwSetKeyCallback(window_, [](GLFWwindow* window, int key, int, int action, int mods) {
    if (action == GLFW_PRESS || action == GLFW_REPEAT)
      static_cast<Viewer*>(glfwGetWindowUserPointer(window))->queue_key(key, action, mods);
  });
  glfwSetDropCallback(window_, [](GLFWwindow* window, int count, const char** paths) {
    auto* viewer = static_cast<Viewer*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < count; ++i) {
      if (has_model_extension(paths[i])) {
        viewer->queue_drop(paths[i]);
        return;
      }
    }
    if (count > 0) viewer->queue_drop(paths[0]);  // reported as not a glTF file by open_model
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = settings_.persistent() ? settings_.imgui_ini_path().c_str() : nullptr;
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;

  std::string error;
  renderer_ = std::make_unique<rig::render::Renderer>();
  if (!renderer_->init(error)) {
    std::fprintf(stderr, "rigview: error: renderer: %s\n", error.c_str());
    return 1;
  }
  if (!renderer_->set_model(*doc_.model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", doc_.path.c_str(), error.c_str());
    return 1;
  }
  settings_.add_recent(doc_.path);
  reset_camera();
  return 0;
}

// The renderer fits the bounding sphere to the vertical field of view; a view narrower than it
// is tall (a compare half, a portrait window) needs the horizontal one to fit too.
void Viewer::frame_model() {
  camera_.frame(doc_.bounds);
  int width = 0, height = 0;
  if (window_) glfwGetFramebufferSize(window_, &width, &height);
  if (width <= 0 || height <= 0) return;  // minimized: framed for the vertical view only
  int window_width = 0, window_height = 0;
  glfwGetWindowSize(window_, &window_width, &window_height);
  const float left = window_width > 0 ? single_view_left(static_cast<float>(window_width)) *
                                            static_cast<float>(width) / window_width
                                      : 0.0f;
  float aspect = (static_cast<float>(width) - left) / static_cast<float>(height);
  if (skinning_ == SkinningMode::Compare) aspect *= 0.5f;
  camera_.fit_width(aspect);
}

void Viewer::reset_camera() {
  camera_ = rig::render::OrbitCamera{};
  reset_camera_angles(camera_);
  frame_model();
}

void Viewer::open_model(const std::string& path) {
  if (!has_model_extension(path)) {
    error_message_ = path + ": not a .gltf or .glb file";
    std::fprintf(stderr, "rigview: error: %s\n", error_message_.c_str());
    return;
  }
  std::string error;
  if (!load_document(path, pending_doc_, error)) {
    error_message_ = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", error_message_.c_str());
    return;
  }
  if (!renderer_->set_model(*pending_doc_.model, error)) {
    error_message_ = path + ": " + error;
    std::fprintf(stderr, "rigview: error: %s\n", error_message_.c_str());
    std::string restore_error;  // the previous model was accepted before; put it back
    if (!renderer_->set_model(*doc_.model, restore_error)) renderer_->clear_model();
    pending_doc_ = Document{};
    return;
  }
  std::swap(doc_, pending_doc_);
  pending_doc_ = Document{};
  error_message_.clear();
  selected_node_ = hovered_node_ = -1;
  tree_skin_ = 0;
  fade_target_ = 0;
  scroll_to_clip_ = true;
  open_path_ = path;
  settings_.add_recent(path);
  glfwSetWindowTitle(window_, doc_.window_title.c_str());
  reset_camera();
}

// Shortcuts come from the key callback's queue rather than ImGui::IsKeyPressed: with ImGui 1.86 a
// press and release inside one slow frame would be lost.
void Viewer::handle_keyboard() {
  const ImGuiIO& io = ImGui::GetIO();
  const int count = std::min(queued_key_count_, kMaxQueuedKeys);
  queued_key_count_ = 0;
  for (int i = 0; i < count; ++i) {
    if (queued_keys_[i].key == GLFW_KEY_Q && (queued_keys_[i].mods & GLFW_MOD_CONTROL))
      glfwSetWindowShouldClose(window_, GLFW_TRUE);
  }
  if (io.WantCaptureKeyboard) return;  // typing into a field
  rig::Playback& p = doc_.playback;
  for (int i = 0; i < count; ++i) {
    const QueuedKey& k = queued_keys_[i];
    if (k.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) continue;
    const bool repeat = k.action == GLFW_REPEAT;
    switch (k.key) {
      case GLFW_KEY_COMMA:
        p.step_frames(-1);
        break;
      case GLFW_KEY_PERIOD:
        p.step_frames(1);
        break;
      default:
        break;
    }
    if (repeat) continue;  // only stepping auto-repeats
    switch (k.key) {
      case GLFW_KEY_SPACE:
        p.toggle_playing();
        break;
      case GLFW_KEY_HOME:
        p.jump_to_start();
        break;
      case GLFW_KEY_END:
        p.jump_to_end();
        break;
      case GLFW_KEY_L:
        p.set_looping(!p.looping());
        break;
      case GLFW_KEY_B:
        show_skeleton_ = !show_skeleton_;
        break;
      case GLFW_KEY_R:
        rest_pose_ = !rest_pose_;
        break;
      case GLFW_KEY_W:
        show_wireframe_ = !show_wireframe_;
        break;
      case GLFW_KEY_V:  // Off → selected joint → influence count → Off
        weight_view_ =
            static_cast<rig::render::WeightView>((static_cast<int>(weight_view_) + 1) % 3);
        break;
      case GLFW_KEY_G:
        show_grid_ = !show_grid_;
        break;
      case GLFW_KEY_F:
        frame_model();
        break;
      case GLFW_KEY_1:
        skinning_ = SkinningMode::Lbs;
        break;
      case GLFW_KEY_2:
        skinning_ = SkinningMode::Dqs;
        break;
      case GLFW_KEY_3:
        skinning_ = SkinningMode::Compare;
        break;
      case GLFW_KEY_H:
      case GLFW_KEY_F1:
        show_help_ = !show_help_;
        break;
      case GLFW_KEY_O:
        focus_open_field_ = true;
        break;
      case GLFW_KEY_ESCAPE:
        selected_node_ = -1;
        break;
      case GLFW_KEY_TAB:
        hide_ui_ = !hide_ui_;
        break;
      default:
        break;
    }
  }
}

void Viewer::handle_mouse() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return;
  const float dx = io.MouseDelta.x, dy = io.MouseDelta.y;
  const bool moved = dx != 0.0f || dy != 0.0f;
  float view_height = io.DisplaySize.y;
  if (moved && io.MouseDown[0] && !io.KeyShift) orbit_camera(camera_, dx, dy);
  if (moved && (io.MouseDown[2] || (io.MouseDown[0] && io.KeyShift)))
    pan_camera(camera_, dx, dy, view_height);
  if (io.MouseWheel != 0.0f) zoom_camera(camera_, io.MouseWheel);
  // A click (press and release without dragging) on a hovered joint selects it.
  if (ImGui::IsMouseReleased(0) && io.MouseDragMaxDistanceSqr[0] < 9.0f && hovered_node_ >= 0) {
    selected_node_ = hovered_node_;
    reveal_selection_ = true;
  }
}

// Nearest joint to the mouse within a few pixels, projected with the camera of the half (in
// compare mode) or the whole window the mouse is over.
void Viewer::update_hover() {
  hovered_node_ = -1;
  const ImGuiIO& io = ImGui::GetIO();
  if (!show_skeleton_ || io.WantCaptureMouse || doc_.joint_nodes.empty()) return;
  const float width = io.DisplaySize.x, height = io.DisplaySize.y;
  if (width <= 0.0f || height <= 0.0f) return;
  float vx = single_view_left(width), vw = width - vx;
  if (skinning_ == SkinningMode::Compare) {
    const float left_half = std::floor(vw * 0.5f);
    if (io.MousePos.x >= vx + left_half)
      vx += left_half, vw -= left_half;
    else
      vw = left_half;
  }
  const rig::render::Camera camera = current_camera(vw / height);
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
    if (d2 <= best) best = d2, hovered_node_ = node;
  }
  if (hovered_node_ >= 0)
    ImGui::SetTooltip("%s%s", doc_.node_labels[static_cast<size_t>(hovered_node_)].c_str(),
                      hovered_node_ == selected_node_ ? " (selected)" : "");
}

void Viewer::render_scene(int fb_width, int fb_height) {
  rig::render::Viewport viewport{0, 0, std::max(fb_width, 1), std::max(fb_height, 1)};
  rig::render::DrawOptions draw;
  draw.method = skinning_method(skinning_);
  draw.surfaces = show_surfaces_;
  draw.wireframe = show_wireframe_;
  draw.grid = show_grid_;
  draw.skeleton = show_skeleton_;
  draw.selected_joint_node = selected_node_;
  draw.weight_view = weight_view_;
  draw.weight_joint_node = selected_node_;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, viewport.width, viewport.height);
  renderer_->begin_gpu_timer();
  renderer_->clear(viewport, draw.background);
  const float window_width = ImGui::GetIO().DisplaySize.x;
  rig::render::Viewport view = viewport;
  if (window_width > 0.0f) {
    view.x = static_cast<int>(single_view_left(window_width) * viewport.width / window_width);
    view.width = std::max(viewport.width - view.x, 1);
  }
  if (skinning_ == SkinningMode::Compare) {
    const float half_aspect = 0.5f * static_cast<float>(view.width) / view.height;
    renderer_->draw_compare(current_camera(half_aspect), view, draw, false);
  } else {
    renderer_->draw(current_camera(view.aspect()), view, draw);
  }
  renderer_->end_gpu_timer();
}

void Viewer::draw_file_section() {
  if (!ImGui::CollapsingHeader("File", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%s", doc_.path.c_str());
  if (!doc_.model->warnings.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%zu import warning(s)",
                       doc_.model->warnings.size());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (const rig::ImportWarning& w : doc_.model->warnings)
        ImGui::Text("%s: %s", w.code.c_str(), w.message.c_str());
      ImGui::EndTooltip();
    }
  }
  if (focus_open_field_) {
    ImGui::SetKeyboardFocusHere();
    focus_open_field_ = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
  const bool entered = ImGui::InputTextWithHint("##open", "path to .gltf / .glb", &open_path_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Open") || entered) pending_open_ = open_path_;
  ImGui::TextDisabled("or drop a .gltf / .glb file onto the window");
  if (!settings_.recent_files().empty() && ImGui::TreeNode("Recent files")) {
    for (const std::string& recent : settings_.recent_files()) {
      if (ImGui::Selectable(recent.c_str(), recent == doc_.path)) pending_open_ = recent;
    }
    ImGui::TreePop();
  }
}

void Viewer::draw_animation_section() {
  if (!ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  rig::Playback& p = doc_.playback;
  const rig::Model& model = *doc_.model;
  if (model.clips.empty()) {
    ImGui::TextDisabled("This model has no animations (rest pose).");
    return;
  }
  const float list_height =
      ImGui::GetTextLineHeightWithSpacing() * std::min<float>(8.0f, model.clips.size() + 0.5f);
  if (ImGui::BeginListBox("##clips", ImVec2(-FLT_MIN, list_height))) {
    for (size_t c = 0; c < model.clips.size(); ++c) {
      const bool current = static_cast<int>(c) == p.clip();
      if (ImGui::Selectable(doc_.clip_list_rows[c].c_str(), current)) p.select_clip(int(c));
      if (current && scroll_to_clip_) {
        ImGui::SetScrollHereY(0.5f);
        scroll_to_clip_ = false;
      }
    }
    ImGui::EndListBox();
  }
  if (rest_pose_) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Rest pose is on (R)");

  if (ImGui::Button("|<")) p.jump_to_start();
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_frames(-1);
  ImGui::SameLine();
  if (ImGui::Button(p.playing() ? "Pause" : "Play ", ImVec2(60.0f, 0.0f))) p.toggle_playing();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_frames(1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.jump_to_end();
  ImGui::SameLine();
  bool loop = p.looping();
  if (ImGui::Checkbox("Loop", &loop)) p.set_looping(loop);

  float speed = p.speed();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
  if (ImGui::SliderFloat("##speed", &speed, rig::Playback::kMinSpeed, rig::Playback::kMaxSpeed,
                         "speed %.2fx"))
    p.set_speed(speed);
  ImGui::SameLine();
  if (ImGui::Button("1x")) p.set_speed(1.0f);

  const rig::Clip& clip = model.clips[static_cast<size_t>(p.clip())];
  float time = p.time();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (clip.end > clip.start) {
    if (ImGui::SliderFloat("##timeline", &time, clip.start, clip.end, "%.3f s")) p.set_time(time);
    scrubbing_ = ImGui::IsItemActive();
  } else {
    ImGui::TextDisabled("zero-length clip: a single pose at %.3f s", static_cast<double>(time));
    scrubbing_ = false;
  }
  ImGui::Text("time %.3f s   frame %d / %d   (frame %.1f ms)", static_cast<double>(p.time()),
              p.frame_index(), p.frame_count(p.clip()) - 1,
              1000.0 * static_cast<double>(p.frame_duration(p.clip())));
}

void Viewer::draw_crossfade_section() {
  if (!ImGui::CollapsingHeader("Crossfade", ImGuiTreeNodeFlags_DefaultOpen)) return;
  rig::Playback& p = doc_.playback;
  const rig::Model& model = *doc_.model;
  if (model.clips.size() < 1) {
    ImGui::TextDisabled("Needs an animation.");
    return;
  }
  fade_target_ = std::clamp(fade_target_, 0, static_cast<int>(model.clips.size()) - 1);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##fade_target",
                        doc_.clip_labels[static_cast<size_t>(fade_target_)].c_str())) {
    for (size_t c = 0; c < model.clips.size(); ++c) {
      const bool chosen = static_cast<int>(c) == fade_target_;
      if (ImGui::Selectable(doc_.clip_list_rows[c].c_str(), chosen)) fade_target_ = int(c);
      if (chosen) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  ImGui::SliderFloat("##fade_duration", &fade_duration_, 0.0f, rig::Playback::kMaxFadeDuration,
                     "over %.2f s");
  ImGui::SameLine();
  ImGui::Checkbox("Phase sync", &fade_phase_sync_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Start the target at the same normalized time as the current clip");
  if (ImGui::Button("Start crossfade")) {
    p.start_crossfade(fade_target_, fade_duration_, fade_phase_sync_);
    if (!p.playing() && p.fading()) p.set_playing(true);
  }
  if (p.fading()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) p.cancel_crossfade();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "weight %.2f -> %s",
                  static_cast<double>(p.blend_weight()),
                  doc_.clip_labels[static_cast<size_t>(p.fade_target())].c_str());
    ImGui::ProgressBar(p.blend_weight(), ImVec2(-FLT_MIN, 0.0f), overlay);
    ImGui::Text("target time %.3f s", static_cast<double>(p.fade_target_time()));
  } else {
    ImGui::TextDisabled("blend weight 0 (no fade running)");
  }
}

void Viewer::draw_display_section() {
  if (!ImGui::CollapsingHeader("Skinning and display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int mode = static_cast<int>(skinning_);
  ImGui::RadioButton("LBS (1)", &mode, static_cast<int>(SkinningMode::Lbs));
  ImGui::SameLine();
  ImGui::RadioButton("DQS (2)", &mode, static_cast<int>(SkinningMode::Dqs));
  ImGui::SameLine();
  ImGui::RadioButton("Compare (3)", &mode, static_cast<int>(SkinningMode::Compare));
  skinning_ = static_cast<SkinningMode>(mode);
  ImGui::Checkbox("Rest pose (R)", &rest_pose_);
  ImGui::SameLine();
  ImGui::Checkbox("Bones (B)", &show_skeleton_);
  ImGui::SameLine();
  ImGui::Checkbox("Grid (G)", &show_grid_);
  ImGui::Checkbox("Surfaces", &show_surfaces_);
  ImGui::SameLine();
  ImGui::Checkbox("Wireframe (W)", &show_wireframe_);
  using rig::render::WeightView;
  int weights = static_cast<int>(weight_view_);
  ImGui::SetNextItemWidth(170.0f);
  ImGui::Combo("Weights (V)", &weights, "Off\0Selected joint\0Influence count\0");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Selected joint: its skin weight per vertex (heat map, grey = none)\n"
        "Influence count: non-zero influences per vertex");
  weight_view_ = static_cast<WeightView>(weights);
  if (weight_view_ == WeightView::SelectedJoint) {
    if (selected_node_ < 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
      ImGui::TextWrapped("Select a joint in the tree or click one with bones on (B).");
      ImGui::PopStyleColor();
    } else
      ImGui::TextDisabled("Weights of %s",
                          doc_.node_labels[static_cast<size_t>(selected_node_)].c_str());
  }
  if (doc_.skinned_draw_items == 0 && weight_view_ != WeightView::Off)
    ImGui::TextDisabled("This model has no skinned mesh: it draws as usual.");
  if (ImGui::Button("Frame model (F)")) frame_model();
  ImGui::SameLine();
  if (ImGui::Button("Reset camera")) reset_camera();
}

void Viewer::draw_joint_tree(int skin, int joint) {
  const rig::Skin& s = doc_.model->skins[static_cast<size_t>(skin)];
  const int node = s.joints[static_cast<size_t>(joint)];
  const std::vector<int>& children =
      doc_.joint_children[static_cast<size_t>(skin)][static_cast<size_t>(joint)];
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                             ImGuiTreeNodeFlags_SpanAvailWidth;
  if (children.empty()) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (s.joint_parent[static_cast<size_t>(joint)] < 0) flags |= ImGuiTreeNodeFlags_DefaultOpen;
  if (node == selected_node_) flags |= ImGuiTreeNodeFlags_Selected;
  const bool on_path =
      doc_.joint_on_selected_path[static_cast<size_t>(skin)][static_cast<size_t>(joint)] != 0;
  if (reveal_selection_ && on_path && !children.empty()) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(joint)), flags,
                                      "%s", doc_.node_labels[static_cast<size_t>(node)].c_str());
  if (reveal_selection_ && node == selected_node_) ImGui::SetScrollHereY(0.5f);
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) {
    selected_node_ = node;
    doc_.reveal_joint(node);
  }
  if (open && !children.empty()) {
    for (int child : children) draw_joint_tree(skin, child);
    ImGui::TreePop();
  }
}

void Viewer::draw_skeleton_section() {
  if (!ImGui::CollapsingHeader("Skeleton", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const rig::Model& model = *doc_.model;
  if (model.skins.empty()) {
    ImGui::TextDisabled("This model has no skin.");
    return;
  }
  tree_skin_ = std::clamp(tree_skin_, 0, static_cast<int>(model.skins.size()) - 1);
  if (model.skins.size() > 1) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##skin", doc_.skin_labels[static_cast<size_t>(tree_skin_)].c_str())) {
      for (size_t s = 0; s < model.skins.size(); ++s) {
        if (ImGui::Selectable(doc_.skin_labels[s].c_str(), static_cast<int>(s) == tree_skin_))
          tree_skin_ = static_cast<int>(s);
      }
      ImGui::EndCombo();
    }
  }
  if (selected_node_ >= 0) {
    ImGui::Text("Selected: %s", doc_.node_labels[static_cast<size_t>(selected_node_)].c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear")) selected_node_ = -1;
  } else {
    ImGui::TextDisabled("Click a joint (bones on) or a tree entry to select it.");
  }
  if (reveal_selection_ && selected_node_ >= 0) doc_.reveal_joint(selected_node_);
  ImGui::BeginChild("##joint_tree", ImVec2(0.0f, 0.0f), true);
  for (int root : doc_.joint_roots[static_cast<size_t>(tree_skin_)])
    draw_joint_tree(tree_skin_, root);
  ImGui::EndChild();
  reveal_selection_ = false;
}

void Viewer::draw_stats_overlay() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 10.0f,
                                 viewport->WorkPos.y + viewport->WorkSize.y - 10.0f),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.55f);
  if (ImGui::Begin("##stats", nullptr, kOverlayFlags)) {
    stats_height_ = ImGui::GetWindowSize().y;
    const double gpu = renderer_->gpu_time_ms();
    const int views = skinning_ == SkinningMode::Compare ? 2 : 1;
    const int passes = (show_surfaces_ ? 1 : 0) + (show_wireframe_ ? 1 : 0);
    const unsigned skinned_draws = doc_.skinned_draw_items * static_cast<unsigned>(views * passes);
    char gpu_text[32];
    if (gpu >= 0.0)
      std::snprintf(gpu_text, sizeof gpu_text, "%.2f ms", gpu);
    else
      std::snprintf(gpu_text, sizeof gpu_text, "n/a");
    // Fixed field widths keep the auto-sized overlay from jittering as the numbers change.
    ImGui::Text("frame %7.2f ms (%4.0f fps) | animation CPU %6.3f ms | GPU %9s | %-9s", frame_ms_,
                frame_ms_ > 0.0 ? 1000.0 / frame_ms_ : 0.0, animation_cpu_ms_, gpu_text,
                skinning_name(skinning_));
    ImGui::Text("%u joints | %llu vertices | %u skinned draw calls", doc_.joint_count,
                static_cast<unsigned long long>(doc_.vertex_count), skinned_draws);
  }
  ImGui::End();
}

ImU32 legend_color(glm::vec3 c) {
  return IM_COL32(static_cast<int>(c.r * 255.0f + 0.5f), static_cast<int>(c.g * 255.0f + 0.5f),
                  static_cast<int>(c.b * 255.0f + 0.5f), 255);
}

// The weight view's key, at the bottom left of the 3D view (above the stats): the heat map as a bar
// from 0 to 1 (plus the "not influenced" and "broken" swatches), or one swatch per influence count.
// The colours are the renderer's own (render/weight_colors.h), unlit.
void Viewer::draw_weight_legend() {
  using rig::render::WeightView;
  if (weight_view_ == WeightView::Off) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  // Above the stats overlay, which spans the bottom of narrow windows.
  ImGui::SetNextWindowPos(
      ImVec2(viewport->WorkPos.x + single_view_left(viewport->Size.x) + 10.0f,
             viewport->WorkPos.y + viewport->WorkSize.y - 16.0f - stats_height_),
      ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.65f);
  if (ImGui::Begin("##weight_legend", nullptr, kOverlayFlags)) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = ImGui::GetTextLineHeight();
    auto swatch = [&](glm::vec3 color, const char* label) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      draw->AddRectFilled(p, ImVec2(p.x + h, p.y + h), legend_color(color));
      ImGui::Dummy(ImVec2(h, h));
      ImGui::SameLine();
      ImGui::TextUnformatted(label);
    };
    if (weight_view_ == WeightView::SelectedJoint) {
      if (selected_node_ >= 0)
        ImGui::Text("Weight of %s", doc_.node_labels[static_cast<size_t>(selected_node_)].c_str());
      else
        ImGui::TextUnformatted("Weight of the selected joint (none selected)");
      constexpr float kBarWidth = 220.0f;
      const size_t segments = rig::render::kWeightHeatStops.size() - 1;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float segment = kBarWidth / static_cast<float>(segments);
      for (size_t i = 0; i < segments; ++i) {
        const ImU32 a = legend_color(rig::render::kWeightHeatStops[i]);
        const ImU32 b = legend_color(rig::render::kWeightHeatStops[i + 1]);
        const float x0 = p.x + segment * static_cast<float>(i);
        draw->AddRectFilledMultiColor(ImVec2(x0, p.y), ImVec2(x0 + segment, p.y + h), a, b, b, a);
      }
      ImGui::Dummy(ImVec2(kBarWidth, h));
      // Tick labels under the bar's start, middle and end (SameLine offsets count from the
      // window's left edge, padding included).
      const float left = ImGui::GetCursorPosX();
      ImGui::TextUnformatted("0");
      ImGui::SameLine(left + 0.5f * (kBarWidth - ImGui::CalcTextSize("0.5").x));
      ImGui::TextUnformatted("0.5");
      ImGui::SameLine(left + kBarWidth - ImGui::CalcTextSize("1").x);
      ImGui::TextUnformatted("1");
      swatch(rig::render::kZeroWeightColor, "not influenced (0)");
      ImGui::SameLine();
      swatch(rig::render::kBrokenWeightColor, "no usable weights");
    } else {
      ImGui::TextUnformatted("Non-zero influences per vertex");
      static const char* const kCounts[] = {"", "1", "2", "3", "4", "5", "6", "7", "8"};
      static_assert(std::size(kCounts) == rig::render::kInfluenceCountColors.size());
      for (size_t n = 1; n < rig::render::kInfluenceCountColors.size(); ++n) {
        if (n > 1) ImGui::SameLine();
        swatch(rig::render::kInfluenceCountColors[n], kCounts[n]);
      }
      swatch(rig::render::kBrokenWeightColor, "none usable (broken)");
    }
  }
  ImGui::End();
}

// Labels next to the divider of the split view, where the side panel cannot cover them.
void Viewer::draw_compare_labels() {
  if (skinning_ != SkinningMode::Compare) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float view_left = single_view_left(viewport->Size.x);
  const float mid = viewport->Pos.x + view_left + std::floor((viewport->Size.x - view_left) * 0.5f);
  const float y = viewport->Pos.y + 12.0f;
  const char* left = "LBS (linear blend)";
  const char* right = "DQS (dual quaternion)";
  const ImVec2 left_size = ImGui::CalcTextSize(left);
  const ImU32 background = IM_COL32(0, 0, 0, 150), text = IM_COL32(255, 255, 255, 255);
  draw->AddRectFilled(ImVec2(mid - left_size.x - 16.0f, y - 4.0f),
                      ImVec2(mid - 4.0f, y + left_size.y + 4.0f), background, 4.0f);
  draw->AddText(ImVec2(mid - left_size.x - 10.0f, y), text, left);
  const ImVec2 right_size = ImGui::CalcTextSize(right);
  draw->AddRectFilled(ImVec2(mid + 4.0f, y - 4.0f),
                      ImVec2(mid + right_size.x + 16.0f, y + right_size.y + 4.0f), background,
                      4.0f);
  draw->AddText(ImVec2(mid + 10.0f, y), text, right);
}

void Viewer::draw_help_window() {
  if (!show_help_) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 8.0f, viewport->WorkPos.y + 40.0f),
      ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
  if (ImGui::Begin("Help", &show_help_, ImGuiWindowFlags_AlwaysAutoResize)) {
    static const char* const kShortcuts[][2] = {
        {"Left drag", "orbit"},
        {"Middle drag / Shift+left drag", "pan"},
        {"Wheel", "zoom"},
        {"F", "frame the model"},
        {"Space", "play / pause"},
        {", and .", "step one frame back / forward"},
        {"Home / End", "jump to the clip's start / end"},
        {"L", "loop on / off"},
        {"1 / 2 / 3", "LBS / DQS / compare (LBS left, DQS right)"},
        {"B", "bones on / off (hover a joint: name; click: select)"},
        {"R", "rest pose on / off"},
        {"W / G", "wireframe / grid"},
        {"V", "weights: off / selected joint (heat map) / influence count"},
        {"O", "focus the Open field"},
        {"Esc", "clear the joint selection"},
        {"H or F1", "this help"},
        {"Tab", "hide / show the panels"},
        {"Ctrl+Q", "quit (window size and layout are kept)"},
        {"Drop a .gltf/.glb", "open it"},
    };
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const auto& row : kShortcuts) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(row[0]);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(row[1]);
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled(
        "Layout, window size and recent files are kept in %s",
        settings_.persistent() ? settings_.imgui_ini_path().c_str() : "(nowhere: no HOME)");
  }
  ImGui::End();
}

void Viewer::draw_ui() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + 8.0f, viewport->WorkPos.y + 8.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, viewport->WorkSize.y - 16.0f),
                           ImGuiCond_FirstUseEver);
  const bool panel_open = ImGui::Begin("rigview");
  const ImVec2 panel_pos = ImGui::GetWindowPos(), panel_size = ImGui::GetWindowSize();
  panel_right_ = panel_open && panel_pos.x - viewport->Pos.x < 40.0f
                     ? panel_pos.x - viewport->Pos.x + panel_size.x
                     : 0.0f;
  if (panel_open) {
    if (!error_message_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::TextWrapped("Could not open %s", error_message_.c_str());
      ImGui::PopStyleColor();
      if (ImGui::SmallButton("Dismiss")) error_message_.clear();
    }
    draw_file_section();
    draw_animation_section();
    draw_crossfade_section();
    draw_display_section();
    if (ImGui::Button("Help (H)")) show_help_ = !show_help_;
    draw_skeleton_section();
  }
  ImGui::End();
  draw_stats_overlay();
  draw_weight_legend();
  draw_compare_labels();
  draw_help_window();
}

bool Viewer::write_screenshot(const std::string& path, int fb_width, int fb_height) {
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

int Viewer::run() {
  using Clock = std::chrono::steady_clock;
  double previous = glfwGetTime();
  int exit_status = 0;
  for (int frame = 1; !glfwWindowShouldClose(window_); ++frame) {
    glfwPollEvents();
    if (frame == 2 && !test_drop_.empty()) pending_open_ = test_drop_;
    if (frame == 2) {
      for (const char c : test_keys_) {
        const int upper = std::toupper(static_cast<unsigned char>(c));
        if (upper >= 'A' && upper <= 'Z') queue_key(GLFW_KEY_A + (upper - 'A'), GLFW_PRESS, 0);
        if (upper >= '0' && upper <= '9') queue_key(GLFW_KEY_0 + (upper - '0'), GLFW_PRESS, 0);
      }
    }
    if (!pending_open_.empty()) {
      std::string path;
      path.swap(pending_open_);
      open_model(path);
    }

    const double now = glfwGetTime();
    // A stall (window drag, breakpoint) must not fling the animation forward.
    const float dt = test_frames_ > 0 ? kFixedTestStep
                                      : static_cast<float>(std::clamp(now - previous, 0.0, 0.1));
    const double frame_ms = (now - previous) * 1000.0;
    frame_ms_ = frame_ms_ == 0.0 ? frame_ms : 0.9 * frame_ms_ + 0.1 * frame_ms;
    previous = now;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    handle_keyboard();
    handle_mouse();

    if (!rest_pose_ && !scrubbing_) doc_.playback.advance(dt);
    const rig::PoseSelection selection =
        rest_pose_ ? rig::PoseSelection{} : doc_.playback.selection();
    const Clock::time_point t0 = Clock::now();
    doc_.character->evaluate(selection);
    const double cpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    animation_cpu_ms_ = animation_cpu_ms_ == 0.0 ? cpu_ms : 0.9 * animation_cpu_ms_ + 0.1 * cpu_ms;
    renderer_->update(*doc_.character);

    update_hover();
    if (!hide_ui_) draw_ui();
    ImGui::Render();

    int fb_width = 0, fb_height = 0;
    glfwGetFramebufferSize(window_, &fb_width, &fb_height);
    const bool minimized = fb_width <= 0 || fb_height <= 0;
    if (!minimized) {
      render_scene(fb_width, fb_height);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    const bool last_test_frame = test_frames_ > 0 && frame >= test_frames_;
    if (last_test_frame && !test_screenshot_.empty() &&
        !write_screenshot(test_screenshot_, fb_width, fb_height))
      exit_status = 1;
    glfwSwapBuffers(window_);
    if (last_test_frame) break;
    // Minimized: nothing to draw, and swapping may not wait for vsync; sleep until an event
    // (restore, close) or a short timeout so playback still advances.
    if (minimized && test_frames_ == 0) glfwWaitEventsTimeout(0.1);
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

#endif  // RIGVIEW_HAS_RENDER
