// Limit with refit: where n influences reproduce the deformation exactly the refit must find it;
// on any vertex it never does worse than truncation, and its small solver reaches the optimum a
// brute-force search over the simplex finds.
#include "skin/weight_refit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <numbers>
#include <random>

#include "analysis/clip_pose_samples.h"
#include "skin/skin_mesh.h"
#include "skin/weight_ops.h"
#include "weight_test_model.h"

namespace rig {
namespace {

// Joints: A at the origin, B at (1,0,0) under A, B2 at B's place under B (never animated: its
// skinning matrices equal B's in every pose), C at (2,0,0) under B. The clip turns A about Z, B
// about Y and C about X, 0 → 90° over one second.
Model duplicated_joint_model(const std::vector<test::TestInfluences>& influences,
                             const std::vector<glm::vec3>& positions) {
  Model m = test::weight_test_model(
      positions, {}, influences,
      {{"A", -1, {0, 0, 0}}, {"B", 0, {1, 0, 0}}, {"B2", 1, {0, 0, 0}}, {"C", 1, {1, 0, 0}}});
  Clip clip;
  clip.name = "Bend";
  clip.end = 1.0f;
  auto turn = [](int node, glm::vec3 axis) {
    Channel c;
    c.node = node;
    c.path = TargetPath::Rotation;
    c.components = 4;
    c.times = {0.0f, 1.0f};
    const glm::quat q = glm::angleAxis(std::numbers::pi_v<float> / 2, axis);
    c.values = {0, 0, 0, 1, q.x, q.y, q.z, q.w};
    return c;
  };
  clip.channels = {turn(1, {0, 0, 1}), turn(2, {0, 1, 0}), turn(4, {1, 0, 0})};
  m.clips.push_back(clip);
  return m;
}

// Σ_k w_k M_k v for vertex v of the layer under every sampled pose: the test's own LBS.
std::vector<glm::dvec3> skinned(const SkinPoseSamples& poses, const SkinMesh& mesh,
                                const glm::vec3& position, uint32_t v) {
  std::vector<glm::dvec3> out;
  const size_t joints = poses.joint_count(0);
  for (size_t p = 0; p < poses.pose_count; ++p) {
    glm::dvec3 sum(0.0);
    for (uint32_t s = 0; s < mesh.influences; ++s) {
      const float w = mesh.weights[v * mesh.influences + s];
      if (w == 0.0f) continue;
      const glm::mat4& m = poses.matrices[0][p * joints + mesh.joints[v * mesh.influences + s]];
      sum += double(w) * glm::dvec3(m * glm::vec4(position, 1.0f));
    }
    out.push_back(sum);
  }
  return out;
}

double max_distance(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, glm::length(a[i] - b[i]));
  return d;
}

// Four vertices that each lean on B and B2 (one joint twice over); the truncation to two drops
// B2 or a third joint.
std::vector<glm::vec3> twin_positions() {
  return {{0.5f, 0.2f, 0.1f}, {1.2f, -0.1f, 0.3f}, {1.6f, 0.3f, -0.2f}, {0.9f, 0.0f, 0.4f}};
}
std::vector<test::TestInfluences> twin_influences() {
  return {{{0, 0.5f}, {1, 0.3f}, {2, 0.2f}},
          {{0, 0.2f}, {1, 0.35f}, {2, 0.45f}},
          {{1, 0.4f}, {2, 0.3f}, {3, 0.3f}},
          {{0, 0.34f}, {1, 0.33f}, {2, 0.33f}}};
}

TEST(WeightRefit, DuplicatedJointIsRefittedExactly) {
  const std::vector<glm::vec3> positions = twin_positions();
  const Model model = duplicated_joint_model(twin_influences(), positions);
  auto original = std::make_shared<SkinLayer>(model);
  const SkinPoseSamples poses = sample_clip_poses(model, original);
  ASSERT_EQ(poses.pose_count, 31u);  // 0, 1/30, ..., 1 s

  SkinLayer refit(*original), truncated(*original);
  EXPECT_EQ(limit_influences_refit(refit, model, poses, 2).vertices_changed, 4u);
  limit_influences(truncated, 2);
  glm::dvec3 lo(1e300), hi(-1e300);  // the rest positions' box (bind = rest here)
  for (const glm::vec3& p : positions) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
  const double diagonal = glm::length(hi - lo);
  for (uint32_t v = 0; v < positions.size(); ++v) {
    SCOPED_TRACE("vertex " + std::to_string(v));
    const auto want = skinned(poses, original->meshes().primitives[0], positions[v], v);
    const auto got = skinned(poses, refit.meshes().primitives[0], positions[v], v);
    const auto cut = skinned(poses, truncated.meshes().primitives[0], positions[v], v);
    EXPECT_LE(test::layer_influences(refit.meshes().primitives[0], v).size(), 2u);
    EXPECT_LE(max_distance(got, want), 1e-5 * diagonal);
    EXPECT_GT(max_distance(cut, want), 1e-2 * diagonal);  // the test is not trivial
    float sum = 0.0f;
    for (const auto& [j, w] : test::layer_influences(refit.meshes().primitives[0], v)) sum += w;
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
  }
  // Vertex 0: A 0.5 stays and B takes B2's share (either of the twins may carry it).
  const auto v0 = test::layer_influences(refit.meshes().primitives[0], 0);
  ASSERT_EQ(v0.size(), 2u);
  EXPECT_EQ(v0[0].first, 0);
  EXPECT_NEAR(v0[0].second, 0.5f, 1e-5f);
  EXPECT_NEAR(v0[1].second, 0.5f, 1e-5f);
}

// The progress a refit reports: one step per sampled pose summed, then one per primitive solved,
// counted in poses + vertices (31 + 4 here), so the first report is 1/35 and the last 1. A stop
// at the first report leaves every vertex as it was.
TEST(WeightRefit, ProgressCountsPosesThenVerticesAndAStopEditsNothing) {
  const std::vector<glm::vec3> positions = twin_positions();
  const Model model = duplicated_joint_model(twin_influences(), positions);
  auto original = std::make_shared<SkinLayer>(model);
  struct Log {
    std::vector<float> fractions;
    size_t stop_at = size_t(-1);
    static bool report(void* user, float f) {
      auto* log = static_cast<Log*>(user);
      log->fractions.push_back(f);
      return log->fractions.size() < log->stop_at;
    }
  };
  Log sampling;
  bool stopped = false;
  const SkinPoseSamples poses =
      sample_clip_poses(model, original, kRefitSampleRateHz, Log::report, &sampling, &stopped);
  EXPECT_FALSE(stopped);
  EXPECT_EQ(sampling.fractions, std::vector<float>{1.0f});  // one clip: one report, at its end

  SkinLayer plain(*original), reported(*original), stopped_layer(*original);
  limit_influences_refit(plain, model, poses, 2);
  Log log;
  const WeightEditResult r = limit_influences_refit(reported, model, poses, 2, Log::report, &log);
  EXPECT_FALSE(r.cancelled);
  ASSERT_EQ(log.fractions.size(), 32u);  // 31 poses, 1 primitive
  EXPECT_FLOAT_EQ(log.fractions.front(), 1.0f / 35.0f);
  EXPECT_FLOAT_EQ(log.fractions[30], 31.0f / 35.0f);
  EXPECT_EQ(log.fractions.back(), 1.0f);
  for (uint32_t v = 0; v < positions.size(); ++v)
    EXPECT_EQ(test::layer_influences(reported.meshes().primitives[0], v),
              test::layer_influences(plain.meshes().primitives[0], v));

  Log stop;
  stop.stop_at = 1;
  const WeightEditResult s =
      limit_influences_refit(stopped_layer, model, poses, 2, Log::report, &stop);
  EXPECT_TRUE(s.cancelled);
  EXPECT_EQ(s.vertices_changed, 0u);
  EXPECT_EQ(stop.fractions.size(), 1u);
  for (uint32_t v = 0; v < positions.size(); ++v)
    EXPECT_EQ(test::layer_influences(stopped_layer.meshes().primitives[0], v),
              test::layer_influences(original->meshes().primitives[0], v));

  Log stop_sampling;
  stop_sampling.stop_at = 1;
  stopped = false;
  sample_clip_poses(model, original, kRefitSampleRateHz, Log::report, &stop_sampling, &stopped);
  EXPECT_TRUE(stopped);
}

TEST(WeightRefit, FitMatchesABruteForceSearchOverThePoses) {
  // Three distinct joints, keep two: no exact answer; the best one is found here by trying
  // every pair of joints with weights on a 1/1000 grid, skinned pose by pose.
  const std::vector<glm::vec3> positions = {{1.3f, 0.4f, -0.3f}, {0.7f, -0.2f, 0.5f}};
  const std::vector<test::TestInfluences> influences = {{{0, 0.4f}, {1, 0.3f}, {3, 0.3f}},
                                                        {{0, 0.2f}, {1, 0.5f}, {3, 0.3f}}};
  const Model model = duplicated_joint_model(influences, positions);
  auto original = std::make_shared<SkinLayer>(model);
  const SkinPoseSamples poses = sample_clip_poses(model, original);
  SkinLayer refit(*original);
  limit_influences_refit(refit, model, poses, 2);
  for (uint32_t v = 0; v < positions.size(); ++v) {
    const auto want = skinned(poses, original->meshes().primitives[0], positions[v], v);
    auto squares = [&](const std::vector<glm::dvec3>& got) {
      double e = 0.0;
      for (size_t p = 0; p < got.size(); ++p) e += glm::dot(got[p] - want[p], got[p] - want[p]);
      return e;
    };
    double best = 1e300;
    const uint16_t joints[] = {0, 1, 3};
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        for (int step = 0; step <= 1000; ++step) {
          Primitive one;
          one.positions = {positions[v]};
          one.influences = 4;
          one.joints = {joints[a], joints[b], 0, 0};
          one.weights = {step / 1000.0f, 1.0f - step / 1000.0f, 0, 0};
          best = std::min(best, squares(skinned(poses, prepare_skin_mesh(one), positions[v], 0)));
        }
    const double got = squares(skinned(poses, refit.meshes().primitives[0], positions[v], v));
    EXPECT_GT(best, 1e-6) << "vertex " << v << ": the search must not be exact";
    EXPECT_LE(got, best * (1.0 + 1e-4)) << "vertex " << v;
  }
}

// (w − w0)ᵀ G (w − w0).
double objective(const std::vector<double>& g, const std::vector<float>& w0,
                 const std::vector<double>& w) {
  const size_t k = w0.size();
  double e = 0.0;
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j) e += (w[i] - w0[i]) * g[i * k + j] * (w[j] - w0[j]);
  return e;
}

TEST(WeightRefit, SolverReachesTheOptimumOfABruteForceSearch) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    // G = YᵀY for random joint images y_k over a few poses: 3 joints, keep 2.
    const size_t k = 3, rows = 6;
    std::vector<double> y(rows * k), g(k * k, 0.0);
    for (double& e : y) e = unit(rng);
    for (size_t i = 0; i < k; ++i)
      for (size_t j = 0; j < k; ++j)
        for (size_t r = 0; r < rows; ++r) g[i * k + j] += y[r * k + i] * y[r * k + j];
    std::vector<float> w0 = {float(0.2 + 0.3 * (unit(rng) + 1.0)), 0.0f, 0.0f};
    w0[1] = float((1.0 - w0[0]) * (0.5 + 0.4 * unit(rng)));
    w0[2] = 1.0f - w0[0] - w0[1];
    std::vector<float> out(k);
    refit_vertex_weights(g, w0, 2, out);
    std::vector<double> got(out.begin(), out.end());
    int zeros = 0;
    double sum = 0.0;
    for (double w : got) {
      EXPECT_GE(w, 0.0);
      zeros += w == 0.0;
      sum += w;
    }
    EXPECT_GE(zeros, 1);
    EXPECT_NEAR(sum, 1.0, 1e-6);
    // Every pair of joints, weights on a 1/2000 grid.
    double best = 1e300;
    for (size_t drop = 0; drop < k; ++drop)
      for (int step = 0; step <= 2000; ++step) {
        std::vector<double> w(k, 0.0);
        const size_t a = (drop + 1) % k, b = (drop + 2) % k;
        w[a] = step / 2000.0;
        w[b] = 1.0 - w[a];
        best = std::min(best, objective(g, w0, w));
      }
    // Float weights: within rounding (~1e-7 of G's scale) of the double-precision grid's best.
    EXPECT_LE(objective(g, w0, got), best + 1e-6 * (g[0] + g[4] + g[8])) << "trial " << trial;
    // And never worse than the truncation.
    InfluenceList list;
    for (uint16_t i = 0; i < k; ++i) list.add(i, w0[i]);
    truncate_influences(list, 2);
    std::vector<double> cut(k, 0.0);
    for (uint32_t i = 0; i < list.count; ++i) cut[list.joints[i]] = list.weights[i];
    EXPECT_LE(objective(g, w0, got), objective(g, w0, cut) + 1e-12) << "trial " << trial;
  }
}

TEST(WeightRefit, VerticesWithinTheLimitAreUntouched) {
  const std::vector<glm::vec3> positions = {{0.5f, 0.2f, 0.1f}, {1.2f, -0.1f, 0.3f}};
  const Model model = duplicated_joint_model({{{0, 0.5f}, {1, 0.5f}}, {{3, 1.0f}}}, positions);
  SkinLayer layer(model);
  const SkinPoseSamples poses = sample_clip_poses(model, std::make_shared<SkinLayer>(model));
  EXPECT_EQ(limit_influences_refit(layer, model, poses, 2).vertices_changed, 0u);
  EXPECT_EQ(layer.weights_revision(), 0u);
}

}  // namespace
}  // namespace rig
