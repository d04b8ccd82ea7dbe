// Shared by the benchmarks: corpus models (RIGVIEW_CORPUS, relative to the repository root) and
// clip-time helpers. A missing corpus is reported through SkipWithError, which
// benchmarks_smoke skips visibly when RIGVIEW_CORPUS is unset and fails otherwise.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "import/gltf_import.h"

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

}  // namespace rig::bench
