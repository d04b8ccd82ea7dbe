// The Rig health and Teaching aids panels in the real viewer under xvfb-run (self-test hooks
// RIGVIEW_VIEWER_BUGS / _FINDING / _RIG_HEALTH, app/viewer/self_test.h): what the panel lists
// for the clean mannequin and for each simulated bug, that turning a bug off gives back the very
// same frame, and that a click on a finding selects and frames its joints and shows its
// vertices.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glm/glm.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using rig::test::quote;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

class ViewerRigHealth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "xvfb-run is not installed: viewer test skipped";
    dir_ =
        rig::test::scratch_dir() / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir_ / "config");
  }

  // The viewer on `args` under a virtual X server (a display number of its own, as in
  // viewer_smoke_test.cpp), settings kept in the test's folder.
  rig::test::RunResult run(const std::string& env, const std::string& args) {
    const int display = 100 + static_cast<int>(::getpid() % 4000) * 2;
    return rig::test::run_rigview_env("XDG_CONFIG_HOME=" + quote((dir_ / "config").string()) + " " +
                                          env + " xvfb-run -a -n " + std::to_string(display) +
                                          " -s '-screen 0 1280x720x24'",
                                      args);
  }

  // RIGVIEW_VIEWER_RIG_HEALTH's file after a run with `env`.
  std::string panel(const std::string& env, const std::string& args = "",
                    const std::string& model = kMannequin) {
    const std::string file = (dir_ / "health.txt").string();
    fs::remove(file);
    const rig::test::RunResult r =
        run("RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_RIG_HEALTH=" + quote(file) + " " + env,
            quote(model) + " --resolution 800,600 " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // The panel's lines without the camera's (a bug chosen on the command line is framed at
  // start-up; one chosen in the panel keeps the camera).
  static std::string rows(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);)
      if (line.rfind("camera ", 0) != 0) out += line + "\n";
    return out;
  }

  static std::string line_starting(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(prefix, 0) == 0) return line;
    return "";
  }

  std::vector<unsigned char> pixels(const std::string& png) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* p = stbi_load(png.c_str(), &w, &h, &channels, 4);
    EXPECT_NE(p, nullptr) << png;
    if (!p) return {};
    std::vector<unsigned char> out(p, p + size_t(w) * size_t(h) * 4);
    stbi_image_free(p);
    return out;
  }

  fs::path dir_;
};

TEST_F(ViewerRigHealth, TheCleanFileShowsNoErrorAndEachSimulatedBugIsNamed) {
  const std::string clean = panel("");
  ASSERT_FALSE(clean.empty());
  EXPECT_EQ(clean.find("finding error"), std::string::npos) << clean;
  EXPECT_EQ(clean.find("finding warning"), std::string::npos) << clean;
  EXPECT_EQ(line_starting(clean, "summary error"), "") << clean;
  EXPECT_EQ(line_starting(clean, "bug "), "bug none");

  // Chosen in the Teaching aids panel (the hook), and from the command line: the same rows.
  // The codes are those the rig doctor's own tests establish for the mannequin.
  const std::pair<const char*, const char*> bugs[] = {{"no-ibm", "IBM_MISSING"},
                                                      {"reversed-multiply", "JOINT_ORDER_SUSPECT"},
                                                      {"shifted-joints", "JOINT_ORDER_SUSPECT"}};
  for (const auto& [bug, code] : bugs) {
    const std::string shown = panel(std::string("RIGVIEW_VIEWER_BUGS=") + bug);
    EXPECT_EQ(line_starting(shown, "bug "), std::string("bug ") + bug);
    EXPECT_NE(line_starting(shown, "summary error "), "") << bug << "\n" << shown;
    EXPECT_NE(line_starting(shown, std::string("finding error ") + code + " "), "") << bug << "\n"
                                                                                    << shown;
    EXPECT_EQ(rows(panel("", std::string("--simulate-bug ") + bug)), rows(shown)) << bug;
  }
  // translation-only-ibm leaves the mannequin's parallel joint frames as they are: no error.
  const std::string translation = panel("RIGVIEW_VIEWER_BUGS=translation-only-ibm");
  EXPECT_EQ(line_starting(translation, "bug "), "bug translation-only-ibm");
  EXPECT_EQ(translation.find("finding error"), std::string::npos) << translation;
  // Turning it off lists the clean file's rows again.
  EXPECT_EQ(panel("RIGVIEW_VIEWER_BUGS=no-ibm,none"), clean);

  const rig::test::RunResult bad =
      run("RIGVIEW_VIEWER_FRAMES=2 RIGVIEW_VIEWER_BUGS=sideways", quote(kMannequin));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("unknown bug 'sideways'"), std::string::npos) << bad.err;
}

// The pristine frame, the bug's frame and the frame after turning it off (same frame count,
// same fixed time step, camera kept): the last is the first, bit for bit.
TEST_F(ViewerRigHealth, TurningTheBugOffRestoresTheFrameBitForBit) {
  auto shot = [&](const std::string& name, const std::string& bugs) {
    const std::string png = (dir_ / (name + ".png")).string();
    const rig::test::RunResult r = run(
        "RIGVIEW_VIEWER_FRAMES=6 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_SCREENSHOT=" + quote(png) +
            (bugs.empty() ? "" : " RIGVIEW_VIEWER_BUGS=" + bugs),
        quote(kMannequin) + " --resolution 320,240");
    EXPECT_EQ(r.status, 0) << r.err;
    return pixels(png);
  };
  const std::vector<unsigned char> pristine = shot("pristine", "");
  const std::vector<unsigned char> broken = shot("broken", "no-ibm");
  const std::vector<unsigned char> restored = shot("restored", "no-ibm,none");
  ASSERT_EQ(pristine.size(), size_t(320 * 240 * 4));
  ASSERT_EQ(broken.size(), pristine.size());
  size_t changed = 0;
  for (size_t i = 0; i < pristine.size(); i += 4)
    changed += pristine[i] != broken[i] || pristine[i + 1] != broken[i + 1] ||
               pristine[i + 2] != broken[i + 2];
  EXPECT_GT(changed, 1000u) << "the simulated bug does not show";
  EXPECT_TRUE(restored == pristine) << "turning the bug off did not restore the frame";
}

// A click on the shifted-joints finding, in the rest pose: its most involved joint is selected
// (the name the engine's own diagnosis gives), the camera frames the finding's joints (checked
// against a box computed here from the file's vertices: in the mannequin's rest pose every
// skinning matrix is the identity, so each joint moves the bind positions of the vertices
// weighted to it where they are), and the affected-vertices view shows that finding; on screen
// the view colours the broken file and leaves the clean one grey.
TEST_F(ViewerRigHealth, ClickingAFindingSelectsFramesAndShowsItsVertices) {
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(kMannequin, model, error)) << error;
  rig::simulate_bug(model, rig::SimulatedBug::ShiftedJoints);
  const rig::RigDiagnosis d = rig::examine_rig(model);
  ASSERT_FALSE(d.findings.empty());
  const rig::RigFinding& first = d.findings.front();
  ASSERT_EQ(first.warning.code, "JOINT_ORDER_SUSPECT");
  ASSERT_FALSE(first.joints.empty());
  const std::string joint =
      model.nodes[size_t(model.skins[size_t(first.skin)].joints[size_t(first.joints[0])])].name;
  // The box of every vertex with a non-zero weight on one of the finding's joints.
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const rig::DrawItem& item : model.draws) {
    if (item.skin != first.skin) continue;
    const rig::Primitive& p = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    for (size_t v = 0; v < p.vertex_count(); ++v)
      for (uint32_t k = 0; k < p.influences; ++k) {
        const size_t slot = v * p.influences + k;
        if (p.weights[slot] == 0.0f || std::find(first.joints.begin(), first.joints.end(),
                                                 int(p.joints[slot])) == first.joints.end())
          continue;
        lo = glm::min(lo, p.positions[v]);
        hi = glm::max(hi, p.positions[v]);
      }
  }
  ASSERT_LE(lo.x, hi.x);
  const glm::vec3 centre = 0.5f * (lo + hi);
  const float radius = 0.5f * glm::length(hi - lo);
  const float fov_y = 0.7854f;  // OrbitCamera's 45 degrees; frame() leaves a 5 % margin
  const float expected_distance = radius / std::sin(0.5f * fov_y) * 1.05f;

  const std::string before = panel("RIGVIEW_VIEWER_BUGS=shifted-joints", "--rest-pose");
  const std::string after =
      panel("RIGVIEW_VIEWER_BUGS=shifted-joints RIGVIEW_VIEWER_FINDING=0", "--rest-pose");
  EXPECT_EQ(line_starting(before, "selected "), "selected -");
  EXPECT_EQ(line_starting(after, "selected "), "selected " + joint) << after;
  EXPECT_NE(line_starting(after, "view ").find("finding 0"), std::string::npos) << after;
  auto camera = [&](const std::string& text) {
    std::istringstream in(line_starting(text, "camera ").substr(7));
    glm::vec4 c(0.0f);
    in >> c.x >> c.y >> c.z >> c.w;
    return c;
  };
  const glm::vec4 framed = camera(after);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(framed[a], centre[a], 1e-3f) << "axis " << a << after;
  EXPECT_NEAR(framed.w, expected_distance, 1e-3f * expected_distance) << after;
  EXPECT_NE(camera(before), framed);

  // V six times from Off: the rig findings view. The heat map's coloured vertices (blue to red)
  // show on the broken file; the clean one is all neutral grey.
  auto coloured_pixels = [&](const std::string& name, const std::string& args) {
    const std::string png = (dir_ / (name + ".png")).string();
    const rig::test::RunResult r =
        run("RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_KEYS=gvvvvvv "
            "RIGVIEW_VIEWER_SCREENSHOT=" +
                quote(png),
            quote(kMannequin) + " --rest-pose --resolution 480,360 " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    const std::vector<unsigned char> p = pixels(png);
    size_t n = 0;
    for (size_t i = 0; i + 3 < p.size(); i += 4) {
      const int r8 = p[i], g8 = p[i + 1], b8 = p[i + 2];
      const int hi = std::max(r8, std::max(g8, b8)), lo = std::min(r8, std::min(g8, b8));
      n += hi - lo > 60;  // saturated: not grey, not the dark background
    }
    return n;
  };
  EXPECT_LT(coloured_pixels("clean", ""), 50u);
  EXPECT_GT(coloured_pixels("shifted", "--simulate-bug shifted-joints"), 1000u);
}

// The bug that the mannequin's parallel joint frames hide, on a rig with rotated joints: the
// rig doctor's corpus test establishes IBM_SUSPECT for CesiumMan.
TEST_F(ViewerRigHealth, CorpusCesiumManNamesTheTranslationOnlyIbm) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::string model = (corpus / "CesiumMan" / "CesiumMan.glb").string();
  const std::string clean = panel("", "", model);
  EXPECT_EQ(clean.find("finding error"), std::string::npos) << clean;
  const std::string shown = panel("RIGVIEW_VIEWER_BUGS=translation-only-ibm", "", model);
  EXPECT_NE(line_starting(shown, "finding error IBM_SUSPECT "), "") << shown;
  EXPECT_EQ(panel("RIGVIEW_VIEWER_BUGS=translation-only-ibm,none", "", model), clean);
}

}  // namespace
