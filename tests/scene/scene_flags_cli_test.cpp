// The reference scene's --output flags: --camera projects a known point to the hand-computed
// pixel and honours near/far, --background transparent writes straight alpha (0 where nothing
// is drawn), --msaa 1 leaves no partially covered pixel, --no-grid drops the ground grid, and
// malformed values are one-line usage errors. Without --camera the reference scene frames the
// posed box from +Z by its own rule.
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
using rig::test::run_rigview;
using rig::test::SceneMesh;

std::string scene_file(const std::string& name, const std::vector<SceneMesh>& meshes,
                       const std::string& materials = "") {
  return rig::test::write_scene(rig::test::scratch_dir() / name,
                                rig::test::scene_gltf(meshes, materials));
}

// Centroid of the covered pixels (alpha > 0), pixel i's centre at i + 0.5.
bool coverage_centroid(const Png& png, double& x, double& y, int& count) {
  double sx = 0, sy = 0;
  count = 0;
  for (int py = 0; py < png.height; ++py)
    for (int px = 0; px < png.width; ++px)
      if (png.at(px, py)[3] > 0) {
        sx += px + 0.5;
        sy += py + 0.5;
        ++count;
      }
  if (!count) return false;
  x = sx / count;
  y = sy / count;
  return true;
}

// A camera 5 from the origin with a 90° vertical field of view sees ±5·tan 45° = ±5 at the
// target's depth, so the point 2.5 right and 1.25 up of the target lands at NDC (0.5, 0.25):
// on a 101 × 101 image, x = (0.5 + 1)/2 · 101 = 75.75 and y = (1 − 0.25)/2 · 101 = 37.875
// from the top-left corner. A small square there, seen head on, covers pixels centred there.
TEST(SceneFlagsCli, CameraProjectsAKnownPointToTheHandComputedPixel) {
  const std::string flags =
      "--resolution 101,101 --background transparent --msaa 1 --no-grid --camera ";
  // Looking down −Z from +Z: world +X is screen right.
  const std::string front =
      scene_file("front.gltf", {rig::test::square_facing_z(2.5f, 1.25f, 0, 0.2f)});
  Png png = render(front, flags + quote("0,0,5;0,0,0;90"), "front.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  double x = 0, y = 0;
  int count = 0;
  ASSERT_TRUE(coverage_centroid(png, x, y, count));
  EXPECT_NEAR(x, 75.75, 0.3);
  EXPECT_NEAR(y, 37.875, 0.3);
  // The square is 0.4 wide: 0.4/10 of 101 pixels = 4.04 across, about 16 pixels.
  EXPECT_NEAR(count, 16, 4);

  // Looking down −X from +X, up +Y: screen right is forward × up = (−1,0,0) × (0,1,0) = −Z,
  // so the point (0, 1.25, −2.5) lands on the same pixel. The square faces +Z, seen edge-on
  // from +X, so this scene uses one facing +X: the same square turned.
  SceneMesh side = rig::test::square_facing_z(0, 0, 0, 0.2f);
  for (size_t v = 0; v < 4; ++v) {
    const float px = side.positions[v * 3];
    side.positions[v * 3] = 0.0f;
    side.positions[v * 3 + 1] += 1.25f;
    side.positions[v * 3 + 2] = -2.5f - px;
    side.normals[v * 3] = 1.0f;
    side.normals[v * 3 + 2] = 0.0f;
  }
  png = render(scene_file("side.gltf", {side}), flags + quote("5,0,0;0,0,0;90"), "side.png");
  ASSERT_TRUE(coverage_centroid(png, x, y, count));
  EXPECT_NEAR(x, 75.75, 0.3);
  EXPECT_NEAR(y, 37.875, 0.3);
}

// near/far clip as given: the square 5 from the eye is gone with far 4, there with far 6, and
// gone with near 5.5.
TEST(SceneFlagsCli, CameraNearAndFarClip) {
  const std::string model = scene_file("clip.gltf", {rig::test::square_facing_z(0, 0, 0, 1.0f)});
  const std::string flags = "--resolution 32,32 --background transparent --no-grid --camera ";
  int count = 0;
  double x = 0, y = 0;
  Png png = render(model, flags + quote("0,0,5;0,0,0;60;1;6"), "far6.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  EXPECT_TRUE(coverage_centroid(png, x, y, count));
  EXPECT_FALSE(coverage_centroid(render(model, flags + quote("0,0,5;0,0,0;60;1;4"), "far4.png"), x,
                                 y, count));
  EXPECT_FALSE(coverage_centroid(
      render(model, flags + quote("0,0,5;0,0,0;60;5.5;10"), "near55.png"), x, y, count));
}

// A triangle with slanted edges over a transparent background. Where nothing is drawn alpha is
// 0; inside, alpha is 255 although the material's base colour alpha is 0.5 (an OPAQUE
// material: alpha forced to 1). With four samples the edge pixels are partly covered; their
// colour is straight (not darkened by the coverage): the same as the inside's, within rounding
// (the classic look shades the flat triangle evenly; the studio look's reflections would not).
TEST(SceneFlagsCli, TransparentBackgroundWritesStraightAlpha) {
  SceneMesh tri;
  tri.positions = {-0.8f, -0.7f, 0, 0.9f, -0.5f, 0, -0.1f, 0.85f, 0};
  tri.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
  tri.indices = {0, 1, 2};
  tri.material = 0;
  const std::string model = scene_file(
      "tri.gltf", {tri}, "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.2,0.6,0.9,0.5]}}]");
  const std::string flags =
      "--resolution 64,64 --no-grid --background transparent --lights classic --camera " +
      quote("0,0,3;0,0,0;45");
  const Png png = render(model, flags, "straight.png");
  if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  EXPECT_EQ(png.at(0, 0)[3], 0);
  EXPECT_EQ(png.at(63, 63)[3], 0);
  const uint8_t* inside = png.at(32, 36);
  EXPECT_EQ(inside[3], 255);
  int partial = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x) {
      const uint8_t* p = png.at(x, y);
      if (p[3] == 0 || p[3] == 255) continue;
      ++partial;
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(p[c], inside[c], 6) << "pixel " << x << "," << y << " alpha " << int(p[3]);
    }
  EXPECT_GT(partial, 20);  // the default four samples anti-alias the edges

  // --msaa 1: one sample per pixel, so every pixel is covered or not.
  const Png hard = render(model, flags + " --msaa 1", "hard.png");
  int covered = 0;
  for (size_t i = 3; i < hard.rgba.size(); i += 4) {
    EXPECT_TRUE(hard.rgba[i] == 0 || hard.rgba[i] == 255) << int(hard.rgba[i]);
    covered += hard.rgba[i] == 255;
  }
  EXPECT_GT(covered, 200);
}

// --background R,G,B fills where nothing is drawn; --no-grid leaves only the model.
TEST(SceneFlagsCli, BackgroundColourAndNoGrid) {
  const std::string model = scene_file("floor.gltf", {rig::test::square_facing_z(0, 0, 0, 0.3f)});
  const std::string flags =
      "--resolution 80,60 --msaa 1 --background 1,0,0.5 --camera " + quote("0,2,4;0,0,0;60");
  const Png grid = render(model, flags, "grid.png");
  if (grid.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const Png bare = render(model, flags + " --no-grid", "bare.png");
  auto background = [](const uint8_t* p) {
    return p[0] == 255 && p[1] == 0 && (p[2] == 127 || p[2] == 128) && p[3] == 255;
  };
  EXPECT_TRUE(background(bare.at(0, 0)));
  int grid_other = 0, bare_other = 0;
  for (int y = 0; y < grid.height; ++y)
    for (int x = 0; x < grid.width; ++x) {
      grid_other += !background(grid.at(x, y));
      bare_other += !background(bare.at(x, y));
    }
  EXPECT_GT(bare_other, 25);               // the square (about 7 × 6 pixels)
  EXPECT_GT(grid_other, bare_other + 50);  // the square and the grid around it
}

// Without --camera the reference scene frames the posed box from +Z (reference-scene.md,
// section 5). Two unit squares, the back one hidden behind the front one, span the box
// [2, 4] × [−3, −1] × [−1, 1]: target (3, −2, 0), r = half the diagonal = √3,
// d = 1.3·√3 / sin 22.5° = 5.8840. The front square is d − 1 from the eye, so its half size
// projects to 1 / (4.8840 · tan 22.5°) = 0.49431 of the half view: 126.54 pixels on a 512²
// image, centred. A camera that ignored the depth of the box (r = √2) would make it 128.65.
TEST(SceneFlagsCli, DefaultReferenceCameraFramesThePosedBoxFromPlusZ) {
  const std::string model = scene_file("box.gltf", {rig::test::square_facing_z(3, -2, 1, 1.0f),
                                                    rig::test::square_facing_z(3, -2, -1, 1.0f)});
  const std::string flags = rig::test::scene_flags(512, 512);
  for (const char* lights : {"none", "reference"}) {
    const Png png = render(model, flags + "--lights " + lights, std::string(lights) + "_box.png");
    if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
    double x = 0, y = 0;
    int count = 0;
    ASSERT_TRUE(coverage_centroid(png, x, y, count)) << lights;
    EXPECT_NEAR(x, 256.0, 0.5) << lights;
    EXPECT_NEAR(y, 256.0, 0.5) << lights;
    // Half the covered width of the middle row and of the middle column.
    int row = 0, column = 0;
    for (int i = 0; i < 512; ++i) {
      row += png.at(i, 256)[3] > 0;
      column += png.at(256, i)[3] > 0;
    }
    EXPECT_NEAR(row / 2.0, 126.54, 0.6) << lights;
    EXPECT_NEAR(column / 2.0, 126.54, 0.6) << lights;
  }
}

// --shadows: under the viewer's look a square standing on the ground casts onto it (only darker
// pixels, and some), off draws exactly the render without the shadow pass; the reference
// scene, which has none, renders the same with --shadows off as without the flag.
TEST(SceneFlagsCli, ShadowsDarkenTheGroundUnderTheViewersLookOnly) {
  // A level square one above a small one on the ground (which puts the grid at y = 0).
  SceneMesh roof;
  roof.positions = {-0.6f, 1, 0.6f, 0.6f, 1, 0.6f, 0.6f, 1, -0.6f, -0.6f, 1, -0.6f};
  roof.normals = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
  roof.indices = {0, 1, 2, 0, 2, 3};
  SceneMesh floor = roof;
  for (size_t i = 0; i < floor.positions.size(); i += 3) {
    floor.positions[i] *= 0.05f;
    floor.positions[i + 1] = 0.0f;
    floor.positions[i + 2] *= 0.05f;
  }
  const std::string model = scene_file("roof.gltf", {roof, floor});
  const std::string flags = "--resolution 120,90 --msaa 1 --background 0.5,0.5,0.5 --camera " +
                            quote("0,2.5,4;0,0.3,0;50");
  const Png on = render(model, flags + " --shadows on", "shadow_on.png");
  if (on.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
  const Png plain = render(model, flags, "shadow_default.png");
  const Png off = render(model, flags + " --shadows off", "shadow_off.png");
  EXPECT_EQ(plain.rgba, on.rgba);  // on is the default
  int darker = 0;
  for (size_t i = 0; i < on.rgba.size(); i += 4) {
    for (int c = 0; c < 3; ++c) EXPECT_LE(on.rgba[i + c], off.rgba[i + c] + 1);
    darker += on.rgba[i] + 20 < off.rgba[i];
  }
  EXPECT_GT(darker, 100);
  const Png reference = render(model, flags + " --lights reference", "shadow_ref.png");
  const Png reference_off =
      render(model, flags + " --lights reference --shadows off", "shadow_ref_off.png");
  EXPECT_EQ(reference.rgba, reference_off.rgba);
}

TEST(SceneFlagsCli, MalformedValuesAreOneLineUsageErrors) {
  const std::string out = " --output " + quote((rig::test::scratch_dir() / "x.png").string());
  for (const std::string& args : {"--camera " + quote("0,0,5;0,0,0") + out,
                                  "--camera " + quote("0,0,5;0,0;45") + out,
                                  "--camera " + quote("0,0,5;0,0,0;180") + out,
                                  "--camera " + quote("1,2,3;1,2,3;45") + out,
                                  "--camera " + quote("0,5,0;0,0,0;45") + out,
                                  "--camera " + quote("0,0,5;0,0,0;45;2") + out,
                                  "--camera " + quote("0,0,5;0,0,0;45;2;1") + out,
                                  "--camera " + quote("0,0,x;0,0,0;45") + out,
                                  "--background " + quote("1,0") + out,
                                  "--background " + quote("2,0,0") + out,
                                  "--background clear" + out,
                                  "--msaa 3" + out,
                                  "--msaa 0" + out,
                                  "--msaa many" + out,
                                  std::string("--camera ") + quote("0,0,5;0,0,0;45"),
                                  std::string("--no-grid"),
                                  "--msaa 4 --crowd 2" + out,
                                  "--shadows maybe" + out,
                                  "--shadows on --lights reference" + out,
                                  "--shadows on --lights none" + out,
                                  std::string("--shadows off")}) {
    const auto r = run_rigview(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("rigview: ", 0), 0u) << r.err;
  }
}

}  // namespace
