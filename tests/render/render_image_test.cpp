// Rendered images: a corpus character lands in frame, LBS and DQS differ on a twist, the
// compare split shows both, and the CLI's --output works without an X server.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;
using test::count_pixels_unlike;
using test::load_png;

constexpr int kWidth = 320, kHeight = 240;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);
const glm::ivec3 kBackground8(51, 102, 153);  // kBackground * 255

enum class View { Lbs, Dqs, Compare };

// Renders `model` under `selection`, framed on its pose bounds, grid off unless asked.
std::vector<uint8_t> render(const Model& model, const PoseSelection& selection, View view,
                            bool grid = false, bool skeleton = false) {
  std::string error;
  test::RendererWithModel setup(model, selection);
  Renderer& renderer = setup.renderer;
  OrbitCamera orbit;
  orbit.frame(pose_bounds(setup.character));
  if (view == View::Compare) orbit.distance *= 2.0f;  // each half is narrower than tall
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, kWidth, kHeight};
  DrawOptions options;
  options.grid = grid;
  options.skeleton = skeleton;
  options.method = view == View::Dqs ? SkinningMethod::DualQuaternion : SkinningMethod::Linear;
  renderer.clear(viewport, kBackground);
  if (view == View::Compare)
    renderer.draw_compare(orbit.camera(viewport.aspect()), viewport, options);
  else
    renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return pixels;
}

size_t count_different(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int x0 = 0,
                       int x1 = kWidth) {
  size_t n = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = x0; x < x1; ++x) {
      const size_t i = (size_t(y) * kWidth + x) * 4;
      for (int c = 0; c < 3; ++c)
        if (std::abs(a[i + c] - b[i + c]) > 8) {
          ++n;
          break;
        }
    }
  return n;
}

using test::twisted_cylinder;

TEST(RenderImage, CorpusCesiumManFillsAMeaningfulPartOfTheFrame) {
  RIG_REQUIRE_CORPUS(corpus);
  RIG_REQUIRE_GL();
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf((corpus / "CesiumMan/CesiumMan.glb").string(), model, error)) << error;
  PoseSelection pose;
  pose.clip = 0;
  pose.time = 0.5f;
  const std::vector<uint8_t> image = render(model, pose, View::Lbs);
  const size_t covered = count_pixels_unlike(image, kBackground8);
  EXPECT_GT(covered, size_t(0.02 * kWidth * kHeight));
  // Framed: the covered pixels' centre is near the image centre.
  double cx = 0, cy = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const uint8_t* p = &image[(size_t(y) * kWidth + x) * 4];
      if (std::abs(p[0] - 51) > 3 || std::abs(p[1] - 102) > 3 || std::abs(p[2] - 153) > 3) {
        cx += x;
        cy += y;
      }
    }
  ASSERT_GT(covered, 0u);
  EXPECT_NEAR(cx / double(covered), kWidth / 2.0, kWidth / 6.0);
  EXPECT_NEAR(cy / double(covered), kHeight / 2.0, kHeight / 6.0);
}

TEST(RenderImage, TwistMiddleRingCollapsesWithLbsAndKeepsItsRadiusWithDqs) {
  RIG_REQUIRE_GL();
  const float twist = glm::radians(170.0f);
  const Model model = twisted_cylinder(twist);
  test::RendererWithModel setup(model);
  ASSERT_TRUE(setup.ok);
  Renderer& renderer = setup.renderer;
  std::string error;
  const size_t n = model.meshes[0].primitives[0].vertex_count();
  std::vector<glm::vec3> lbs(n), dqs(n), nrm(n);
  ASSERT_TRUE(renderer.read_back_skinned(0, SkinningMethod::Linear, lbs, nrm, error)) << error;
  ASSERT_TRUE(renderer.read_back_skinned(0, SkinningMethod::DualQuaternion, dqs, nrm, error));
  // Ring 10 is y = 1: LBS averages p and R(170°) p, radius 0.5 cos(85°); DQS rotates by 85°.
  for (size_t v = 10 * 24; v < 11 * 24; ++v) {
    EXPECT_NEAR(glm::length(glm::vec2(lbs[v].x, lbs[v].z)), 0.5f * std::cos(twist / 2), 1e-4f);
    EXPECT_NEAR(glm::length(glm::vec2(dqs[v].x, dqs[v].z)), 0.5f, 1e-4f);
    EXPECT_NEAR(lbs[v].y, 1.0f, 1e-5f);
  }
  const std::vector<uint8_t> image_lbs = render(model, PoseSelection{}, View::Lbs);
  const std::vector<uint8_t> image_dqs = render(model, PoseSelection{}, View::Dqs);
  EXPECT_GT(count_pixels_unlike(image_lbs, kBackground8), size_t(0.02 * kWidth * kHeight));
  EXPECT_GT(count_different(image_lbs, image_dqs), size_t(0.005 * kWidth * kHeight));
}

TEST(RenderImage, CompareSplitShowsLbsLeftAndDqsRightWithLabels) {
  RIG_REQUIRE_GL();
  const Model model = twisted_cylinder(glm::radians(170.0f));
  const std::vector<uint8_t> split = render(model, PoseSelection{}, View::Compare);
  const int half = kWidth / 2;
  // Both halves hold the model.
  EXPECT_GT(count_pixels_unlike(split, kBackground8, 3, 0, half - 2, kWidth), 500u);
  EXPECT_GT(count_pixels_unlike(split, kBackground8, 3, half + 2, kWidth, kWidth), 500u);
  // The halves differ (LBS vs DQS): compare the left half with the right half.
  std::vector<uint8_t> right_shifted(split.size());
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < half; ++x)
      for (int c = 0; c < 4; ++c)
        right_shifted[(size_t(y) * kWidth + x) * 4 + c] =
            split[(size_t(y) * kWidth + x + half) * 4 + c];
  EXPECT_GT(count_different(split, right_shifted, 0, half - 2), 200u);
  // White label text in the top-left corner of each half.
  auto white_in = [&](int x0) {
    size_t n = 0;
    for (int y = 0; y < 40; ++y)
      for (int x = x0; x < x0 + 90; ++x) {
        const uint8_t* p = &split[(size_t(y) * kWidth + x) * 4];
        if (p[0] > 240 && p[1] > 240 && p[2] > 240) ++n;
      }
    return n;
  };
  EXPECT_GT(white_in(0), 30u);
  EXPECT_GT(white_in(half), 30u);
  // The labels differ ("LBS" vs "DQS"): the left half is no copy of the right half.
  const std::vector<uint8_t> lbs = render(model, PoseSelection{}, View::Lbs);
  EXPECT_GT(count_different(split, lbs, 0, half), 200u);
}

TEST(RenderImage, EveryPixelIsOpaqueLabelsIncluded) {
  RIG_REQUIRE_GL();
  // --output writes the alpha channel to the PNG: a translucent pixel there (a label's shadow,
  // say) would show whatever lies behind the image.
  const Model model = twisted_cylinder(glm::radians(90.0f));
  const std::vector<uint8_t> split = render(model, PoseSelection{}, View::Compare, true, true);
  size_t translucent = 0;
  for (size_t i = 3; i < split.size(); i += 4)
    if (split[i] != 255) ++translucent;
  EXPECT_EQ(translucent, 0u);
}

TEST(RenderImage, SkeletonOverlayIsVisibleThroughTheMesh) {
  RIG_REQUIRE_GL();
  const Model model = twisted_cylinder(glm::radians(30.0f));
  const std::vector<uint8_t> plain = render(model, PoseSelection{}, View::Lbs);
  const std::vector<uint8_t> bones = render(model, PoseSelection{}, View::Lbs, false, true);
  // The bone (0,0,0)→(0,1,0) runs inside the cylinder: only visible if drawn through it.
  EXPECT_GT(count_different(plain, bones), 50u);
}

TEST(RenderCli, CorpusOutputRendersTheAnimatedCharacterWithoutDisplay) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::filesystem::path dir = rig::test::scratch_dir();
  const std::string a = (dir / "rig_render_cli_a.png").string();
  const std::string b = (dir / "rig_render_cli_b.png").string();
  const std::string model = rig::test::quote((corpus / "CesiumMan/CesiumMan.glb").string());
  ::unsetenv("DISPLAY");  // headless means no X server at all
  for (const auto& [file, time] : {std::pair{a, "0.2"}, std::pair{b, "1.2"}}) {
    std::filesystem::remove(file);
    rig::test::RunResult r =
        rig::test::run_rigview(model + " --output " + rig::test::quote(file) +
                               " --resolution 320,240 --animation-time " + time);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  int wa = 0, ha = 0, wb = 0, hb = 0;
  const std::vector<uint8_t> ia = load_png(a, wa, ha), ib = load_png(b, wb, hb);
  ASSERT_EQ(wa, 320);
  ASSERT_EQ(ha, 240);
  ASSERT_EQ(wb, 320);
  // Same clip, same framing and grid: the pixels that change are the walking character's.
  size_t changed = 0;
  for (size_t i = 0; i + 3 < ia.size() && i + 3 < ib.size(); i += 4)
    if (std::abs(ia[i] - ib[i]) + std::abs(ia[i + 1] - ib[i + 1]) +
            std::abs(ia[i + 2] - ib[i + 2]) >
        24)
      ++changed;
  EXPECT_GT(changed, size_t(0.005 * 320 * 240));
}

TEST(RenderCli, CorpusCompareAndArmatureRenderAndBadOutputPathFails) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::string model = rig::test::quote((corpus / "Fox/Fox.glb").string());
  const std::string out = (rig::test::scratch_dir() / "rig_render_cli_compare.png").string();
  std::filesystem::remove(out);
  ::unsetenv("DISPLAY");  // headless means no X server at all
  rig::test::RunResult ok =
      rig::test::run_rigview(model + " --output " + rig::test::quote(out) +
                             " --resolution 200,100 --skinning compare --armature");
  ASSERT_EQ(ok.status, 0) << ok.err;
  int w = 0, h = 0;
  const std::vector<uint8_t> image = load_png(out, w, h);
  EXPECT_EQ(w, 200);
  EXPECT_EQ(h, 100);
  rig::test::RunResult bad = rig::test::run_rigview(
      model + " --output /nonexistent_dir_for_rigview/x.png --resolution 64,64");
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.err.rfind("rigview: error: ", 0), 0u) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

}  // namespace
}  // namespace rig::render

namespace rig::render {
namespace {

std::vector<glm::vec3> obj_vertices(const std::string& path) {
  std::vector<glm::vec3> v;
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return v;
  char line[512];
  while (std::fgets(line, sizeof line, f)) {
    glm::vec3 p;
    if (line[0] == 'v' && line[1] == ' ' &&
        std::sscanf(line + 2, "%f %f %f", &p.x, &p.y, &p.z) == 3)
      v.push_back(p);
  }
  std::fclose(f);
  return v;
}

TEST(RenderCli, CorpusGpuBackendExportMatchesTheCpuExport) {
  RIG_REQUIRE_CORPUS(corpus);
  ::unsetenv("DISPLAY");
  const std::filesystem::path dir = rig::test::scratch_dir();
  for (const char* skinning : {"lbs", "dqs"}) {
    const std::string cpu = (dir / "rig_render_cpu.obj").string();
    const std::string gpu = (dir / "rig_render_gpu.obj").string();
    const std::string args = rig::test::quote((corpus / "Fox/Fox.glb").string()) +
                             " --animation-index 2 --animation-time 0.4 --skinning " + skinning;
    ASSERT_EQ(rig::test::run_rigview(args + " --export-obj " + rig::test::quote(cpu)).status, 0);
    rig::test::RunResult r =
        rig::test::run_rigview(args + " --backend gpu --export-obj " + rig::test::quote(gpu));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<glm::vec3> a = obj_vertices(cpu), b = obj_vertices(gpu);
    ASSERT_EQ(a.size(), 1728u);  // Fox: one primitive of 1728 vertices
    ASSERT_EQ(b.size(), a.size());
    Bounds box;
    for (const glm::vec3& p : a) box.add(p);
    float worst = 0.0f;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
    EXPECT_LE(worst, 1e-5f * box.diagonal()) << skinning;
  }
}

}  // namespace
}  // namespace rig::render

namespace rig::render {
namespace {

TEST(RenderCli, TwistArmAtHalfTwistDiffersBetweenLbsAndDqs) {
  const std::filesystem::path arm =
      std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets" / "twist_arm.glb";
  if (!std::filesystem::exists(arm)) GTEST_SKIP() << "assets/twist_arm.glb is not built";
  ::unsetenv("DISPLAY");
  const std::filesystem::path dir = rig::test::scratch_dir();
  // The Twist clip turns the far joint 0 → 180° → 0 over 2 s: 180° at t = 1.
  auto render_cli = [&](const std::string& mode, int w, std::vector<uint8_t>& px) {
    const std::string out = (dir / ("rig_render_twist_" + mode + ".png")).string();
    rig::test::RunResult r = rig::test::run_rigview(
        rig::test::quote(arm.string()) + " --animation-time 1.0 --skinning " + mode +
        " --resolution " + std::to_string(w) + ",160 --output " + rig::test::quote(out));
    ASSERT_EQ(r.status, 0) << r.err;
    int iw = 0, ih = 0;
    px = load_png(out, iw, ih);
    ASSERT_EQ(iw, w);
    ASSERT_EQ(ih, 160);
  };
  std::vector<uint8_t> lbs, dqs, split;
  render_cli("lbs", 240, lbs);
  render_cli("dqs", 240, dqs);
  render_cli("compare", 480, split);
  size_t differ = 0;
  for (size_t i = 0; i + 3 < lbs.size(); i += 4)
    if (std::abs(lbs[i] - dqs[i]) + std::abs(lbs[i + 1] - dqs[i + 1]) +
            std::abs(lbs[i + 2] - dqs[i + 2]) >
        24)
      ++differ;
  EXPECT_GT(differ, size_t(0.01 * 240 * 160));
  // The compare halves differ below the labels (LBS collapse vs DQS volume).
  size_t halves = 0;
  for (int y = 40; y < 160; ++y)
    for (int x = 0; x < 238; ++x) {
      const uint8_t* l = &split[(size_t(y) * 480 + x) * 4];
      const uint8_t* r = &split[(size_t(y) * 480 + x + 240) * 4];
      if (std::abs(l[0] - r[0]) + std::abs(l[1] - r[1]) + std::abs(l[2] - r[2]) > 24) ++halves;
    }
  EXPECT_GT(halves, size_t(0.01 * 238 * 120));
}

}  // namespace
}  // namespace rig::render
