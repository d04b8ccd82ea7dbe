// Optimized centres of rotation: the accelerated precomputation against a brute-force O(V·T)
// evaluation written from the formulas, the subdivision rules, the edge cases, and every corpus
// model.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <vector>

#include "import/gltf_import.h"
#include "model/triangles.h"
#include "skin/rotation_centers.h"
#include "skin/skin_mesh.h"
#include "test_support.h"

namespace rig {
namespace {

// ---------------------------------------------------------------------------------------------
// The brute-force reference: every leaf of Ω for every vertex, std::map weight vectors.

using WMap = std::map<uint32_t, double>;

WMap ref_weights(const Primitive& p, uint32_t v) {
  WMap w;
  for (uint32_t i = 0; i < p.influences; ++i) {
    const float x = p.weights[v * p.influences + i];
    if (x > 0.0f) w[p.joints[v * p.influences + i]] += double(x);
  }
  double sum = 0.0;
  for (auto& [j, x] : w) sum += x;
  if (sum > 0.0)
    for (auto& [j, x] : w) x /= sum;
  return w;
}

double value(const WMap& w, uint32_t j) {
  auto it = w.find(j);
  return it == w.end() ? 0.0 : it->second;
}

double ref_distance(const WMap& a, const WMap& b) {
  WMap keys = a;
  for (auto& [j, x] : b) keys[j] = 0.0;
  double s = 0.0;
  for (auto& [j, x] : keys) s += (value(a, j) - value(b, j)) * (value(a, j) - value(b, j));
  return std::sqrt(s);
}

WMap ref_mean(std::initializer_list<const WMap*> ws) {
  WMap out;
  for (const WMap* w : ws)
    for (auto& [j, x] : *w) out[j] = 0.0;
  for (auto& [j, x] : out) {
    double s = 0.0;
    for (const WMap* w : ws) s += value(*w, j);
    x = s / double(ws.size());
  }
  return out;
}

struct Leaf {
  glm::dvec3 c;
  double area;
  WMap w;
};

void ref_subdivide(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, const WMap& wa, const WMap& wb,
                   const WMap& wc, int depth, std::vector<Leaf>& out) {
  if (depth < 10 &&
      (ref_distance(wa, wb) > 0.1 || ref_distance(wb, wc) > 0.1 || ref_distance(wc, wa) > 0.1)) {
    const WMap mab = ref_mean({&wa, &wb}), mbc = ref_mean({&wb, &wc}), mca = ref_mean({&wc, &wa});
    const glm::dvec3 pab = (a + b) / 2.0, pbc = (b + c) / 2.0, pca = (c + a) / 2.0;
    ref_subdivide(a, pab, pca, wa, mab, mca, depth + 1, out);
    ref_subdivide(pab, b, pbc, mab, wb, mbc, depth + 1, out);
    ref_subdivide(pca, pbc, c, mca, mbc, wc, depth + 1, out);
    ref_subdivide(pab, pbc, pca, mab, mbc, mca, depth + 1, out);
    return;
  }
  out.push_back(
      {(a + b + c) / 3.0, 0.5 * glm::length(glm::cross(b - a, c - a)), ref_mean({&wa, &wb, &wc})});
}

double ref_similarity(const WMap& p, const WMap& v) {
  const double sigma = 0.1;
  double s = 0.0;
  for (auto j = p.begin(); j != p.end(); ++j)
    for (auto k = std::next(j); k != p.end(); ++k) {
      const double pj = j->second, pk = k->second;
      const double vj = value(v, j->first), vk = value(v, k->first);
      s += pj * pk * vj * vk *
           std::exp(-(pj * vk - pk * vj) * (pj * vk - pk * vj) / (sigma * sigma));
    }
  return s;
}

// Centres per primitive of `mesh` (empty for primitives without JOINTS).
std::vector<std::vector<glm::dvec3>> ref_centers(const Mesh& mesh) {
  std::vector<Leaf> leaves;
  for (const Primitive& p : mesh.primitives) {
    if (!has_triangles(p.mode)) continue;
    std::vector<uint32_t> t;
    append_triangles(p, t);
    for (size_t i = 0; i + 2 < t.size(); i += 3)
      ref_subdivide(glm::dvec3(p.positions[t[i]]), glm::dvec3(p.positions[t[i + 1]]),
                    glm::dvec3(p.positions[t[i + 2]]), ref_weights(p, t[i]),
                    ref_weights(p, t[i + 1]), ref_weights(p, t[i + 2]), 0, leaves);
  }
  double total_area = 0.0;
  for (const Leaf& l : leaves) total_area += l.area;
  std::vector<std::vector<glm::dvec3>> out(mesh.primitives.size());
  std::map<WMap, std::pair<glm::dvec3, double>> memo;
  for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
    const Primitive& p = mesh.primitives[pi];
    if (!p.skinned()) continue;
    for (uint32_t v = 0; v < p.vertex_count(); ++v) {
      const WMap w = ref_weights(p, v);
      auto known = memo.find(w);  // only saves time: the same sums for the same weights
      if (known == memo.end()) {
        glm::dvec3 num(0.0);
        double den = 0.0;
        for (const Leaf& l : leaves) {
          const double s = ref_similarity(w, l.w);
          num += s * l.area * l.c;
          den += s * l.area;
        }
        known = memo.emplace(w, std::pair(num, den)).first;
      }
      const auto [num, den] = known->second;
      out[pi].push_back(den > 1e-12 * total_area ? num / den : glm::dvec3(p.positions[v]));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Meshes.

Primitive make_primitive(PrimitiveMode mode, uint32_t influences) {
  Primitive p;
  p.mode = mode;
  p.influences = influences;
  return p;
}

void add_vertex(Primitive& p, glm::vec3 pos, std::vector<std::pair<uint16_t, float>> w) {
  p.positions.push_back(pos);
  p.normals.push_back({0, 0, 1});
  for (uint32_t i = 0; i < p.influences; ++i) {
    p.joints.push_back(i < w.size() ? w[i].first : 0);
    p.weights.push_back(i < w.size() ? w[i].second : 0.0f);
  }
}

// A tube along +X, radius 0.3, over four joints at x = 0, 1, 2, 3 with smooth tent weights
// perturbed per vertex so that many weight vectors are distinct.
Mesh tube_mesh(int rings = 13, int around = 8, uint32_t seed = 3) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(0.0f, 0.15f);
  Primitive p = make_primitive(PrimitiveMode::Triangles, 4);
  for (int r = 0; r < rings; ++r) {
    const float x = 3.0f * float(r) / float(rings - 1);
    for (int a = 0; a < around; ++a) {
      const float ang = 6.2831853f * float(a) / float(around);
      std::vector<std::pair<uint16_t, float>> w;
      float sum = 0.0f;
      for (uint16_t j = 0; j < 4; ++j) {
        const float t = std::max(0.0f, 1.0f - std::abs(x - float(j)) / 1.2f);
        if (t > 0.0f) {
          const float v = t + (t < 1.0f ? jitter(rng) * t : 0.0f);
          w.push_back({j, v});
          sum += v;
        }
      }
      for (auto& e : w) e.second /= sum;
      add_vertex(p, {x, 0.3f * std::cos(ang), 0.3f * std::sin(ang)}, w);
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int a = 0; a < around; ++a) {
      const uint32_t i0 = uint32_t(r * around + a), i1 = uint32_t(r * around + (a + 1) % around);
      const uint32_t i2 = i0 + uint32_t(around), i3 = i1 + uint32_t(around);
      p.indices.insert(p.indices.end(), {i0, i1, i2, i1, i3, i2});
    }
  Mesh m;
  m.primitives.push_back(std::move(p));
  return m;
}

// Several primitives of every kind, 8 influence slots with repeated joints and zero weights.
Mesh mixed_mesh(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::uniform_int_distribution<int> joint(0, 5);
  auto random_weights = [&](float x) {
    std::vector<std::pair<uint16_t, float>> w;
    const int n = 1 + int(u(rng) * 4.0f);
    for (int i = 0; i < n; ++i) {
      const float r = u(rng);
      // Some zero slots, some repeated joints, a spatial trend so Ω is not pure noise.
      w.push_back({uint16_t(r < 0.2f ? 0 : joint(rng)), r < 0.1f ? 0.0f : u(rng) + x});
    }
    return w;
  };
  Mesh m;
  Primitive grid = make_primitive(PrimitiveMode::Triangles, 8);
  const int n = 5;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      add_vertex(grid, {float(x) * 0.5f, float(y) * 0.5f, 0.1f * std::sin(float(x + 2 * y))},
                 random_weights(float(x) * 0.2f));
  for (int y = 0; y + 1 < n; ++y)
    for (int x = 0; x + 1 < n; ++x) {
      const uint32_t i = uint32_t(y * n + x);
      grid.indices.insert(grid.indices.end(),
                          {i, i + 1, i + uint32_t(n), i + 1, i + uint32_t(n) + 1, i + uint32_t(n)});
    }
  m.primitives.push_back(grid);
  Primitive strip = make_primitive(PrimitiveMode::TriangleStrip, 4);
  for (int i = 0; i < 8; ++i)
    add_vertex(strip, {float(i / 2) * 0.6f, 2.5f + float(i % 2) * 0.5f, 0.2f},
               random_weights(0.1f * float(i)));
  m.primitives.push_back(strip);
  Primitive fan = make_primitive(PrimitiveMode::TriangleFan, 4);
  for (int i = 0; i < 6; ++i) {
    const float a = float(i) * 0.9f;
    add_vertex(fan, i == 0 ? glm::vec3(1, 1, 1) : glm::vec3(1 + std::cos(a), 1 + std::sin(a), 1.2f),
               random_weights(0.0f));
  }
  fan.indices = {0, 1, 2, 3, 4, 5};
  m.primitives.push_back(fan);
  Primitive lines = make_primitive(PrimitiveMode::Lines, 4);
  for (int i = 0; i < 6; ++i)
    add_vertex(lines, {float(i) * 0.3f, -0.5f, 0.0f}, random_weights(0.15f * float(i)));
  m.primitives.push_back(lines);
  Primitive rigid = make_primitive(PrimitiveMode::Triangles, 0);
  rigid.positions = {{0, 0, 2}, {1, 0, 2}, {0, 1, 2}};
  rigid.normals.assign(3, glm::vec3(0, 0, 1));
  m.primitives.push_back(rigid);
  return m;
}

Model model_of(std::vector<Mesh> meshes) {
  Model model;
  model.meshes = std::move(meshes);
  return model;
}

CorOptions no_cache(unsigned threads = 0) {
  CorOptions o;
  o.use_cache = false;
  o.threads = threads;
  return o;
}

double diagonal(const Mesh& mesh) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const Primitive& p : mesh.primitives)
    for (const glm::vec3& v : p.positions) {
      lo = glm::min(lo, v);
      hi = glm::max(hi, v);
    }
  return glm::length(hi - lo);
}

// Mesh `m` with the influences centres are computed from: `meshes`' (the skin layer's, at most
// kMaxInfluences per vertex, as the kernels skin with), not the file's.
Mesh as_skinned(const Model& model, const SkinMeshes& meshes, size_t m) {
  Mesh mesh = model.meshes[m];
  for (size_t p = 0; p < mesh.primitives.size(); ++p) {
    const SkinMesh& sm = meshes.get(int(m), int(p));
    mesh.primitives[p].influences = sm.influences;
    mesh.primitives[p].joints = sm.joints;
    mesh.primitives[p].weights = sm.weights;
  }
  return mesh;
}

void expect_matches_reference(const Model& model, const SkinMeshes& meshes) {
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    const auto ref = ref_centers(as_skinned(model, meshes, m));
    const double tol = 1e-6 * diagonal(model.meshes[m]);
    for (size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      const SkinMesh& sm = meshes.get(int(m), int(p));
      ASSERT_EQ(sm.rotation_centers.size(), ref[p].size()) << "mesh " << m << " primitive " << p;
      for (size_t v = 0; v < ref[p].size(); ++v)
        EXPECT_LE(glm::length(glm::dvec3(sm.rotation_centers[v]) - ref[p][v]), tol)
            << "mesh " << m << " primitive " << p << " vertex " << v;
    }
  }
}

// ---------------------------------------------------------------------------------------------

TEST(CorCenters, TubeMatchesBruteForce) {
  const Model model = model_of({tube_mesh()});
  SkinMeshes meshes = prepare_skin_meshes(model);
  CorComputeStats stats;
  ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache(), nullptr, nullptr, &stats));
  EXPECT_GT(stats.distinct_weights, 50u);
  EXPECT_GT(stats.sub_triangles, 2 * 12u * 8u);  // transitions were subdivided
  expect_matches_reference(model, meshes);
  // The centres lie inside the tube, near its axis.
  for (const glm::vec3& c : meshes.primitives[0].rotation_centers) {
    EXPECT_LT(std::hypot(c.y, c.z), 0.3f);
  }
}

TEST(CorCenters, MixedPrimitivesMatchBruteForce) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Model model = model_of({mixed_mesh(seed), tube_mesh(6, 5, seed)});
    SkinMeshes meshes = prepare_skin_meshes(model);
    ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache()));
    expect_matches_reference(model, meshes);
    // Lines share the mesh's Ω; the primitive without JOINTS gets no centres.
    EXPECT_EQ(meshes.get(0, 3).rotation_centers.size(), 6u);
    EXPECT_TRUE(meshes.get(0, 4).rotation_centers.empty());
  }
}

TEST(CorCenters, ResultDoesNotDependOnThreadCount) {
  const Model model = model_of({mixed_mesh(7), tube_mesh(25, 12, 9)});
  SkinMeshes one = prepare_skin_meshes(model), three = one;
  ASSERT_TRUE(compute_rotation_centers(model, one, no_cache(1)));
  ASSERT_TRUE(compute_rotation_centers(model, three, no_cache(3)));
  for (size_t p = 0; p < one.primitives.size(); ++p)
    EXPECT_EQ(one.primitives[p].rotation_centers, three.primitives[p].rotation_centers);
}

TEST(CorCenters, SingleInfluenceVerticesAndTrianglelessMeshesKeepTheirPosition) {
  // A tube whose vertices each have one joint (hard seam between two parts).
  Mesh hard = tube_mesh(6, 6);
  Primitive& p = hard.primitives[0];
  for (uint32_t v = 0; v < p.vertex_count(); ++v) {
    for (uint32_t i = 0; i < 4; ++i) p.weights[v * 4 + i] = 0.0f;
    p.joints[v * 4] = p.positions[v].x < 1.5f ? 0 : 1;
    p.weights[v * 4] = 1.0f;
  }
  // Points only: no triangles at all, even with blended weights.
  Mesh points;
  Primitive pts = make_primitive(PrimitiveMode::Points, 4);
  add_vertex(pts, {1, 2, 3}, {{0, 0.5f}, {1, 0.5f}});
  add_vertex(pts, {4, 5, 6}, {{0, 0.3f}, {2, 0.7f}});
  points.primitives.push_back(pts);
  const Model model = model_of({hard, points});
  SkinMeshes meshes = prepare_skin_meshes(model);
  ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache()));
  EXPECT_EQ(meshes.get(0, 0).rotation_centers, hard.primitives[0].positions);
  EXPECT_EQ(meshes.get(1, 0).rotation_centers, pts.positions);
}

TEST(CorCenters, VertexWeightsSumRepeatedJointsAndRenormalize) {
  Primitive p = make_primitive(PrimitiveMode::Points, 8);
  add_vertex(p, {0, 0, 0}, {{3, 0.2f}, {1, 0.0f}, {3, 0.2f}, {5, 0.4f}, {0, 0.0f}});
  const CorWeights w = cor_vertex_weights(p, 0);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].joint, 3u);
  EXPECT_EQ(w[1].joint, 5u);
  EXPECT_NEAR(w[0].weight, 0.5, 1e-7);
  EXPECT_NEAR(w[1].weight, 0.5, 1e-7);
  EXPECT_TRUE(cor_vertex_weights(make_primitive(PrimitiveMode::Points, 0), 0).empty());
}

TEST(CorCenters, SimilarityFollowsTheFormula) {
  const CorWeights p{{0, 0.6}, {1, 0.4}}, v{{0, 0.5}, {1, 0.3}, {2, 0.2}};
  const double d = 0.6 * 0.3 - 0.4 * 0.5;
  EXPECT_NEAR(cor_similarity(p, v, 0.1), 0.6 * 0.4 * 0.5 * 0.3 * std::exp(-d * d / 0.01), 1e-15);
  // One shared joint: no pair, exactly 0.
  EXPECT_EQ(cor_similarity(CorWeights{{0, 0.5}, {1, 0.5}}, CorWeights{{1, 0.5}, {2, 0.5}}, 0.1),
            0.0);
}

TEST(CorCenters, ProgressReachesOneAndCancelLeavesMeshesUnchanged) {
  const Model model = model_of({tube_mesh(40, 16)});
  SkinMeshes meshes = prepare_skin_meshes(model);
  std::vector<float> seen;
  auto record = [](void* user, float f) {
    static_cast<std::vector<float>*>(user)->push_back(f);
    return true;
  };
  ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache(), record, &seen));
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0f);

  SkinMeshes fresh = prepare_skin_meshes(model);
  int calls = 0;
  auto cancel = [](void* user, float) {
    ++*static_cast<int*>(user);
    return false;
  };
  EXPECT_FALSE(compute_rotation_centers(model, fresh, no_cache(), cancel, &calls));
  EXPECT_GE(calls, 1);
  EXPECT_TRUE(fresh.primitives[0].rotation_centers.empty());
}

// ---------------------------------------------------------------------------------------------
// Subdivision.

CorVertex corner(glm::dvec3 p, CorWeights w) { return {p, std::move(w)}; }

TEST(CorSubdivision, EqualWeightsStayWhole) {
  std::vector<CorSubTriangle> out;
  const CorWeights w{{0, 0.3}, {1, 0.7}};
  subdivide_cor_triangle(corner({0, 0, 0}, w), corner({1, 0, 0}, w), corner({0, 1, 0}, w), {}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].depth, 0);
  EXPECT_DOUBLE_EQ(out[0].area, 0.5);
  EXPECT_NEAR(glm::distance(out[0].centroid, glm::dvec3(1.0 / 3.0, 1.0 / 3.0, 0.0)), 0.0, 1e-16);
  ASSERT_EQ(out[0].weights.size(), 2u);
  EXPECT_NEAR(out[0].weights[0].weight, 0.3, 1e-15);
  EXPECT_NEAR(out[0].weights[1].weight, 0.7, 1e-15);
}

TEST(CorSubdivision, AnEdgeAtExactlyEpsilonIsNotSplit) {
  // |a − b| is exactly 0.1 in float64 (checked below): not split. One ulp further: split.
  const CorWeights a{{0, 0.5}, {1, 0.25}, {2, 0.25}};
  const CorWeights b{
      {0, 0x1.28f5c28f5c1f9p-1}, {1, 0x1.911ded91481cap-3}, {2, 0x1.cb0b083147650p-3}};
  ASSERT_EQ(cor_weight_distance(a, b), 0.1);
  std::vector<CorSubTriangle> out;
  subdivide_cor_triangle(corner({0, 0, 0}, a), corner({1, 0, 0}, b), corner({0, 1, 0}, a), {}, out);
  EXPECT_EQ(out.size(), 1u);

  CorWeights farther = b;
  farther[0].weight = std::nextafter(farther[0].weight, 1.0);
  ASSERT_GT(cor_weight_distance(a, farther), 0.1);
  out.clear();
  subdivide_cor_triangle(corner({0, 0, 0}, a), corner({1, 0, 0}, farther), corner({0, 1, 0}, a), {},
                         out);
  EXPECT_EQ(out.size(), 4u);
}

TEST(CorSubdivision, SplitsUntilEveryEdgeIsWithinEpsilon) {
  // Full transfer from joint 0 to joint 1: ‖Δw‖ = √2 halves per level, √2/16 ≤ 0.1 < √2/8.
  const CorWeights w0{{0, 1.0}}, w1{{1, 1.0}};
  std::vector<CorSubTriangle> out;
  subdivide_cor_triangle(corner({0, 0, 0}, w0), corner({2, 0, 0}, w1), corner({0, 2, 0}, w0), {},
                         out);
  ASSERT_EQ(out.size(), 256u);
  double area = 0.0;
  for (const CorSubTriangle& t : out) {
    EXPECT_EQ(t.depth, 4);
    area += t.area;
    double sum = 0.0;
    for (const CorWeight& e : t.weights) sum += e.weight;
    EXPECT_NEAR(sum, 1.0, 1e-15);
  }
  EXPECT_NEAR(area, 2.0, 1e-12);
  // A 0.15 difference needs one level.
  out.clear();
  const CorWeights a{{0, 0.5}, {1, 0.5}},
      b{{0, 0.5 + 0.15 / std::sqrt(2.0)}, {1, 0.5 - 0.15 / std::sqrt(2.0)}};
  subdivide_cor_triangle(corner({0, 0, 0}, a), corner({1, 0, 0}, b), corner({0, 1, 0}, a), {}, out);
  EXPECT_EQ(out.size(), 4u);
}

TEST(CorSubdivision, DepthStopsAtTen) {
  // ε = 0.001 would need 11 levels for a √2 edge; the original triangle is depth 0 and splits
  // only while depth < 10, so every leaf is at depth 10: 4^10 leaves.
  Mesh mesh;
  Primitive p = make_primitive(PrimitiveMode::Triangles, 4);
  add_vertex(p, {0, 0, 0}, {{0, 1.0f}});
  add_vertex(p, {1, 0, 0}, {{1, 1.0f}});
  add_vertex(p, {0, 1, 0}, {{0, 1.0f}});
  mesh.primitives.push_back(p);
  CorOptions o;
  o.epsilon = 0.001;
  const CorSurfaceStats stats = cor_surface_stats(mesh, o);
  EXPECT_EQ(stats.triangles, 1u);
  EXPECT_EQ(stats.sub_triangles, 1u << 20);
  EXPECT_EQ(stats.max_depth, 10);
  EXPECT_NEAR(stats.area, 0.5, 1e-9);
  o.max_depth = 3;
  EXPECT_EQ(cor_surface_stats(mesh, o).sub_triangles, 64u);
  EXPECT_EQ(cor_surface_stats(mesh, CorOptions{}).max_depth, 4);
}

TEST(CorSubdivision, MidpointsAverageWeightsAndPositions) {
  const CorWeights a{{0, 1.0}}, b{{0, 0.5}, {1, 0.5}}, c{{1, 1.0}};
  CorOptions o;
  o.max_depth = 1;
  std::vector<CorSubTriangle> out;
  subdivide_cor_triangle(corner({0, 0, 0}, a), corner({4, 0, 0}, b), corner({0, 4, 0}, c), o, out);
  ASSERT_EQ(out.size(), 4u);
  // The corner part at a: a, (a+b)/2, (c+a)/2.
  EXPECT_EQ(out[0].centroid,
            (glm::dvec3(0, 0, 0) + glm::dvec3(2, 0, 0) + glm::dvec3(0, 2, 0)) / 3.0);
  EXPECT_EQ(out[0].area, 2.0);
  ASSERT_EQ(out[0].weights.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].weights[0].weight, (1.0 + 0.75 + 0.5) / 3.0);
  EXPECT_DOUBLE_EQ(out[0].weights[1].weight, (0.0 + 0.25 + 0.5) / 3.0);
}

// ---------------------------------------------------------------------------------------------
// Corpus: every model precomputes; timings reported.

TEST(CorCorpus, EveryModelPrecomputes) {
  RIG_REQUIRE_CORPUS(root);
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && (e.path().extension() == ".gltf" || e.path().extension() == ".glb"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  int computed = 0;
  for (const fs::path& file : files) {
    Model model;
    std::string error;
    if (!import_gltf(file.string(), model, error)) continue;  // the importer's tests cover these
    SkinMeshes meshes = prepare_skin_meshes(model);
    CorComputeStats stats;
    ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache(), nullptr, nullptr, &stats))
        << file;
    size_t centres = 0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
      const Mesh& mesh = model.meshes[m];
      glm::vec3 lo(1e30f), hi(-1e30f);
      for (const Primitive& p : mesh.primitives)
        for (const glm::vec3& v : p.positions) {
          lo = glm::min(lo, v);
          hi = glm::max(hi, v);
        }
      const glm::vec3 slack(1e-4f * glm::length(hi - lo) + 1e-6f);
      for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        const SkinMesh& sm = meshes.get(int(m), int(p));
        ASSERT_EQ(sm.rotation_centers.size(), sm.skinned() ? sm.vertex_count : 0u) << file;
        for (const glm::vec3& c : sm.rotation_centers) {
          ASSERT_TRUE(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z)) << file;
          ASSERT_TRUE(glm::all(glm::greaterThanEqual(c, lo - slack)) &&
                      glm::all(glm::lessThanEqual(c, hi + slack)))
              << file << " centre outside the mesh bounds";
        }
        centres += sm.rotation_centers.size();
      }
    }
    if (centres == 0) continue;
    ++computed;
    std::cout << "[ CoR      ] " << fs::relative(file, root).string() << ": " << centres
              << " centres, " << stats.distinct_weights << " distinct weight vectors, "
              << stats.sub_triangles << " sub-triangles, " << stats.seconds * 1000.0 << " ms\n";
    EXPECT_LT(stats.seconds, 2.0) << file;
  }
  EXPECT_GE(computed, 10);
}

TEST(CorCorpus, ModelsMatchBruteForce) {
  RIG_REQUIRE_CORPUS(root);
  for (const char* file :
       {"RiggedSimple/RiggedSimple.glb", "SimpleSkin/SimpleSkin.gltf",
        "assimp_skin_edge_cases/quad_skin.glb", "assimp_skin_edge_cases/mixed_skin_joints.gltf",
        "greenman/greenman.glb", "AssetGenerator_Animation_Skin/Animation_Skin_07.gltf",
        "RiggedFigure/RiggedFigure.glb", "girl/girl.glb", "Fox/Fox.glb", "KayKit_Knight/Knight.glb",
        "CesiumMan/CesiumMan.glb", "QuaterniusRobot/robot.glb",
        "RobotExpressive/RobotExpressive.glb"}) {
    SCOPED_TRACE(file);
    Model model;
    std::string error;
    ASSERT_TRUE(import_gltf((root / file).string(), model, error)) << error;
    SkinMeshes meshes = prepare_skin_meshes(model);
    ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache()));
    const auto t0 = std::chrono::steady_clock::now();
    expect_matches_reference(model, meshes);
    size_t n = 0;
    for (const SkinMesh& sm : meshes.primitives) n += sm.rotation_centers.size();
    std::cout << "[ CoR      ] " << file << ": " << n << " centres equal the brute force ("
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
              << " s)\n";
  }
}

TEST(CorCenters, MannequinMatchesBruteForce) {
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", model, error)) << error;
  SkinMeshes meshes = prepare_skin_meshes(model);
  ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache()));
  expect_matches_reference(model, meshes);
}

TEST(CorCenters, MannequinPrecomputesQuickly) {
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", model, error)) << error;
  SkinMeshes meshes = prepare_skin_meshes(model);
  CorComputeStats stats;
  ASSERT_TRUE(compute_rotation_centers(model, meshes, no_cache(), nullptr, nullptr, &stats));
  size_t centres = 0;
  for (const SkinMesh& sm : meshes.primitives) centres += sm.rotation_centers.size();
  EXPECT_EQ(centres, 17332u);
  std::cout << "[ CoR      ] mannequin: " << stats.distinct_weights << " distinct weight vectors, "
            << stats.sub_triangles << " sub-triangles, " << stats.seconds * 1000.0 << " ms\n";
  EXPECT_LT(stats.seconds, 0.5);
}

}  // namespace
}  // namespace rig
