// Small models built in code for engine tests (no importer involved), and the checks on them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>
#include <string>

#include "model/model.h"

namespace rig::test {

inline constexpr float kDeg = std::numbers::pi_v<float> / 180.0f;

inline glm::quat axis_angle(glm::vec3 axis, float degrees) {
  return glm::angleAxis(degrees * kDeg, glm::normalize(axis));
}

// Rotation angle of a unit quaternion, in degrees, as the seed computes it: 2 acos(|w|).
inline float angle_degrees(glm::quat q) {
  return 2.0f * std::acos(std::min(1.0f, std::abs(q.w))) / kDeg;
}

// Component-wise within `tol`.
inline void expect_vec3(glm::vec3 got, glm::vec3 want, float tol = 1e-5f) {
  EXPECT_NEAR(got.x, want.x, tol);
  EXPECT_NEAR(got.y, want.y, tol);
  EXPECT_NEAR(got.z, want.z, tol);
}

inline int add_node(Model& m, const std::string& name, int parent, glm::vec3 t,
                    glm::quat r = glm::quat(1, 0, 0, 0)) {
  Node n;
  n.name = name;
  n.parent = parent;
  n.rest.translation = t;
  n.rest.rotation = r;
  m.nodes.push_back(n);
  const int idx = static_cast<int>(m.nodes.size()) - 1;
  if (parent >= 0)
    m.nodes[parent].children.push_back(idx);
  else
    m.scene_roots.push_back(idx);
  m.node_order.push_back(idx);  // callers add parents first
  return idx;
}

// The seed's Shoulder/Elbow chain: shoulder at the origin, elbow (1,0,0) from it, one skin
// with both joints and the bind pose as rest pose.
inline Model shoulder_elbow_model() {
  Model m;
  const int shoulder = add_node(m, "Shoulder", -1, {0, 0, 0});
  const int elbow = add_node(m, "Elbow", shoulder, {1, 0, 0});
  Skin s;
  s.name = "arm";
  s.joints = {shoulder, elbow};
  s.inverse_bind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0))};
  s.joint_parent = {-1, 0};
  s.order = {0, 1};
  m.skins.push_back(s);
  return m;
}

inline Channel rotation_channel(int node, std::vector<float> times, std::vector<glm::quat> keys,
                                Interpolation mode = Interpolation::Linear) {
  Channel c;
  c.node = node;
  c.path = TargetPath::Rotation;
  c.interpolation = mode;
  c.components = 4;
  c.times = std::move(times);
  for (const glm::quat& q : keys) c.values.insert(c.values.end(), {q.x, q.y, q.z, q.w});
  return c;
}

inline Channel vec3_channel(int node, TargetPath path, std::vector<float> times,
                            std::vector<glm::vec3> keys, Interpolation mode) {
  Channel c;
  c.node = node;
  c.path = path;
  c.interpolation = mode;
  c.components = 3;
  c.times = std::move(times);
  for (const glm::vec3& v : keys) c.values.insert(c.values.end(), {v.x, v.y, v.z});
  return c;
}

// A clip of these channels, spanning their keys (start: the earliest key, end: the latest).
inline Clip make_clip(std::vector<Channel> channels) {
  Clip c;
  c.channels = std::move(channels);
  c.start = 1e30f;
  c.end = -1e30f;
  for (const Channel& ch : c.channels) {
    c.start = std::min(c.start, ch.times.front());
    c.end = std::max(c.end, ch.times.back());
  }
  return c;
}

}  // namespace rig::test
