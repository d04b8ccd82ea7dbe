// The CPU-speed cases, the figures ozz-animation is compared against
// (tools/ozzbench runs both side by side):
//   skinning 100,000 vertices with 64 random rigid joints through the method table's kernels —
//   LBS 4 influences positions + normals, LBS 4 positions only, LBS 8 influences positions +
//   normals, DQS 4 influences positions + normals (items/s = vertices/s);
//   the per-frame update ending with the LBS skinning palette (sample → blend → local → world →
//   skinning matrices → palette, key cursors kept, 60 Hz) for Fox Walk, Fox Walk+Run 50/50 and
//   KayKit Knight Walking_A.
// The skinning data is generated exactly as tools/ozzbench/common.cpp generates it.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <vector>

#include "anim/blending_job.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling_job.h"
#include "bench_support.h"
#include "import/gltf_import.h"
#include "skin/skin_mesh.h"
#include "skin/skinning_method.h"

namespace {

constexpr uint32_t kVertices = 100000;
constexpr uint32_t kJoints = 64;

struct SpeedSkin {
  rig::SkinMesh mesh;
  std::vector<glm::vec3> positions, normals, out_p, out_n;
  std::vector<glm::mat4> matrices;

  explicit SpeedSkin(uint32_t k) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> j(0, kJoints - 1);
    mesh.influences = k;
    mesh.vertex_count = kVertices;
    mesh.joints.resize(size_t(kVertices) * k);
    mesh.weights.resize(size_t(kVertices) * k);
    positions.resize(kVertices);
    normals.resize(kVertices);
    std::vector<float> w(k);
    for (uint32_t v = 0; v < kVertices; ++v) {
      positions[v] = {u(rng), u(rng), u(rng)};
      normals[v] = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 3));
      float sum = 0.0f;
      for (uint32_t i = 0; i < k; ++i) sum += (w[i] = std::abs(u(rng)) + (i == 0 ? 0.1f : 0.0f));
      for (uint32_t i = 0; i < k; ++i) {
        mesh.joints[size_t(v) * k + i] = static_cast<uint16_t>(j(rng));
        mesh.weights[size_t(v) * k + i] = w[i] / sum;
      }
    }
    for (uint32_t b = 0; b < kJoints; ++b)
      matrices.push_back(glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
                         glm::mat4_cast(glm::angleAxis(
                             u(rng) * 3.0f, glm::normalize(glm::vec3(u(rng), u(rng), 1)))));
    out_p.resize(kVertices);
    out_n.resize(kVertices);
  }
};

SpeedSkin& speed_skin(uint32_t k) {
  static SpeedSkin four(4), eight(8);
  return k == 4 ? four : eight;
}

void skin_case(benchmark::State& state, rig::SkinningMethod method, uint32_t k, bool normals) {
  SpeedSkin& s = speed_skin(k);
  const rig::SkinningMethodInfo& m = rig::method_info(method);
  std::vector<glm::vec4> palette(s.matrices.size() * m.palette_rows);
  m.write_palette(s.matrices, palette);
  for (auto _ : state) {
    if (normals)
      m.skin(s.mesh, palette, s.positions, s.normals, s.out_p, s.out_n);
    else
      m.skin_positions(s.mesh, palette, s.positions, s.out_p);
    benchmark::DoNotOptimize(s.out_p.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kVertices);
}

void BM_Speed_Lbs4_PositionsNormals(benchmark::State& s) {
  skin_case(s, rig::SkinningMethod::Linear, 4, true);
}
void BM_Speed_Lbs4_Positions(benchmark::State& s) {
  skin_case(s, rig::SkinningMethod::Linear, 4, false);
}
void BM_Speed_Lbs8_PositionsNormals(benchmark::State& s) {
  skin_case(s, rig::SkinningMethod::Linear, 8, true);
}
void BM_Speed_Dqs4_PositionsNormals(benchmark::State& s) {
  skin_case(s, rig::SkinningMethod::DualQuaternion, 4, true);
}
BENCHMARK(BM_Speed_Lbs4_PositionsNormals)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Speed_Lbs4_Positions)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Speed_Lbs8_PositionsNormals)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Speed_Dqs4_PositionsNormals)->Unit(benchmark::kMicrosecond);

using rig::bench::load_corpus_model;

int clip_index(const rig::Model& model, const char* name) {
  for (size_t i = 0; i < model.clips.size(); ++i)
    if (model.clips[i].name == name) return int(i);
  return -1;
}

// The per-frame update, job by job, ending with the LBS palette (bench_support.h).
void update_case(benchmark::State& state, const char* file, const char* name_a,
                 const char* name_b) {
  rig::Model model;
  if (!load_corpus_model(state, file, model)) return;
  const int clip_a = clip_index(model, name_a);
  const int clip_b = name_b ? clip_index(model, name_b) : -1;
  if (name_b && clip_b < 0) {
    state.SkipWithError("clip missing");
    return;
  }
  rig::bench::run_frame_update(state, model, clip_a, clip_b, true);
}

void BM_Speed_Update_FoxWalk(benchmark::State& s) {
  update_case(s, "Fox/Fox.glb", "Walk", nullptr);
}
void BM_Speed_Update_FoxWalkRun50(benchmark::State& s) {
  update_case(s, "Fox/Fox.glb", "Walk", "Run");
}
void BM_Speed_Update_KnightWalkingA(benchmark::State& s) {
  update_case(s, "KayKit_Knight/Knight.glb", "Walking_A", nullptr);
}
BENCHMARK(BM_Speed_Update_FoxWalk);
BENCHMARK(BM_Speed_Update_FoxWalkRun50);
BENCHMARK(BM_Speed_Update_KnightWalkingA);

}  // namespace
