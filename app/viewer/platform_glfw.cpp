#include "viewer/platform_glfw.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "viewer/document.h"

namespace rigview {

namespace {

std::string g_glfw_error;  // last GLFW error, for the one-line failure messages

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : ""; }

// GLFW key → the viewer's Key (viewer/actions.h); kKeyNone for keys no action uses.
int viewer_key(int glfw_key) {
  if (glfw_key >= GLFW_KEY_A && glfw_key <= GLFW_KEY_Z) return 'A' + (glfw_key - GLFW_KEY_A);
  if (glfw_key >= GLFW_KEY_0 && glfw_key <= GLFW_KEY_9) return '0' + (glfw_key - GLFW_KEY_0);
  switch (glfw_key) {
    case GLFW_KEY_SPACE:
      return ' ';
    case GLFW_KEY_COMMA:
      return ',';
    case GLFW_KEY_PERIOD:
      return '.';
    case GLFW_KEY_ESCAPE:
      return kKeyEscape;
    case GLFW_KEY_TAB:
      return kKeyTab;
    case GLFW_KEY_HOME:
      return kKeyHome;
    case GLFW_KEY_END:
      return kKeyEnd;
    case GLFW_KEY_F1:
      return kKeyF1;
    default:
      return kKeyNone;
  }
}

}  // namespace

GlfwPlatform::~GlfwPlatform() {
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

int GlfwPlatform::open(const WindowGeometry& geometry, const std::string& title, bool vsync,
                       const char* imgui_ini, int samples) {
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
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples > 1 ? samples : 0);
#ifdef RIGVIEW_GL_DEBUG
  // A debug context makes every driver deliver KHR_debug messages (see render/gl_util.h).
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
  window_ = glfwCreateWindow(geometry.width, geometry.height, title.c_str(), nullptr, nullptr);
  if (!window_ && samples > 1) {  // multisampling is a nicety; retry without it
    glfwWindowHint(GLFW_SAMPLES, 0);
    window_ = glfwCreateWindow(geometry.width, geometry.height, title.c_str(), nullptr, nullptr);
  }
  if (!window_) {
    std::fprintf(stderr, "rigview: error: could not open an OpenGL 3.3 core window: %s\n",
                 g_glfw_error.c_str());
    return 1;
  }
  if (geometry.x >= 0 && geometry.y >= 0) glfwSetWindowPos(window_, geometry.x, geometry.y);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync ? 1 : 0);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    std::fprintf(stderr, "rigview: error: could not load the OpenGL 3.3 functions\n");
    return 1;
  }

  glfwSetWindowUserPointer(window_, this);
  // Installed before ImGui's backend, which chains to it. Shortcuts come from this queue rather
  // than ImGui::IsKeyPressed: with ImGui 1.86 a press and release inside one slow frame would
  // be lost.
  glfwSetKeyCallback(window_, [](GLFWwindow* window, int key, int, int action, int mods) {
    auto* self = static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(window));
    if (key >= 0 && key < kKeySlots) {
      if (action == GLFW_PRESS) self->pressed_since_frame_[key] = true;
      if (action == GLFW_RELEASE && self->pressed_since_frame_[key] && self->tap_count_ < kMaxTaps)
        self->taps_[self->tap_count_++] = key;
    }
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    KeyPress press;
    press.key = viewer_key(key);
    press.ctrl = (mods & GLFW_MOD_CONTROL) != 0;
    press.shift = (mods & GLFW_MOD_SHIFT) != 0;
    press.other_modifier = (mods & (GLFW_MOD_ALT | GLFW_MOD_SUPER)) != 0;
    press.repeat = action == GLFW_REPEAT;
    if (press.key != kKeyNone)
      static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(window))->queue_key(press);
  });
  // The pointer as the events place it, one by one. glfwGetCursorPos would not do: on X11 it
  // asks the server where the pointer is now, past every event still queued.
  glfwSetCursorPosCallback(window_, [](GLFWwindow* window, double x, double y) {
    auto* self = static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(window));
    self->cursor_x_ = static_cast<float>(x), self->cursor_y_ = static_cast<float>(y);
    self->cursor_known_ = true;
  });
  // Before ImGui's (which chains to it): a press happens where the last motion event put the
  // pointer.
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* window, int button, int action, int) {
    auto* self = static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(window));
    if (action != GLFW_PRESS || button < 0 || button >= kTrackedButtons) return;
    PointerPress& p = self->presses_[button];
    if (p.pressed) return;       // the first press since the frame began starts the gesture
    if (!self->cursor_known_) {  // no motion event yet: the server's pointer is all there is
      double x = 0.0, y = 0.0;
      glfwGetCursorPos(window, &x, &y);
      self->cursor_x_ = static_cast<float>(x), self->cursor_y_ = static_cast<float>(y);
    }
    p = {true, self->cursor_x_, self->cursor_y_};
  });
  glfwSetDropCallback(window_, [](GLFWwindow* window, int count, const char** paths) {
    auto* platform = static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(window));
    platform->dropped_with_shift_ = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                                    glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    if (const int taken = dropped_file_to_take(count, paths); taken >= 0)
      platform->dropped_ = paths[taken];
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = imgui_ini;
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;
  return 0;
}

bool GlfwPlatform::should_close() const { return glfwWindowShouldClose(window_) != 0; }
void GlfwPlatform::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void GlfwPlatform::cancel_close() { glfwSetWindowShouldClose(window_, GLFW_FALSE); }
void GlfwPlatform::poll_events() { glfwPollEvents(); }
void GlfwPlatform::wait_events(double timeout_seconds) { glfwWaitEventsTimeout(timeout_seconds); }
double GlfwPlatform::time() const { return glfwGetTime(); }

void GlfwPlatform::framebuffer_size(int& width, int& height) const {
  width = height = 0;
  if (window_) glfwGetFramebufferSize(window_, &width, &height);
}

void GlfwPlatform::window_size(int& width, int& height) const {
  width = height = 0;
  if (window_) glfwGetWindowSize(window_, &width, &height);
}

WindowGeometry GlfwPlatform::geometry() const {
  WindowGeometry g;
  if (!window_) return g;
  glfwGetWindowPos(window_, &g.x, &g.y);
  glfwGetWindowSize(window_, &g.width, &g.height);
  return g;
}

void GlfwPlatform::set_title(const std::string& title) {
  glfwSetWindowTitle(window_, title.c_str());
}

void GlfwPlatform::begin_imgui_frame() {
  ImGuiIO& io = ImGui::GetIO();
  // Last frame's taps go up now, unless the key is down again for real.
  for (int i = 0; i < held_tap_count_; ++i)
    if (glfwGetKey(window_, held_taps_[i]) != GLFW_PRESS) io.KeysDown[held_taps_[i]] = false;
  held_tap_count_ = 0;
  for (int i = 0; i < tap_count_; ++i) {
    io.KeysDown[taps_[i]] = true;
    held_taps_[held_tap_count_++] = taps_[i];
  }
  tap_count_ = 0;
  std::fill(std::begin(pressed_since_frame_), std::end(pressed_since_frame_), false);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void GlfwPlatform::render_imgui() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }
void GlfwPlatform::swap_buffers() { glfwSwapBuffers(window_); }

void GlfwPlatform::queue_key(const KeyPress& press) {
  if (queued_count_ < kMaxQueuedKeys) queued_[queued_count_++] = press;
}

std::span<const KeyPress> GlfwPlatform::take_keys() {
  const int count = std::min(queued_count_, kMaxQueuedKeys);
  std::copy(queued_, queued_ + count, taken_);
  queued_count_ = 0;
  return {taken_, static_cast<size_t>(count)};
}

PointerPress GlfwPlatform::take_press(int button) {
  if (button < 0 || button >= kTrackedButtons) return {};
  const PointerPress p = presses_[button];
  presses_[button] = {};
  return p;
}

std::string GlfwPlatform::take_drop(bool* with_shift) {
  std::string out;
  out.swap(dropped_);
  if (with_shift) *with_shift = dropped_with_shift_;
  return out;
}

}  // namespace rigview
