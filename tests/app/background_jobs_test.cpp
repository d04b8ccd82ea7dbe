// The app's background jobs: the artefact scan and the compression session run off the calling
// thread, report progress, can be cancelled, and give the same results as the engine's direct
// calls.
#include <gtest/gtest.h>
#include <malloc.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "artefact_analysis.h"
#include "compression_session.h"
#include "import/gltf_import.h"
#include "rotation_centers_job.h"

namespace {

rig::Model load(const char* asset) {
  rig::Model model;
  std::string error;
  EXPECT_TRUE(rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/" + asset, model, error))
      << error;
  return model;
}

template <typename Busy>
void wait_until_idle(Busy busy) {
  const auto start = std::chrono::steady_clock::now();
  while (busy() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

TEST(BackgroundJobs, ArtefactScanMatchesTheDirectScanAndCancelDropsIt) {
  const rig::Model model = load("twist_arm.glb");
  const rig::Character character(model);
  rigview::ArtefactAnalysis analysis(model, character.skin_layer());
  analysis.request_scan(0);
  wait_until_idle([&] { return analysis.scanning(); });
  const rig::ClipScan* scan = analysis.scan();
  ASSERT_NE(scan, nullptr);
  EXPECT_FLOAT_EQ(analysis.scan_progress(), 1.0f);
  rig::ClipScanOptions options;
  options.clip = 0;
  const auto all = rig::all_skinning_methods();
  options.methods.assign(all.begin(), all.end());
  rig::ClipScan direct;
  ASSERT_TRUE(rig::scan_clip(model, analysis.setup(), options, direct));
  ASSERT_EQ(scan->methods.size(), direct.methods.size());
  EXPECT_EQ(scan->times, direct.times);
  EXPECT_EQ(scan->methods[0].rms, direct.methods[0].rms);
  EXPECT_FLOAT_EQ(scan->methods[0].max_abs_h.value, -10.0f);  // LBS at the 180° middle
  // The same clip again keeps the finished scan; a cancel drops it.
  analysis.request_scan(0);
  EXPECT_FALSE(analysis.scanning());
  EXPECT_EQ(analysis.scan(), scan);
  analysis.cancel_scan();
  EXPECT_EQ(analysis.scan(), nullptr);
}

// The mix's amounts reach the background scan, and new amounts restart it: with every amount 1
// the mix scans as DQS (its max |h| at the 180° middle is DQS's, not LBS's −10); back to 0, as
// LBS. Methods are in table order.
TEST(BackgroundJobs, ArtefactScanUsesTheMixAmountsAndRestartsWhenTheyChange) {
  const rig::Model model = load("twist_arm.glb");
  const rig::Character character(model);
  rigview::ArtefactAnalysis analysis(model, character.skin_layer());
  const size_t lbs = size_t(rig::SkinningMethod::Linear),
               dqs = size_t(rig::SkinningMethod::DualQuaternion),
               mix = size_t(rig::SkinningMethod::Mix);
  const std::vector<float> all_dqs(model.nodes.size(), 1.0f);
  analysis.request_scan(0, all_dqs);
  wait_until_idle([&] { return analysis.scanning(); });
  const rig::ClipScan* scan = analysis.scan();
  ASSERT_NE(scan, nullptr);
  ASSERT_EQ(scan->methods.size(), rig::kSkinningMethodCount);
  EXPECT_FLOAT_EQ(scan->methods[lbs].max_abs_h.value, -10.0f);
  EXPECT_GT(scan->methods[dqs].max_abs_h.value, -1.0f);
  EXPECT_NEAR(scan->methods[mix].max_abs_h.value, scan->methods[dqs].max_abs_h.value, 1e-4f);
  analysis.request_scan(0, std::vector<float>(model.nodes.size(), 0.0f));
  wait_until_idle([&] { return analysis.scanning(); });
  scan = analysis.scan();
  ASSERT_NE(scan, nullptr);
  EXPECT_FLOAT_EQ(scan->methods[mix].max_abs_h.value, -10.0f);  // LBS again
}

TEST(BackgroundJobs, CompressionSessionKeepsItsToleranceAndSwitchesPlayback) {
  const rig::Model model = load("twist_arm.glb");
  rig::Character character(model);
  rigview::CompressionSession session(model, character.shared_skin_layer());
  session.request(0.01);
  wait_until_idle([&] { return session.running(); });
  const auto* results = session.results();
  ASSERT_NE(results, nullptr) << session.error();
  ASSERT_EQ(results->size(), model.clips.size());
  for (const auto& r : *results) {
    ASSERT_TRUE(r && r->ok);
    EXPECT_LE(r->report.e_max, 1e-4);  // 0.01 cm
    EXPECT_GT(r->sizes.ratio(), 1.0);
  }
  // The displacement map at mid-clip stays within the measured vertex bound.
  const rig::PoseSelection mid{0, 0.5f * (model.clips[0].start + model.clips[0].end)};
  const rig::analysis::ScalarField& field = session.displacement(mid);
  float largest = 0.0f;
  for (const auto& item : field.values)
    for (float cm : item) largest = std::max(largest, cm);
  EXPECT_LE(largest, (*results)[0]->report.max_vertex_displacement * 100.0 + 1e-4);
  // Compressed playback samples the compressed clip: the pose moves by at most that bound.
  session.use_compressed(character, true);
  character.evaluate(mid);
  const glm::mat4 lossy = character.world()[size_t(model.skins[0].joints[1])];
  session.use_compressed(character, false);
  character.evaluate(mid);
  const glm::mat4 raw = character.world()[size_t(model.skins[0].joints[1])];
  EXPECT_LE(glm::length(glm::vec3(lossy[3]) - glm::vec3(raw[3])), 1e-3f);
  // Cancel: no results until asked again.
  session.cancel();
  EXPECT_EQ(session.results(), nullptr);
}

// What the viewer does on every model (re)open, over and over: import, a Character, the
// compression session with its displacement map, the artefact analysis with its scan, the
// centres of rotation, then everything destroyed. malloc's bytes in use after the last round
// must stay within 16 KB of those after the sixth (the first rounds fill caches that settle:
// thread arenas, statics; over 24 rounds the level rose 9 KB, then stayed flat from round 16).
// A leak of 2 KB or more per round shows over the 8 measured; a planted 4 KB leak in the
// compression session read 37 KB and failed. The
// viewer's soak (tests/soak) looks at the whole program, GL driver included, but its memory
// swings by megabytes with what the driver caches, so this is where a leak in our own jobs
// is caught.
TEST(BackgroundJobs, ReopeningAModelWithAllItsJobsHoldsNoMoreMemory) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "needs glibc's malloc (mallinfo2); a sanitizer's allocator replaces it";
#else
  auto in_use = [] {
    const struct mallinfo2 m = mallinfo2();
    return int64_t(m.uordblks + m.hblkhd);
  };
  int64_t after_sixth = 0;
  for (int round = 1; round <= 14; ++round) {
    {
      const rig::Model model = load("mannequin.glb");
      rig::Character character(model);
      rigview::CompressionSession session(model, character.shared_skin_layer());
      session.request(0.01);
      wait_until_idle([&] { return session.running(); });
      ASSERT_NE(session.results(), nullptr) << session.error();
      session.displacement(rig::PoseSelection{0, model.clips[0].start});
      rigview::ArtefactAnalysis analysis(model, character.skin_layer());
      analysis.request_scan(0);
      wait_until_idle([&] { return analysis.scanning(); });
      ASSERT_NE(analysis.scan(), nullptr);
      rigview::RotationCentersJob centers;
      centers.start(model);
      centers.wait();
      ASSERT_TRUE(centers.ready());
    }
    if (round == 6) after_sixth = in_use();
  }
  const int64_t growth = in_use() - after_sixth;
  std::printf("bytes in use after round 6: %lld, growth over rounds 7-14: %lld B\n",
              (long long)after_sixth, (long long)growth);
  EXPECT_LT(growth, 16 * 1024);
#endif
}

}  // namespace
