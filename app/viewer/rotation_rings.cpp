#include "viewer/rotation_rings.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "character/fk_rotation.h"
#include "viewer/camera_controls.h"

namespace rigview {

namespace {

constexpr ImU32 kRingColours[3] = {IM_COL32(230, 70, 70, 255), IM_COL32(90, 210, 90, 255),
                                   IM_COL32(80, 130, 255, 255)};

// The single view the rings live in, and its camera.
SingleView ring_view(const ViewerState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  return single_view(state, io.DisplaySize.x, io.DisplaySize.y);
}

}  // namespace

bool RotationRings::shown(const ViewerState& state) {
  return state.layout.tab == InspectorTab::Joint && state.selected_node >= 0 && !state.compare &&
         state.crowd_count == 0 && !state.panels_hidden;
}

bool RotationRings::handle_mouse(Posing& posing, ViewerState& state,
                                 std::span<const glm::mat4> world, glm::vec2 press_at) {
  const ImGuiIO& io = ImGui::GetIO();
  const int node = state.selected_node;
  if (!shown(state) || node < 0 || size_t(node) >= world.size()) {
    axis_ = -1;
    return false;
  }
  const SingleView view = ring_view(state);
  const glm::vec2 mouse(io.MousePos.x, io.MousePos.y);
  if (axis_ >= 0) {
    if (!io.MouseDown[0]) {
      axis_ = -1;
      return true;  // the release belongs to the drag
    }
    const float angle = ring_drag_angle(rings_, axis_, view.camera, view.rect, press_, mouse);
    posing.set_joint_rotation(node, start_ * rig::local_axis_rotation(axis_, glm::degrees(angle)));
    state.joint_euler_node = -1;  // the Joint tab re-reads its angles
    return true;
  }
  if (io.WantCaptureMouse || !io.MouseClicked[0]) return false;
  const JointRings rings =
      joint_rings(world[size_t(node)], view.camera, view.rect, kRingRadiusPixels);
  const int picked = pick_ring(rings, view.camera, view.rect, press_at, kRingPickPixels);
  if (picked < 0) return false;
  axis_ = picked;
  rings_ = rings;
  start_ = posing.joint_rotation(node);
  press_ = press_at;
  return true;
}

void RotationRings::draw(const ViewerState& state, std::span<const glm::mat4> world) const {
  const int node = state.selected_node;
  if (!shown(state) || node < 0 || size_t(node) >= world.size()) return;
  const SingleView view = ring_view(state);
  const JointRings rings =
      joint_rings(world[size_t(node)], view.camera, view.rect, kRingRadiusPixels);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(view.rect.x, view.rect.y),
                     ImVec2(view.rect.x + view.rect.width, view.rect.y + view.rect.height));
  for (int a = 0; a < 3; ++a) {
    glm::vec2 prev;
    bool have_prev =
        rig::render::world_to_screen(view.camera, view.rect, ring_point(rings, a, 0), prev);
    const float thickness = a == axis_ ? 3.5f : 2.0f;
    for (int i = 1; i <= kRingSegments; ++i) {
      glm::vec2 p;
      const bool have =
          rig::render::world_to_screen(view.camera, view.rect, ring_point(rings, a, i), p);
      if (have && have_prev)
        draw->AddLine(ImVec2(prev.x, prev.y), ImVec2(p.x, p.y), kRingColours[a], thickness);
      prev = p, have_prev = have;
    }
  }
  draw->PopClipRect();
}

}  // namespace rigview
