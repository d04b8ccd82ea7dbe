// The viewer's posing (Posing panel, handles) run for real under xvfb-run through the
// RIGVIEW_VIEWER_POSING steps (app/viewer/self_test.h): layers, an IK chain on the mannequin's
// left hand whose target is moved by a mouse drag through the handle code, look-at, root motion
// and feet on the ground. The pose it writes (RIGVIEW_VIEWER_EXPORT_POSE, --export-pose's
// writer) is checked against what must hold whatever the drag did (the hand sits on the dragged
// target, the bones keep their lengths) and against the command line given the same settings.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

using rig::test::quote;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
// Walk, 0.3 s: an explicit time starts the viewer paused on exactly the command line's pose.
const std::string kPose = "--animation-index 1 --animation-time 0.3";

bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

using rig::test::slurp;

std::string scratch(const std::string& name) { return (rig::test::scratch_dir() / name).string(); }

rig::test::RunResult run_viewer(const std::string& steps, const std::string& pose_file,
                                const std::string& args, const std::string& extra_env = "") {
  // A display number of its own per run (xvfb-run -a searches up from it), so a server still
  // shutting down from the previous run is never in the way.
  static int runs = 0;
  const int first_display = 9000 + static_cast<int>(::getpid() % 1000) * 8 + (runs++ % 8);
  return rig::test::run_rigview_env(
      "XDG_CONFIG_HOME=" + quote(scratch("config")) + " RIGVIEW_VIEWER_FRAMES=6" +
          " RIGVIEW_VIEWER_POSING=" + quote(steps) +
          " RIGVIEW_VIEWER_EXPORT_POSE=" + quote(pose_file) + " " + extra_env + " xvfb-run -a -n " +
          std::to_string(first_display) + " -s '-screen 0 1280x720x24'",
      quote(kMannequin) + " --resolution 1280,720 " + args);
}

// The numbers after "<prefix>" on the line of `out` that starts with it ("ik LeftHand target ").
std::string printed_point(const std::string& out, const std::string& prefix) {
  const size_t at = out.find(prefix);
  if (at == std::string::npos) return "";
  const size_t begin = at + prefix.size();
  return out.substr(begin, out.find('\n', begin) - begin);
}

std::vector<double> parse_point(const std::string& text) {
  std::vector<double> v;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) v.push_back(std::stod(part));
  return v;
}

// World position (matrix column 3) of node `name` in an --export-pose JSON.
std::vector<double> world_position(const std::string& json, const std::string& name) {
  const size_t node = json.find("{\"name\":\"" + name + "\"");
  EXPECT_NE(node, std::string::npos) << name;
  if (node == std::string::npos) return {0, 0, 0};
  size_t at = json.find("\"world\":[", node) + 9;
  std::vector<double> m;
  for (int i = 0; i < 16; ++i) {
    size_t used = 0;
    m.push_back(std::stod(json.substr(at), &used));
    at += used + 1;
  }
  return {m[12], m[13], m[14]};
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

TEST(ViewerPosing, DraggedIkLayersLookAtAndRootMotionMatchTheCommandLine) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  const std::string viewer_pose = scratch("viewer_pose.json");
  const rig::test::RunResult r = run_viewer(
      "layer=3,0.5,Spine;layer=5,0.3,additive;ik=LeftHand;drag=30,-40;depth=-10;look=camera;"
      "root=extract",
      viewer_pose, kPose);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string target_text = printed_point(r.out, "ik LeftHand target ");
  const std::string look_text = printed_point(r.out, "look-at Head target ");
  ASSERT_FALSE(target_text.empty()) << r.out;
  ASSERT_FALSE(look_text.empty()) << r.out;
  const std::vector<double> target = parse_point(target_text);
  ASSERT_EQ(target.size(), 3u);
  const std::string posed = slurp(viewer_pose);

  // The same layers and root motion without IK or look-at, from the command line: the pose the
  // chain started from.
  const std::string layers =
      "--layer 'Wave:0.5:mask=Spine' --layer 'Bend:0.3:additive' "
      "--root-motion extract";
  const std::string base_file = scratch("base_pose.json");
  ASSERT_EQ(rig::test::run_rigview(quote(kMannequin) + " " + kPose + " " + layers +
                                   " --export-pose " + quote(base_file))
                .status,
            0);
  const std::string base = slurp(base_file);
  const double upper =
      distance(world_position(base, "LeftArm"), world_position(base, "LeftForeArm"));
  const double lower =
      distance(world_position(base, "LeftForeArm"), world_position(base, "LeftHand"));
  const double chain = upper + lower;
  // The drag moved the target (by a few cm, not nothing), to a point the chain can reach.
  EXPECT_GT(distance(target, world_position(base, "LeftHand")), 0.05);
  ASSERT_LT(distance(target, world_position(base, "LeftArm")), chain);

  // The hand is on the dragged target, and the arm's bones keep their lengths.
  EXPECT_LT(distance(world_position(posed, "LeftHand"), target), 1e-5 * chain);
  EXPECT_NEAR(distance(world_position(posed, "LeftArm"), world_position(posed, "LeftForeArm")),
              upper, 1e-5);
  EXPECT_NEAR(distance(world_position(posed, "LeftForeArm"), world_position(posed, "LeftHand")),
              lower, 1e-5);

  // The command line with the same layers, chain (twist joint skipped), look-at point and root
  // motion writes the very same pose.
  const std::string cli_file = scratch("cli_pose.json");
  const rig::test::RunResult cli = rig::test::run_rigview(
      quote(kMannequin) + " " + kPose + " " + layers + " --ik " +
      quote("LeftHand=" + target_text + ";mid=LeftForeArm;root=LeftArm") + " --look-at " +
      quote("Head=" + look_text) + " --export-pose " + quote(cli_file));
  ASSERT_EQ(cli.status, 0) << cli.err;
  EXPECT_EQ(slurp(cli_file), posed);
}

TEST(ViewerPosing, FeetOnGroundPlaysWithPoleHandleAndFollowCamera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  const std::string pose = scratch("feet_pose.json"), shot = scratch("feet.png");
  const rig::test::RunResult r =
      run_viewer("feet;ik=RightHand;pole=10,10;drag=-20,10;look=handle;root=extract;follow", pose,
                 "--animation-index 1 --armature", "RIGVIEW_VIEWER_SCREENSHOT=" + quote(shot));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ik RightHand pole "), std::string::npos) << r.out;
  // The feet chains keep the legs' bones whole while the walk plays.
  const std::string posed = slurp(pose);
  ASSERT_FALSE(posed.empty());
  const std::string base_file = scratch("feet_base.json");
  ASSERT_EQ(rig::test::run_rigview(quote(kMannequin) + " --animation-index 1 --export-pose " +
                                   quote(base_file))
                .status,
            0);
  const std::string base = slurp(base_file);
  for (const char* pair :
       {"LeftUpLeg|LeftLeg", "LeftLeg|LeftFoot", "RightUpLeg|RightLeg", "RightLeg|RightFoot"}) {
    const std::string p(pair), a = p.substr(0, p.find('|')), b = p.substr(p.find('|') + 1);
    EXPECT_NEAR(distance(world_position(posed, a), world_position(posed, b)),
                distance(world_position(base, a), world_position(base, b)), 1e-5)
        << pair;
  }
}

// Checked before the window opens (so no display is needed), in one line.
TEST(ViewerPosing, ABadStepIsAOneLineError) {
  for (const char* steps : {"ik=NoSuchJoint", "drag=1,2", "layer=99,1", "bogus", "look=sky"}) {
    const rig::test::RunResult r = rig::test::run_rigview_env(
        "env -u DISPLAY -u WAYLAND_DISPLAY RIGVIEW_VIEWER_FRAMES=2 RIGVIEW_VIEWER_POSING=" +
            quote(steps),
        quote(kMannequin));
    EXPECT_EQ(r.status, 2) << steps;
    EXPECT_EQ(r.err.rfind("rigview: error: RIGVIEW_VIEWER_POSING: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The mouse path itself: a press on the target's circle, a move and a release fed to ImGui's
// mouse state (frames 3-5) drag the target, and the camera, which a left drag orbits anywhere
// else, stays where it was (OrbitCamera's start angles: yaw 0.6, pitch 0.25).
TEST(ViewerPosing, AMouseDragOnAHandleMovesTheTargetNotTheCamera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  const std::string pose = scratch("mouse_pose.json");
  const rig::test::RunResult r = run_viewer("ik=LeftHand;mouse=25,-35", pose, kPose);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("camera yaw 0.600000024 pitch 0.25\n"), std::string::npos) << r.out;
  const std::vector<double> target = parse_point(printed_point(r.out, "ik LeftHand target "));
  ASSERT_EQ(target.size(), 3u) << r.out;
  const std::string base_file = scratch("mouse_base.json");
  ASSERT_EQ(
      rig::test::run_rigview(quote(kMannequin) + " " + kPose + " --export-pose " + quote(base_file))
          .status,
      0);
  const std::string base = slurp(base_file), posed = slurp(pose);
  // 35 pixels up and 25 across at about 3 m in a 720-pixel, 45° view: several centimetres.
  EXPECT_GT(distance(target, world_position(base, "LeftHand")), 0.05);
  const double chain =
      distance(world_position(base, "LeftArm"), world_position(base, "LeftForeArm")) +
      distance(world_position(base, "LeftForeArm"), world_position(base, "LeftHand"));
  ASSERT_LT(distance(target, world_position(base, "LeftArm")), chain);
  EXPECT_LT(distance(world_position(posed, "LeftHand"), target), 1e-5 * chain);
}

}  // namespace
