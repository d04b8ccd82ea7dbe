// --crowd N with --output (the grid rendered headless) and --bench-crowd N (one table row per
// size, the per-character column consistent with the update column), and their bad values.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

bool no_gl(const rig::test::RunResult& r) {
  return r.status != 0 && r.err.find("no headless OpenGL") != std::string::npos;
}

TEST(CrowdCli, OutputRendersInstancesAcrossTheGrid) {
  const std::string png = (rig::test::scratch_dir() / "crowd.png").string();
  const auto r =
      run_rigview(quote(kMannequin) + " --crowd 9 --resolution 240,160 --output " + quote(png));
  if (no_gl(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  EXPECT_EQ(w, 240);
  EXPECT_EQ(h, 160);
  // The mannequins are lit light surfaces; the background and grid lines are dark. A 3 × 3 grid
  // seen from the front-right spreads them over the image: bright pixels in each third.
  int bright[3] = {0, 0, 0};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const stbi_uc* p = pixels + (size_t(y) * w + x) * 4;
      if ((p[0] + p[1] + p[2]) / 3 > 120) ++bright[x * 3 / w];
    }
  stbi_image_free(pixels);
  for (int third = 0; third < 3; ++third) EXPECT_GT(bright[third], 20) << "third " << third;
}

// Mean grey level of a PNG (0 on a read failure, which the caller's comparison then fails).
double mean_level(const std::string& png) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
  EXPECT_NE(pixels, nullptr) << png;
  if (!pixels) return 0.0;
  double sum = 0.0;
  for (size_t i = 0; i < size_t(w) * size_t(h); ++i)
    sum += (pixels[i * 4] + pixels[i * 4 + 1] + pixels[i * 4 + 2]) / 3.0;
  stbi_image_free(pixels);
  return sum / (double(w) * h);
}

// The crowd's --output takes the single character's look: the studio look's flags apply (a
// higher exposure brightens it), --lights classic is another picture, and a bad --environment
// is refused naming the file.
TEST(CrowdCli, OutputFollowsTheLook) {
  auto render = [](const std::string& name, const std::string& flags) {
    const std::string png = (rig::test::scratch_dir() / name).string();
    const auto r = run_rigview(quote(kMannequin) + " --crowd 4 --resolution 160,120 " + flags +
                               " --output " + quote(png));
    return std::make_pair(r, png);
  };
  const auto [studio, studio_png] = render("crowd_studio.png", "");
  if (no_gl(studio)) GTEST_SKIP() << studio.err;
  ASSERT_EQ(studio.status, 0) << studio.err;
  const auto [bright, bright_png] = render("crowd_bright.png", "--exposure 2");
  ASSERT_EQ(bright.status, 0) << bright.err;
  const auto [classic, classic_png] = render("crowd_classic.png", "--lights classic");
  ASSERT_EQ(classic.status, 0) << classic.err;
  const double base = mean_level(studio_png);
  EXPECT_GT(mean_level(bright_png), base + 1.0);
  EXPECT_GT(std::abs(mean_level(classic_png) - base), 0.2);
  const std::string missing = (rig::test::scratch_dir() / "no_such_sky.hdr").string();
  const auto bad = render("crowd_bad.png", "--environment " + quote(missing));
  EXPECT_NE(bad.first.status, 0);
  EXPECT_NE(bad.first.err.find("no_such_sky.hdr"), std::string::npos) << bad.first.err;
}

TEST(CrowdCli, BenchCrowdPrintsARowPerSizeUpToN) {
  const auto r = run_rigview(quote(kMannequin) + " --bench-crowd 2 --resolution 64,64");
  if (no_gl(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<int> sizes;
  while (std::getline(lines, line)) {
    int n = 0;
    double update = 0, cpu = 0, upload = 0, gpu = 0, per = 0;
    if (std::sscanf(line.c_str(), "%d %lf %lf %lf %lf %lf", &n, &update, &cpu, &upload, &gpu,
                    &per) != 6)
      continue;
    sizes.push_back(n);
    EXPECT_GT(update, 0.0) << line;
    EXPECT_GT(cpu, 0.0) << line;
    EXPECT_GE(upload, 0.0) << line;
    // µs per character = update CPU ms × 1000 / characters (to the printed precision).
    EXPECT_NEAR(per, cpu * 1000.0 / n, 0.002 * 1000.0 / n + 0.0015) << line;
  }
  // 1, then N itself (2 is not a power of ten).
  EXPECT_EQ(sizes, (std::vector<int>{1, 2})) << r.out;
}

TEST(CrowdCli, BadCountsAreUsageErrors) {
  for (const char* bad : {"--crowd 0", "--crowd many", "--bench-crowd 0", "--bench-crowd 10001"}) {
    const auto r = run_rigview(quote(kMannequin) + " " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("expects a count between 1 and 10000"), std::string::npos) << r.err;
  }
}

}  // namespace
