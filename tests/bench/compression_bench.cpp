// Compressed vs raw clip playback: the sampling job and local → world per frame at 60 Hz for the
// corpus Fox clips (Survey, Walk, Run), the raw file keys against the CompressedClip at the
// default 0.01 cm. Goal: compressed ≤ 1.5× the raw time. Also the offline compression time.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling_job.h"
#include "compress/clip_compression.h"
#include "import/gltf_import.h"

namespace {

const rig::Model* fox(benchmark::State& state) {
  static std::unique_ptr<rig::Model> model;
  static std::string error;
  if (!model) {
    const char* env = std::getenv("RIGVIEW_CORPUS");
    if (!env || !*env) {
      error = "RIGVIEW_CORPUS is not set";
    } else {
      std::filesystem::path root(env);
      if (root.is_relative()) root = std::filesystem::path(RIGVIEW_SOURCE_DIR) / root;
      auto m = std::make_unique<rig::Model>();
      if (rig::import_gltf((root / "Fox/Fox.glb").string(), *m, error)) model = std::move(m);
    }
  }
  if (!model) state.SkipWithError(error.c_str());
  return model.get();
}

const rig::CompressedClip& compressed_fox(const rig::Model& model, int clip) {
  static std::vector<std::unique_ptr<rig::CompressedClip>> clips(3);
  if (!clips[size_t(clip)]) {
    rig::CompressionSettings s;
    s.measure_vertices = false;
    clips[size_t(clip)] =
        std::make_unique<rig::CompressedClip>(rig::compress_clip(model, clip, s).clip);
  }
  return *clips[size_t(clip)];
}

void playback(benchmark::State& state, const rig::Model& model, const rig::ClipSource& source) {
  std::vector<rig::Transform> rest;
  for (const rig::Node& n : model.nodes) rest.push_back(n.rest);
  std::vector<uint32_t> cursors(source.cursor_count(), 0);
  rig::Pose pose;
  rig::init_rest_pose(model, pose);
  std::vector<glm::mat4> world(model.nodes.size());
  rig::SamplingJob sample{
      &source, 0.0f, cursors, rest, model.rest_morph_weights, pose.local, pose.morph_weights};
  rig::LocalToWorldJob to_world;
  to_world.model = &model;
  to_world.local = pose.local;
  to_world.world = world;
  const float span = std::max(source.end() - source.start(), 1e-3f);
  float t = 0.0f;
  for (auto _ : state) {
    sample.time = source.start() + std::fmod(t, span);
    t += 1.0f / 60.0f;
    sample.run();
    to_world.run();
    benchmark::DoNotOptimize(world.data());
    benchmark::ClobberMemory();
  }
}

void BM_FoxPlaybackRaw(benchmark::State& state) {
  const rig::Model* model = fox(state);
  if (!model) return;
  const int clip = int(state.range(0));
  const rig::RawClipSource raw(*model, model->clips[size_t(clip)]);
  state.SetLabel(model->clips[size_t(clip)].name);
  playback(state, *model, raw);
}

void BM_FoxPlaybackCompressed(benchmark::State& state) {
  const rig::Model* model = fox(state);
  if (!model) return;
  const int clip = int(state.range(0));
  const rig::CompressedClip& c = compressed_fox(*model, clip);
  state.SetLabel(model->clips[size_t(clip)].name + ", " + std::to_string(c.byte_size()) + " B");
  playback(state, *model, c);
}

void BM_FoxCompress(benchmark::State& state) {
  const rig::Model* model = fox(state);
  if (!model) return;
  const int clip = int(state.range(0));
  rig::CompressionSettings s;
  s.measure_vertices = false;
  for (auto _ : state) benchmark::DoNotOptimize(rig::compress_clip(*model, clip, s).ok);
  state.SetLabel(model->clips[size_t(clip)].name);
}

BENCHMARK(BM_FoxPlaybackRaw)->DenseRange(0, 2);
BENCHMARK(BM_FoxPlaybackCompressed)->DenseRange(0, 2);
BENCHMARK(BM_FoxCompress)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
