// Benchmarks (Google Benchmark; figures reported, never asserted):
//  - the per-frame animation update (sample two clips + crossfade + local→world + palettes and
//    dual quaternions) for the corpus Fox (24 joints) and KayKit Knight (41 joints);
//  - CPU LBS and DQS over 100,000 vertices with 4 influences.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <string>

#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/cpu_skinning.h"

namespace {

std::filesystem::path corpus() {
  const char* env = std::getenv("RIGVIEW_CORPUS");
  if (!env || !*env) return {};
  std::filesystem::path p(env);
  return p.is_relative() ? std::filesystem::path(RIGVIEW_SOURCE_DIR) / p : p;
}

void animation_update(benchmark::State& state, const char* file, int clip_a, int clip_b) {
  const std::filesystem::path root = corpus();
  if (root.empty()) {
    state.SkipWithError("RIGVIEW_CORPUS is not set");
    return;
  }
  if (!std::filesystem::is_directory(root)) {
    state.SkipWithError(("RIGVIEW_CORPUS points at a missing folder: " + root.string()).c_str());
    return;
  }
  rig::Model model;
  std::string error;
  if (!rig::import_gltf((root / file).string(), model, error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  if (model.clips.size() <= size_t(std::max(clip_a, clip_b))) {
    state.SkipWithError(
        (std::string(file) + " has fewer clips than the benchmark samples").c_str());
    return;
  }
  rig::Character character(model);
  const rig::Clip& a = model.clips[clip_a];
  const rig::Clip& b = model.clips[clip_b];
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    rig::PoseSelection sel;
    sel.clip = clip_a;
    sel.time = a.start + std::fmod(t, std::max(a.end - a.start, 1e-3f));
    sel.blend_clip = clip_b;
    sel.blend_time = b.start + std::fmod(t, std::max(b.end - b.start, 1e-3f));
    sel.blend_weight = 0.5f;
    character.evaluate(sel);
    benchmark::DoNotOptimize(character.skinning_matrices(0).data());
  }
  state.counters["joints"] =
      static_cast<double>(model.skins.empty() ? 0 : model.skins[0].joints.size());
}

void BM_AnimationUpdate_Fox(benchmark::State& s) { animation_update(s, "Fox/Fox.glb", 1, 2); }
void BM_AnimationUpdate_Knight(benchmark::State& s) {
  animation_update(s, "KayKit_Knight/Knight.glb", 0, 1);
}
BENCHMARK(BM_AnimationUpdate_Fox);
BENCHMARK(BM_AnimationUpdate_Knight);

struct SkinFixture {
  rig::Primitive prim;
  std::vector<glm::mat4> palette;
  rig::SkinMesh mesh;
  std::array<std::vector<glm::vec4>, rig::kSkinningMethodCount> rows;
  std::vector<glm::vec3> out_p, out_n;

  SkinFixture() {
    const uint32_t n = 100000, joints = 64;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> j(0, joints - 1);
    prim.influences = 4;
    prim.positions.resize(n);
    prim.normals.resize(n);
    prim.joints.resize(n * 4);
    prim.weights.resize(n * 4);
    for (uint32_t v = 0; v < n; ++v) {
      prim.positions[v] = {u(rng), u(rng), u(rng)};
      prim.normals[v] = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 3));
      float w[4] = {std::abs(u(rng)) + 0.1f, std::abs(u(rng)), std::abs(u(rng)), std::abs(u(rng))};
      float sum = w[0] + w[1] + w[2] + w[3];
      for (int i = 0; i < 4; ++i) {
        prim.joints[v * 4 + i] = static_cast<uint16_t>(j(rng));
        prim.weights[v * 4 + i] = w[i] / sum;
      }
    }
    for (uint32_t k = 0; k < joints; ++k)
      palette.push_back(glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
                        glm::mat4_cast(glm::angleAxis(
                            u(rng) * 3.0f, glm::normalize(glm::vec3(u(rng), u(rng), 1)))));
    mesh = rig::prepare_skin_mesh(prim);
    for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
      rows[size_t(m.method)].resize(palette.size() * m.palette_rows);
      m.write_palette(palette, rows[size_t(m.method)]);
    }
    out_p.resize(n);
    out_n.resize(n);
  }
};

void skin_100k(benchmark::State& state, rig::SkinningMethod method) {
  static SkinFixture f;
  const rig::SkinningMethodInfo& m = rig::method_info(method);
  for (auto _ : state) {
    m.skin(f.mesh, f.rows[size_t(method)], f.prim.positions, f.prim.normals, f.out_p, f.out_n);
    benchmark::DoNotOptimize(f.out_p.data());
  }
  state.SetItemsProcessed(state.iterations() * 100000);
}
void BM_CpuLbs_100k(benchmark::State& state) { skin_100k(state, rig::SkinningMethod::Linear); }
void BM_CpuDqs_100k(benchmark::State& state) {
  skin_100k(state, rig::SkinningMethod::DualQuaternion);
}
BENCHMARK(BM_CpuLbs_100k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CpuDqs_100k)->Unit(benchmark::kMillisecond);

}  // namespace
