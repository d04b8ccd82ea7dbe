// Posing on the command line (--layer, --ik, --look-at, --root-motion) checked through
// --export-pose, against geometric expectations: IK reaches its target with unchanged bone
// lengths, weight 0 changes nothing, masks keep the base, in-place roots stay put.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

std::string export_pose(const std::string& name, const std::string& flags) {
  const std::string path = (rig::test::scratch_dir() / ("pose_" + name + ".json")).string();
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " " + flags + " --export-pose " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The numbers of node `name`'s array `key` ("world", "rotation", ...).
std::vector<double> node_array(const std::string& json, const std::string& name,
                               const std::string& key) {
  const size_t node = json.find("{\"name\":\"" + name + "\"");
  EXPECT_NE(node, std::string::npos) << name;
  std::vector<double> out;
  if (node == std::string::npos) return out;
  size_t at = json.find("\"" + key + "\":[", node) + key.size() + 4;
  const size_t end = json.find(']', at);
  while (at < end) {
    size_t used = 0;
    out.push_back(std::stod(json.substr(at), &used));
    at += used + 1;
  }
  return out;
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  return std::sqrt((a[12] - b[12]) * (a[12] - b[12]) + (a[13] - b[13]) * (a[13] - b[13]) +
                   (a[14] - b[14]) * (a[14] - b[14]));
}

const std::string kPose = "--animation-index 1 --animation-time 0.3";
const std::string kChain = ";mid=LeftForeArm;root=LeftArm";

TEST(PosingCli, IkReachesTheTargetAndKeepsBoneLengths) {
  const std::string base = export_pose("base", kPose);
  const std::string ik = export_pose("ik", kPose + " --ik 'LeftHand=0.5,1.2,0.3" + kChain + "'");
  const std::vector<double> hand = node_array(ik, "LeftHand", "world");
  ASSERT_EQ(hand.size(), 16u);
  EXPECT_NEAR(hand[12], 0.5, 1e-5);
  EXPECT_NEAR(hand[13], 1.2, 1e-5);
  EXPECT_NEAR(hand[14], 0.3, 1e-5);
  for (const char* parent_child : {"LeftArm|LeftForeArm", "LeftForeArm|LeftHand"}) {
    const std::string pc(parent_child);
    const std::string a = pc.substr(0, pc.find('|')), b = pc.substr(pc.find('|') + 1);
    EXPECT_NEAR(distance(node_array(ik, a, "world"), node_array(ik, b, "world")),
                distance(node_array(base, a, "world"), node_array(base, b, "world")), 1e-5)
        << parent_child;
  }
  // Weight 0 changes nothing, to the last digit.
  EXPECT_EQ(export_pose("ik0", kPose + " --ik 'LeftHand=0.5,1.2,0.3" + kChain + ";weight=0'"),
            base);
}

TEST(PosingCli, LayersMasksAndRootMotion) {
  const std::string base = export_pose("layers_base", kPose);
  // An additive layer at weight 0 changes nothing; a masked override layer leaves every node
  // outside the mask as the base has it.
  EXPECT_EQ(export_pose("add0", kPose + " --layer Bend:0:additive"), base);
  const std::string masked = export_pose("masked", kPose + " --layer Wave:1:mask=RightShoulder");
  EXPECT_EQ(node_array(masked, "LeftForeArm", "rotation"),
            node_array(base, "LeftForeArm", "rotation"));
  EXPECT_EQ(node_array(masked, "Hips", "translation"), node_array(base, "Hips", "translation"));
  EXPECT_NE(node_array(masked, "RightForeArm", "rotation"),
            node_array(base, "RightForeArm", "rotation"));
  // In place: the root's horizontal position is the same at any time of the walk.
  const std::vector<double> a = node_array(
      export_pose("inplace_a", "--animation-index 1 --animation-time 0.1 --root-motion in-place"),
      "Hips", "world");
  const std::vector<double> b = node_array(
      export_pose("inplace_b", "--animation-index 1 --animation-time 0.7 --root-motion in-place"),
      "Hips", "world");
  EXPECT_NEAR(a[12], b[12], 1e-5);
  EXPECT_NEAR(a[14], b[14], 1e-5);
}

TEST(PosingCli, SchemaAndBadArgumentsAreOneLineErrors) {
  const std::string pose = export_pose("schema", kPose);
  EXPECT_EQ(pose.rfind("{\"nodes\":[{\"name\":", 0), 0u);
  EXPECT_NE(pose.find("],\"skins\":[{\"name\":"), std::string::npos);
  EXPECT_NE(pose.find("\"skinning_matrices\":[["), std::string::npos);
  for (const char* bad :
       {"--ik 'Nope=1,2,3'", "--ik 'LeftHand=1,2'", "--layer 'NoClip:1'", "--layer 'Wave:2'",
        "--layer 'Wave:1:mask=Nope'", "--look-at 'Head=1,2'", "--root-motion sideways"}) {
    const rig::test::RunResult r =
        run_rigview(quote(kMannequin) + " " + bad + " --export-pose " +
                    quote((rig::test::scratch_dir() / "bad.json").string()));
    EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // Feet on the ground needs a left and a right foot: the twisting arm has none.
  const rig::test::RunResult r = run_rigview(
      quote(std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb") +
      " --feet-on-ground --export-pose " + quote((rig::test::scratch_dir() / "bad.json").string()));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--feet-on-ground: no left and right foot joints"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
