// --subpixel-bits N: coverage as a rasteriser with N sub-pixel bits decides it, worked out by
// hand. A rasteriser moves each vertex's window position to its sub-pixel grid, then covers the
// pixels whose centres (x + 0.5) lie inside the triangle; a centre exactly on an edge belongs to
// the triangle only on a left (or top) edge. The view: eye (0, 0, 1) looking at the origin with
// a 90° field of view on a 64 × 64 image, so a point (x, y, 0) lands at window x = 32·(x + 1).
// Three unlit white rectangles, their vertical edges at chosen window positions:
// - edges at 10.53 and 40.53: the GL's own 8 bits keep them near 10.53 (centre 10.5 outside,
//   40.5 inside): columns 11..40. With 4 bits both snap to ...0.5, onto the centres: the left
//   edge takes column 10, the right edge gives up column 40: columns 10..39.
// - edges at 10.6 and 40.6: 4 bits snap them to 10.625 and 40.625 (columns 11..40, as with 8);
//   2 bits snap them to 10.5 and 40.5 (columns 10..39).
// - edges at 10.56 and 40.56: 4 bits round them to the nearest step, 10.5625 and 40.5625
//   (columns 11..40, as with 8); rounding down instead would put them on the centres (10..39).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace {

using rig::test::Png;
using rig::test::quote;
using rig::test::render;
using rig::test::SceneMesh;

constexpr int kSize = 64;

// A rectangle facing +Z between window columns left_px and right_px (window x), and window rows
// bottom_px..top_px (GL rows, from the bottom), at z = 0.
SceneMesh window_rectangle(double left_px, double right_px, double bottom_px, double top_px) {
  auto world = [](double window) { return float(window / (kSize / 2.0) - 1.0); };
  const float l = world(left_px), r = world(right_px), b = world(bottom_px), t = world(top_px);
  SceneMesh m;
  m.positions = {l, b, 0, r, b, 0, r, t, 0, l, t, 0};
  m.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  m.indices = {0, 1, 2, 0, 2, 3};
  m.material = 0;
  return m;
}

std::string two_rectangles() {
  // Rows away from pixel centres (whole numbers): only the vertical edges are in question.
  const std::string json = rig::test::scene_gltf(
      {window_rectangle(10.53, 40.53, 8.0, 24.0), window_rectangle(10.6, 40.6, 40.0, 56.0),
       window_rectangle(10.56, 40.56, 28.0, 36.0)},
      "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1]},"
      "\"extensions\":{\"KHR_materials_unlit\":{}}}]",
      "[\"KHR_materials_unlit\"]");
  return rig::test::write_scene(rig::test::scratch_dir() / "subpixel.gltf", json);
}

struct Span {
  int first = -1, last = -1;  // covered columns of one row (-1: none)
};

// The covered columns of GL row `gl_row` (PNG rows are top first), which must be one run.
Span covered_columns(const Png& png, int gl_row) {
  Span s;
  const int y = png.height - 1 - gl_row;
  for (int x = 0; x < png.width; ++x) {
    if (png.at(x, y)[3] == 0) continue;
    if (s.first < 0) s.first = x;
    EXPECT_TRUE(s.last < 0 || s.last == x - 1) << "row " << gl_row << " has a gap before " << x;
    s.last = x;
  }
  return s;
}

Png render_with(const std::string& extra, const std::string& name) {
  return render(two_rectangles(),
                rig::test::scene_flags(kSize, kSize) + "--lights none --camera " +
                    quote("0,0,1;0,0,0;90") + " " + extra,
                name);
}

TEST(SubpixelCli, FourBitsMoveEdgesNearPixelCentresOntoThem) {
  const Png native = render_with("", "subpixel_native.png");
  if (native.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const Png four = render_with("--subpixel-bits 4", "subpixel_4.png");
  const Png two = render_with("--subpixel-bits 2", "subpixel_2.png");
  ASSERT_EQ(four.width, kSize);
  ASSERT_EQ(two.width, kSize);
  for (int row : {8, 16, 23}) {  // the first rectangle's rows
    const Span n = covered_columns(native, row), f = covered_columns(four, row);
    EXPECT_EQ(n.first, 11) << "row " << row;
    EXPECT_EQ(n.last, 40) << "row " << row;
    EXPECT_EQ(f.first, 10) << "row " << row;
    EXPECT_EQ(f.last, 39) << "row " << row;
  }
  for (int row : {40, 48, 55}) {  // the second rectangle's rows
    const Span n = covered_columns(native, row), f = covered_columns(four, row),
               t = covered_columns(two, row);
    EXPECT_EQ(n.first, 11) << "row " << row;
    EXPECT_EQ(n.last, 40) << "row " << row;
    EXPECT_EQ(f.first, 11) << "row " << row;
    EXPECT_EQ(f.last, 40) << "row " << row;
    EXPECT_EQ(t.first, 10) << "row " << row;
    EXPECT_EQ(t.last, 39) << "row " << row;
  }
  for (int row : {28, 32, 35}) {  // the third rectangle's rows
    const Span n = covered_columns(native, row), f = covered_columns(four, row);
    EXPECT_EQ(n.first, 11) << "row " << row;
    EXPECT_EQ(n.last, 40) << "row " << row;
    EXPECT_EQ(f.first, 11) << "row " << row;
    EXPECT_EQ(f.last, 40) << "row " << row;
  }
  // Rows are whole numbers of pixels: 8..23, 28..35 and 40..55, nothing else.
  for (const Png* png : {&native, &four, &two}) {
    EXPECT_EQ(covered_columns(*png, 7).first, -1);
    EXPECT_EQ(covered_columns(*png, 24).first, -1);
    EXPECT_EQ(covered_columns(*png, 27).first, -1);
    EXPECT_EQ(covered_columns(*png, 36).first, -1);
    EXPECT_EQ(covered_columns(*png, 39).first, -1);
    EXPECT_EQ(covered_columns(*png, 56).first, -1);
  }
}

TEST(SubpixelCli, RejectsBadCountsAndRendersOtherThanOutput) {
  const std::string model = two_rectangles();
  for (const char* bad : {"0", "9", "x", "-1"}) {
    const auto r = rig::test::run_rigview(quote(model) + " --subpixel-bits " + bad + " --output " +
                                          quote((rig::test::scratch_dir() / "bad.png").string()));
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--subpixel-bits expects a whole number from 1 to 8"), std::string::npos)
        << r.err;
  }
  // The viewer and crowd renders rasterise at the GL's own precision.
  for (const std::string& args : {std::string("--subpixel-bits 4"),
                                  quote(model) + " --subpixel-bits 4 --crowd 2 --output " +
                                      quote((rig::test::scratch_dir() / "crowd.png").string())}) {
    const auto r = rig::test::run_rigview(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find("--subpixel-bits apply to --output renders"), std::string::npos) << r.err;
  }
}

}  // namespace
