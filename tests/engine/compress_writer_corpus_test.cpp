// The optimized glTF writer over the shared corpus: no model's animation accessors grow, at
// 0.001, 0.01 and 0.1 cm. The bytes are counted from the written file (an independent reading:
// the accessors its samplers use, each once) against the original's, not from the writer's
// report; a clip the writer says it kept must hold the original's samplers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "compress/clip_compression.h"
#include "compress/gltf_writer.h"
#include "import/gltf_import.h"
#include "test_support.h"
#include "write_test_support.h"

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

// Bytes of the accessors the animations' samplers use, each once: count × components × size.
size_t animation_bytes(const tinygltf::Model& doc) {
  std::set<int> used;
  for (const tinygltf::Animation& a : doc.animations)
    for (const tinygltf::AnimationSampler& s : a.samplers) used.insert({s.input, s.output});
  size_t bytes = 0;
  for (int i : used) {
    const tinygltf::Accessor& acc = doc.accessors[size_t(i)];
    bytes += acc.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(acc.type))) *
             size_t(tinygltf::GetComponentSizeInBytes(uint32_t(acc.componentType)));
  }
  return bytes;
}

TEST(CompressWriterCorpus, NoModelsAnimationBytesGrowAtAnyTolerance) {
  RIG_REQUIRE_CORPUS(root);
  size_t checked = 0, kept_not_smaller = 0;
  for (const fs::path& path : corpus_models(root)) {
    Model model;
    std::string error;
    if (!import_gltf(path.string(), model, error) || model.clips.empty()) continue;
    const tinygltf::Model original = test::read_document(path.string());
    const size_t before = animation_bytes(original);
    for (double tolerance_cm : {0.001, 0.01, 0.1}) {
      std::vector<CompressionResult> results;
      for (size_t c = 0; c < model.clips.size(); ++c) {
        CompressionSettings s;
        s.tolerance_m = tolerance_cm / 100.0;
        s.measure_vertices = false;
        results.push_back(compress_clip(model, int(c), s));
        ASSERT_TRUE(results.back().ok) << path << " clip " << c;
      }
      std::vector<const CompressedClip*> clips;
      for (const CompressionResult& r : results) clips.push_back(&r.clip);
      GltfWriteOptions options;
      options.tolerance_m = tolerance_cm / 100.0;
      const fs::path out = test::scratch_dir() / "writer_corpus.glb";
      std::vector<WrittenClip> written;
      ASSERT_TRUE(
          write_optimized_gltf(path.string(), model, clips, out.string(), error, options, &written))
          << path << ": " << error;
      const tinygltf::Model copy = test::read_document(out.string());
      const size_t after = animation_bytes(copy);
      const std::string name = fs::relative(path, root).string();
      EXPECT_LE(after, before) << name << " at " << tolerance_cm << " cm";
      ASSERT_EQ(copy.animations.size(), original.animations.size());
      size_t kept = 0;
      for (size_t c = 0; c < written.size(); ++c) {
        if (!written[c].not_smaller) continue;
        ++kept;
        EXPECT_FALSE(written[c].replaced);
        // Kept: the same samplers, reading the same accessors as the original.
        const auto& a = original.animations[c].samplers;
        const auto& b = copy.animations[c].samplers;
        ASSERT_EQ(a.size(), b.size()) << name << " clip " << c;
        for (size_t k = 0; k < a.size(); ++k) {
          EXPECT_EQ(a[k].input, b[k].input);
          EXPECT_EQ(a[k].output, b[k].output);
        }
      }
      kept_not_smaller += kept;
      ++checked;
      std::printf("%-52s %5.3f cm: %7zu -> %7zu B, %zu of %zu clips kept (not smaller)\n",
                  name.c_str(), tolerance_cm, before, after, kept, written.size());
    }
  }
  EXPECT_GT(checked, 30u);
  // InterpolationTest shares its key times between clips: some of its clips must be kept.
  EXPECT_GT(kept_not_smaller, 0u);
}

}  // namespace
}  // namespace rig
