// The per-frame path (sample, blend, local→world, palettes, dual quaternions, CPU skinning)
// must not allocate. Global operator new is replaced in this test binary to count calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/crowd.h"
#include "compress/clip_compression.h"
#include "counting_new.h"  // this binary counts every operator new (g_allocations)
#include "crowd_material_model.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

// 50 frames of clip 0 crossfaded with clip 1, skinned with LBS and DQS: no allocation at all.
// `compressed`: both clips played from CompressedClips (compressed and set before counting).
void expect_frames_do_not_allocate(const std::string& path, bool compressed = false) {
  SCOPED_TRACE(path);
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(path, m, error)) << error;
  ASSERT_GE(m.clips.size(), 2u);
  ASSERT_FALSE(m.draws.empty());
  Character anim(m);
  CompressedClip clips[2];
  if (compressed) {
    for (int c = 0; c < 2; ++c) {
      CompressionSettings settings;
      settings.measure_vertices = false;
      CompressionResult r = compress_clip(m, c, settings);
      ASSERT_TRUE(r.ok) << r.error;
      clips[c] = std::move(r.clip);
      anim.set_clip_source(c, &clips[c]);
    }
  }
  size_t most = 0;
  for (const DrawItem& d : m.draws)
    most = std::max<size_t>(most, m.meshes[d.mesh].primitives[d.primitive].vertex_count());
  std::vector<glm::vec3> p(most), n(most);
  const long before = g_allocations.load();
  for (int frame = 0; frame < 50; ++frame) {
    PoseSelection sel{0, frame / 30.0f, 1, frame / 25.0f, 0.3f};
    anim.evaluate(sel);
    for (const DrawItem& d : m.draws) {
      const uint32_t count = m.meshes[d.mesh].primitives[d.primitive].vertex_count();
      anim.skin_draw_item(d, SkinningMethod::Linear, std::span(p).first(count),
                          std::span(n).first(count));
      anim.skin_draw_item(d, SkinningMethod::DualQuaternion, std::span(p).first(count),
                          std::span(n).first(count));
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// Runs without the corpus: the committed mannequin (one skin, several clips).
TEST(PerFrame, BundledMannequinEvaluateAndSkinDoNotAllocate) {
  expect_frames_do_not_allocate(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb");
}

// The compressed runtime clips too: their playback context lives in the Character's cursors.
TEST(PerFrame, BundledMannequinCompressedPlaybackDoesNotAllocate) {
  expect_frames_do_not_allocate(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", true);
}

TEST(PerFrame, CorpusFoxCompressedPlaybackDoesNotAllocate) {
  RIG_REQUIRE_CORPUS(corpus);
  expect_frames_do_not_allocate((corpus / "Fox/Fox.glb").string(), true);
}

TEST(PerFrame, CorpusModelsEvaluateAndSkinDoNotAllocate) {
  RIG_REQUIRE_CORPUS(corpus);
  for (const char* file : {"Fox/Fox.glb", "RobotExpressive/RobotExpressive.glb",
                           "InterpolationTest/InterpolationTest.glb"}) {
    expect_frames_do_not_allocate((corpus / file).string());
  }
}

// A crowd of 100 updated on the thread pool (LBS and DQS palettes written): the counter sees
// every thread's allocations, the workers' too.
void expect_crowd_updates_do_not_allocate(const Model& m) {
  SCOPED_TRACE(m.file);
  CrowdConfig config;
  config.count = 100;
  config.threads = 4;  // workers besides the caller even on a 1-core machine
  Crowd crowd(m, nullptr, config);
  const SkinningMethod methods[] = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
  crowd.set_methods(methods);
  // A model whose clips animate materials has its material rows written every update too.
  if (!m.clips.empty() && !m.clips[0].material_channels.empty()) {
    ASSERT_FALSE(crowd.material_rows().empty());
  }
  crowd.update(0.01f);  // warm-up
  const long before = g_allocations.load();
  for (int frame = 0; frame < 30; ++frame) crowd.update(1.0f / 60.0f);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

void expect_crowd_updates_do_not_allocate(const std::string& path) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(path, m, error)) << error;
  expect_crowd_updates_do_not_allocate(m);
}

// Clips that animate a material: every instance's material rows are written too.
TEST(PerFrame, MaterialAnimatedCrowdUpdateDoesNotAllocate) {
  const Model m = test::crowd_material_model();
  expect_crowd_updates_do_not_allocate(m);
}

TEST(PerFrame, BundledMannequinCrowdUpdateDoesNotAllocate) {
  expect_crowd_updates_do_not_allocate(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb");
}

TEST(PerFrame, CorpusFoxCrowdUpdateDoesNotAllocate) {
  RIG_REQUIRE_CORPUS(corpus);
  expect_crowd_updates_do_not_allocate((corpus / "Fox/Fox.glb").string());
}

TEST(PerFrame, TheCounterSeesAllocations) {
  const long before = g_allocations.load();
  std::vector<int>* v = new std::vector<int>(100);
  // The pointer escapes: GCC may otherwise elide the new-expression's allocation (allowed since
  // C++14), which it did once the file's inlining changed, and the count would read 1.
  asm volatile("" : : "g"(v) : "memory");
  delete v;
  EXPECT_EQ(g_allocations.load() - before, 2);  // the vector object, then its 100 ints
}

}  // namespace
}  // namespace rig
