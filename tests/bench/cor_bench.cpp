// Centre-of-rotation skinning: the precomputation of the centres (the bundled mannequin and
// every skinned corpus model, cache off, all cores) and the CPU kernel over 100,000 vertices.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "skin/cor_kernel.h"
#include "skin/rotation_centers.h"
#include "skin/skin_mesh.h"

namespace {

namespace fs = std::filesystem;

void precompute(benchmark::State& state, const fs::path& path) {
  rig::Model model;
  std::string error;
  if (!rig::import_gltf(path.string(), model, error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  rig::SkinMeshes meshes = rig::prepare_skin_meshes(model);
  rig::CorOptions options;
  options.use_cache = false;
  rig::CorComputeStats stats;
  for (auto _ : state) {
    rig::compute_rotation_centers(model, meshes, options, nullptr, nullptr, &stats);
    benchmark::DoNotOptimize(meshes.primitives.data());
  }
  size_t vertices = 0;
  for (const rig::SkinMesh& m : meshes.primitives) vertices += m.rotation_centers.size();
  state.counters["vertices"] = double(vertices);
  state.counters["distinct_weights"] = double(stats.distinct_weights);
  state.counters["sub_triangles"] = double(stats.sub_triangles);
  state.counters["pair_entries"] = double(stats.pair_entries);
  state.counters["terms"] = double(stats.visited);
}

void BM_CorPrecompute_Mannequin(benchmark::State& state) {
  precompute(state, fs::path(RIGVIEW_SOURCE_DIR) / "assets/mannequin.glb");
}
BENCHMARK(BM_CorPrecompute_Mannequin)->Unit(benchmark::kMillisecond)->UseRealTime();

// A stress case: a 16,000-vertex tube (200 rings × 80) over 10 joints whose weights change along
// the tube and, slightly, around it, so that every blended vertex has its own weight vector.
void BM_CorPrecompute_Tube16k(benchmark::State& state) {
  rig::Model model;
  rig::Primitive p;
  p.influences = 4;
  const int rings = 200, around = 80, joints = 10;
  for (int r = 0; r < rings; ++r) {
    const float x = float(joints - 1) * float(r) / float(rings - 1);
    for (int a = 0; a < around; ++a) {
      const float ang = 6.2831853f * float(a) / float(around);
      p.positions.push_back({x, 0.3f * std::cos(ang), 0.3f * std::sin(ang)});
      p.normals.push_back({0.0f, std::cos(ang), std::sin(ang)});
      float w[4] = {};
      uint16_t j[4] = {};
      int n = 0;
      float sum = 0.0f;
      for (int k = 0; k < joints && n < 4; ++k) {
        const float t = 1.0f - std::abs(x - float(k)) / (1.4f + 0.2f * std::sin(ang));
        if (t <= 0.0f) continue;
        j[n] = uint16_t(k);
        w[n] = t;
        sum += t;
        ++n;
      }
      for (int i = 0; i < 4; ++i) {
        p.joints.push_back(j[i]);
        p.weights.push_back(w[i] / sum);
      }
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int a = 0; a < around; ++a) {
      const uint32_t i0 = uint32_t(r * around + a), i1 = uint32_t(r * around + (a + 1) % around);
      p.indices.insert(p.indices.end(), {i0, i1, i0 + uint32_t(around), i1, i1 + uint32_t(around),
                                         i0 + uint32_t(around)});
    }
  model.meshes.push_back({});
  model.meshes[0].primitives.push_back(std::move(p));
  rig::SkinMeshes meshes = rig::prepare_skin_meshes(model);
  rig::CorOptions options;
  options.use_cache = false;
  rig::CorComputeStats stats;
  for (auto _ : state) {
    rig::compute_rotation_centers(model, meshes, options, nullptr, nullptr, &stats);
    benchmark::DoNotOptimize(meshes.primitives.data());
  }
  state.counters["distinct_weights"] = double(stats.distinct_weights);
  state.counters["sub_triangles"] = double(stats.sub_triangles);
  state.counters["pair_entries"] = double(stats.pair_entries);
  state.counters["terms"] = double(stats.visited);
}
BENCHMARK(BM_CorPrecompute_Tube16k)->Unit(benchmark::kMillisecond)->UseRealTime();

// One benchmark per skinned corpus model, registered at start-up when RIGVIEW_CORPUS is set.
const int kCorpusRegistered = [] {
  const char* env = std::getenv("RIGVIEW_CORPUS");
  if (!env || !*env) return 0;
  fs::path root(env);
  if (root.is_relative()) root = fs::path(RIGVIEW_SOURCE_DIR) / root;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root, ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  int count = 0;
  for (const fs::path& file : files) {
    rig::Model model;
    std::string error;
    if (!rig::import_gltf(file.string(), model, error)) continue;
    bool skinned = false;
    for (const rig::Mesh& m : model.meshes)
      for (const rig::Primitive& p : m.primitives) skinned = skinned || p.skinned();
    if (!skinned) continue;
    const std::string name = "BM_CorPrecompute_Corpus/" + fs::relative(file, root).string();
    benchmark::RegisterBenchmark(name.c_str(), [file](benchmark::State& s) { precompute(s, file); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    ++count;
  }
  return count;
}();

// The kernel over 100,000 random vertices with 4 influences (as BM_CpuDqs_100k), centres set.
void BM_CpuCor_100k(benchmark::State& state) {
  const uint32_t n = 100000, joints = 64;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> j(0, joints - 1);
  rig::Primitive prim;
  prim.influences = 4;
  prim.positions.resize(n);
  prim.normals.resize(n);
  prim.joints.resize(n * 4);
  prim.weights.resize(n * 4);
  for (uint32_t v = 0; v < n; ++v) {
    prim.positions[v] = {u(rng), u(rng), u(rng)};
    prim.normals[v] = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 3));
    float w[4] = {std::abs(u(rng)) + 0.1f, std::abs(u(rng)), std::abs(u(rng)), std::abs(u(rng))};
    const float sum = w[0] + w[1] + w[2] + w[3];
    for (int i = 0; i < 4; ++i) {
      prim.joints[v * 4 + i] = static_cast<uint16_t>(j(rng));
      prim.weights[v * 4 + i] = w[i] / sum;
    }
  }
  std::vector<glm::mat4> matrices;
  for (uint32_t k = 0; k < joints; ++k)
    matrices.push_back(glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
                       glm::mat4_cast(glm::angleAxis(
                           u(rng) * 3.0f, glm::normalize(glm::vec3(u(rng), u(rng), 1)))));
  rig::SkinMesh mesh = rig::prepare_skin_mesh(prim);
  mesh.rotation_centers.resize(n);
  for (uint32_t v = 0; v < n; ++v) mesh.rotation_centers[v] = prim.positions[v] * 0.9f;
  std::vector<glm::vec4> rows(matrices.size() * rig::kCorPaletteRows);
  rig::write_cor_palette(matrices, rows);
  std::vector<glm::vec3> out_p(n), out_n(n);
  for (auto _ : state) {
    rig::skin_cor_kernel(mesh, rows, prim.positions, prim.normals, out_p, out_n);
    benchmark::DoNotOptimize(out_p.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_CpuCor_100k)->Unit(benchmark::kMillisecond);

}  // namespace
