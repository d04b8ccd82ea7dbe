// `rigview --fix-joint` (app/fix_joint_outputs.cpp): the fixed weights reach --report, whose
// scan of the fixed layer (a separate code path) agrees with what --fix-report says; the bundled
// mannequin's Bend clip loses at least 30 % of its worst joint's worst score; usage errors are
// one line.
#include <gtest/gtest.h>

#include <cmath>

#include "json_reader.h"
#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;

const std::string kMannequin = RIGVIEW_SOURCE_DIR "/assets/mannequin.glb";
constexpr int kBend = 5;  // the mannequin's clips: Idle, Walk, Run, Wave, Twist, Bend

std::string tmp(const std::string& name) {
  return (rig::test::scratch_dir() / ("fix_joint_" + name)).string();
}

// Joint name → its LBS score in --report's Bend entry.
std::map<std::string, double> report_scores(const std::string& path) {
  const rig::test::Json report = rig::test::parse_json(rig::test::slurp(path));
  std::map<std::string, double> out;
  for (const rig::test::Json& clip : report["clips"].items) {
    if (clip["name"].text != "Bend") continue;
    for (const rig::test::Json& method : clip["methods"].items) {
      if (method["method"].text != "lbs") continue;
      for (const rig::test::Json& j : method["joints"].items)
        out[j["name"].text] = j["score"].number;
    }
  }
  return out;
}

TEST(FixJointCli, TheFixReachesTheReportAndLowersTheWorstJointByAThird) {
  const std::string fix = tmp("bend.json"), before = tmp("before.json"), after = tmp("after.json");
  const std::string clip = " --animation-index " + std::to_string(kBend) + " --skinning lbs";
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + clip + " --fix-joint worst --fix-report " + quote(fix) +
                  " --report " + quote(after));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("rigview: --fix-joint LeftForeArm: worst LBS score over clip 5 ", 0), 0u)
      << r.err;
  ASSERT_EQ(run_rigview(quote(kMannequin) + clip + " --report " + quote(before)).status, 0);
  const std::map<std::string, double> was = report_scores(before), now = report_scores(after);
  ASSERT_FALSE(was.empty());
  const rig::test::Json j = rig::test::parse_json(rig::test::slurp(fix));
  const std::string joint = j["joint"].text;
  EXPECT_EQ(joint, "LeftForeArm");
  // The worst joint of --report's own scan before, and the fix report's numbers are --report's.
  for (const auto& [name, score] : was) EXPECT_LE(score, was.at(joint)) << name;
  EXPECT_NEAR(j["before"].number, was.at(joint), 1e-6 * was.at(joint));
  EXPECT_NEAR(j["after"].number, now.at(joint), 1e-6 * was.at(joint));
  EXPECT_LE(now.at(joint), 0.7 * was.at(joint));
  for (const auto& [name, score] : was) {
    if (name == joint || !now.count(name)) continue;
    EXPECT_LE(now.at(name), 1.05 * score) << name;
  }
  EXPECT_TRUE(j["improved"].boolean);
  EXPECT_EQ(j["candidates"].items.size(), 32u);
}

TEST(FixJointCli, UsageErrorsAreOneLine) {
  const std::string obj = quote(tmp("x.obj"));
  for (const std::string& args :
       {std::string(" --fix-joint worst --export-obj ") + obj,  // no clip
        std::string(" --fix-joint NoSuchJoint --animation-index 5 --export-obj ") + obj,
        std::string(" --fix-joint worst --animation-index 5"),  // no output
        std::string(" --fix-report ") + obj,
        std::string(" --fix-joint worst --animation-index 5 --skinning cor --export-obj ") + obj}) {
    const rig::test::RunResult r = run_rigview(quote(kMannequin) + args);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_NE(r.err.find("--fix-"), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
  }
}

}  // namespace
