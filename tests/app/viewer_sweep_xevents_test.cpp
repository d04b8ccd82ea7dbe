// The Joint tab's Sweep in the running viewer (tests/app/xevents_harness.h): pressed for the
// selected joint on a paused pose, it measures in the background while frames go on, and its
// LBS scores are --range-of-motion's for that joint on the same pose, step for step; then it
// plays (the playhead moves).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "json_reader.h"
#include "test_support.h"
#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

class ViewerXEventsSweep : public rig::test::XViewerTest {};

TEST_F(ViewerXEventsSweep, TheSweepIsTheRangeOfMotionReportAndThenPlays) {
  const std::vector<std::string> pose = {"--animation-index", "0", "--animation-time", "0.5"};
  std::vector<std::string> args = {kMannequin, "--weights", "LeftForeArm"};
  args.insert(args.end(), pose.begin(), pose.end());
  ASSERT_EQ(new_session().start(args, {"RIGVIEW_VIEWER_WEIGHTS_OPS=sweep"}, 150), "");
  ViewerProbe p = after_frames(1);
  for (int i = 0; i < 600 && p.number("sweep", "steps") != 25.0; ++i) p = after_frames(1);
  ASSERT_EQ(p.number("sweep", "steps"), 25.0) << p.text("sweep") << session_->viewer_log();
  const std::vector<double> viewer = p.numbers("sweep_lbs");
  ASSERT_EQ(viewer.size(), 75u);

  const std::string report = (rig::test::scratch_dir() / "sweep_rom.json").string();
  const rig::test::RunResult r = rig::test::run_rigview(
      rig::test::quote(kMannequin) +
      " --animation-index 0 --animation-time 0.5 --skinning lbs --range-of-motion LeftForeArm "
      "--rom-report " +
      rig::test::quote(report));
  ASSERT_EQ(r.status, 0) << r.err;
  const rig::test::Json rom = rig::test::parse_json(rig::test::slurp(report));
  const rig::test::Json& axes = rom["joints"].items.at(0)["axes"];
  ASSERT_EQ(axes.items.size(), 3u);
  for (size_t axis = 0; axis < 3; ++axis) {
    const rig::test::Json& steps = axes.items[axis]["steps"];
    ASSERT_EQ(steps.items.size(), 25u);
    for (size_t k = 0; k < 25; ++k) {
      const double want = steps.items[k]["methods"]["lbs"]["score"].number;
      EXPECT_NEAR(viewer[axis * 25 + k], want, 1e-5 * std::max(1.0, std::abs(want)))
          << "axis " << axis << " step " << k;
    }
  }
  // It plays once measured: the playhead moves on.
  const double play = p.number("sweep", "play");
  p = after_frames(3);
  EXPECT_GT(p.number("sweep", "play"), std::max(play, 0.0)) << p.text("sweep");
}

}  // namespace
