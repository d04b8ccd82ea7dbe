// Compressed vs raw clip playback: the sampling job and local → world per frame at 60 Hz for the
// corpus Fox clips (Survey, Walk, Run), the raw file keys against the CompressedClip at the
// default 0.01 cm. Goal: compressed ≤ 1.5× the raw time (read BM_FoxPlaybackRatio's counters,
// timed in the same windows). Also the offline compression time.
#include <benchmark/benchmark.h>

#include <chrono>
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

// One clip's playback state: the sampling job and local → world over its own pose, at 60 Hz.
struct Player {
  Player(const rig::Model& model, const rig::ClipSource& source)
      : source(&source),
        cursors(source.cursor_count(), 0),
        world(model.nodes.size()),
        skeleton(rig::Skeleton::build(model)) {
    for (const rig::Node& n : model.nodes) rest.push_back(n.rest);
    rig::init_rest_pose(model, pose);
    sample = {&source,           0.0f, cursors, rest, model.rest_morph_weights, pose.local,
              pose.morph_weights};
    to_world.skeleton = &skeleton;
    to_world.local = pose.local;
    to_world.world = world;
  }
  Player(const Player&) = delete;  // the jobs' spans point into this object
  Player& operator=(const Player&) = delete;
  void frame() {
    const float span = std::max(source->end() - source->start(), 1e-3f);
    sample.time = source->start() + std::fmod(t, span);
    t += 1.0f / 60.0f;
    sample.run();
    to_world.run();
    benchmark::DoNotOptimize(world.data());
    benchmark::ClobberMemory();
  }
  const rig::ClipSource* source;
  std::vector<uint32_t> cursors;
  std::vector<rig::Transform> rest;
  rig::Pose pose;
  std::vector<glm::mat4> world;
  rig::Skeleton skeleton;
  rig::SamplingJob sample;
  rig::LocalToWorldJob to_world;
  float t = 0.0f;
};

void playback(benchmark::State& state, const rig::Model& model, const rig::ClipSource& source) {
  Player player(model, source);
  for (auto _ : state) player.frame();
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

// The file's keys through the readable spec sampler (sample_clip_channels, a binary search or
// cursor per channel and the spec's slerp per rotation): how raw clips were sampled before the
// prepared layout of RawClipSource.
class SpecClipSource final : public rig::ClipSource {
 public:
  SpecClipSource(const rig::Model& model, const rig::Clip& clip) : model_(&model), clip_(&clip) {}
  float start() const override { return clip_->start; }
  float end() const override { return clip_->end; }
  size_t cursor_count() const override { return clip_->channels.size(); }
  void sample(float time, std::span<uint32_t> cursors, std::span<rig::Transform> local,
              std::span<float> morph_weights) const override {
    rig::sample_clip_channels(*model_, *clip_, time, cursors, local, morph_weights);
  }

 private:
  const rig::Model* model_;
  const rig::Clip* clip_;
};

// Raw and compressed in alternating runs of 256 frames, timed in the same windows: on a shared,
// noisy machine the ratio of the two is what to read (counters raw_ns, compressed_ns per frame
// and ratio = compressed / raw; spec_ns and ratio_spec against SpecClipSource).
void BM_FoxPlaybackRatio(benchmark::State& state) {
  const rig::Model* model = fox(state);
  if (!model) return;
  const int clip = int(state.range(0));
  const rig::RawClipSource raw_source(*model, model->clips[size_t(clip)]);
  const rig::CompressedClip& c = compressed_fox(*model, clip);
  const SpecClipSource spec_source(*model, model->clips[size_t(clip)]);
  Player raw(*model, raw_source), compressed(*model, c), spec(*model, spec_source);
  using clock = std::chrono::steady_clock;
  clock::duration raw_time{}, compressed_time{}, spec_time{};
  uint64_t frames = 0;
  constexpr int kRun = 256;
  for (auto _ : state) {
    const auto t0 = clock::now();
    for (int i = 0; i < kRun; ++i) raw.frame();
    const auto t1 = clock::now();
    for (int i = 0; i < kRun; ++i) compressed.frame();
    const auto t2 = clock::now();
    for (int i = 0; i < kRun; ++i) spec.frame();
    const auto t3 = clock::now();
    raw_time += t1 - t0;
    compressed_time += t2 - t1;
    spec_time += t3 - t2;
    frames += kRun;
  }
  const double r = std::chrono::duration<double, std::nano>(raw_time).count() / double(frames);
  const double k =
      std::chrono::duration<double, std::nano>(compressed_time).count() / double(frames);
  state.counters["raw_ns"] = r;
  state.counters["compressed_ns"] = k;
  state.counters["ratio"] = k / r;
  const double sp = std::chrono::duration<double, std::nano>(spec_time).count() / double(frames);
  state.counters["spec_ns"] = sp;
  state.counters["ratio_spec"] = k / sp;
  state.SetLabel(model->clips[size_t(clip)].name);
}

BENCHMARK(BM_FoxPlaybackRaw)->DenseRange(0, 2);
BENCHMARK(BM_FoxPlaybackRatio)->DenseRange(0, 2);
BENCHMARK(BM_FoxPlaybackCompressed)->DenseRange(0, 2);
BENCHMARK(BM_FoxCompress)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
