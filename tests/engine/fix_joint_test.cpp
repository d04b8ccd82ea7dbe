// "Fix this joint" (analysis/fix_joint.h) on the bundled mannequin's Bend and Twist clips: the
// worst joint's worst LBS score over the clip drops by at least 30 % while no other joint's worst
// score rises by more than 5 %. The numbers are checked by scanning the returned layer here again
// (scan_clip, as --report measures a file), not taken from the job's own report.
#include "analysis/fix_joint.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "analysis/skinning_artefacts.h"
#include "import/gltf_import.h"

namespace rig {
namespace {

Model mannequin() {
  Model model;
  std::string error;
  EXPECT_TRUE(import_gltf(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", model, error)) << error;
  return model;
}

int clip_named(const Model& model, const std::string& name) {
  for (size_t c = 0; c < model.clips.size(); ++c)
    if (model.clips[c].name == name) return int(c);
  return -1;
}

// Worst LBS score per skin joint over the clip, scanned here.
std::vector<float> worst_scores(const Model& model, const SkinLayer& layer, int clip) {
  const auto shared = std::make_shared<SkinLayer>(layer);
  const ArtefactSetup setup = ArtefactSetup::build(model, *shared);
  ClipScanOptions options;
  options.clip = clip;
  options.methods = {SkinningMethod::Linear};
  options.skin_layer = shared;
  ClipScan scan;
  EXPECT_TRUE(scan_clip(model, setup, options, scan));
  std::vector<float> out(model.skins[0].joints.size(), std::nanf(""));
  for (const JointScoreOverClip& j : scan.methods[0].joints)
    if (j.skin == 0) out[size_t(j.joint)] = j.score;
  return out;
}

TEST(FixJoint, TheMannequinsWorstJointDropsByAThirdAndNoOtherRisesBeyondFivePercent) {
  const Model model = mannequin();
  const SkinLayer layer(model);
  for (const char* name : {"Bend", "Twist"}) {
    const int clip = clip_named(model, name);
    ASSERT_GE(clip, 0) << name;
    FixJointOptions options;
    options.clip = clip;
    SkinLayer fixed;
    FixJointResult result;
    std::string error;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(fix_joint(model, layer, options, fixed, result, error)) << error;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::vector<float> before = worst_scores(model, layer, clip);
    const std::vector<float> after = worst_scores(model, fixed, clip);
    const std::string joint = model.nodes[size_t(model.skins[0].joints[size_t(result.joint)])].name;
    std::printf(
        "%s: worst joint %s %.4f -> %.4f (%.1f%% lower; smooth %.2f x %d, extent %d; "
        "largest other rise %.2f%%; %zu candidates, %.1f s)\n",
        name, joint.c_str(), double(before[size_t(result.joint)]),
        double(after[size_t(result.joint)]),
        100.0 * (1.0 - double(after[size_t(result.joint)] / before[size_t(result.joint)])),
        double(result.smooth.factor), result.smooth.iterations, result.extent,
        100.0 * double(result.largest_other_rise), result.candidates, seconds);
    if (std::getenv("RIGVIEW_FIX_TRACE"))
      for (const FixJointResult::Tried& t : result.tried)
        std::printf(
            "  %.2f x %d extent %d: %.4f, other +%.1f%% %s %.4f -> ?\n", double(t.factor),
            t.iterations, t.extent, double(t.score), 100.0 * double(t.other_rise),
            t.other_joint >= 0
                ? model.nodes[size_t(model.skins[0].joints[size_t(t.other_joint)])].name.c_str()
                : "-",
            t.other_joint >= 0 ? double(before[size_t(t.other_joint)]) : 0.0);
    ASSERT_TRUE(result.improved) << name;
    // The job picked the worst joint of the scan.
    for (float b : before) {
      if (!std::isfinite(b)) continue;
      EXPECT_LE(b, before[size_t(result.joint)]) << name;
    }
    EXPECT_NEAR(result.before, before[size_t(result.joint)], 1e-6f);
    EXPECT_NEAR(result.after, after[size_t(result.joint)], 1e-6f);
    EXPECT_LE(after[size_t(result.joint)], 0.7f * before[size_t(result.joint)]) << name;
    for (size_t j = 0; j < before.size(); ++j) {
      if (int(j) == result.joint || !std::isfinite(before[j]) || !std::isfinite(after[j])) continue;
      EXPECT_LE(after[j], 1.05f * before[j]) << name << " joint " << j;
    }
  }
}

}  // namespace
}  // namespace rig
