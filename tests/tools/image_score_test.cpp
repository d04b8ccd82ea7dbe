// The image score against values computed by hand from the definition in the reference scene
// (model-viewer's YIQ delta, RMS over the counted pixels, dB), and the tool's command line.
#include "image_score.h"

#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace {

using rig::tools::ImageScore;
using rig::tools::RgbaImage;

RgbaImage filled(int w, int h, uint8_t grey, uint8_t alpha) {
  RgbaImage image{w, h, std::vector<uint8_t>(size_t(w) * size_t(h) * 4)};
  for (size_t i = 0; i < image.rgba.size(); i += 4) {
    image.rgba[i] = image.rgba[i + 1] = image.rgba[i + 2] = grey;
    image.rgba[i + 3] = alpha;
  }
  return image;
}

void set(RgbaImage& image, int x, int y, uint8_t grey, uint8_t alpha) {
  uint8_t* p = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
  p[0] = p[1] = p[2] = grey;
  p[3] = alpha;
}

ImageScore score(const RgbaImage& a, const RgbaImage& b) {
  ImageScore s;
  std::string error;
  EXPECT_TRUE(rig::tools::score_images(a, b, s, error)) << error;
  return s;
}

TEST(ImageScore, IdenticalImagesScoreMinusInfinity) {
  RgbaImage a = filled(8, 8, 0, 0);
  for (int x = 2; x < 6; ++x) set(a, x, 3, uint8_t(40 * x), 255);
  const ImageScore s = score(a, a);
  EXPECT_TRUE(std::isinf(s.score_db) && s.score_db < 0);
  EXPECT_TRUE(std::isinf(s.score_db_tol1px) && s.score_db_tol1px < 0);
  EXPECT_EQ(s.counted, 4u);
  EXPECT_EQ(s.differing, 0u);
  EXPECT_EQ(s.coverage_mismatch, 0u);
}

// A grey offset of k levels: ΔR = ΔG = ΔB = k, so
//   ΔY = k·(.29889531 + .58662247 + .11448223) = 1.00000001·k,
//   ΔI = k·(.59597799 − .27417610 − .32180189) = 0,  ΔQ = k·(.21147017 − .52261711 + .31114694) =
//   0,
// delta = 0.5053·k² on every counted pixel, ratio = 0.5053·k²/35215 and
//   score = 10·log10(0.5053/35215) + 20·log10(k) = −48.4318 + 20·log10(k):
//   k = 1 → −48.4318, k = 8 → −30.3700, k = 21 → −21.9874 dB.
TEST(ImageScore, UniformGreyOffsetMatchesTheHandComputedDecibels) {
  const struct {
    int k;
    double db;
  } cases[] = {{1, -48.4318}, {8, -30.3700}, {21, -21.9874}};
  for (const auto& c : cases) {
    const RgbaImage a = filled(16, 16, 100, 255);
    const RgbaImage b = filled(16, 16, uint8_t(100 + c.k), 255);
    const ImageScore s = score(a, b);
    EXPECT_NEAR(s.score_db, c.db, 0.05) << "k = " << c.k;
    EXPECT_NEAR(s.score_db, c.db, 0.0005) << "k = " << c.k;
    // No neighbour is closer than the pixel itself: the tolerant score is the same.
    EXPECT_NEAR(s.score_db_tol1px, c.db, 0.0005) << "k = " << c.k;
    EXPECT_EQ(s.counted, 256u);
    // Filament: a channel differing by more than 5 levels.
    EXPECT_EQ(s.differing, c.k > 5 ? 256u : 0u) << "k = " << c.k;
  }
}

// A vertical white/black edge moved by one pixel: one column of 8 of 64 counted pixels is white
// against black, delta = 0.5053·(255·1.00000001)² = 32857.13, so the strict score is
// 10·log10(sqrt(8/64)·32857.13/35215) = −4.8164 dB; every pixel has a matching neighbour in the
// other image, so the tolerant score is −∞.
TEST(ImageScore, OnePixelEdgeShiftIsFiniteStrictButMinusInfinityTolerant) {
  RgbaImage a = filled(8, 8, 0, 255), b = filled(8, 8, 0, 255);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 4; ++x) set(a, x, y, 255, 255);
    for (int x = 0; x < 5; ++x) set(b, x, y, 255, 255);
  }
  const ImageScore s = score(a, b);
  EXPECT_NEAR(s.score_db, -4.8164, 0.0005);
  EXPECT_TRUE(std::isinf(s.score_db_tol1px) && s.score_db_tol1px < 0);
  EXPECT_EQ(s.differing, 8u);
  EXPECT_DOUBLE_EQ(s.differing_fraction_counted(), 8.0 / 64.0);
  EXPECT_DOUBLE_EQ(s.differing_fraction_all(), 8.0 / 64.0);
}

// The tolerant delta is the worse of both directions. B has one extra white pixel in a black
// corner: every pixel of A finds an equal neighbour in B (B's 3×3 around the corner holds black
// pixels), but B's white pixel finds only black in A. So that pixel keeps its full delta,
// D = 0.5053·(255·1.00000001)² = 32857.13, and with 25 counted pixels both scores are
// 10·log10(√(D²/25)/35215) = 10·log10(D/(5·35215)) = −7.2907 dB; scoring A against B alone
// would give −∞.
TEST(ImageScore, TolerantScoreTakesTheWorseOfBothDirections) {
  RgbaImage a = filled(5, 5, 0, 255), b = filled(5, 5, 0, 255);
  set(b, 0, 0, 255, 255);
  const ImageScore ab = score(a, b), ba = score(b, a);
  EXPECT_NEAR(ab.score_db_tol1px, -7.2907, 0.0005);
  EXPECT_NEAR(ba.score_db_tol1px, -7.2907, 0.0005);
  EXPECT_NEAR(ab.score_db, -7.2907, 0.0005);
}

// A smooth ramp (1 grey level per pixel along x, 40 levels per pixel along y) moved by one
// pixel along x: the strict score sees one level on every pixel but the moved column,
// while each pixel's own value is in the other image's 3×3 neighbourhood except in A's last
// column (its value left the image; the nearest of B is one level off; rows are 40 apart).
TEST(ImageScore, OnePixelShiftOfARampScoresMuchBetterTolerantThanStrict) {
  RgbaImage a = filled(32, 6, 0, 255), b = filled(32, 6, 0, 255);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 32; ++x) {
      set(a, x, y, uint8_t(20 + x + 40 * y), 255);
      set(b, x, y, uint8_t(20 + std::max(0, x - 1) + 40 * y), 255);
    }
  const ImageScore s = score(a, b);
  // Strict: 186 of 192 pixels differ by exactly one level (the x = 0 column agrees):
  // 10·log10(√(186/192)·0.5053/35215) = −48.50 dB.
  EXPECT_NEAR(s.score_db, 10.0 * std::log10(std::sqrt(186.0 / 192.0) * 0.5053 / 35215.0), 0.001);
  EXPECT_NEAR(s.score_db, -48.5007, 0.001);
  // Tolerant: only those 6 pixels, one level each: 10·log10(√(6/192)·0.5053/35215) = −55.96 dB.
  EXPECT_NEAR(s.score_db_tol1px, 10.0 * std::log10(std::sqrt(6.0 / 192.0) * 0.5053 / 35215.0),
              0.001);
  EXPECT_NEAR(s.score_db_tol1px, -55.9575, 0.001);
}

// Coverage: A covers four pixels, B two of them and one other. Counted: the 5 pixels either
// covers; exactly one covers 3 of them (3/5). Everything else is transparent in both and does
// not count, so the fractions of counted and of all pixels differ (3 differing of 5 and of 100).
TEST(ImageScore, CoverageMismatchCountsPixelsOnlyOneImageCovers) {
  RgbaImage a = filled(10, 10, 0, 0), b = filled(10, 10, 0, 0);
  for (int x = 0; x < 4; ++x) set(a, x, 0, 200, 255);
  set(b, 0, 0, 200, 255);
  set(b, 1, 0, 200, 255);
  set(b, 9, 9, 200, 255);
  const ImageScore s = score(a, b);
  EXPECT_EQ(s.total, 100u);
  EXPECT_EQ(s.counted, 5u);
  EXPECT_EQ(s.coverage_mismatch, 3u);
  EXPECT_DOUBLE_EQ(s.coverage_mismatch_fraction(), 0.6);
  EXPECT_EQ(s.differing, 3u);
  EXPECT_DOUBLE_EQ(s.differing_fraction_all(), 0.03);
  EXPECT_TRUE(std::isfinite(s.score_db));
}

// Colours are composited over black first: a pixel with alpha 0 counts as black whatever its
// RGB, and alpha alone beyond 5 levels makes a pixel differ (Filament).
TEST(ImageScore, ComparesColoursOverBlackAndAlpha) {
  RgbaImage a = filled(4, 4, 0, 0), b = filled(4, 4, 255, 0);
  EXPECT_EQ(score(a, b).counted, 0u);  // nothing covered: identical
  set(a, 1, 1, 255, 255);
  set(b, 1, 1, 255, 249);  // 6 levels of alpha; over black 255·249/255 = 249 vs 255
  const ImageScore s = score(a, b);
  EXPECT_EQ(s.counted, 1u);
  EXPECT_EQ(s.differing, 1u);
  // delta = 0.5053·(6·1.00000001)² = 18.1908; ratio = 18.1908/35215; −32.8685 dB.
  EXPECT_NEAR(s.score_db, 10.0 * std::log10(0.5053 * 36.0 / 35215.0), 0.0005);
  EXPECT_NEAR(s.score_db, -32.8685, 0.0005);
}

TEST(ImageScore, SizeMismatchIsAnError) {
  ImageScore s;
  std::string error;
  EXPECT_FALSE(rig::tools::score_images(filled(4, 4, 0, 255), filled(4, 5, 0, 255), s, error));
  EXPECT_NE(error.find("4x4"), std::string::npos) << error;
}

// The executable: JSON output, one-line errors naming the file.
struct ToolRun {
  int status;
  std::string out, err;
};

ToolRun run_tool(const std::string& args) {
  namespace fs = std::filesystem;
  const fs::path dir = rig::test::scratch_dir();
  const fs::path out = dir / "tool_out.txt", err = dir / "tool_err.txt";
  const std::string cmd = std::string("'") + IMAGE_SCORE_EXE + "' " + args + " >'" + out.string() +
                          "' 2>'" + err.string() + "'";
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, rig::test::slurp(out), rig::test::slurp(err)};
}

std::string write(const std::string& name, const RgbaImage& image) {
  const std::string path = (rig::test::scratch_dir() / name).string();
  EXPECT_TRUE(stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(),
                             image.width * 4));
  return path;
}

TEST(ImageScoreTool, WritesJsonWithMinusInfinityAsAString) {
  const std::string a = write("same.png", filled(6, 6, 30, 255));
  const std::string json = (rig::test::scratch_dir() / "score.json").string();
  const ToolRun r = run_tool(rig::test::quote(a) + " " + rig::test::quote(a) + " --json " +
                             rig::test::quote(json));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = rig::test::slurp(json);
  EXPECT_NE(text.find("\"score_db\": \"-Infinity\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"score_db_tol1px\": \"-Infinity\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"counted_pixels\": 36"), std::string::npos) << text;
  EXPECT_NE(text.find("\"coverage_mismatch_fraction\": 0.000000"), std::string::npos) << text;
}

TEST(ImageScoreTool, WritesTheOffsetScore) {
  const std::string a = write("a8.png", filled(6, 6, 30, 255));
  const std::string b = write("b8.png", filled(6, 6, 38, 255));
  const std::string json = (rig::test::scratch_dir() / "score8.json").string();
  const ToolRun r = run_tool(rig::test::quote(a) + " " + rig::test::quote(b) + " --json " +
                             rig::test::quote(json));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(rig::test::slurp(json).find("\"score_db\": -30.36998"), std::string::npos)
      << rig::test::slurp(json);
}

TEST(ImageScoreTool, BadInputIsOneLineNamingTheFile) {
  namespace fs = std::filesystem;
  const std::string good = write("good.png", filled(4, 4, 0, 255));
  const std::string other = write("other.png", filled(5, 4, 0, 255));
  const std::string text = (rig::test::scratch_dir() / "text.png").string();
  std::ofstream(text) << "not an image\n";
  const std::string missing = (rig::test::scratch_dir() / "missing.png").string();
  for (const std::string& bad : {missing, text, other}) {
    const ToolRun r = run_tool(rig::test::quote(good) + " " + rig::test::quote(bad));
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.err.rfind("image_score: error: " + bad + ": ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_NE(run_tool(rig::test::quote(good) + " " + rig::test::quote(text)).err.find("not a PNG"),
            std::string::npos);
  EXPECT_EQ(run_tool(rig::test::quote(good)).status, 2);
}

}  // namespace
