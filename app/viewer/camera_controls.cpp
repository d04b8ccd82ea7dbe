#include "viewer/camera_controls.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

namespace rigview {

namespace {
constexpr float kOrbitRadiansPerPixel = 0.008f;
constexpr float kZoomPerStep = 0.85f;
}  // namespace

void reset_camera_angles(rig::render::OrbitCamera& camera) {
  const rig::render::OrbitCamera defaults;
  camera.yaw = defaults.yaw;
  camera.pitch = defaults.pitch;
}

void orbit_camera(rig::render::OrbitCamera& camera, float dx, float dy) {
  camera.yaw -= dx * kOrbitRadiansPerPixel;
  camera.yaw = std::remainder(camera.yaw, 2.0f * glm::pi<float>());
  camera.pitch = std::clamp(camera.pitch + dy * kOrbitRadiansPerPixel, -rig::render::kMaxOrbitPitch,
                            rig::render::kMaxOrbitPitch);
  camera.keep_above_floor();
}

void pan_camera(rig::render::OrbitCamera& camera, float dx, float dy, float viewport_height) {
  if (viewport_height <= 0.0f) return;
  // The view matrix's rows are the camera's right and up axes in world space.
  const glm::mat4 view = camera.camera(1.0f).view;
  const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
  const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
  // World units per pixel at the target's distance.
  const float world_per_pixel =
      2.0f * camera.distance * std::tan(0.5f * camera.fov_y) / viewport_height;
  camera.target += (-dx * right + dy * up) * world_per_pixel;
  camera.keep_above_floor();
}

void zoom_camera(rig::render::OrbitCamera& camera, float wheel_steps) {
  const float radius = std::max(camera.scene_radius, 1e-4f);
  camera.distance *= std::pow(kZoomPerStep, wheel_steps);
  camera.distance = std::clamp(camera.distance, 0.01f * radius, 50.0f * radius);
  camera.keep_above_floor();  // backing off at a low pitch would sink the eye
}

glm::vec2 PointerDrag::update(bool down, bool pressed, glm::vec2 press_at, glm::vec2 now) {
  glm::vec2 step(0.0f);
  clicked = false;
  if (pressed) {  // a new press: nothing moves until the pointer leaves the press point
    held = true;
    dragging = false;
    press = last = press_at;
  }
  if (!down) {
    clicked = held && !dragging;
    held = dragging = false;
    return step;
  }
  if (!held) return step;
  if (!dragging) {
    const glm::vec2 d = now - press;
    if (glm::dot(d, d) <= kDragThresholdPixels * kDragThresholdPixels) return step;
    dragging = true;
  }
  step = now - last;
  last = now;
  return step;
}

rig::render::OrbitCamera view_orbit(const ViewerState& state, float width, float height) {
  const int views = static_cast<int>(methods_shown(state).size());
  if (views <= 1 || width <= 0.0f || height <= 0.0f) return state.camera;
  const Rect view = scene_view(state, width, height);
  if (view.width <= 0.0f || view.height <= 0.0f) return state.camera;
  return rig::render::column_orbit(state.camera, view.width / view.height, views);
}

SingleView single_view(const ViewerState& state, float width, float height) {
  SingleView out;
  out.view = scene_view(state, width, height);
  out.rect = {out.view.x, out.view.y, std::max(out.view.width, 1.0f),
              std::max(out.view.height, 1.0f)};
  out.camera = view_orbit(state, width, height).camera(out.rect.width / out.rect.height);
  return out;
}

bool project_to_window(const glm::mat4& view_projection, glm::vec3 world, float viewport_x,
                       float viewport_y, float viewport_width, float viewport_height,
                       glm::vec2& out_pixel) {
  const glm::vec4 clip = view_projection * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return false;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  out_pixel.x = viewport_x + (ndc.x * 0.5f + 0.5f) * viewport_width;
  out_pixel.y = viewport_y + (0.5f - ndc.y * 0.5f) * viewport_height;
  return true;
}

}  // namespace rigview
