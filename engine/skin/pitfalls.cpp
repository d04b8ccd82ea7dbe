#include "skin/pitfalls.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "skin/skin_kernels.h"
#include "skin/skin_math.h"

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

void lerp_rotation_keys(const Clip& clip, float time, std::span<Transform> local) {
  for (const Channel& c : clip.channels) {
    if (c.path != TargetPath::Rotation || c.interpolation != Interpolation::Linear ||
        c.components != 4 || c.times.size() < 2 || c.values.size() < 4 * c.times.size() ||
        c.node < 0 || size_t(c.node) >= local.size())
      continue;
    if (!(time > c.times.front() && time < c.times.back())) continue;  // an end value holds
    const size_t b =
        size_t(std::upper_bound(c.times.begin(), c.times.end(), time) - c.times.begin());
    const size_t a = b - 1;
    const float u = (time - c.times[a]) / (c.times[b] - c.times[a]);
    const float* qa = &c.values[4 * a];
    const float* qb = &c.values[4 * b];
    local[size_t(c.node)].rotation = lerp_quat_unnormalized(
        glm::quat(qa[3], qa[0], qa[1], qa[2]), glm::quat(qb[3], qb[0], qb[1], qb[2]), u);
  }
}

void skin_dual_quat_unaligned(const SkinMesh& mesh, std::span<const glm::vec4> palette,
                              std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> normals,
                              std::span<glm::vec3> out_positions,
                              std::span<glm::vec3> out_normals) {
  using namespace skin_math;
  const uint32_t k = mesh.influences;
  const size_t joint_count = palette.size() / kDualQuatPaletteRows;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  auto row_quat = [](glm::vec4 r) { return glm::quat(r.w, r.x, r.y, r.z); };
  std::array<DualQuat, kMaxInfluences> dqs;
  std::array<float, kMaxInfluences> ws;
  for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
    const uint16_t* joints = &mesh.joints[size_t(v) * k];
    const float* weights = &mesh.weights[size_t(v) * k];
    const glm::vec3 p = positions[v];
    const glm::vec3 nrm = with_normals ? normals[v] : glm::vec3(0.0f);
    const float sum = weight_sum(weights, k);
    const uint32_t ref = pivot_influence(weights, k);
    size_t n = 0, pivot = 0;
    glm::mat3 stretch(0.0f);
    if (sum > 0.0f && joints[ref] < joint_count) {
      for (uint32_t i = 0; i < k && i < kMaxInfluences; ++i) {
        const float w = weights[i] / sum;
        if (w == 0.0f || joints[i] >= joint_count) continue;
        const glm::vec4* r = &palette[size_t(joints[i]) * kDualQuatPaletteRows];
        if (i == ref) pivot = n;
        dqs[n].real = row_quat(r[0]);
        dqs[n].dual = row_quat(r[1]);
        ws[n++] = w;
        stretch += glm::mat3(glm::vec3(r[2]), glm::vec3(r[3]), glm::vec3(r[4])) * w;
      }
    }
    const DualQuat dq = blend_dual_quats(std::span<const DualQuat>(dqs.data(), n),
                                         std::span<const float>(ws.data(), n), pivot, false);
    if (n == 0 || !(glm::length(dq.real) > 0.0f)) {
      out_positions[v] = p;
      if (with_normals) out_normals[v] = safe_normalize(nrm, nrm);
      continue;
    }
    out_positions[v] = dual_quat_transform_point(dq, stretch * p);
    if (with_normals)
      out_normals[v] = safe_normalize(dq.real * transform_normal(stretch, nrm), nrm);
  }
}

}  // namespace rig
