#include "compression_outputs.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "compress/gltf_writer.h"
#include "json_text.h"
#include "pose_options.h"

namespace rigview {

bool compress_clips(const rig::Model& model, double tolerance_cm, const std::vector<int>& only,
                    std::vector<std::unique_ptr<rig::CompressionResult>>& results,
                    std::string& error) {
  results.clear();
  results.resize(model.clips.size());
  rig::CompressionSettings settings;
  settings.tolerance_m = tolerance_cm / 100.0;
  const auto started = std::chrono::steady_clock::now();
  bool printed = false;
  for (size_t c = 0; c < model.clips.size(); ++c) {
    if (!only.empty() && std::find(only.begin(), only.end(), int(c)) == only.end()) continue;
    results[c] =
        std::make_unique<rig::CompressionResult>(rig::compress_clip(model, int(c), settings));
    if (!results[c]->ok) {
      error = "clip " + std::to_string(c) + " (" + model.clips[c].name +
              "): compression failed: " + results[c]->error;
      return false;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (seconds > 1.0) {
      std::fprintf(stderr, "\rrigview: compressing clips %zu/%zu", c + 1, model.clips.size());
      printed = true;
    }
  }
  if (printed) std::fprintf(stderr, "\n");
  return true;
}

int run_compression_outputs(const Options& options, const rig::Model& model,
                            const std::string& model_path) {
  std::string error;
  std::vector<std::unique_ptr<rig::CompressionResult>> results;
  if (!compress_clips(model, options.tolerance_cm, {}, results, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model_path.c_str(), error.c_str());
    return 1;
  }
  if (!options.compress_report.empty()) {
    std::string j = "{\"tolerance_cm\":" + json_number(options.tolerance_cm) + ",\"clips\":[";
    for (size_t c = 0; c < results.size(); ++c) {
      const rig::CompressionResult& r = *results[c];
      const rig::ClipErrorReport& e = r.report;
      if (c) j += ",";
      j += "{\"name\":" + json_string(model.clips[c].name) +
           ",\"joints\":" + std::to_string(e.joints.size()) +
           ",\"samples\":" + std::to_string(e.times.size()) +
           ",\"rate_hz\":" + json_number(e.rate_hz) +
           ",\"raw_bytes\":" + std::to_string(r.sizes.raw_bytes) +
           ",\"gltf_bytes\":" + std::to_string(r.sizes.file_bytes) +
           ",\"compressed_bytes\":" + std::to_string(r.sizes.compressed_bytes) +
           ",\"ratio\":" + json_number(r.sizes.ratio()) +
           ",\"e_max_cm\":" + json_number(e.e_max * 100.0) +
           ",\"e_p99_cm\":" + json_number(e.e_p99 * 100.0) +
           ",\"fraction_within_0_01cm\":" + json_number(e.fraction_within_0_01cm) +
           ",\"vertex_error_cm\":" + json_number(e.max_vertex_displacement * 100.0) +
           ",\"seconds\":" + json_number(r.seconds) + "}";
    }
    j += "]}\n";
    std::FILE* f = std::fopen(options.compress_report.c_str(), "wb");
    const bool written = f && std::fwrite(j.data(), 1, j.size(), f) == j.size();
    if (f && std::fclose(f) != 0) f = nullptr;
    if (!written || !f) {
      std::fprintf(stderr, "rigview: error: %s: cannot write (%s)\n",
                   options.compress_report.c_str(), std::strerror(errno));
      return 1;
    }
  }
  if (!options.optimize_animations.empty()) {
    std::vector<const rig::CompressedClip*> clips;
    for (const auto& r : results) clips.push_back(r ? &r->clip : nullptr);
    rig::GltfWriteOptions write;
    write.tolerance_m = options.tolerance_cm / 100.0;
    std::vector<rig::WrittenClip> written;
    rig::WrittenSizes sizes;
    std::vector<std::string> warnings;
    if (!rig::write_optimized_gltf(model_path, model, clips, options.optimize_animations, error,
                                   write, &written, &sizes, &warnings)) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", options.optimize_animations.c_str(),
                   error.c_str());
      return 1;
    }
    for (const std::string& warning : warnings)
      std::fprintf(stderr, "rigview: warning: %s\n", warning.c_str());
    size_t replaced = 0, not_smaller = 0;
    double e_max = 0.0;
    for (const rig::WrittenClip& w : written) {
      if (w.replaced) ++replaced, e_max = std::max(e_max, w.e_max);
      if (w.not_smaller) ++not_smaller;
    }
    std::printf("rigview: wrote %s: %zu of %zu clips optimized, animation accessors %zu -> %zu B",
                options.optimize_animations.c_str(), replaced, written.size(), sizes.before,
                sizes.after);
    if (sizes.before > 0)
      std::printf(" (%.3f of the file's)", double(sizes.after) / double(sizes.before));
    std::printf(", E_max %.5f cm (tolerance %g cm)", e_max * 100.0, options.tolerance_cm);
    // Said only when it happens, so the line stays as it was for every other file.
    if (not_smaller > 0)
      std::printf("; %zu clip%s kept as in the file: the optimized form was not smaller",
                  not_smaller, not_smaller == 1 ? "" : "s");
    std::printf("\n");
  }
  return 0;
}

}  // namespace rigview
