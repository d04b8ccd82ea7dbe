#include "viewer/exercises.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "anim/sampling.h"
#include "model/model.h"
#include "viewer/mistakes.h"

namespace rigview {

namespace {

float rotation_degrees(const glm::quat& q) {
  return glm::degrees(2.0f * std::acos(std::clamp(std::abs(q.w), 0.0f, 1.0f)));
}

float largest_difference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  return worst;
}

}  // namespace

glm::quat sample_exercise_keys(float time) {
  const glm::quat key1 = glm::angleAxis(glm::radians(kSlerpKeyDegrees), glm::vec3(1, 0, 0));
  rig::Channel channel;
  channel.node = 0;
  channel.path = rig::TargetPath::Rotation;
  channel.interpolation = rig::Interpolation::Linear;
  channel.components = 4;
  channel.times = {0.0f, 1.0f};
  channel.values = {0.0f, 0.0f, 0.0f, 1.0f, key1.x, key1.y, key1.z, key1.w};  // x, y, z, w
  std::array<float, 4> out{};
  rig::sample_channel(channel, time, out);
  return glm::quat(out[3], out[0], out[1], out[2]);
}

SlerpCheck check_slerp_answer(float answer_degrees) {
  SlerpCheck c;
  c.sampled_degrees = rotation_degrees(sample_exercise_keys(kSlerpTime));
  const glm::quat key1 = glm::angleAxis(glm::radians(kSlerpKeyDegrees), glm::vec3(1, 0, 0));
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  c.normalized_lerp_degrees =
      rotation_degrees(glm::normalize(identity * (1.0f - kSlerpTime) + key1 * kSlerpTime));
  c.right = std::abs(answer_degrees - c.sampled_degrees) <= kSlerpToleranceDegrees;
  return c;
}

int order_exercise_node(const rig::Model& model, int preferred) {
  if (preferred >= 0 && size_t(preferred) < model.nodes.size() &&
      model.nodes[size_t(preferred)].parent >= 0)
    return preferred;
  for (size_t n = 0; n < model.nodes.size(); ++n)
    if (model.nodes[n].parent >= 0) return int(n);
  return -1;
}

OrderCheck check_multiplication_order(const rig::Character& character, int node, int choice) {
  OrderCheck c;
  c.node = order_exercise_node(character.model(), node);
  c.right = choice == 0;
  if (c.node < 0) return c;
  const int parent = character.model().nodes[size_t(c.node)].parent;
  const glm::mat4& world = character.world()[size_t(c.node)];
  const glm::mat4& parent_world = character.world()[size_t(parent)];
  const glm::mat4 local = rig::trs_matrix(character.pose().local[size_t(c.node)]);
  c.parent_local_error = largest_difference(world, parent_world * local);
  c.local_parent_error = largest_difference(world, local * parent_world);
  return c;
}

void choose_multiplication_order(ViewerState& state, int choice) {
  state.learn.order_choice = choice;
  const int reversed = find_mistake("reversed-multiply");
  const bool on = state.learn.mistake == reversed;
  if ((choice == 1) != on) toggle_mistake(state, reversed);
}

}  // namespace rigview
