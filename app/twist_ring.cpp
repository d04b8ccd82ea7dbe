#include "twist_ring.h"

#include <algorithm>
#include <cmath>

namespace rigview {

RingFrame ring_frame(const glm::mat4& root, const glm::mat4& twist) {
  RingFrame f;
  f.origin = glm::vec3(twist[3]);
  const glm::vec3 bone = f.origin - glm::vec3(root[3]);
  if (glm::length(bone) > 0.0f) f.axis = glm::normalize(bone);
  const glm::vec3 y = glm::vec3(root[1]) - glm::dot(glm::vec3(root[1]), f.axis) * f.axis;
  f.u = glm::length(y) > 0.0f ? glm::normalize(y) : glm::vec3(0.0f, 1.0f, 0.0f);
  f.v = glm::cross(f.axis, f.u);
  return f;
}

RadiusStats radius_stats(std::span<const glm::vec2> points) {
  RadiusStats r;
  if (points.empty()) return r;
  r.min = r.max = glm::length(points[0]);
  double sum = 0.0;
  for (glm::vec2 p : points) {
    const float len = glm::length(p);
    r.min = std::min(r.min, len);
    r.max = std::max(r.max, len);
    sum += len;
  }
  r.mean = float(sum / double(points.size()));
  return r;
}

int find_twist_ring(const rig::Model& model, const rig::SkinLayer& layer, const char* flag,
                    TwistRing& out, std::string& error) {
  out = TwistRing{};
  if (!find_twist_arm(model, flag, out.arm, error)) return 2;
  size_t root_k = 0, twist_k = 0;
  for (size_t s = 0; s < model.skins.size() && out.skin < 0; ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    const auto root = std::find(joints.begin(), joints.end(), out.arm.root);
    const auto twist = std::find(joints.begin(), joints.end(), out.arm.twist);
    if (root == joints.end() || twist == joints.end()) continue;
    out.skin = int(s);
    root_k = size_t(root - joints.begin());
    twist_k = size_t(twist - joints.begin());
  }
  if (out.skin < 0) return error = std::string(flag) + ": no skin has both ArmRoot and ArmTwist", 2;

  // The bind frame from the inverse bind matrices: the ring is the vertices in the plane through
  // the twist joint across the bone, off the axis (the caps' centres are not on it).
  const std::span<const glm::mat4> ibm = layer.inverse_bind(size_t(out.skin));
  out.bind = ring_frame(glm::inverse(ibm[root_k]), glm::inverse(ibm[twist_k]));
  constexpr float kOnPlane = 1e-5f, kOffAxis = 1e-4f;
  std::vector<RingVertex>& ring = out.ring;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    if (item.skin != out.skin) continue;
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
      const glm::vec3 p = prim.positions[v];
      if (std::abs(glm::dot(p - out.bind.origin, out.bind.axis)) > kOnPlane) continue;
      const glm::vec2 q = out.bind.project(p);
      if (glm::length(q) < kOffAxis) continue;
      const float angle = std::atan2(q.y, q.x);
      // A seam repeats a position: keep one vertex per angle.
      if (std::any_of(ring.begin(), ring.end(),
                      [&](const RingVertex& r) { return std::abs(r.bind_angle - angle) < 1e-6f; }))
        continue;
      ring.push_back({d, v, angle});
    }
  }
  if (ring.size() < 3) return error = std::string(flag) + ": no ring of vertices at ArmTwist", 1;
  std::sort(ring.begin(), ring.end(),
            [](const RingVertex& a, const RingVertex& b) { return a.bind_angle < b.bind_angle; });
  for (const RingVertex& r : ring) {
    const rig::DrawItem& item = model.draws[r.draw];
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    out.bind_points.push_back(out.bind.project(prim.positions[r.vertex]));
  }
  out.positions.resize(model.draws.size());
  out.normals.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    if (item.skin != out.skin) continue;
    const uint32_t n =
        model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
    out.positions[d].resize(n);
    out.normals[d].resize(n);
  }
  return 0;
}

RingFrame posed_ring_frame(const TwistRing& ring, const rig::Character& character) {
  return ring_frame(character.world()[size_t(ring.arm.root)],
                    character.world()[size_t(ring.arm.twist)]);
}

void measure_ring(TwistRing& ring, const rig::Model& model, const rig::Character& character,
                  rig::SkinningMethod method, const RingFrame& frame, std::span<glm::vec2> out) {
  for (size_t d = 0; d < model.draws.size(); ++d)
    if (model.draws[d].skin == ring.skin)
      character.skin_draw_item(model.draws[d], method, ring.positions[d], ring.normals[d]);
  for (size_t i = 0; i < ring.ring.size() && i < out.size(); ++i)
    out[i] = frame.project(ring.positions[ring.ring[i].draw][ring.ring[i].vertex]);
}

float ring_outer_reach(const TwistRing& ring, const rig::Character& character, float bend_sign) {
  const glm::mat4& root = character.world()[size_t(ring.arm.root)];
  const glm::mat4& twist = character.world()[size_t(ring.arm.twist)];
  glm::vec3 out = -(glm::normalize(glm::vec3(root[1])) + glm::normalize(glm::vec3(twist[1])));
  if (glm::length(out) <= 1e-6f) return 0.0f;  // bent fully back: no bisector
  out = glm::normalize(out) * (bend_sign < 0.0f ? -1.0f : 1.0f);
  const glm::vec3 origin(twist[3]);
  float reach = -1e30f;
  for (const RingVertex& r : ring.ring)
    reach = std::max(reach, glm::dot(ring.positions[r.draw][r.vertex] - origin, out));
  return reach;
}

float ring_twist_degrees(const TwistRing& ring, const rig::Model& model,
                         const rig::Character& character) {
  const glm::quat rel = glm::inverse(model.nodes[size_t(ring.arm.twist)].rest.rotation) *
                        character.pose().local[size_t(ring.arm.twist)].rotation;
  float twist_degrees = glm::degrees(2.0f * std::atan2(rel.x, rel.w));
  if (twist_degrees > 180.0f) twist_degrees -= 360.0f;
  if (twist_degrees <= -180.0f) twist_degrees += 360.0f;
  return twist_degrees;
}

}  // namespace rigview
