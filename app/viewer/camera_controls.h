// Mouse → camera: orbit, pan and zoom of the renderer's OrbitCamera, and projecting world points
// to window pixels for joint picking. Camera math only (glm); the rest of the math is the
// engine's.
#pragma once

#include <glm/glm.hpp>

#include "render/renderer.h"

namespace rigview {

// Default angles of a fresh camera (the renderer's OrbitCamera defaults).
void reset_camera_angles(rig::render::OrbitCamera& camera);

// Left drag: `dx`, `dy` window pixels turn the camera around its target. Pitch stays short of
// the poles so the view never flips.
void orbit_camera(rig::render::OrbitCamera& camera, float dx, float dy);

// Middle (or shift+left) drag: moves the target so the point under the cursor follows it, at
// the target's depth. `viewport_height` in the same pixels as dx, dy.
void pan_camera(rig::render::OrbitCamera& camera, float dx, float dy, float viewport_height);

// Wheel: each step (positive: towards the target) scales the distance by 0.85, clamped to
// [0.01, 50] x the scene radius.
void zoom_camera(rig::render::OrbitCamera& camera, float wheel_steps);

// World point → window pixel (origin top left) inside the viewport rectangle (also top-left
// based, window pixels). False when the point is behind the camera.
bool project_to_window(const glm::mat4& view_projection, glm::vec3 world, float viewport_x,
                       float viewport_y, float viewport_width, float viewport_height,
                       glm::vec2& out_pixel);

}  // namespace rigview
