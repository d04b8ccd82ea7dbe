// Weight edits on the largest corpus characters (Knight: 7024 vertices, 76 clips; Robot: 7218
// vertices, 14 clips): Smooth, 10 iterations over all joints (goal ≤ 50 ms), and limit 4 → 2
// with refit over every clip, the pose sampling included (goal ≤ 2 s). Each iteration edits a
// fresh copy of the layer; the copy is not timed.
#include <benchmark/benchmark.h>

#include <memory>

#include "analysis/clip_pose_samples.h"
#include "bench_support.h"
#include "skin/weight_refit.h"
#include "skin/weight_smooth.h"

namespace {

void smooth(benchmark::State& state, const char* file) {
  rig::Model model;
  if (!rig::bench::load_corpus_model(state, file, model)) return;
  const rig::SkinLayer original(model);
  rig::SmoothOptions options;
  options.factor = 0.5f;
  options.iterations = 10;
  for (auto _ : state) {
    state.PauseTiming();
    rig::SkinLayer layer(original);
    state.ResumeTiming();
    benchmark::DoNotOptimize(rig::smooth_weights(layer, model, options).vertices_changed);
  }
}

void refit(benchmark::State& state, const char* file) {
  rig::Model model;
  if (!rig::bench::load_corpus_model(state, file, model)) return;
  const auto original = std::make_shared<const rig::SkinLayer>(model);
  size_t poses = 0;
  for (auto _ : state) {
    state.PauseTiming();
    rig::SkinLayer layer(*original);
    state.ResumeTiming();
    const rig::SkinPoseSamples samples = rig::sample_clip_poses(model, original);
    poses = samples.pose_count;
    benchmark::DoNotOptimize(
        rig::limit_influences_refit(layer, model, samples, 2).vertices_changed);
  }
  state.counters["poses"] = double(poses);
}

void BM_WeightSmooth10_Knight(benchmark::State& s) { smooth(s, "KayKit_Knight/Knight.glb"); }
void BM_WeightSmooth10_Robot(benchmark::State& s) { smooth(s, "QuaterniusRobot/robot.glb"); }
void BM_WeightLimitRefit2_Knight(benchmark::State& s) { refit(s, "KayKit_Knight/Knight.glb"); }
void BM_WeightLimitRefit2_Robot(benchmark::State& s) { refit(s, "QuaterniusRobot/robot.glb"); }
BENCHMARK(BM_WeightSmooth10_Knight)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightSmooth10_Robot)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightLimitRefit2_Knight)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightLimitRefit2_Robot)->Unit(benchmark::kMillisecond);

}  // namespace
