// The per-joint LBS/DQS mix on the command line: --dqs-joints parsing and its subtree
// expansion (in-process), and `--skinning mix --dqs-joints` exports on the bundled twist arm (a
// 1 m tube over ArmRoot and its child ArmTwist, 50/50 at its middle ring, twisted 180° at
// t = 1 s): vertices bound to ArmRoot alone are exactly LBS, those that ArmTwist moves differ.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "options.h"
#include "parse_args.h"
#include "pose_options.h"
#include "test_support.h"

namespace {

using rig::test::parse;
using rig::test::Parsed;
using rig::test::quote;
using rig::test::run_rigview;

const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

TEST(MixOptions, DqsJointsAreAListAndNeedTheMix) {
  const Parsed p = parse({"--skinning", "mix", "--dqs-joints", "LeftArm,RightHand"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.options.dqs_joints, (std::vector<std::string>{"LeftArm", "RightHand"}));
  EXPECT_TRUE(parse({"--skinning", "compare=lbs,mix", "--dqs-joints", "LeftArm"}).ok);
  // --report and --bench-skinning without --skinning run every method, the mix included.
  EXPECT_TRUE(parse({"--bench-skinning", "3", "--dqs-joints", "LeftArm"}).ok);
  EXPECT_TRUE(parse({"--report", "r.json", "--dqs-joints", "LeftArm"}).ok);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--dqs-joints", "LeftArm"},
        {"--skinning", "dqs", "--dqs-joints", "LeftArm"},
        {"--skinning", "compare=lbs,dqs", "--dqs-joints", "LeftArm"},
        {"--skinning", "mix", "--dqs-joints", "LeftArm,"},
        {"--skinning", "mix", "--dqs-joints", ""}}) {
    const Parsed b = parse(bad);
    EXPECT_FALSE(b.ok) << bad.back();
    EXPECT_NE(b.error.find("--dqs-joints"), std::string::npos) << b.error;
  }
}

// The mannequin: LeftForeArm (8) → LeftForeArmTwist (9) → LeftHand (10); RightHand (15) is a
// leaf. Every other node, and the mesh node (24), stays 0.
TEST(MixOptions, DqsJointsExpandToTheirWholeSubtrees) {
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(kMannequin, model, error)) << error;
  ASSERT_EQ(model.nodes.size(), 25u);
  rigview::Options o;
  o.dqs_joints = {"LeftForeArm", "RightHand"};
  std::vector<float> amounts;
  ASSERT_TRUE(rigview::dqs_amounts_from_options(o, model, amounts, error)) << error;
  ASSERT_EQ(amounts.size(), 25u);
  for (size_t n = 0; n < amounts.size(); ++n) {
    const bool dqs = n == 8 || n == 9 || n == 10 || n == 15;
    EXPECT_EQ(amounts[n], dqs ? 1.0f : 0.0f) << model.nodes[n].name;
  }
  o.dqs_joints = {"Hips"};  // the root: every joint and the mesh node below it (none here)
  ASSERT_TRUE(rigview::dqs_amounts_from_options(o, model, amounts, error));
  for (size_t n = 0; n < 24; ++n) EXPECT_EQ(amounts[n], 1.0f) << n;
  EXPECT_EQ(amounts[24], 0.0f);
  o.dqs_joints = {"LeftArm", "NoSuchJoint"};
  EXPECT_FALSE(rigview::dqs_amounts_from_options(o, model, amounts, error));
  EXPECT_EQ(error, "--dqs-joints: no node named 'NoSuchJoint'");
}

std::vector<double> obj_vertices(const std::string& path) {
  std::ifstream in(path);
  std::vector<double> v;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      std::istringstream s(line.substr(2));
      double x, y, z;
      s >> x >> y >> z;
      v.insert(v.end(), {x, y, z});
    }
  return v;
}

std::vector<double> export_twist(const std::string& name, const std::string& skinning) {
  const std::string path = (rig::test::scratch_dir() / ("mix_" + name + ".obj")).string();
  const auto r = run_rigview(quote(kTwistArm) + " --animation-time 1 --skinning " + skinning +
                             " --export-obj " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  return obj_vertices(path);
}

TEST(MixCli, DqsJointsMoveOnlyTheVerticesTheyInfluence) {
  const std::vector<double> lbs = export_twist("lbs", "lbs");
  const std::vector<double> dqs = export_twist("dqs", "dqs");
  const std::vector<double> mix = export_twist("mix", "mix --dqs-joints ArmTwist");
  const std::vector<double> root = export_twist("root", "mix --dqs-joints ArmRoot");
  const std::vector<double> none = export_twist("none", "mix");
  ASSERT_EQ(lbs.size(), 2541u * 3);
  ASSERT_EQ(mix.size(), lbs.size());
  size_t same_as_lbs = 0, moved = 0;
  for (size_t i = 0; i < lbs.size(); i += 3) {
    const double d = std::hypot(mix[i] - lbs[i], mix[i + 1] - lbs[i + 1], mix[i + 2] - lbs[i + 2]);
    const double lbs_dqs =
        std::hypot(dqs[i] - lbs[i], dqs[i + 1] - lbs[i + 1], dqs[i + 2] - lbs[i + 2]);
    // (The table's LBS kernel is the SIMD one, the mix's a scalar loop: equal up to rounding.)
    if (d < 1e-6) ++same_as_lbs;
    if (d > 1e-3) ++moved;
    // The mix lies between LBS and DQS, on the segment joining them (β ∈ [0, 1]).
    EXPECT_LE(d, lbs_dqs + 1e-6) << "vertex " << i / 3;
  }
  // The root end (ArmRoot alone, β = 0) is LBS exactly; around the twisted middle, where LBS
  // collapses, ArmTwist's weight pulls the mix towards DQS.
  EXPECT_GT(same_as_lbs, 500u);
  EXPECT_GT(moved, 100u);
  // Both joints DQS (ArmRoot's subtree holds ArmTwist): the mix is DQS up to print rounding;
  // no --dqs-joints: every amount 0, the mix is LBS.
  for (size_t i = 0; i < lbs.size(); ++i) {
    EXPECT_NEAR(root[i], dqs[i], 1e-6) << i;
    EXPECT_NEAR(none[i], lbs[i], 1e-6) << i;
  }
}

// --bench-skinning measures the mix like the other rows: a "Mix" line with its ratio to LBS.
TEST(MixCli, BenchSkinningPrintsAMixLine) {
  const auto r = run_rigview(
      quote(kTwistArm) + " --bench-skinning 2 --skinning compare=lbs,mix --dqs-joints ArmTwist");
  if (r.status != 0 && r.err.find("no headless OpenGL") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\nLBS "), std::string::npos) << r.out;
  const size_t mix = r.out.find("\nMix ");
  ASSERT_NE(mix, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ms per million skinned vertices  x", mix), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" of LBS", mix), std::string::npos) << r.out;
}

TEST(MixCli, UnknownDqsJointIsAUsageErrorOnOneLine) {
  const auto r =
      run_rigview(quote(kTwistArm) + " --skinning mix --dqs-joints ArmTwist,Elbow " +
                  "--export-obj " + quote((rig::test::scratch_dir() / "x.obj").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--dqs-joints: no node named 'Elbow'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const auto without_mix = run_rigview(quote(kTwistArm) + " --dqs-joints ArmTwist --info");
  EXPECT_EQ(without_mix.status, 2);
  EXPECT_NE(without_mix.err.find("--dqs-joints needs --skinning mix"), std::string::npos)
      << without_mix.err;
}

}  // namespace
