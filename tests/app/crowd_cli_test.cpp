// --crowd N with --output (the grid rendered headless) and --bench-crowd N (one table row per
// size, the per-character column consistent with the update column), and their bad values.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <cstdio>
#include <sstream>
#include <string>
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
