// The selected joint's rotation rings over the 3D view (ImGui draw lists, shown while the Joint
// tab is open): three circles around the joint in the planes normal to its local X, Y and Z axes
// (red, green, blue, as axes are drawn), each dragged with the left mouse to turn the joint about
// that axis: a hand rotation on top of the clip pose (Posing::set_joint_rotation), so the turn
// is about the joint's own axis as the rings show it. The maths is viewer/joint_rings.h.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "viewer/joint_rings.h"
#include "viewer/posing.h"
#include "viewer/viewer_state.h"

namespace rigview {

// Mouse routing and drawing for the rings of state.selected_node.
class RotationRings {
 public:
  // Whether the rings are shown: the Joint tab open, a joint selected, one view (not compare).
  static bool shown(const ViewerState& state);
  // The left mouse over the view: a press within reach of a ring (at `press_at`, where the
  // button went down) grabs it; while held, the joint turns. Returns whether the rings own the
  // mouse this frame (the camera must then not orbit or select). `world`: node world matrices.
  bool handle_mouse(Posing& posing, ViewerState& state, std::span<const glm::mat4> world,
                    glm::vec2 press_at);
  void draw(const ViewerState& state, std::span<const glm::mat4> world) const;
  void cancel() { axis_ = -1; }
  int dragged_axis() const { return axis_; }

 private:
  int axis_ = -1;                            // the ring being dragged
  glm::quat start_{1.0f, 0.0f, 0.0f, 0.0f};  // the joint's hand rotation when grabbed
  JointRings rings_;                         // as grabbed: the axes stay put during the drag
  glm::vec2 press_{0.0f};
};

}  // namespace rigview
