// Shared by the benchmarks: corpus models (RIGVIEW_CORPUS, relative to the repository root) and
// clip-time helpers. A missing corpus is reported through SkipWithError, which
// benchmarks_smoke skips visibly when RIGVIEW_CORPUS is unset and fails otherwise.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "anim/blending_job.h"
#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling_job.h"
#include "import/gltf_import.h"
#include "skin/skinning_method.h"

namespace rig::bench {

// Imports corpus file `file` into `model`; false after SkipWithError.
inline bool load_corpus_model(benchmark::State& state, const char* file, rig::Model& model) {
  const char* env = std::getenv("RIGVIEW_CORPUS");
  if (!env || !*env) {
    state.SkipWithError("RIGVIEW_CORPUS is not set");
    return false;
  }
  std::filesystem::path root(env);
  if (root.is_relative()) root = std::filesystem::path(RIGVIEW_SOURCE_DIR) / root;
  std::string error;
  if (!rig::import_gltf((root / file).string(), model, error)) {
    state.SkipWithError(error.c_str());
    return false;
  }
  return true;
}

// Time t of a looping playback of `clip` (seconds from its start).
inline float wrap_clip_time(const rig::Clip& clip, float t) {
  return clip.start + std::fmod(t, std::max(clip.end - clip.start, 1e-3f));
}

// The per-frame update job by job at 60 Hz playback: sample clip_a (and clip_b, blended 50/50
// when >= 0) → local → world → skinning matrices → the LBS palette of skin 0. With
// `cursors_kept` false the sampling cursors are reset every frame (a binary search per channel).
inline void run_frame_update(benchmark::State& state, const rig::Model& model, int clip_a,
                             int clip_b, bool cursors_kept) {
  if (clip_a < 0 || size_t(clip_a) >= model.clips.size() || model.skins.empty()) {
    state.SkipWithError("clip or skin missing");
    return;
  }
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
  rig::SamplingJob sample_a{
      &a, 0.0f, cursors_a, rest, model.rest_morph_weights, pose_a.local, pose_a.morph_weights};
  rig::SamplingJob sample_b{
      &b, 0.0f, cursors_b, rest, model.rest_morph_weights, pose_b.local, pose_b.morph_weights};
  const rig::BlendLayer layers[2] = {{pose_a.local, pose_a.morph_weights, 1.0f, {}},
                                     {pose_b.local, pose_b.morph_weights, 0.5f, {}}};
  // Only the nodes either clip animates blend (what the Character does), set up once per pair.
  std::vector<int> blend_nodes;
  std::set_union(a.animated_nodes().begin(), a.animated_nodes().end(), b.animated_nodes().begin(),
                 b.animated_nodes().end(), std::back_inserter(blend_nodes));
  const rig::BlendingJob blend{layers, pose_a.local, pose_a.morph_weights, blend_nodes};
  const rig::Skeleton skeleton = rig::Skeleton::build(model);  // its by-depth order
  const rig::LocalToWorldJob to_world{&skeleton, pose_a.local, world, -1};
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    if (!cursors_kept) {
      std::fill(cursors_a.begin(), cursors_a.end(), 0u);
      std::fill(cursors_b.begin(), cursors_b.end(), 0u);
    }
    sample_a.time = wrap_clip_time(a.clip(), t);
    sample_a.run();
    if (clip_b >= 0) {
      sample_b.time = wrap_clip_time(b.clip(), t);
      sample_b.run();
      blend.run();
    }
    to_world.run();
    rig::compute_skinning_matrices(model.skins[0], world, skinning);
    lbs.write_palette(skinning, palette);
    benchmark::DoNotOptimize(palette.data());
    benchmark::ClobberMemory();
  }
  state.counters["joints"] = double(skinning.size());
  state.counters["nodes"] = double(model.nodes.size());
}

}  // namespace rig::bench
