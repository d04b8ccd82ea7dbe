// The crowd update (engine/character/crowd.h): 1,000 corpus Fox instances, each blending two
// clips at its own phase and speed, evaluated and LBS palettes written per 60 Hz frame, on
// every core (the goal: <= 1 ms per frame) and on one thread (the cost per character).
#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "character/crowd.h"

namespace {

void crowd_update(benchmark::State& state, int threads) {
  rig::Model model;
  if (!rig::bench::load_corpus_model(state, "Fox/Fox.glb", model)) return;
  rig::CrowdConfig config;
  config.count = int(state.range(0));
  config.threads = threads;
  rig::Crowd crowd(model, nullptr, config);
  for (int k = 0; k < crowd.count(); ++k)
    if (crowd.instance(k).blend_clip < 0) {
      state.SkipWithError("an instance does not blend two clips");
      return;
    }
  double cpu_ms = 0.0;
  for (auto _ : state) {
    crowd.update(1.0f / 60.0f);
    cpu_ms += crowd.last_update_cpu_ms();
  }
  state.counters["threads"] = crowd.thread_count();
  // CPU time of an update summed over every thread that worked on it (the benchmark's own CPU
  // column is the calling thread's only).
  state.counters["update_cpu_ms_all_threads"] =
      state.iterations() ? cpu_ms / double(state.iterations()) : 0.0;
  // Seconds of wall time per character (printed with an SI prefix: 1.2u = 1.2 µs).
  state.counters["s_per_character"] =
      benchmark::Counter(double(crowd.count()) * double(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_CrowdUpdate_Fox_AllCores(benchmark::State& s) { crowd_update(s, 0); }
void BM_CrowdUpdate_Fox_OneThread(benchmark::State& s) { crowd_update(s, 1); }
BENCHMARK(BM_CrowdUpdate_Fox_AllCores)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CrowdUpdate_Fox_OneThread)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
