// The interactive viewer, run for real: without a display it fails in one line pointing at
// --output; under xvfb-run it opens a window, renders a few frames through the renderer and the
// UI (self-test hooks RIGVIEW_VIEWER_*; see app/viewer/self_test.h), writes a screenshot, keeps
// the current model when a dropped file fails to load, and remembers recent files.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "skin/skinning_method.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using rig::test::quote;

// One triangle, positions in a data: URI (the buffer holds (0,0,0), (1,0,0), (0,1,0)).
constexpr const char* kTriangleGltf = R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0]}],
  "nodes": [{"mesh": 0}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                 "min": [0, 0, 0], "max": [1, 1, 0]}],
  "bufferViews": [{"buffer": 0, "byteLength": 36}],
  "buffers": [{"byteLength": 36,
               "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]
})";

class ViewerSmoke : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rigview_viewer_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "config");
    triangle_ = (dir_ / "triangle.gltf").string();
    std::ofstream(triangle_) << kTriangleGltf;
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  static bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

  // Runs `env_prefix rigview args` through the shell; stdout+stderr captured.
  rig::test::RunResult run(const std::string& env_prefix, const std::string& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd = env_prefix + " " + quote(RIGVIEW_EXE) + " " + args + " >" +
                            quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
    const int raw = std::system(cmd.c_str());
    rig::test::RunResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  // Under a virtual X server, with the settings folder inside the test's own folder. ctest runs
  // these tests in parallel: each process starts its search for a free display number at its
  // own place, so two xvfb-run -a do not race for the same one.
  rig::test::RunResult run_in_xvfb(const std::string& env, const std::string& args) {
    const int first_display = 100 + static_cast<int>(::getpid() % 4000) * 2;
    return run("XDG_CONFIG_HOME=" + quote((dir_ / "config").string()) + " " + env +
                   " xvfb-run -a -n " + std::to_string(first_display) +
                   " -s '-screen 0 1280x720x24'",
               args);
  }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
  std::string triangle_;
};

TEST_F(ViewerSmoke, WithoutADisplayFailsInOneLinePointingAtOutput) {
  rig::test::RunResult r = run("env -u DISPLAY -u WAYLAND_DISPLAY", quote(triangle_));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rigview: error: no display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ViewerSmoke, ABadModelOnTheCommandLineFailsInOneLine) {
  const std::string missing = (dir_ / "missing.glb").string();
  rig::test::RunResult r = run("env -u DISPLAY -u WAYLAND_DISPLAY", quote(missing));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("rigview: error: " + missing + ": ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ViewerSmoke, RendersFramesAndWritesAScreenshotOfTheModel) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string shot = (dir_ / "shot.png").string();
  rig::test::RunResult r = run_in_xvfb(
      "RIGVIEW_VIEWER_FRAMES=5 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_SCREENSHOT=" + quote(shot),
      quote(triangle_) + " --resolution 320,240");
  ASSERT_EQ(r.status, 0) << r.err;
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr) << "no readable screenshot at " << shot;
  EXPECT_EQ(w, 320);
  EXPECT_EQ(h, 240);
  // The framed, lit triangle (light grey, untextured default material) covers much of the
  // middle of the window; the background and the grid lines are dark grey.
  auto bright = [&](int x, int y) {
    const stbi_uc* p = pixels + (static_cast<size_t>(y) * w + x) * 4;
    return (p[0] + p[1] + p[2]) / 3 > 150;
  };
  int lit = 0;
  for (int y = h / 4; y < 3 * h / 4; y += 4)
    for (int x = w / 4; x < 3 * w / 4; x += 4) lit += bright(x, y);
  stbi_image_free(pixels);
  EXPECT_GT(lit, 150) << "the middle of the screenshot shows no lit surface";
}

// --crowd: the crowd is drawn instead of the single model (instanced, its stats line under the
// others), through a method switch by key (DQS: the crowd is rebuilt for it): no error, and the
// 3 × 3 mannequins light up much more of the view than the dark background.
TEST_F(ViewerSmoke, CrowdRendersAndSwitchesMethodWithoutErrors) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
  const std::string shot = (dir_ / "crowd.png").string();
  rig::test::RunResult r = run_in_xvfb(
      "RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_KEYS=2 "
      "RIGVIEW_VIEWER_SCREENSHOT=" +
          quote(shot),
      quote(model) + " --crowd 9 --resolution 320,240");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr) << "no readable screenshot at " << shot;
  int lit = 0;
  for (int y = 0; y < h; y += 2)
    for (int x = 0; x < w; x += 2) {
      const stbi_uc* p = pixels + (static_cast<size_t>(y) * w + x) * 4;
      lit += (p[0] + p[1] + p[2]) / 3 > 120;
    }
  stbi_image_free(pixels);
  EXPECT_GT(lit, 100) << "the crowd shows no lit surface";
}

// Every panel drawn (Help open, compare and bones toggled by keys): the UI path runs without
// errors and the screenshot has the window's size.
TEST_F(ViewerSmoke, PanelsHelpAndCompareKeysRenderWithoutErrors) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
  const std::string shot = (dir_ / "panels.png").string();
  rig::test::RunResult r = run_in_xvfb(
      "RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_HELP=1 RIGVIEW_VIEWER_KEYS=3bwv "
      "RIGVIEW_VIEWER_SCREENSHOT=" +
          quote(shot),
      quote(model) + " --resolution 800,600");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  stbi_image_free(pixels);
  EXPECT_EQ(w, 800);
  EXPECT_EQ(h, 600);
}

TEST_F(ViewerSmoke, AFailedDropKeepsTheModelAndAGoodDropOpensAndIsRemembered) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string broken = (dir_ / "broken.glb").string();
  std::ofstream(broken) << "not a glb";
  rig::test::RunResult bad =
      run_in_xvfb("RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_DROP=" + quote(broken), quote(triangle_));
  EXPECT_EQ(bad.status, 0) << bad.err;  // the window stayed up on the first model
  EXPECT_NE(bad.err.find("rigview: error: " + broken + ": "), std::string::npos) << bad.err;

  const std::string second = (dir_ / "second.gltf").string();
  std::ofstream(second) << kTriangleGltf;
  rig::test::RunResult good =
      run_in_xvfb("RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_DROP=" + quote(second), quote(triangle_));
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(good.err.find("rigview: error"), std::string::npos) << good.err;
  // Recent files: the dropped model first, then the one from the command line.
  std::ifstream recent(dir_ / "config" / "rigview" / "recent_files.txt");
  std::string first_line, second_line;
  std::getline(recent, first_line);
  std::getline(recent, second_line);
  EXPECT_EQ(first_line, fs::path(second).lexically_normal().string());
  EXPECT_EQ(second_line, fs::path(triangle_).lexically_normal().string());
}

TEST_F(ViewerSmoke, OpensASkinnedCorpusCharacterInCompareModeWithBones) {
  RIG_REQUIRE_CORPUS(corpus);
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string shot = (dir_ / "compare.png").string();
  const std::string model = (corpus / "CesiumMan" / "CesiumMan.glb").string();
  rig::test::RunResult r = run_in_xvfb(
      "RIGVIEW_VIEWER_FRAMES=6 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_SCREENSHOT=" + quote(shot),
      quote(model) +
          " --skinning compare --armature --animation-time 0.5 "
          "--resolution 640,360");
  ASSERT_EQ(r.status, 0) << r.err;
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  ASSERT_EQ(w, 640);
  // Same pose and camera in every column (one per table row): each column's middle crosses the
  // (mostly white) character; the background and grid are dark.
  auto column_hits = [&](int x) {
    int hits = 0;
    for (int y = 0; y < h; ++y) {
      const stbi_uc* p = pixels + (static_cast<size_t>(y) * w + x) * 4;
      hits += (p[0] + p[1] + p[2]) / 3 > 150;
    }
    return hits;
  };
  const int columns = static_cast<int>(rig::skinning_methods().size());
  std::vector<int> hits;
  for (int c = 0; c < columns; ++c) hits.push_back(column_hits((2 * c + 1) * w / (2 * columns)));
  stbi_image_free(pixels);
  for (int c = 0; c < columns; ++c) EXPECT_GT(hits[size_t(c)], 40) << "column " << c;
}

TEST_F(ViewerSmoke, WeightViewsColourTheBundledCharacterAndVCyclesThem) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
  ASSERT_TRUE(fs::exists(model)) << model << " is committed: it must be there";
  // Pixels of the 480x360 screenshot `shot` for which `pick(r, g, b)` holds.
  auto count_pixels = [](const std::string& shot, auto pick) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
    EXPECT_NE(pixels, nullptr) << shot;
    if (!pixels) return -1;
    EXPECT_EQ(w, 480);
    int n = 0;
    for (int i = 0; i < w * h; ++i) n += pick(pixels[i * 4], pixels[i * 4 + 1], pixels[i * 4 + 2]);
    stbi_image_free(pixels);
    return n;
  };
  auto red = [](int r, int g, int b) { return r > 150 && g < 100 && b < 100; };
  auto blue = [](int r, int g, int b) { return b > r + 80 && b > g + 40; };
  auto green = [](int r, int g, int b) { return g > r + 60 && g > b + 40; };
  // G turns the grid off: its red and blue axis lines would count as weight colours.
  const std::string env = "RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_HIDE_UI=1 ";
  const std::string args = quote(model) + " --rest-pose --resolution 480,360";

  auto grey = [](int r, int g, int b) {
    return std::abs(r - g) <= 8 && std::abs(g - b) <= 8 && r > 70;  // the background is darker
  };

  // --weights LeftArm: the upper arm is bound to it alone (red on the heat map); most of the
  // body is not influenced at all (grey), its texture and material colours gone.
  const std::string arm = (dir_ / "arm.png").string();
  rig::test::RunResult r =
      run_in_xvfb(env + "RIGVIEW_VIEWER_KEYS=g RIGVIEW_VIEWER_SCREENSHOT=" + quote(arm),
                  args + " --weights LeftArm");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_GT(count_pixels(arm, red), 100);
  EXPECT_GT(count_pixels(arm, grey), 2000);

  // V twice from Off: the influence count; the mannequin has one- and two-influence bands.
  const std::string counts = (dir_ / "counts.png").string();
  r = run_in_xvfb(env + "RIGVIEW_VIEWER_KEYS=gvv RIGVIEW_VIEWER_SCREENSHOT=" + quote(counts), args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_GT(count_pixels(counts, blue), 500);
  EXPECT_GT(count_pixels(counts, green), 500);
  // Seven presses (weights, counts, deflation, difference, compression, rig findings) come
  // back to Off: the normal shading has neither band colour in bulk.
  const std::string off = (dir_ / "off.png").string();
  r = run_in_xvfb(env + "RIGVIEW_VIEWER_KEYS=gvvvvvvv RIGVIEW_VIEWER_SCREENSHOT=" + quote(off),
                  args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(count_pixels(off, blue), 100);
  EXPECT_LT(count_pixels(off, green), 100);

  // An unknown joint is a usage error before any window opens.
  r = run("env -u DISPLAY -u WAYLAND_DISPLAY", quote(model) + " --weights NoSuchJoint");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("rigview: error: " + model + ": no joint named 'NoSuchJoint' (joints: ", 0),
            0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ViewerSmoke, DeflationHeatMapShowsTheLbsCandyWrapperAndNotDqs) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
  auto blue_pixels = [](const std::string& shot) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
    EXPECT_NE(pixels, nullptr) << shot;
    if (!pixels) return -1;
    int n = 0;
    for (int i = 0; i < w * h; ++i) {
      const int r = pixels[i * 4], g = pixels[i * 4 + 1], b = pixels[i * 4 + 2];
      n += b > r + 80 && b > g + 40;
    }
    stbi_image_free(pixels);
    return n;
  };
  // The twist arm at 180°: LBS's middle rings collapse (deep blue), DQS keeps them (white).
  const std::string env = "RIGVIEW_VIEWER_FRAMES=6 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_KEYS=g ";
  const std::string args =
      quote(model) + " --animation-time 1 --resolution 480,360 --heatmap deflation";
  const std::string lbs = (dir_ / "deflation_lbs.png").string();
  const std::string dqs = (dir_ / "deflation_dqs.png").string();
  rig::test::RunResult r = run_in_xvfb(env + "RIGVIEW_VIEWER_SCREENSHOT=" + quote(lbs), args);
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_in_xvfb(env + "RIGVIEW_VIEWER_SCREENSHOT=" + quote(dqs), args + " --skinning dqs");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_GT(blue_pixels(lbs), 300);
  EXPECT_LT(blue_pixels(dqs), 20);
  // CoR keeps the rings too, whether started with --skinning cor or picked with its digit key
  // (once its centres are ready: the self-test waits for them).
  const std::string cor = (dir_ / "deflation_cor.png").string();
  r = run_in_xvfb(env + "RIGVIEW_VIEWER_SCREENSHOT=" + quote(cor), args + " --skinning cor");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(blue_pixels(cor), 20);
  const std::string cor_key = (dir_ / "deflation_cor_key.png").string();
  r = run_in_xvfb(
      "RIGVIEW_VIEWER_FRAMES=6 RIGVIEW_VIEWER_HIDE_UI=1 RIGVIEW_VIEWER_KEYS=g3 "
      "RIGVIEW_VIEWER_SCREENSHOT=" +
          quote(cor_key),
      args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(blue_pixels(cor_key), 20);
  // --focus worst frames the collapsing joint; an unknown --focus joint is a usage error.
  r = run_in_xvfb("RIGVIEW_VIEWER_FRAMES=3 ", args + " --focus worst");
  EXPECT_EQ(r.status, 0) << r.err;
  r = run("env -u DISPLAY -u WAYLAND_DISPLAY", quote(model) + " --focus NoSuchJoint");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no joint named 'NoSuchJoint'"), std::string::npos) << r.err;
}

// --output --skinning compare=lbs,dqs,cor: three columns, each labelled with its method (white
// text in its top-left corner, a different word in each), the twist arm in each. Headless (EGL).
TEST_F(ViewerSmoke, ThreeWayCompareOutputHasThreeLabelledColumns) {
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
  const std::string shot = (dir_ / "three.png").string();
  const rig::test::RunResult r =
      rig::test::run_rigview(quote(model) +
                             " --animation-time 1 --skinning compare=lbs,dqs,cor --resolution "
                             "600,300 --output " +
                             quote(shot));
  if (r.status != 0 && r.err.find("no headless OpenGL") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(shot.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  ASSERT_EQ(w, 600);
  // Per column: the white label pixels of its corner (as a pattern) and the lit model pixels.
  std::vector<std::vector<char>> labels(3);
  for (int c = 0; c < 3; ++c) {
    int white = 0, model_pixels = 0;
    for (int y = 0; y < 40; ++y)
      for (int x = c * 200 + 4; x < c * 200 + 80; ++x) {
        const stbi_uc* p = pixels + (static_cast<size_t>(y) * w + x) * 4;
        const bool is_white = p[0] > 240 && p[1] > 240 && p[2] > 240;
        white += is_white;
        labels[size_t(c)].push_back(is_white);
      }
    for (int y = 0; y < h; ++y)
      for (int x = c * 200 + 10; x < c * 200 + 190; ++x) {
        const stbi_uc* p = pixels + (static_cast<size_t>(y) * w + x) * 4;
        model_pixels += (p[0] + p[1] + p[2]) / 3 > 150;
      }
    EXPECT_GT(white, 10) << "column " << c << ": no label";
    EXPECT_GT(model_pixels, 200) << "column " << c << ": no model";
  }
  stbi_image_free(pixels);
  EXPECT_NE(labels[0], labels[1]);
  EXPECT_NE(labels[1], labels[2]);
  EXPECT_NE(labels[0], labels[2]);
}

// The mix in the viewer: --dqs-joints sets the first document's amounts (an unknown joint is a
// usage error before any window), and Measure cost (pressed on frame 2 by the self-test hook)
// measures every table row, LBS at x1.00, with the viewer still drawing afterwards.
TEST_F(ViewerSmoke, MixWithDqsJointsAndMeasureCostRun) {
  const std::string model = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
  rig::test::RunResult bad =
      run("env -u DISPLAY -u WAYLAND_DISPLAY", quote(model) + " --skinning mix --dqs-joints Elbow");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--dqs-joints: no node named 'Elbow'"), std::string::npos) << bad.err;
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed: viewer smoke test skipped";
  const rig::test::RunResult r =
      run_in_xvfb("RIGVIEW_VIEWER_FRAMES=4 RIGVIEW_VIEWER_MEASURE_COST=2",
                  quote(model) + " --skinning mix --dqs-joints ArmTwist --resolution 400,300");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("cost error"), std::string::npos) << r.out;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    EXPECT_NE(r.out.find(std::string(m.label) + " "), std::string::npos) << m.label << r.out;
  EXPECT_NE(r.out.find("LBS "), std::string::npos);
  EXPECT_NE(r.out.find("x1.00\n"), std::string::npos) << r.out;
}

}  // namespace
