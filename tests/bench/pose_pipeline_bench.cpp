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
#include "character/character.h"
#include "bench_support.h"
#include "import/gltf_import.h"

namespace {

using rig::bench::load_corpus_model;

constexpr auto wrap = rig::bench::wrap_clip_time;

// The jobs run by hand, so the cursors can be reset between frames.
void frame_update(benchmark::State& state, const char* file, int clip_a, int clip_b,
                  bool cursors_kept) {
  rig::Model model;
  if (!load_corpus_model(state, file, model)) return;
  std::vector<rig::Transform> rest;
  for (const rig::Node& n : model.nodes) rest.push_back(n.rest);
  const rig::RawClipSource a(model, model.clips[size_t(clip_a)]);
  const rig::RawClipSource b(model, model.clips[size_t(clip_b < 0 ? clip_a : clip_b)]);
  std::vector<uint32_t> cursors_a(a.cursor_count()), cursors_b(b.cursor_count());
  rig::Pose pose_a, pose_b;
  rig::init_rest_pose(model, pose_a);
  rig::init_rest_pose(model, pose_b);
  std::vector<glm::mat4> world(model.nodes.size()), skinning(model.skins[0].joints.size());
  const rig::SkinningMethodInfo& lbs = rig::method_info(rig::SkinningMethod::Linear);
  std::vector<glm::vec4> palette(skinning.size() * lbs.palette_rows);
  rig::SamplingJob sample_a{&a, 0.0f, cursors_a, rest, model.rest_morph_weights, pose_a.local,
                            pose_a.morph_weights};
  rig::SamplingJob sample_b{&b, 0.0f, cursors_b, rest, model.rest_morph_weights, pose_b.local,
                            pose_b.morph_weights};
  const rig::BlendLayer layers[2] = {{pose_a.local, pose_a.morph_weights, 1.0f, {}},
                                     {pose_b.local, pose_b.morph_weights, 0.5f, {}}};
  const rig::BlendingJob blend{layers, pose_a.local, pose_a.morph_weights};
  const rig::LocalToWorldJob to_world{&model, nullptr, pose_a.local, world, -1};
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    if (!cursors_kept) {
      std::fill(cursors_a.begin(), cursors_a.end(), 0u);
      std::fill(cursors_b.begin(), cursors_b.end(), 0u);
    }
    sample_a.time = wrap(a.clip(), t);
    sample_a.run();
    if (clip_b >= 0) {
      sample_b.time = wrap(b.clip(), t);
      sample_b.run();
      blend.run();
    }
    to_world.run();
    rig::compute_skinning_matrices(model.skins[0], world, skinning);
    lbs.write_palette(skinning, palette);
    benchmark::DoNotOptimize(palette.data());
  }
  state.counters["joints"] = double(skinning.size());
}

constexpr const char* kFox = "Fox/Fox.glb";
constexpr const char* kKnight = "KayKit_Knight/Knight.glb";
constexpr int kFoxWalk = 1, kFoxRun = 2, kKnightWalkingA = 72;

void BM_FrameUpdate_FoxWalk_Cursor(benchmark::State& s) { frame_update(s, kFox, kFoxWalk, -1, true); }
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
