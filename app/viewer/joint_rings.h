// The geometry of a joint's rotation rings (viewer/rotation_rings.h): three circles around the
// joint in the planes normal to its local X, Y and Z axes, a fixed number of pixels across on
// screen; which ring a press picks, and the turn a drag about the joint's projected centre
// makes. Free functions over render/camera.h, no ImGui: tested without a window.
#pragma once

#include <array>
#include <glm/glm.hpp>

#include "render/camera.h"

namespace rigview {

inline constexpr int kRingSegments = 48;
inline constexpr float kRingRadiusPixels = 70.0f;  // on screen, whatever the zoom
inline constexpr float kRingPickPixels = 6.0f;

struct JointRings {
  glm::vec3 centre{0.0f};
  std::array<glm::vec3, 3> axis{};  // unit world directions of the joint's local X, Y, Z
  float radius = 1.0f;              // world units
};

// The rings of a joint whose world matrix is `world`, `radius_pixels` across on screen at the
// joint's depth in the view `rect` drawn with `camera`.
JointRings joint_rings(const glm::mat4& world, const rig::render::Camera& camera,
                       const rig::render::ScreenRect& rect, float radius_pixels);
// Point `i` of kRingSegments of ring `a` (0 X, 1 Y, 2 Z) in world space.
glm::vec3 ring_point(const JointRings& rings, int a, int i);
// The ring (0, 1, 2) passing nearest to `pixel` within `tolerance` pixels; -1 when none does.
int pick_ring(const JointRings& rings, const rig::render::Camera& camera,
              const rig::render::ScreenRect& rect, glm::vec2 pixel, float tolerance);
// The turn (radians, right-handed about ring `a`'s axis) for the pointer going from `from` to
// `to`: how far its angle about the joint's projected centre changed, signed so the ring follows
// the pointer (an axis pointing at the camera turns counter-clockwise on screen for a positive
// angle). Wraps so a drag across the ±180° line does not jump.
float ring_drag_angle(const JointRings& rings, int a, const rig::render::Camera& camera,
                      const rig::render::ScreenRect& rect, glm::vec2 from, glm::vec2 to);

}  // namespace rigview
