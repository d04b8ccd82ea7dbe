#include "viewer/pose_handles.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "viewer/camera_controls.h"

namespace rigview {

namespace {

constexpr float kHandleRadius = 7.0f;  // pixels, drawn and picked
constexpr ImU32 kTargetColour = IM_COL32(255, 150, 40, 255);
constexpr ImU32 kPoleColour = IM_COL32(60, 200, 255, 255);
constexpr ImU32 kLookColour = IM_COL32(120, 230, 90, 255);

// The handle's world position in `posing`, or null when that handle is not shown (Posing or
// const Posing: the pointer's constness follows).
template <typename P>
auto handle_position(P& posing, HandleId id) -> decltype(&posing.look_at_handle) {
  switch (id.kind) {
    case HandleId::IkTarget:
      return id.index < posing.ik_count() ? &posing.ik(id.index).target : nullptr;
    case HandleId::IkPole:
      return id.index < posing.ik_count() && posing.ik(id.index).use_pole
                 ? &posing.ik(id.index).pole
                 : nullptr;
    case HandleId::LookAt:
      return posing.look_at() && !posing.look_at_follows_camera ? &posing.look_at_handle : nullptr;
    case HandleId::None:
      break;
  }
  return nullptr;
}

// The views drawn (viewer_render: the workspace's viewport, split in equal parts in compare
// mode), in window pixels; view `index` of `count`.
rig::render::ScreenRect view_rect(const ViewerState& state, glm::vec2 display, size_t index,
                                  size_t count) {
  const Rect view = scene_view(state, display.x, display.y);
  const rig::render::ColumnSpan c = rig::render::compare_column(
      view.x, view.width, static_cast<int>(index), static_cast<int>(count));
  return {c.x, view.y, c.width, view.height};
}

rig::render::ScreenRect view_under(const ViewerState& state, glm::vec2 display, float mouse_x) {
  const size_t count = std::max<size_t>(methods_shown(state).size(), 1);
  const Rect view = scene_view(state, display.x, display.y);
  const int column =
      rig::render::compare_column_at(view.x, view.width, static_cast<int>(count), mouse_x);
  return view_rect(state, display, static_cast<size_t>(column), count);
}

rig::render::Camera view_camera(const ViewerState& state, const rig::render::ScreenRect& r) {
  const ImGuiIO& io = ImGui::GetIO();
  return view_orbit(state, io.DisplaySize.x, io.DisplaySize.y)
      .camera(r.width / std::max(r.height, 1.0f));
}

// Every handle, in the order they are picked (the first within reach wins on a tie).
template <typename F>
void for_each_handle(const Posing& posing, F&& f) {
  for (size_t i = 0; i < posing.ik_count(); ++i) {
    f(HandleId{HandleId::IkTarget, i});
    f(HandleId{HandleId::IkPole, i});
  }
  f(HandleId{HandleId::LookAt, 0});
}

}  // namespace

void PoseHandles::begin(Posing& posing, const ViewerState& state, HandleId id, glm::vec2 pixel,
                        glm::vec2 display) {
  glm::vec3* p = handle_position(posing, id);
  if (!p) return;
  rect_ = view_under(state, display, pixel.x);
  glm::vec3 grabbed;
  grab_offset_ =
      rig::render::drag_on_view_plane(view_camera(state, rect_), rect_, *p, pixel, grabbed)
          ? *p - grabbed
          : glm::vec3(0.0f);
  dragged_ = id;
}

void PoseHandles::move(Posing& posing, const ViewerState& state, glm::vec2 pixel, float dy,
                       bool depth) {
  glm::vec3* p = handle_position(posing, dragged_);
  if (!p) return dragged_ = {}, void();
  const rig::render::Camera camera = view_camera(state, rect_);
  if (depth) {
    // Up the screen (negative dy) pushes the handle away from the camera.
    *p = rig::render::drag_in_depth(camera, rect_, *p, -dy);
    glm::vec3 grabbed;  // the grab point follows the handle to its new depth
    if (rig::render::drag_on_view_plane(camera, rect_, *p, pixel, grabbed))
      grab_offset_ = *p - grabbed;
  } else {
    glm::vec3 hit;
    if (rig::render::drag_on_view_plane(camera, rect_, *p, pixel, hit)) *p = hit + grab_offset_;
  }
}

HandleId PoseHandles::pick(const Posing& posing, const ViewerState& state, glm::vec2 pixel) const {
  const ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 display(io.DisplaySize.x, io.DisplaySize.y);
  const rig::render::ScreenRect rect = view_under(state, display, pixel.x);
  const rig::render::Camera camera = view_camera(state, rect);
  float best = kHandleRadius * kHandleRadius * 2.0f;
  HandleId found;
  for_each_handle(posing, [&](HandleId id) {
    const glm::vec3* p = handle_position(posing, id);
    glm::vec2 at;
    if (!p || !rig::render::world_to_screen(camera, rect, *p, at)) return;
    const glm::vec2 d = at - pixel;
    if (glm::dot(d, d) <= best) best = glm::dot(d, d), found = id;
  });
  return found;
}

bool PoseHandles::handle_mouse(Posing& posing, const ViewerState& state, glm::vec2 press_at) {
  const ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 mouse(io.MousePos.x, io.MousePos.y), display(io.DisplaySize.x, io.DisplaySize.y);
  if (dragged_.kind != HandleId::None) {
    if (!io.MouseDown[0]) {
      dragged_ = {};
      return true;  // the release belongs to the drag, not to joint picking
    }
    if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)
      move(posing, state, mouse, io.MouseDelta.y, io.KeyCtrl);
    return true;
  }
  hovered_ = {};
  if (io.WantCaptureMouse || display.x <= 0.0f || display.y <= 0.0f) return false;
  hovered_ = pick(posing, state, mouse);
  if (!io.MouseClicked[0]) return false;
  // The press itself decides, wherever the pointer has got to since.
  const HandleId pressed = pick(posing, state, press_at);
  if (pressed.kind == HandleId::None) return false;
  begin(posing, state, pressed, press_at, display);
  // The part of the drag made in the press's own frame.
  if (dragged_.kind != HandleId::None && mouse != press_at)
    move(posing, state, mouse, mouse.y - press_at.y, io.KeyCtrl);
  return dragged_.kind != HandleId::None;
}

bool PoseHandles::scripted_drag(Posing& posing, const ViewerState& state, HandleId id,
                                glm::vec2 delta, bool depth, glm::vec2 display) {
  const glm::vec3* p = handle_position(posing, id);
  if (!p) return false;
  // Where the handle is drawn in the first view: the press point.
  const rig::render::ScreenRect rect = view_rect(state, display, 0, methods_shown(state).size());
  glm::vec2 pixel;
  if (!rig::render::world_to_screen(view_camera(state, rect), rect, *p, pixel)) return false;
  begin(posing, state, id, pixel, display);
  move(posing, state, pixel + delta, delta.y, depth);
  dragged_ = {};
  return true;
}

void PoseHandles::feed_queued_mouse(const Posing& posing, const ViewerState& state) {
  if (queued_.id.kind == HandleId::None) return;
  ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 display(io.DisplaySize.x, io.DisplaySize.y);
  // What ImGui's NewFrame would have made of the pointer: position, button, click, delta.
  io.WantCaptureMouse = false;
  io.KeyCtrl = queued_.ctrl;
  io.MouseClicked[0] = io.MouseReleased[0] = false;
  if (queued_.stage == 0) {  // press on the handle
    const glm::vec3* p = handle_position(posing, queued_.id);
    const rig::render::ScreenRect rect = view_rect(state, display, 0, methods_shown(state).size());
    if (!p || !rig::render::world_to_screen(view_camera(state, rect), rect, *p, queued_.pixel))
      return queued_ = {}, void();
    io.MousePos = ImVec2(queued_.pixel.x, queued_.pixel.y);
    io.MouseDelta = ImVec2(0.0f, 0.0f);
    io.MouseDown[0] = io.MouseClicked[0] = true;
  } else if (queued_.stage == 1) {  // move, held
    io.MousePos = ImVec2(queued_.pixel.x + queued_.delta.x, queued_.pixel.y + queued_.delta.y);
    io.MouseDelta = ImVec2(queued_.delta.x, queued_.delta.y);
    io.MouseDown[0] = true;
  } else {  // release
    io.MousePos = ImVec2(queued_.pixel.x + queued_.delta.x, queued_.pixel.y + queued_.delta.y);
    io.MouseDelta = ImVec2(0.0f, 0.0f);
    io.MouseDown[0] = false;
    io.MouseReleased[0] = true;
    io.KeyCtrl = false;
    queued_ = {};
    return;
  }
  ++queued_.stage;
}

void PoseHandles::draw(const Posing& posing, const ViewerState& state,
                       std::span<const glm::mat4> world) const {
  const ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 display(io.DisplaySize.x, io.DisplaySize.y);
  if (display.x <= 0.0f || display.y <= 0.0f) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const size_t views = methods_shown(state).size();
  for (size_t v = 0; v < views; ++v) {
    const rig::render::ScreenRect rect = view_rect(state, display, v, views);
    const rig::render::Camera camera = view_camera(state, rect);
    draw->PushClipRect(ImVec2(rect.x, rect.y), ImVec2(rect.x + rect.width, rect.y + rect.height));
    for_each_handle(posing, [&](HandleId id) {
      const glm::vec3* p = handle_position(posing, id);
      glm::vec2 px;
      if (!p || !rig::render::world_to_screen(camera, rect, *p, px)) return;
      const ImVec2 c(px.x, px.y);
      // A thin line from the joint the handle drives (end joint, mid joint) to the handle.
      const int joint = id.kind == HandleId::IkTarget ? posing.ik(id.index).chain.end
                        : id.kind == HandleId::IkPole ? posing.ik(id.index).chain.mid
                                                      : posing.look_at_joint();
      glm::vec2 from;
      if (joint >= 0 && size_t(joint) < world.size() &&
          rig::render::world_to_screen(camera, rect, glm::vec3(world[size_t(joint)][3]), from))
        draw->AddLine(ImVec2(from.x, from.y), c, IM_COL32(255, 255, 255, 120), 1.0f);
      const bool hot = id == hovered_ || id == dragged_;
      const float r = hot ? kHandleRadius + 2.0f : kHandleRadius;
      if (id.kind == HandleId::IkTarget) {
        if (hot) draw->AddCircleFilled(c, r, kTargetColour & IM_COL32(255, 255, 255, 110));
        draw->AddCircle(c, r, kTargetColour, 20, 2.0f);
        draw->AddCircleFilled(c, 2.0f, kTargetColour);
      } else if (id.kind == HandleId::IkPole) {
        const ImVec2 a(c.x, c.y - r), b(c.x + r, c.y), d(c.x, c.y + r), e(c.x - r, c.y);
        if (hot) draw->AddQuadFilled(a, b, d, e, kPoleColour & IM_COL32(255, 255, 255, 110));
        draw->AddQuad(a, b, d, e, kPoleColour, 2.0f);
      } else {
        if (hot)
          draw->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r),
                              kLookColour & IM_COL32(255, 255, 255, 110));
        draw->AddRect(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), kLookColour, 0.0f, 0,
                      2.0f);
      }
    });
    draw->PopClipRect();
  }
}

}  // namespace rigview
