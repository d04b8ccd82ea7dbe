// Mouse → camera: orbit, pan and zoom of the renderer's OrbitCamera, and projecting world points
// to window pixels for joint picking. Camera math only (glm); the rest of the math is the
// engine's.
#pragma once

#include <glm/glm.hpp>

#include "render/renderer.h"
#include "viewer/viewer_state.h"

namespace rigview {

// Default angles of a fresh camera (the renderer's OrbitCamera defaults).
void reset_camera_angles(rig::render::OrbitCamera& camera);

// Left drag: `dx`, `dy` window pixels turn the camera around its target. Pitch stays short of
// the poles so the view never flips.
void orbit_camera(rig::render::OrbitCamera& camera, float dx, float dy);

// Middle (or shift+left) drag: moves the target so the point under the cursor follows it, at
// the target's depth. `viewport_height` in the same pixels as dx, dy.
void pan_camera(rig::render::OrbitCamera& camera, float dx, float dy, float viewport_height);

// A left (or middle) button drag as the camera sees it: nothing moves until the pointer has gone
// more than kDragThresholdPixels from where the button went down, so a click never turns the
// view; from then on each frame's movement since the last one. Positions are the press
// position the platform recorded (viewer/platform_glfw.h), not the pointer at frame start:
// at 3 frames per second a move, the press and the first part of the drag share a frame.
inline constexpr float kDragThresholdPixels = 4.0f;
struct PointerDrag {
  bool held = false;      // the button went down over the view and is still down
  bool dragging = false;  // past the threshold
  bool clicked = false;   // this frame: released without having dragged
  glm::vec2 press{0.0f}, last{0.0f};
  // `down`: the button is down now; `pressed`: it went down since the last frame, at
  // `press_at`; `now`: the pointer. Returns the movement to apply this frame.
  glm::vec2 update(bool down, bool pressed, glm::vec2 press_at, glm::vec2 now);
  void cancel() { held = dragging = false; }
};

// Wheel: each step (positive: towards the target) scales the distance by 0.85, clamped to
// [0.01, 50] x the scene radius.
void zoom_camera(rig::render::OrbitCamera& camera, float wheel_steps);

// The orbit camera every view of a window `width` × `height` (any pixels, one unit) is drawn
// with: state.camera, or in compare mode its column_orbit. Drawing, picking and the handles all
// use it, so a column is picked as it is drawn.
rig::render::OrbitCamera view_orbit(const ViewerState& state, float width, float height);

// The single view (compare columns aside) of a window `width` × `height`: its rectangle (at least
// one pixel each way) and camera. The rotation rings, the bind-pose ghost, vertex picking and its
// overlay, and the paint brush all draw and pick in it.
struct SingleView {
  Rect view;  // as scene_view gives it (empty when the window leaves no room)
  rig::render::ScreenRect rect;
  rig::render::Camera camera;
  bool empty() const { return view.width <= 0.0f || view.height <= 0.0f; }
};
SingleView single_view(const ViewerState& state, float width, float height);

// World point → window pixel (origin top left) inside the viewport rectangle (also top-left
// based, window pixels). False when the point is behind the camera.
bool project_to_window(const glm::mat4& view_projection, glm::vec3 world, float viewport_x,
                       float viewport_y, float viewport_width, float viewport_height,
                       glm::vec2& out_pixel);

}  // namespace rigview
