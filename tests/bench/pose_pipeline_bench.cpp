// The per-frame pose pipeline, job by job, with and without the sampling jobs' key cursors:
// sample (one or two clips) → blend → local → world → skinning matrices → the LBS palette, at
// 60 Hz playback, for the corpus Fox (Walk; Walk+Run 50/50) and KayKit Knight (Walking_A).
// "NoCursor" resets the cursors every frame, so every channel binary-searches its keys as the
// pipeline did before the cursors existed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
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

namespace {

// The Walk+Run frame's stages one at a time, to see where a frame's time goes: sampling one
// clip (the rest-pose copy included), the 50/50 blend, local → world, world × inverse bind.
enum class Stage { Sample, Blend, LocalToWorld, SkinningMatrices };

void update_stage(benchmark::State& state, Stage stage) {
  rig::Model model;
  if (!load_corpus_model(state, kFox, model)) return;
  std::vector<rig::Transform> rest;
  for (const rig::Node& n : model.nodes) rest.push_back(n.rest);
  const rig::RawClipSource walk(model, model.clips[kFoxWalk]), run(model, model.clips[kFoxRun]);
  std::vector<uint32_t> cursors(walk.cursor_count());
  rig::Pose a, b;
  rig::init_rest_pose(model, a);
  rig::init_rest_pose(model, b);
  rig::SamplingJob sample{&walk,   0.0f,           cursors, rest, model.rest_morph_weights,
                          a.local, a.morph_weights};
  sample.time = wrap(model.clips[kFoxWalk], 0.3f);
  sample.run();
  const rig::SamplingJob sample_b{&run,           wrap(model.clips[kFoxRun], 0.3f), cursors,
                                  rest,           model.rest_morph_weights,         b.local,
                                  b.morph_weights};
  sample_b.run();
  const std::vector<rig::Transform> walk_pose = a.local;
  const rig::BlendLayer layers[2] = {{a.local, a.morph_weights, 1.0f, {}},
                                     {b.local, b.morph_weights, 0.5f, {}}};
  std::vector<int> blend_nodes;  // what either clip animates, as the Character blends
  std::set_union(walk.animated_nodes().begin(), walk.animated_nodes().end(),
                 run.animated_nodes().begin(), run.animated_nodes().end(),
                 std::back_inserter(blend_nodes));
  const rig::BlendingJob blend{layers, a.local, a.morph_weights, blend_nodes};
  std::vector<glm::mat4> world(model.nodes.size()), skinning(model.skins[0].joints.size());
  const rig::Skeleton skeleton = rig::Skeleton::build(model);
  const rig::LocalToWorldJob to_world{&skeleton, a.local, world, -1};
  to_world.run();
  float t = 0.0f;
  for (auto _ : state) {
    switch (stage) {
      case Stage::Sample:
        t += 1.0f / 60.0f;
        sample.time = wrap(model.clips[kFoxWalk], t);
        sample.run();
        break;
      case Stage::Blend:  // the same two poses every time: restore the base first
        std::copy(walk_pose.begin(), walk_pose.end(), a.local.begin());
        blend.run();
        break;
      case Stage::LocalToWorld:
        to_world.run();
        break;
      case Stage::SkinningMatrices:
        rig::compute_skinning_matrices(model.skins[0], world, skinning);
        break;
    }
    benchmark::ClobberMemory();
  }
}

void BM_UpdateStage_FoxWalkRun_Sample(benchmark::State& s) { update_stage(s, Stage::Sample); }
void BM_UpdateStage_FoxWalkRun_Blend(benchmark::State& s) { update_stage(s, Stage::Blend); }
void BM_UpdateStage_FoxWalkRun_LocalToWorld(benchmark::State& s) {
  update_stage(s, Stage::LocalToWorld);
}
void BM_UpdateStage_FoxWalkRun_SkinningMatrices(benchmark::State& s) {
  update_stage(s, Stage::SkinningMatrices);
}
BENCHMARK(BM_UpdateStage_FoxWalkRun_Sample);
BENCHMARK(BM_UpdateStage_FoxWalkRun_Blend);
BENCHMARK(BM_UpdateStage_FoxWalkRun_LocalToWorld);
BENCHMARK(BM_UpdateStage_FoxWalkRun_SkinningMatrices);

}  // namespace
