// Compression over the shared corpus: the guarantee E_max ≤ tolerance on every clip, and the
// per-clip table (ratio, E_max, time) printed for the record.
//
// Runtime on 2 cores: every clip at every tolerance takes seconds (release build), so there is
// no split. The LBS vertex displacement is measured at 0.01 cm only.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "anim/clip_source.h"
#include "compress/clip_compression.h"
#include "compress/gltf_writer.h"
#include "compressed_context_check.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_models(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".gltf" || ext == ".glb") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Totals {
  uint64_t raw = 0, file = 0, compressed = 0;
  double seconds = 0.0;
  size_t clips = 0;
};

void check_corpus_at(const fs::path& root, double tolerance_m, bool print, Totals& totals) {
  for (const fs::path& path : corpus_models(root)) {
    Model model;
    std::string error;
    if (!import_gltf(path.string(), model, error)) continue;  // the corpus has broken files
    for (size_t c = 0; c < model.clips.size(); ++c) {
      CompressionSettings settings;
      settings.tolerance_m = tolerance_m;
      settings.measure_vertices = print;
      const CompressionResult r = compress_clip(model, int(c), settings);
      const std::string where =
          path.filename().string() + " clip " + std::to_string(c) + " " + model.clips[c].name;
      ASSERT_TRUE(r.ok) << where << ": " << r.error;
      EXPECT_LE(r.report.e_max, tolerance_m) << where;
      EXPECT_LE(r.report.morph_max, settings.morph_tolerance) << where;
      // The played bits are the measured bits: the playback context against the readable form.
      if (print) test::expect_context_matches_uncached(model, r.clip, nullptr, where);
      totals.raw += r.sizes.raw_bytes;
      totals.file += r.sizes.file_bytes;
      totals.compressed += r.sizes.compressed_bytes;
      totals.seconds += r.seconds;
      ++totals.clips;
      if (print)
        std::printf(
            "| %s | %s | %u | %zu | %llu | %llu | %llu | %.1f | %.2f | %.4f | %.4f | %.4f | "
            "%.4f | %.1f |\n",
            path.filename().string().c_str(),
            model.clips[c].name.empty() ? "(unnamed)" : model.clips[c].name.c_str(),
            unsigned(r.report.times.size()), r.report.joints.size(),
            (unsigned long long)r.sizes.raw_bytes, (unsigned long long)r.sizes.file_bytes,
            (unsigned long long)r.sizes.compressed_bytes, r.sizes.ratio(), r.sizes.file_ratio(),
            r.report.e_max * 100.0, r.report.e_p99 * 100.0, r.report.fraction_within_0_01cm,
            r.report.max_vertex_displacement * 100.0, r.seconds * 1000.0);
    }
  }
}

TEST(CompressCorpus, GuaranteeAtTenthMillimetreOnEveryClip) {
  RIG_REQUIRE_CORPUS(root);
  std::printf(
      "| file | clip | N | J | raw B | file B | compressed B | raw:comp | file:comp | "
      "E_max cm | E_p99 cm | share <= 0.01 cm | LBS disp. cm | ms |\n");
  Totals t;
  check_corpus_at(root, 1e-4, true, t);
  std::printf(
      "total: %zu clips, raw %llu B, file %llu B, compressed %llu B, %.1f:1 (raw), "
      "%.2f:1 (file), %.2f s\n",
      t.clips, (unsigned long long)t.raw, (unsigned long long)t.file,
      (unsigned long long)t.compressed, double(t.raw) / double(t.compressed),
      double(t.file) / double(t.compressed), t.seconds);
}

TEST(CompressCorpus, GuaranteeAtOneMillimetreAndAtTenMicrometres) {
  RIG_REQUIRE_CORPUS(root);
  for (double tol : {1e-3, 1e-5}) {
    Totals t;
    check_corpus_at(root, tol, false, t);
    std::printf("tolerance %.3f cm: %zu clips, %.1f:1 (raw), %.2f s\n", tol * 100.0, t.clips,
                double(t.raw) / double(t.compressed), t.seconds);
  }
}

TEST(CompressCorpus, OptimizedGlbReimportsWithinTheTolerance) {
  RIG_REQUIRE_CORPUS(root);
  for (const char* file : {"Fox/Fox.glb", "CesiumMan/CesiumMan.glb", "SimpleSkin/SimpleSkin.gltf",
                           "AnimatedMorphCube/AnimatedMorphCube.gltf"}) {
    Model model;
    std::string error;
    ASSERT_TRUE(import_gltf((root / file).string(), model, error)) << error;
    std::vector<CompressionResult> results;
    std::vector<const CompressedClip*> clips;
    for (size_t c = 0; c < model.clips.size(); ++c) {
      CompressionSettings s;
      s.measure_vertices = false;
      results.push_back(compress_clip(model, int(c), s));
      ASSERT_TRUE(results.back().ok);
    }
    for (const CompressionResult& r : results) clips.push_back(&r.clip);
    const fs::path out = test::scratch_dir() / (fs::path(file).stem().string() + "_opt.glb");
    std::vector<WrittenClip> written;
    ASSERT_TRUE(write_optimized_gltf((root / file).string(), model, clips, out.string(), error, {},
                                     &written))
        << error;
    Model again;
    ASSERT_TRUE(import_gltf(out.string(), again, error)) << file << ": " << error;
    ASSERT_EQ(again.clips.size(), model.clips.size());
    ASSERT_EQ(again.nodes.size(), model.nodes.size());
    const uint64_t in_size = fs::file_size(root / file), out_size = fs::file_size(out);
    for (size_t c = 0; c < model.clips.size(); ++c) {
      // The re-imported keys measure what the writer predicted, within the tolerance (the
      // runtime's float slerp and the spec's double slerp differ by far less than its margin).
      RawClipSource reimported(again, again.clips[c]);
      const ClipErrorReport r = measure_clip_error(model, int(c), reimported, 0.0f, false);
      EXPECT_NEAR(r.e_max, written[c].e_max, 1e-7) << file << " clip " << c;
      EXPECT_TRUE(written[c].replaced) << file << " clip " << c;
      EXPECT_LE(r.e_max, 1e-4) << file << " clip " << c;
      EXPECT_LE(r.morph_max, 1e-3) << file << " clip " << c;
      std::printf(
          "%s clip %zu: written E_max %.4f cm (runtime clip %.4f cm), %d of %d rotation tracks "
          "SHORT\n",
          file, c, r.e_max * 100.0, results[c].report.e_max * 100.0, written[c].short_tracks,
          written[c].rotation_tracks);
    }
    std::printf("%s: %llu B → %llu B\n", file, (unsigned long long)in_size,
                (unsigned long long)out_size);
  }
}

}  // namespace
}  // namespace rig
