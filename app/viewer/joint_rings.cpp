#include "viewer/joint_rings.h"

#include <algorithm>
#include <cmath>

namespace rigview {

namespace {

// Distance from `p` to the segment a-b, in pixels.
float segment_distance(glm::vec2 p, glm::vec2 a, glm::vec2 b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

}  // namespace

JointRings joint_rings(const glm::mat4& world, const rig::render::Camera& camera,
                       const rig::render::ScreenRect& rect, float radius_pixels) {
  JointRings r;
  r.centre = glm::vec3(world[3]);
  for (int a = 0; a < 3; ++a) {
    const glm::vec3 axis(world[a]);
    const float len = glm::length(axis);
    r.axis[size_t(a)] = len > 0.0f ? axis / len : glm::vec3(a == 0, a == 1, a == 2);
  }
  // One pixel at the joint's depth: the distance a point beside it moves for a pixel, measured
  // through the camera so any projection works.
  glm::vec2 c, side;
  // The camera's right axis: the view matrix's first row.
  const glm::vec3 right(camera.view[0][0], camera.view[1][0], camera.view[2][0]);
  const float probe = 1e-2f * std::max(glm::length(r.centre - camera.eye), 1e-3f);
  if (rig::render::world_to_screen(camera, rect, r.centre, c) &&
      rig::render::world_to_screen(camera, rect, r.centre + probe * right, side) &&
      glm::length(side - c) > 0.0f)
    r.radius = radius_pixels * probe / glm::length(side - c);
  return r;
}

glm::vec3 ring_point(const JointRings& rings, int a, int i) {
  const glm::vec3 n = rings.axis[size_t(a)];
  // Two directions in the ring's plane: the next axes, made orthogonal to n.
  glm::vec3 u = rings.axis[size_t((a + 1) % 3)];
  u = glm::normalize(u - glm::dot(u, n) * n);
  const glm::vec3 v = glm::cross(n, u);
  const float t = 6.2831853f * float(i) / float(kRingSegments);
  return rings.centre + rings.radius * (std::cos(t) * u + std::sin(t) * v);
}

int pick_ring(const JointRings& rings, const rig::render::Camera& camera,
              const rig::render::ScreenRect& rect, glm::vec2 pixel, float tolerance) {
  int best = -1;
  float best_distance = tolerance;
  for (int a = 0; a < 3; ++a) {
    glm::vec2 prev;
    bool have_prev = rig::render::world_to_screen(camera, rect, ring_point(rings, a, 0), prev);
    for (int i = 1; i <= kRingSegments; ++i) {
      glm::vec2 p;
      const bool have = rig::render::world_to_screen(camera, rect, ring_point(rings, a, i), p);
      if (have && have_prev) {
        const float d = segment_distance(pixel, prev, p);
        if (d <= best_distance) best_distance = d, best = a;
      }
      prev = p, have_prev = have;
    }
  }
  return best;
}

float ring_drag_angle(const JointRings& rings, int a, const rig::render::Camera& camera,
                      const rig::render::ScreenRect& rect, glm::vec2 from, glm::vec2 to) {
  glm::vec2 c;
  if (!rig::render::world_to_screen(camera, rect, rings.centre, c)) return 0.0f;
  // Angles with y up (window pixels go down).
  const float a0 = std::atan2(-(from.y - c.y), from.x - c.x);
  const float a1 = std::atan2(-(to.y - c.y), to.x - c.x);
  const float turn = std::remainder(a1 - a0, 6.2831853f);
  const bool towards_camera = glm::dot(rings.axis[size_t(a)], camera.eye - rings.centre) > 0.0f;
  return towards_camera ? turn : -turn;
}

}  // namespace rigview
