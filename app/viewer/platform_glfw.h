// The viewer's platform layer: the GLFW window with its OpenGL 3.3 core context (glad loaded),
// Dear ImGui's GLFW and OpenGL backends, and the input callbacks (keys, dropped files), queued
// until the frame loop takes them. Nothing else in the app includes GLFW.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "viewer/actions.h"
#include "viewer/viewer_settings.h"

struct GLFWwindow;

namespace rigview {

// A mouse button press as the window system delivered it: where the pointer was at that event.
struct PointerPress {
  bool pressed = false;
  float x = 0.0f, y = 0.0f;  // window pixels, origin top left
};

class GlfwPlatform {
 public:
  GlfwPlatform() = default;
  ~GlfwPlatform();  // ImGui backends, window, glfwTerminate (the GL context goes with them)
  GlfwPlatform(const GlfwPlatform&) = delete;
  GlfwPlatform& operator=(const GlfwPlatform&) = delete;

  // Opens the window at `geometry` (x, y < 0: placed by the window manager), makes its context
  // current, loads GL, starts ImGui (its layout file `imgui_ini`, null: none). 0, or the exit
  // status after printing one line (no display, no 3.3 core context). `samples` per pixel of
  // the window (1: no multisampling) where the GL offers them; without, one.
  int open(const WindowGeometry& geometry, const std::string& title, bool vsync,
           const char* imgui_ini, int samples = 4);

  bool should_close() const;
  void request_close();
  void cancel_close();  // the close asked for (window button, Ctrl+Q) waits: unsaved edits
  void poll_events();
  void wait_events(double timeout_seconds);  // minimized: sleep until an event or the timeout
  double time() const;                       // seconds
  void framebuffer_size(int& width, int& height) const;
  void window_size(int& width, int& height) const;
  WindowGeometry geometry() const;
  void set_title(const std::string& title);

  void begin_imgui_frame();  // both backends' NewFrame, then ImGui::NewFrame
  void render_imgui();       // ImGui's draw data into the bound framebuffer
  void swap_buffers();

  // Key presses since the last take_keys (fixed storage: no allocation per event).
  void queue_key(const KeyPress& press);
  std::span<const KeyPress> take_keys();
  // The last file dropped since the last take_drop ("" when none); `with_shift`: Shift was held
  // when it was dropped (the viewer then adds its clips instead of opening it).
  std::string take_drop(bool* with_shift = nullptr);
  // The first press of mouse `button` (0 left, 1 right, 2 middle) since the last take. ImGui
  // 1.86 only sees the pointer where it is when the frame starts; at llvmpipe's 3 frames per
  // second the pointer has often moved on from where the button went down.
  PointerPress take_press(int button);

 private:
  GLFWwindow* window_ = nullptr;
  bool imgui_ready_ = false;
  static constexpr int kMaxQueuedKeys = 32;
  KeyPress queued_[kMaxQueuedKeys] = {};
  KeyPress taken_[kMaxQueuedKeys] = {};
  int queued_count_ = 0;
  std::string dropped_;
  bool dropped_with_shift_ = false;
  static constexpr int kTrackedButtons = 3;
  PointerPress presses_[kTrackedButtons] = {};
  float cursor_x_ = 0.0f, cursor_y_ = 0.0f;  // the last motion event's position
  bool cursor_known_ = false;
  // Keys pressed and released between two frames (a quick tap): ImGui 1.86's backend would
  // clear KeysDown before any NewFrame saw it, and a tap of Enter in a text field would be
  // lost. They are held down for one frame (begin_imgui_frame), then released.
  static constexpr int kKeySlots = 512;  // > GLFW_KEY_LAST
  static constexpr int kMaxTaps = 16;
  bool pressed_since_frame_[kKeySlots] = {};
  int taps_[kMaxTaps] = {}, held_taps_[kMaxTaps] = {};
  int tap_count_ = 0, held_tap_count_ = 0;
};

}  // namespace rigview
