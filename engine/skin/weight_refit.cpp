#include "skin/weight_refit.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <map>

#include "skin/weight_ops.h"

namespace rig {

namespace {

constexpr uint32_t kK = kMaxInfluences;

// Solves the (m+1)×(m+1) KKT system [H 1; 1ᵀ 0][w; λ] = [c; 1] by Gaussian elimination with
// partial pivoting. false when singular.
bool solve_kkt(const double* h, const double* c, uint32_t m, double* w) {
  constexpr uint32_t kMax = kK + 1;
  const uint32_t size = m + 1;
  std::array<std::array<double, kMax + 1>, kMax> a{};
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < m; ++j) a[i][j] = h[i * m + j];
    a[i][m] = 1.0;
    a[i][size] = c[i];
  }
  for (uint32_t j = 0; j < m; ++j) a[m][j] = 1.0;
  a[m][m] = 0.0;
  a[m][size] = 1.0;
  for (uint32_t col = 0; col < size; ++col) {
    uint32_t pivot = col;
    for (uint32_t r = col + 1; r < size; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    if (!(std::abs(a[pivot][col]) > 1e-300)) return false;
    std::swap(a[col], a[pivot]);
    for (uint32_t r = col + 1; r < size; ++r) {
      const double f = a[r][col] / a[col][col];
      if (f == 0.0) continue;
      for (uint32_t k = col; k <= size; ++k) a[r][k] -= f * a[col][k];
    }
  }
  std::array<double, kMax> x{};
  for (uint32_t r = size; r-- > 0;) {
    double s = a[r][size];
    for (uint32_t k = r + 1; k < size; ++k) s -= a[r][k] * x[k];
    x[r] = s / a[r][r];
  }
  for (uint32_t i = 0; i < m; ++i) w[i] = x[i];
  return std::isfinite(x[m]);
}

// (w − w0)ᵀ G (w − w0): the summed squared deformation error of weights w.
double deformation_error(std::span<const double> gram, std::span<const float> w0,
                         std::span<const float> w) {
  const size_t k = w0.size();
  double e = 0.0;
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j)
      e += (double(w[i]) - w0[i]) * gram[i * k + j] * (double(w[j]) - w0[j]);
  return e;
}

}  // namespace

void refit_vertex_weights(std::span<const double> gram, std::span<const float> original, uint32_t n,
                          std::span<float> out) {
  const uint32_t k = uint32_t(std::min<size_t>(original.size(), kK));
  // The truncation: the reference the refit must beat, and what the tiny pull leans towards.
  InfluenceList list;
  for (uint32_t i = 0; i < k; ++i) list.add(uint16_t(i), original[i]);
  truncate_influences(list, n);
  std::array<float, kK> truncated{};
  for (uint32_t i = 0; i < list.count; ++i) truncated[list.joints[i]] = list.weights[i];
  const std::span<const float> truncated_span(truncated.data(), k);

  double trace = 0.0;
  for (uint32_t i = 0; i < k; ++i) trace += gram[i * k + i];
  const double mu = 1e-12 * trace / std::max<uint32_t>(k, 1);
  std::array<double, kK> c{};
  for (uint32_t i = 0; i < k; ++i) {
    c[i] = mu * truncated[i];
    for (uint32_t j = 0; j < k; ++j) c[i] += gram[i * k + j] * original[j];
  }

  double best = std::numeric_limits<double>::infinity();
  std::array<double, kK> best_w{};
  std::array<uint32_t, kK> index{};
  std::array<double, kK * kK> h{};
  std::array<double, kK> ct{}, w{};
  if (trace > 0.0 && std::isfinite(trace)) {
    for (uint32_t mask = 1; mask < (1u << k); ++mask) {
      const uint32_t m = uint32_t(std::popcount(mask));
      if (m > n) continue;
      uint32_t at = 0;
      for (uint32_t i = 0; i < k; ++i)
        if (mask & (1u << i)) index[at++] = i;
      for (uint32_t a = 0; a < m; ++a) {
        ct[a] = c[index[a]];
        for (uint32_t b = 0; b < m; ++b)
          h[a * m + b] = gram[index[a] * k + index[b]] + (a == b ? mu : 0.0);
      }
      if (!solve_kkt(h.data(), ct.data(), m, w.data())) continue;
      bool feasible = true;
      for (uint32_t a = 0; a < m; ++a) feasible = feasible && w[a] >= 0.0 && std::isfinite(w[a]);
      if (!feasible) continue;
      double f = 0.0;
      for (uint32_t a = 0; a < m; ++a) {
        f -= 2.0 * ct[a] * w[a];
        for (uint32_t b = 0; b < m; ++b) f += w[a] * h[a * m + b] * w[b];
      }
      if (f < best) {
        best = f;
        best_w.fill(0.0);
        for (uint32_t a = 0; a < m; ++a) best_w[index[a]] = w[a];
      }
    }
  }
  std::array<float, kK> refit{};
  float sum = 0.0f;
  for (uint32_t i = 0; i < k; ++i) sum += refit[i] = float(best_w[i]);
  const bool solved = best < std::numeric_limits<double>::infinity() && sum > 0.0f;
  if (solved)
    for (uint32_t i = 0; i < k; ++i) refit[i] /= sum;
  const std::span<const float> refit_span(refit.data(), k);
  const bool keep_refit = solved && deformation_error(gram, original, refit_span) <
                                        deformation_error(gram, original, truncated_span);
  for (uint32_t i = 0; i < k && i < out.size(); ++i) out[i] = keep_refit ? refit[i] : truncated[i];
}

namespace {

// Σ_poses M_kᵀ M_l over the rows that move points (3×4 of each 4×4), for the joint pairs the
// vertices need: G_kl of a vertex is then v_hᵀ A_kl v_h with v_h = (v, 1).
struct PairSums {
  size_t joints = 0;
  std::vector<int32_t> slot;                 // joints × joints → index in `sums`, −1 unused
  std::vector<std::array<double, 16>> sums;  // A[a * 4 + b]

  void need(uint16_t k, uint16_t l) {
    int32_t& s = slot[size_t(k) * joints + l];
    if (s >= 0) return;
    s = int32_t(sums.size());
    slot[size_t(l) * joints + k] = s;  // A_lk = A_klᵀ: read transposed
    sums.push_back({});
  }
};

// A vertex's G from the pair sums (pairs listed by `need` before).
void vertex_gram(const PairSums& pairs, const InfluenceList& list, const glm::vec3& position,
                 std::span<double> gram) {
  const double v[4] = {position.x, position.y, position.z, 1.0};
  const uint32_t k = list.count;
  for (uint32_t i = 0; i < k; ++i)
    for (uint32_t j = i; j < k; ++j) {
      const uint16_t a_joint = list.joints[i], b_joint = list.joints[j];
      const std::array<double, 16>& a =
          pairs.sums[size_t(pairs.slot[size_t(std::min(a_joint, b_joint)) * pairs.joints +
                                       std::max(a_joint, b_joint)])];
      double g = 0.0;
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) g += v[r] * a[size_t(r * 4 + c)] * v[c];
      gram[i * k + j] = gram[j * k + i] = g;
    }
}

}  // namespace

WeightEditResult limit_influences_refit(SkinLayer& layer, const Model& model,
                                        const SkinPoseSamples& poses, uint32_t n,
                                        EditProgress progress, void* user) {
  WeightEditResult result;
  // The work counted as poses summed into each group's pair sums, then vertices solved: both
  // known before the first step, so the fraction rises evenly.
  size_t total = 0, done = 0;
  const SkinMeshes& meshes = layer.meshes();
  // Meshes grouped by the skins that draw them: one set of pair sums per group.
  std::map<std::vector<int>, std::vector<int>> by_skins;
  for (size_t m = 0; m < model.meshes.size() && m < meshes.first_of_mesh.size(); ++m) {
    std::vector<int> skins;
    for (int s : skins_drawing_mesh(model, int(m)))
      if (size_t(s) < poses.matrices.size() && poses.pose_count > 0) skins.push_back(s);
    by_skins[skins].push_back(int(m));
  }
  auto primitives_of = [&](int mesh) {
    const uint32_t first = meshes.first_of_mesh[size_t(mesh)];
    return std::pair(first, first + uint32_t(model.meshes[size_t(mesh)].primitives.size()));
  };
  for (const auto& [skins, group_meshes] : by_skins) {
    total += skins.size() * poses.pose_count;
    for (int mesh : group_meshes) {
      const auto [first, last] = primitives_of(mesh);
      for (uint32_t p = first; p < last; ++p)
        if (meshes.primitives[p].skinned()) total += meshes.primitives[p].vertex_count;
    }
  }
  // Called once per pose and once per primitive: false when asked to stop.
  auto step = [&](size_t work) {
    done += work;
    if (!progress || progress(user, total ? float(double(done) / double(total)) : 1.0f))
      return true;
    result.cancelled = true;
    return false;
  };
  for (const auto& [skins, group_meshes] : by_skins) {
    size_t joints = std::numeric_limits<size_t>::max();
    for (int s : skins) joints = std::min(joints, poses.joint_count(size_t(s)));
    if (skins.empty()) joints = 0;
    auto refittable = [&](const InfluenceList& list) {
      if (joints == 0 || list.count <= n) return false;
      for (uint32_t i = 0; i < list.count; ++i)
        if (list.joints[i] >= joints) return false;
      return true;
    };
    PairSums pairs;
    pairs.joints = joints;
    pairs.slot.assign(joints * joints, -1);
    for (int mesh : group_meshes) {
      const auto [first, last] = primitives_of(mesh);
      for (uint32_t p = first; p < last; ++p)
        for (uint32_t v = 0; v < meshes.primitives[p].vertex_count; ++v) {
          const InfluenceList list = read_influences(meshes.primitives[p], v);
          if (!refittable(list)) continue;
          for (uint32_t i = 0; i < list.count; ++i)
            for (uint32_t j = i; j < list.count; ++j)
              pairs.need(std::min(list.joints[i], list.joints[j]),
                         std::max(list.joints[i], list.joints[j]));
        }
    }
    if (!pairs.sums.empty()) {
      // The pairs as (k, l, index), to run through the poses once.
      std::vector<std::array<uint32_t, 3>> listed;
      for (size_t k = 0; k < joints; ++k)
        for (size_t l = k; l < joints; ++l)
          if (pairs.slot[k * joints + l] >= 0)
            listed.push_back({uint32_t(k), uint32_t(l), uint32_t(pairs.slot[k * joints + l])});
      for (int s : skins) {
        const size_t count = poses.joint_count(size_t(s));
        for (size_t p = 0; p < poses.pose_count; ++p) {
          const glm::mat4* m = poses.matrices[size_t(s)].data() + p * count;
          for (const auto& [k, l, index] : listed) {
            std::array<double, 16>& a = pairs.sums[index];
            const glm::mat4& mk = m[k];
            const glm::mat4& ml = m[l];
            for (int r = 0; r < 4; ++r)
              for (int c = 0; c < 4; ++c)
                a[size_t(r * 4 + c)] += double(mk[r][0]) * ml[c][0] + double(mk[r][1]) * ml[c][1] +
                                        double(mk[r][2]) * ml[c][2];
          }
          if (!step(1)) return result;
        }
      }
    } else if (!step(skins.size() * poses.pose_count)) {
      return result;
    }
    std::array<double, kK * kK> gram{};
    std::array<float, kK> out{};
    for (int mesh : group_meshes) {
      const auto [first, last] = primitives_of(mesh);
      for (uint32_t p = first; p < last; ++p) {
        if (!meshes.primitives[p].skinned()) continue;
        const Primitive& prim = model_primitive(model, meshes, p);
        for (uint32_t v = 0; v < meshes.primitives[p].vertex_count; ++v) {
          InfluenceList list = read_influences(layer.meshes().primitives[p], v);
          if (list.count <= n) continue;
          if (refittable(list) && v < prim.positions.size()) {
            const uint32_t k = list.count;
            vertex_gram(pairs, list, prim.positions[v], std::span(gram.data(), size_t(k) * k));
            refit_vertex_weights(std::span(gram.data(), size_t(k) * k),
                                 std::span(list.weights.data(), k), n, std::span(out.data(), k));
            InfluenceList fitted;
            for (uint32_t i = 0; i < k; ++i)
              if (out[i] > 0.0f) fitted.add(list.joints[i], out[i]);
            list = fitted;
          } else {
            truncate_influences(list, n);
          }
          if (commit_influences(layer, p, v, list)) ++result.vertices_changed;
        }
        if (!step(meshes.primitives[p].vertex_count)) return result;
      }
    }
  }
  return result;
}

}  // namespace rig
