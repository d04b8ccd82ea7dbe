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
#include <cstring>
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
                                const std::string& args, const std::string& extra_env = "",
                                const std::string& model = kMannequin) {
  // A display number of its own per run (xvfb-run -a searches up from it), so a server still
  // shutting down from the previous run is never in the way.
  static int runs = 0;
  const int first_display = 9000 + static_cast<int>(::getpid() % 1000) * 8 + (runs++ % 8);
  return rig::test::run_rigview_env(
      "XDG_CONFIG_HOME=" + quote(scratch("config")) + " RIGVIEW_VIEWER_FRAMES=6" +
          " RIGVIEW_VIEWER_POSING=" + quote(steps) +
          " RIGVIEW_VIEWER_EXPORT_POSE=" + quote(pose_file) + " " + extra_env + " xvfb-run -a -n " +
          std::to_string(first_display) + " -s '-screen 0 1280x720x24'",
      quote(model) + " --resolution 1280,720 " + args);
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

// One row of the table below: the viewer's start flags and posing steps, and the command line's
// flags for the same settings, where {target:J}, {pole:J} and {look:J} stand for the points the
// viewer printed for joint J's chain and the look-at.
struct PoseRow {
  const char* name;
  std::string args, steps, cli;
};

// The command line's flags with the viewer's printed points put in; "" when one is missing.
std::string fill_points(std::string cli, const std::string& out) {
  for (const char* kind : {"target", "pole", "look"}) {
    for (size_t at; (at = cli.find("{" + std::string(kind) + ":")) != std::string::npos;) {
      const size_t close = cli.find('}', at);
      const std::string joint =
          cli.substr(at + std::strlen(kind) + 2, close - at - std::strlen(kind) - 2);
      const std::string prefix = std::string(kind) == "look" ? "look-at " + joint + " target "
                                                             : "ik " + joint + " " + kind + " ";
      const std::string point = printed_point(out, prefix);
      if (point.empty()) return "";
      cli.replace(at, close + 1 - at, point);
    }
  }
  return cli;
}

// Every row: the viewer's pose JSON and --export-pose's, byte for byte.
void expect_table_matches(const std::string& model, const std::vector<PoseRow>& rows) {
  for (const PoseRow& row : rows) {
    SCOPED_TRACE(row.name);
    const std::string viewer_file = scratch(std::string("table_viewer_") + row.name + ".json");
    const std::string cli_file = scratch(std::string("table_cli_") + row.name + ".json");
    const rig::test::RunResult v = run_viewer(row.steps, viewer_file, row.args, "", model);
    ASSERT_EQ(v.status, 0) << v.err;
    const std::string cli = fill_points(row.cli, v.out);
    ASSERT_TRUE(row.cli.empty() || !cli.empty()) << v.out;
    const rig::test::RunResult c = rig::test::run_rigview(
        quote(model) + " " + row.args + " " + cli + " --export-pose " + quote(cli_file));
    ASSERT_EQ(c.status, 0) << c.err;
    const std::string posed = slurp(viewer_file);
    ASSERT_FALSE(posed.empty());
    EXPECT_EQ(slurp(cli_file), posed)
        << "viewer steps '" << row.steps << "', command line '" << cli << "'";
  }
}

// The same PoseSettings filled by the viewer's panels and by the command line's flags go through
// one PoseBuilder: every kind of layer and constraint, alone and together, gives one pose.
TEST(ViewerPosing, ATableOfSettingsGivesTheCommandLinesPoseByteForByte) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  const std::string walk = "--animation-index 1 --animation-time 0.3";
  const std::string fade =
      "--animation-index 1 --animation-time 0.3 --blend-index 2 --blend-time 0.2 --blend-weight "
      "0.375";
  const std::string hand = ";mid=LeftForeArm;root=LeftArm";
  expect_table_matches(
      kMannequin,
      {
          {"clip", walk, "", ""},
          {"crossfade", fade, "", ""},
          {"override", walk, "layer=3,0.5", "--layer 3:0.5"},
          {"additive", walk, "layer=5,0.3,additive", "--layer 5:0.3:additive"},
          {"masked", walk, "layer=3,0.7,Spine", "--layer 3:0.7:mask=Spine"},
          {"layer_time", walk, "layer=3,0.6,time=0.8", "--layer 3:0.6:time=0.8"},
          {"ik_pole_weight", walk, "ik=LeftHand;drag=30,-40;pole=10,10;weight=0.7",
           "--ik 'LeftHand={target:LeftHand};pole={pole:LeftHand};weight=0.7" + hand + "'"},
          {"ik_keep", walk, "ik=LeftHand;drag=-20,10;keep",
           "--ik 'LeftHand={target:LeftHand};keep" + hand + "'"},
          {"look_at", walk, "look=handle", "--look-at 'Head={look:Head}'"},
          {"feet", walk, "feet", "--feet-on-ground"},
          {"in_place", walk, "root=in-place", "--root-motion in-place"},
          {"extract_layers", fade, "layer=2,1;layer=1,0.5,additive,time=0.6;root=extract",
           "--layer 2:1 --layer 1:0.5:additive:time=0.6 --root-motion extract"},
          {"everything", fade,
           "layer=3,0.5,Spine;layer=5,0.3,additive;ik=LeftHand;drag=30,-40;feet;look=camera;"
           "root=extract",
           "--layer 3:0.5:mask=Spine --layer 5:0.3:additive --ik 'LeftHand={target:LeftHand}" +
               hand + "' --feet-on-ground --look-at 'Head={look:Head}' --root-motion extract"},
      });
}

// Every node's local translation in an --export-pose JSON, in node order.
std::vector<double> translations(const std::string& json) {
  std::vector<double> out;
  for (size_t at = json.find("\"translation\":["); at != std::string::npos;
       at = json.find("\"translation\":[", at + 1)) {
    size_t p = at + 15;
    for (int i = 0; i < 3; ++i) {
      size_t used = 0;
      out.push_back(std::stod(json.substr(p, 40), &used));
      p += used + 1;
    }
  }
  return out;
}

// CesiumMan's root walks on the ground (the mannequin's clips are in place), so here root motion
// on layers shows: the table, and a check against a pose made without any layer. An unmasked
// override layer at weight 1 of the clip at T, in place, must pose as the clip itself at T in
// place; a layer skipping root motion would carry the root to where the clip has it at T.
TEST(ViewerPosing, CorpusRootMotionOnLayersMatchesTheCommandLineAndThePlainClip) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  RIG_REQUIRE_CORPUS(corpus);
  const std::string model = (corpus / "CesiumMan" / "CesiumMan.glb").string();
  const std::string base = "--animation-index 0 --animation-time 0.2";
  expect_table_matches(
      model, {
                 {"cesium_override_in_place", base, "layer=0,1,time=1.5;root=in-place",
                  "--layer 0:1:time=1.5 --root-motion in-place"},
                 {"cesium_additive_extract", base, "layer=0,0.5,additive,time=1.2;root=extract",
                  "--layer 0:0.5:additive:time=1.2 --root-motion extract"},
             });
  const std::string plain_file = scratch("cesium_plain.json");
  ASSERT_EQ(rig::test::run_rigview(quote(model) +
                                   " --animation-index 0 --animation-time 1.5 --root-motion "
                                   "in-place --export-pose " +
                                   quote(plain_file))
                .status,
            0);
  const std::vector<double> layered =
      translations(slurp(scratch("table_viewer_cesium_override_in_place.json")));
  const std::vector<double> plain = translations(slurp(plain_file));
  ASSERT_EQ(layered.size(), plain.size());
  ASSERT_FALSE(plain.empty());
  for (size_t i = 0; i < plain.size(); ++i) EXPECT_NEAR(layered[i], plain[i], 1e-5) << i / 3;
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
// else, stays where it was: the angles the same viewer prints without the mouse steps (the
// first view's three-quarter front).
TEST(ViewerPosing, AMouseDragOnAHandleMovesTheTargetNotTheCamera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer posing test skipped";
  const std::string pose = scratch("mouse_pose.json");
  const rig::test::RunResult r = run_viewer("ik=LeftHand;mouse=25,-35", pose, kPose);
  ASSERT_EQ(r.status, 0) << r.err;
  const rig::test::RunResult still = run_viewer("ik=LeftHand", scratch("still_pose.json"), kPose);
  ASSERT_EQ(still.status, 0) << still.err;
  const std::string start_camera = printed_point(still.out, "camera yaw ");
  ASSERT_FALSE(start_camera.empty()) << still.out;
  EXPECT_EQ(printed_point(r.out, "camera yaw "), start_camera) << r.out;
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
