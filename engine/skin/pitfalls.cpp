#include "skin/pitfalls.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

namespace rig {

namespace {

constexpr std::array<std::string_view, kPitfallCount> kNames = {
    "lerp-quaternions", "average-matrices", "no-hemisphere", "raw-weights", "four-influences"};

}  // namespace

std::string_view pitfall_name(Pitfall p) { return kNames[size_t(p)]; }

std::optional<Pitfall> pitfall_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return Pitfall(i);
  return std::nullopt;
}

glm::quat lerp_quat_unnormalized(const glm::quat& q0, const glm::quat& q1, float t) {
  return glm::quat(q0.w * (1.0f - t) + q1.w * t, q0.x * (1.0f - t) + q1.x * t,
                   q0.y * (1.0f - t) + q1.y * t, q0.z * (1.0f - t) + q1.z * t);
}

glm::mat3 unit_formula_matrix(const glm::quat& q) {
  const float x = q.x, y = q.y, z = q.z, w = q.w;
  glm::mat3 m;  // column-major: m[col][row]
  m[0][0] = 1.0f - 2.0f * (y * y + z * z);
  m[0][1] = 2.0f * (x * y + w * z);
  m[0][2] = 2.0f * (x * z - w * y);
  m[1][0] = 2.0f * (x * y - w * z);
  m[1][1] = 1.0f - 2.0f * (x * x + z * z);
  m[1][2] = 2.0f * (y * z + w * x);
  m[2][0] = 2.0f * (x * z + w * y);
  m[2][1] = 2.0f * (y * z - w * x);
  m[2][2] = 1.0f - 2.0f * (x * x + y * y);
  return m;
}

glm::mat4 average_matrices(const glm::mat4& a, const glm::mat4& b, float w) {
  glm::mat4 m;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[c][r] = a[c][r] * (1.0f - w) + b[c][r] * w;
  return m;
}

DualQuat blend_dual_quats(std::span<const DualQuat> dqs, std::span<const float> weights,
                          size_t pivot, bool align) {
  glm::quat real(0.0f, 0.0f, 0.0f, 0.0f), dual(0.0f, 0.0f, 0.0f, 0.0f);
  const size_t n = std::min(dqs.size(), weights.size());
  if (pivot >= n) return DualQuat{};
  const glm::quat p = dqs[pivot].real;
  for (size_t i = 0; i < n; ++i) {
    const float w = align && glm::dot(dqs[i].real, p) < 0.0f ? -weights[i] : weights[i];
    real += dqs[i].real * w;
    dual += dqs[i].dual * w;
  }
  const float len = glm::length(real);
  if (!(len > 0.0f)) return DualQuat{};
  DualQuat out;
  out.real = real / len;
  out.dual = dual / len;
  return out;
}

glm::vec3 linear_blend_point(std::span<const glm::mat4> matrices, std::span<const float> weights,
                             glm::vec3 p, bool normalize) {
  glm::vec3 sum(0.0f);
  float total = 0.0f;
  const size_t n = std::min(matrices.size(), weights.size());
  for (size_t i = 0; i < n; ++i) {
    sum += weights[i] * glm::vec3(matrices[i] * glm::vec4(p, 1.0f));
    total += weights[i];
  }
  if (!normalize) return sum;
  return total > 0.0f ? sum / total : p;
}

void keep_largest_weights(std::span<float> weights, size_t keep) {
  std::vector<size_t> order(weights.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return weights[a] > weights[b]; });
  for (size_t i = keep; i < order.size(); ++i) weights[order[i]] = 0.0f;
  float sum = 0.0f;
  for (float w : weights) sum += w;
  if (sum > 0.0f)
    for (float& w : weights) w /= sum;
}

}  // namespace rig
