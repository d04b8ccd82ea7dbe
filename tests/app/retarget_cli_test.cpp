// Retargeting on the command line (--clips with another skeleton, --bone-map,
// --retarget-report): a file whose skeleton is no humanoid is one line naming what it lacks;
// --bone-map's pairs win; a retargeted clip saved and reopened plays the same poses; and on
// corpus pairs the retargeted limbs point where the source's do, measured here from the two
// --export-pose files (world matrices), not from the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/glm.hpp>
#include <string>
#include <utility>

#include "anim/joint_mask.h"
#include "import/gltf_import.h"
#include "json_reader.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using rig::test::Json;
using rig::test::parse_json;
using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kApose = std::string(RIGVIEW_SOURCE_DIR) + "/assets/humanoid_apose.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string scratch(const std::string& name) {
  return (rig::test::scratch_dir() / ("retarget_" + name)).string();
}

Json report(const std::string& target, const std::string& source, const std::string& flags = "") {
  const std::string path = scratch("report.json");
  fs::remove(path);
  const rig::test::RunResult r = run_rigview(quote(target) + " --clips " + quote(source) + " " +
                                             flags + " --retarget-report " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? parse_json(slurp(path)) : Json{};
}

Json pose(const std::string& model, const std::string& flags) {
  const std::string path = scratch("pose.json");
  fs::remove(path);
  const rig::test::RunResult r =
      run_rigview(quote(model) + " " + flags + " --export-pose " + quote(path));
  EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
  return r.status == 0 ? parse_json(slurp(path)) : Json{};
}

// A node's model-space position (the world matrix's translation column) in an --export-pose file.
glm::dvec3 position(const Json& pose, const std::string& name) {
  for (const Json& node : pose["nodes"].items)
    if (node["name"].text == name) {
      const Json& w = node["world"];
      return {w[12].number, w[13].number, w[14].number};
    }
  ADD_FAILURE() << "no node " << name;
  return glm::dvec3(0.0);
}

// The joint names (source, target) of the map's pair playing `role`.
std::pair<std::string, std::string> pair_of(const Json& file, const std::string& role) {
  for (const Json& p : file["map"].items)
    if (p["role"].text == role) return {p["source"].text, p["target"].text};
  ADD_FAILURE() << "no pair for " << role;
  return {};
}

// Whether node `child` hangs below node `joint` in `model` (by names).
bool descends(const rig::Model& model, const std::string& joint, const std::string& child) {
  int n = rig::find_node(model, child);
  const int j = rig::find_node(model, joint);
  while (n >= 0 && n != j) n = model.nodes[size_t(n)].parent;
  return j >= 0 && n == j;
}

bool has_pair(const Json& file, const std::string& role) {
  for (const Json& p : file["map"].items)
    if (p["role"].text == role) return true;
  return false;
}

double angle_deg(glm::dvec3 a, glm::dvec3 b) {
  const double c = glm::dot(glm::normalize(a), glm::normalize(b));
  return glm::degrees(std::acos(std::clamp(c, -1.0, 1.0)));
}

TEST(RetargetCli, ASkeletonThatIsNoHumanoidIsOneLineNamingWhatItLacks) {
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " --clips " + quote(kTwistArm) + " --info");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(kTwistArm), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not a humanoid"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hips"), std::string::npos) << r.err;
  // A bone map file that is not one is one line naming it.
  const std::string bad = scratch("bad_map.json");
  write_text(bad, "[1,2]");
  const rig::test::RunResult m = run_rigview(quote(kMannequin) + " --clips " + quote(kTwistArm) +
                                             " --bone-map " + quote(bad) + " --info");
  EXPECT_EQ(m.status, 1);
  EXPECT_NE(m.err.find(bad), std::string::npos) << m.err;
}

// The character frame of README "the retarget": up = the model axis nearest hips → head, left
// = right upper leg → left upper leg without its up part; G takes the source's (left, up,
// forward) onto the target's. Worked out here from --rest-pose exports.
glm::dmat3 frame_of(const Json& rest, const Json& file, bool source) {
  auto joint = [&](const std::string& role) {
    const auto [s, t] = pair_of(file, role);
    return position(rest, source ? s : t);
  };
  const glm::dvec3 spine = joint("head") - joint("hips");
  glm::dvec3 up(0.0);
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (std::abs(spine[a]) > std::abs(spine[axis])) axis = a;
  up[axis] = spine[axis] > 0.0 ? 1.0 : -1.0;
  glm::dvec3 left = joint("leftUpperLeg") - joint("rightUpperLeg");
  left = glm::normalize(left - glm::dot(left, up) * up);
  return glm::dmat3(left, up, glm::cross(left, up));
}

struct Pair {
  std::string target, source;
  int source_clip;  // its index in the source file
};

// Every retargeted limb points where the source's does (after G), within the 1°, at
// three times of a clip; and the hips move by the ratio of the rest hip heights.
void expect_follows(const Pair& pair) {
  SCOPED_TRACE(pair.target + " <- " + pair.source);
  const Json r = report(pair.target, pair.source);
  if (r.is_null()) return;
  const Json& file = r["files"][0];
  ASSERT_TRUE(file["retargeted"].boolean);
  const Json& clip = file["clips"][size_t(pair.source_clip)];
  const int index = int(clip["index"].number);
  rig::Model source_model, target_model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(pair.source, source_model, error)) << error;
  ASSERT_TRUE(rig::import_gltf(pair.target, target_model, error)) << error;
  const Json source_rest = pose(pair.source, "--rest-pose");
  const Json target_rest = pose(pair.target, "--rest-pose");
  const glm::dmat3 g =
      frame_of(target_rest, file, false) * glm::transpose(frame_of(source_rest, file, true));
  // Hip heights: above the lowest foot or toe joint, along up.
  auto hip_height = [&](const Json& rest, bool source) {
    const glm::dvec3 up = frame_of(rest, file, source)[1];
    double lowest = 1e30;
    for (const char* role : {"leftFoot", "rightFoot", "leftToes", "rightToes"})
      for (const Json& p : file["map"].items)
        if (p["role"].text == role)
          lowest = std::min(
              lowest, glm::dot(up, position(rest, source ? p["source"].text : p["target"].text)));
    const auto [s, t] = pair_of(file, "hips");
    return glm::dot(up, position(rest, source ? s : t)) - lowest;
  };
  const double ratio = hip_height(target_rest, false) / hip_height(source_rest, true);
  EXPECT_NEAR(clip["hip_ratio"].number, ratio, 1e-4 * ratio);
  const auto [source_hips, target_hips] = pair_of(file, "hips");
  const double start = clip["start"].number, end = clip["end"].number;
  glm::dvec3 source_first(0.0), target_first(0.0);
  for (int k = 0; k < 3; ++k) {
    const double t = start + (end - start) * (0.1 + 0.4 * k);
    const std::string at = " --animation-time " + std::to_string(t);
    const Json s = pose(pair.source, "--animation-index " + std::to_string(pair.source_clip) + at);
    const Json d = pose(pair.target, "--clips " + quote(pair.source) + " --animation-index " +
                                         std::to_string(index) + at);
    for (const char* side : {"left", "right"})
      for (const auto& [joint, child] : {std::pair{"UpperArm", "LowerArm"},
                                         {"LowerArm", "Hand"},
                                         {"UpperLeg", "LowerLeg"},
                                         {"LowerLeg", "Foot"}}) {
        // The Quaternius robots have no hand joint (one palm joint per finger): no such pair.
        if (!has_pair(file, side + std::string(child))) continue;
        const auto [sj, tj] = pair_of(file, side + std::string(joint));
        const auto [sc, tc] = pair_of(file, side + std::string(child));
        // A bone with a mapped child only: RobotExpressive's feet hang from its root, not its
        // lower legs, so its lower legs have none there.
        if (!descends(target_model, tj, tc) || !descends(source_model, sj, sc)) continue;
        const double error =
            angle_deg(position(d, tc) - position(d, tj), g * (position(s, sc) - position(s, sj)));
        EXPECT_LE(error, 1.0) << side << joint << " at " << t;
      }
    // The hips' displacement from the first sampled time: the source's, turned and scaled.
    if (k == 0) {
      source_first = position(s, source_hips), target_first = position(d, target_hips);
    } else {
      const glm::dvec3 expected = ratio * (g * (position(s, source_hips) - source_first));
      const glm::dvec3 moved = position(d, target_hips) - target_first;
      EXPECT_LE(glm::length(moved - expected), 1e-3 * (glm::length(expected) + 1e-3))
          << "hips at " << t;
    }
  }
}

TEST(RetargetCli, TheAPoseHumanoidAndTheMannequinFollowEachOther) {
  // The generated A-pose humanoid (other names, proportions and rest pose) and the T-pose
  // mannequin, both ways.
  expect_follows(Pair{kMannequin, kApose, 0});
  expect_follows(Pair{kApose, kMannequin, 1});
}

TEST(RetargetCliCorpus, LimbsFollowTheSourceAndTheHipsScale) {
  RIG_REQUIRE_CORPUS(root);
  const std::string knight = (root / "KayKit_Knight" / "Knight.glb").string();
  const std::string robot = (root / "RobotExpressive" / "RobotExpressive.glb").string();
  for (const Pair& pair : {Pair{kMannequin, knight, 0}, Pair{knight, kMannequin, 1},
                           Pair{kMannequin, robot, 2}, Pair{robot, kMannequin, 1}})
    expect_follows(pair);
}

// --retarget-feet on the A-pose humanoid playing the mannequin's clips: its legs are shorter
// than the hip ratio makes the mannequin's, so on some frames the hips move for a planted foot
// to be reached; the report says so, and the planted feet hold (the 0.1% per frame).
TEST(RetargetCli, FeetDriveSaysWhenTheHipsMoveForAFoot) {
  const Json off = report(kApose, kMannequin);
  const Json on = report(kApose, kMannequin, "--retarget-feet");
  if (off.is_null() || on.is_null()) return;
  EXPECT_EQ(off["files"][0]["feet_drive"].text, "off");
  EXPECT_EQ(on["files"][0]["feet_drive"].text, "legs+hips");
  size_t moved = 0;
  for (const Json& clip : on["files"][0]["clips"].items) {
    moved += size_t(clip["feet_hips_frames"].number);
    EXPECT_LE(clip["foot_slide_max"].number, 1e-3) << clip["name"].text;
  }
  EXPECT_GT(moved, 0u);
  for (const Json& clip : off["files"][0]["clips"].items)
    EXPECT_EQ(clip["feet_hips_frames"].number, 0.0) << clip["name"].text;
}

// Names are not unique (RobotExpressive has a mesh node and a joint both named Torso): each pair
// also gives its node indices, and every clip its frame grid.
TEST(RetargetCliCorpus, ReportGivesNodeIndicesAndTheFrameGrid) {
  RIG_REQUIRE_CORPUS(root);
  const std::string robot = (root / "RobotExpressive" / "RobotExpressive.glb").string();
  rig::Model robot_model, mannequin_model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(robot, robot_model, error)) << error;
  ASSERT_TRUE(rig::import_gltf(kMannequin, mannequin_model, error)) << error;
  const Json r = report(kMannequin, robot);
  if (r.is_null()) return;
  const Json& file = r["files"][0];
  bool torso = false;
  for (const Json& p : file["map"].items) {
    const size_t s = size_t(p["source_node"].number), t = size_t(p["target_node"].number);
    ASSERT_LT(s, robot_model.nodes.size());
    ASSERT_LT(t, mannequin_model.nodes.size());
    EXPECT_EQ(robot_model.nodes[s].name, p["source"].text);
    EXPECT_EQ(mannequin_model.nodes[t].name, p["target"].text);
    if (p["source"].text == "Torso") {
      torso = true;
      // The joint (a child of Abdomen), not the mesh node of the same name under Body.
      const int parent = robot_model.nodes[s].parent;
      ASSERT_GE(parent, 0);
      EXPECT_EQ(robot_model.nodes[size_t(parent)].name, "Abdomen");
    }
  }
  EXPECT_TRUE(torso);
  for (const Json& clip : file["clips"].items) {
    const double frame = clip["frame_duration"].number;
    const double length = clip["end"].number - clip["start"].number;
    ASSERT_GT(frame, 0.0);
    // README's grid: count = ceil(length / frame − 0.05) + 1, one frame for no length.
    const double count = length > 0.0 ? std::max(1.0, std::ceil(length / frame - 0.05)) + 1 : 1;
    EXPECT_EQ(clip["frames"].number, count) << clip["name"].text;
  }
  // Its feet hang from its root, not its lower legs: --retarget-feet places them by their own
  // translation instead of two-bone IK, and holds them (slide within 0.1 % of its height).
  const Json feet = report(robot, kMannequin, "--retarget-feet");
  if (!feet.is_null()) {
    EXPECT_EQ(feet["files"][0]["feet_drive"].text, "placed");
    for (const Json& clip : feet["files"][0]["clips"].items)
      EXPECT_LE(clip["foot_slide_max"].number, 1e-3) << clip["name"].text;
  }
}

// --bone-map's pairs win over the automatic ones: a pair replaces every pair of either joint,
// and null unmaps a source joint.
TEST(RetargetCliCorpus, BoneMapOverridesWin) {
  RIG_REQUIRE_CORPUS(root);
  const std::string knight = (root / "KayKit_Knight" / "Knight.glb").string();
  const Json automatic = report(kMannequin, knight);
  if (automatic.is_null()) return;
  const auto [left_arm, _] = pair_of(automatic["files"][0], "leftUpperArm");
  const auto [left_hand, __] = pair_of(automatic["files"][0], "leftHand");
  const std::string map = scratch("override.json");
  write_text(map, "{\"" + left_arm + "\": \"RightArm\", \"" + left_hand + "\": null}");
  const Json r = report(kMannequin, knight, "--bone-map " + quote(map));
  if (r.is_null()) return;
  const Json& file = r["files"][0];
  int uses_right_arm = 0, uses_left_arm = 0, uses_left_hand = 0;
  for (const Json& p : file["map"].items) {
    uses_right_arm += p["target"].text == "RightArm";
    uses_left_arm += p["source"].text == left_arm;
    uses_left_hand += p["source"].text == left_hand;
    if (p["source"].text == left_arm) {
      EXPECT_EQ(p["target"].text, "RightArm");
    }
  }
  EXPECT_EQ(uses_right_arm, 1);
  EXPECT_EQ(uses_left_arm, 1);
  EXPECT_EQ(uses_left_hand, 0);
  bool listed = false;
  for (const Json& name : file["unmapped_source"].items) listed = listed || name.text == left_hand;
  EXPECT_TRUE(listed) << left_hand << " should be listed unmapped";
  // An unknown joint is one line naming the bone map file.
  write_text(map, "{\"no such joint\": \"Hips\"}");
  const rig::test::RunResult bad = run_rigview(quote(kMannequin) + " --clips " + quote(knight) +
                                               " --bone-map " + quote(map) + " --info");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find(map), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("no such joint"), std::string::npos) << bad.err;
}

// A retargeted clip saved into the character's file and reopened plays the same poses.
TEST(RetargetCliCorpus, SavedRetargetedClipPlaysTheSame) {
  RIG_REQUIRE_CORPUS(root);
  const std::string knight = (root / "KayKit_Knight" / "Knight.glb").string();
  const std::string saved = scratch("saved.glb");
  fs::remove(saved);
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " --clips " + quote(knight) + " --save " + quote(saved));
  ASSERT_EQ(r.status, 0) << r.err;
  for (const double t : {0.1, 0.45}) {
    const std::string at = " --animation-index 8 --animation-time " + std::to_string(t);
    const Json a = pose(kMannequin, "--clips " + quote(knight) + at);
    const Json b = pose(saved, at);
    ASSERT_EQ(a["nodes"].items.size(), b["nodes"].items.size());
    for (size_t n = 0; n < a["nodes"].items.size(); ++n)
      for (size_t k = 0; k < 16; ++k)
        EXPECT_NEAR(a["nodes"][n]["world"][k].number, b["nodes"][n]["world"][k].number, 1e-5)
            << a["nodes"][n]["name"].text << " at " << t;
  }
}

}  // namespace
