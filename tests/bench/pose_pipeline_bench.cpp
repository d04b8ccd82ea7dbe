// The per-frame pose pipeline, job by job, with and without the sampling jobs' key cursors:
// sample (one or two clips) → blend → local → world → skinning matrices → the LBS palette, at
// 60 Hz playback, for the corpus Fox (Walk; Walk+Run 50/50) and KayKit Knight (Walking_A).
// "NoCursor" resets the cursors every frame, so every channel binary-searches its keys as the
// pipeline did before the cursors existed.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "anim/blending_job.h"
#include "anim/local_to_world_job.h"
#include "anim/sampling_job.h"
#include "bench_support.h"
#include "character/character.h"
#include "import/gltf_import.h"

namespace {

using rig::bench::load_corpus_model;

constexpr auto wrap = rig::bench::wrap_clip_time;

// The jobs run by hand (bench_support.h), so the cursors can be reset between frames.
void frame_update(benchmark::State& state, const char* file, int clip_a, int clip_b,
                  bool cursors_kept) {
  rig::Model model;
  if (load_corpus_model(state, file, model))
    rig::bench::run_frame_update(state, model, clip_a, clip_b, cursors_kept);
}

constexpr const char* kFox = "Fox/Fox.glb";
constexpr const char* kKnight = "KayKit_Knight/Knight.glb";
constexpr int kFoxWalk = 1, kFoxRun = 2, kKnightWalkingA = 72;

void BM_FrameUpdate_FoxWalk_Cursor(benchmark::State& s) {
  frame_update(s, kFox, kFoxWalk, -1, true);
}
void BM_FrameUpdate_FoxWalk_NoCursor(benchmark::State& s) {
  frame_update(s, kFox, kFoxWalk, -1, false);
}
void BM_FrameUpdate_FoxWalkRun_Cursor(benchmark::State& s) {
  frame_update(s, kFox, kFoxWalk, kFoxRun, true);
}
void BM_FrameUpdate_FoxWalkRun_NoCursor(benchmark::State& s) {
  frame_update(s, kFox, kFoxWalk, kFoxRun, false);
}
void BM_FrameUpdate_KnightWalkingA_Cursor(benchmark::State& s) {
  frame_update(s, kKnight, kKnightWalkingA, -1, true);
}
void BM_FrameUpdate_KnightWalkingA_NoCursor(benchmark::State& s) {
  frame_update(s, kKnight, kKnightWalkingA, -1, false);
}
BENCHMARK(BM_FrameUpdate_FoxWalk_Cursor);
BENCHMARK(BM_FrameUpdate_FoxWalk_NoCursor);
BENCHMARK(BM_FrameUpdate_FoxWalkRun_Cursor);
BENCHMARK(BM_FrameUpdate_FoxWalkRun_NoCursor);
BENCHMARK(BM_FrameUpdate_KnightWalkingA_Cursor);
BENCHMARK(BM_FrameUpdate_KnightWalkingA_NoCursor);

// The whole Character (the viewer's path), Walk+Run 50/50 with the LBS palette.
void BM_CharacterEvaluate_FoxWalkRun(benchmark::State& state) {
  rig::Model model;
  if (!load_corpus_model(state, kFox, model)) return;
  rig::Character character(model);
  const rig::Clip& a = model.clips[kFoxWalk];
  const rig::Clip& b = model.clips[kFoxRun];
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    character.evaluate(rig::PoseSelection{kFoxWalk, wrap(a, t), kFoxRun, wrap(b, t), 0.5f});
    benchmark::DoNotOptimize(character.palette(0, rig::SkinningMethod::Linear).data());
  }
}
BENCHMARK(BM_CharacterEvaluate_FoxWalkRun);

}  // namespace
