// Skinning artefact analysis: the per-frame cost of the live heat map (skin every draw item,
// deflation per vertex, joint scores, RMS, volume) for one method, and a whole clip scan.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "analysis/skinning_artefacts.h"
#include "import/gltf_import.h"

namespace {

bool load(benchmark::State& state, const std::filesystem::path& path, rig::Model& model) {
  std::string error;
  if (!rig::import_gltf(path.string(), model, error)) {
    state.SkipWithError(error.c_str());
    return false;
  }
  return true;
}

std::filesystem::path corpus_file(benchmark::State& state, const char* file) {
  const char* env = std::getenv("RIGVIEW_CORPUS");
  if (!env || !*env) {
    state.SkipWithError("RIGVIEW_CORPUS is not set");
    return {};
  }
  std::filesystem::path root(env);
  if (root.is_relative()) root = std::filesystem::path(RIGVIEW_SOURCE_DIR) / root;
  return root / file;
}

int clip_named(const rig::Model& model, const char* name) {
  for (size_t c = 0; c < model.clips.size(); ++c)
    if (model.clips[c].name == name) return int(c);
  return 0;
}

void analyze(benchmark::State& state, const std::filesystem::path& path, const char* clip,
             float time, rig::SkinningMethod method) {
  rig::Model model;
  if (path.empty() || !load(state, path, model)) return;
  rig::Character character(model);
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, character.skin_layer());
  rig::ArtefactFrame frame = rig::ArtefactFrame::make(model);
  character.evaluate(rig::PoseSelection{clip_named(model, clip), time});
  for (auto _ : state) {
    rig::analyze_frame(setup, character, method, frame);
    benchmark::DoNotOptimize(frame.rms);
  }
  size_t vertices = 0;
  for (const auto& p : frame.positions) vertices += p.size();
  state.counters["vertices"] = double(vertices);
}

const std::filesystem::path kMannequin =
    std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets/mannequin.glb";

void BM_AnalyzeFrame_MannequinTwist_Lbs(benchmark::State& s) {
  analyze(s, kMannequin, "Twist", 1.0f, rig::SkinningMethod::Linear);
}
void BM_AnalyzeFrame_MannequinTwist_Dqs(benchmark::State& s) {
  analyze(s, kMannequin, "Twist", 1.0f, rig::SkinningMethod::DualQuaternion);
}
void BM_AnalyzeFrame_FoxRun_Lbs(benchmark::State& s) {
  analyze(s, corpus_file(s, "Fox/Fox.glb"), "Run", 0.3f, rig::SkinningMethod::Linear);
}
BENCHMARK(BM_AnalyzeFrame_MannequinTwist_Lbs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeFrame_MannequinTwist_Dqs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeFrame_FoxRun_Lbs)->Unit(benchmark::kMillisecond);

// Scanning the mannequin's Twist clip (2 s at 30 Hz, 61 samples) for LBS and DQS.
void BM_ScanClip_MannequinTwist(benchmark::State& state) {
  rig::Model model;
  if (!load(state, kMannequin, model)) return;
  const rig::Character character(model);
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, character.skin_layer());
  rig::ClipScanOptions options;
  options.clip = clip_named(model, "Twist");
  options.methods = {rig::SkinningMethod::Linear, rig::SkinningMethod::DualQuaternion};
  for (auto _ : state) {
    rig::ClipScan scan;
    rig::scan_clip(model, setup, options, scan);
    benchmark::DoNotOptimize(scan.max_method_difference);
  }
}
BENCHMARK(BM_ScanClip_MannequinTwist)->Unit(benchmark::kMillisecond);

// One-time setup (segments, areas, welding, rest pose) of the mannequin.
void BM_ArtefactSetup_Mannequin(benchmark::State& state) {
  rig::Model model;
  if (!load(state, kMannequin, model)) return;
  const rig::Character character(model);
  for (auto _ : state) {
    rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, character.skin_layer());
    benchmark::DoNotOptimize(setup.rest_volume);
  }
}
BENCHMARK(BM_ArtefactSetup_Mannequin)->Unit(benchmark::kMillisecond);

}  // namespace
