// --lights studio (the default look) against values computed by hand: a white Lambert-limit
// plane (metallic 0, roughness 1) under a constant environment of radiance L, key light off.
// Its irradiance is π·L, so the environment's diffuse is π·L·1/π·(1 − E) and its specular
// L·E (the prefiltered constant is L at every roughness), E = F0·A + B: the sum is L exactly,
// whatever the DFG table says. Then exposure (×2^EV) and tone mapping (PBR Neutral: 0.5 →
// 0.5 − 0.04 below the knee), and the environment's turn about +Y. Bad --environment files and
// flag combinations fail with one line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace {

using rig::test::Png;
using rig::test::quote;
using rig::test::render;

double srgb(double c) {
  c = std::min(std::max(c, 0.0), 1.0);
  return 255.0 * (c < 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055);
}

// A flat (not run-length encoded) Radiance file, 16 × 8: RGBE (128, 128, 128, e) is
// 128·2^(e − 136) per channel, so e = 128 gives 0.5 and e = 129 gives 1; (0, 0, 0, 0) is black.
// `bright_left`: columns 0..7 (u < 0.5, the −X half of the sphere) at 1, the rest black;
// otherwise every texel at 0.5.
std::string write_hdr(const std::string& name, bool bright_left) {
  const std::string path = (rig::test::scratch_dir() / name).string();
  std::ofstream f(path, std::ios::binary);
  f << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8 +X 16\n";
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 16; ++i) {
      if (!bright_left)
        f.write("\x80\x80\x80\x80", 4);
      else if (i < 8)
        f.write("\x80\x80\x80\x81", 4);
      else
        f.write("\0\0\0\0", 4);
    }
  return path;
}

// A white plane (metallic 0, roughness 1) of half size 1 through the origin facing +Z, seen
// from (0, 0, 3): the centre pixel of a 32 × 32 image.
double centre(const std::string& look_flags, const std::string& name) {
  const std::string model = rig::test::write_scene(
      rig::test::scratch_dir() / (name + ".gltf"),
      rig::test::scene_gltf({rig::test::square_facing_z(0, 0, 0, 1, 0)},
                            "[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1],"
                            "\"metallicFactor\":0,\"roughnessFactor\":1}}]"));
  const Png png = render(model,
                         rig::test::scene_flags(32, 32) + "--camera \"0,0,3;0,0,0;30\" " +
                             "--lights studio --key-light 0 " + look_flags,
                         name + ".png");
  if (png.rgba.empty()) return -1.0;
  EXPECT_EQ(png.at(16, 16)[3], 255);
  return png.at(16, 16)[0];
}

TEST(StudioLookCli, WhiteLambertPlaneUnderAConstantEnvironmentIsL) {
  const std::string hdr = write_hdr("constant_half.hdr", false);
  const double none = centre("--environment " + quote(hdr) + " --tone-mapping none", "studio_l");
  if (none < 0) GTEST_SKIP() << "no headless OpenGL";
  EXPECT_NEAR(none, srgb(0.5), 1.0);  // 187.5
  // One stop down: 0.25; intensity 2 one stop down: 0.5 again.
  EXPECT_NEAR(
      centre("--environment " + quote(hdr) + " --tone-mapping none --exposure -1", "studio_ev"),
      srgb(0.25), 1.0);
  EXPECT_NEAR(centre("--environment " + quote(hdr) +
                         " --tone-mapping none --exposure -1 --environment-intensity 2",
                     "studio_intensity"),
              srgb(0.5), 1.0);
  // PBR Neutral (the default): 0.5 − 0.04 = 0.46, below the start of compression 0.76.
  EXPECT_NEAR(centre("--environment " + quote(hdr), "studio_neutral"), srgb(0.46), 1.0);
}

// The −X half of the sphere at 1, the +X half black. Turned +90° about +Y, −X goes to +Z: the
// plane facing +Z sees only light (irradiance π, specular 1: white); turned −90° only black;
// unturned half of each (about 0.5).
TEST(StudioLookCli, EnvironmentRotationTurnsAboutPlusY) {
  const std::string hdr = write_hdr("half_bright.hdr", true);
  const std::string flags = "--environment " + quote(hdr) + " --tone-mapping none ";
  const double plus = centre(flags + "--environment-rotation 90", "studio_rot_plus");
  if (plus < 0) GTEST_SKIP() << "no headless OpenGL";
  EXPECT_GE(plus, 245.0);
  EXPECT_LE(centre(flags + "--environment-rotation -90", "studio_rot_minus"), 40.0);
  EXPECT_NEAR(centre(flags, "studio_rot_zero"), srgb(0.5), 8.0);
}

TEST(StudioLookCli, BadEnvironmentFilesFailNamingTheFile) {
  const std::string model =
      rig::test::write_scene(rig::test::scratch_dir() / "studio_bad.gltf",
                             rig::test::scene_gltf({rig::test::square_facing_z(0, 0, 0, 1)}));
  const std::string png = (rig::test::scratch_dir() / "studio_bad.png").string();
  const std::string missing = (rig::test::scratch_dir() / "no_such_environment.hdr").string();
  auto r = rig::test::run_rigview(quote(model) + " --environment " + quote(missing) + " --output " +
                                  quote(png));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  const std::string text = (rig::test::scratch_dir() / "not_an_environment.hdr").string();
  std::ofstream(text) << "hello\n";
  r = rig::test::run_rigview(quote(model) + " --environment " + quote(text) + " --output " +
                             quote(png));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Radiance"), std::string::npos) << r.err;
}

TEST(StudioLookCli, LookFlagsNeedTheStudioLook) {
  const std::string model =
      rig::test::write_scene(rig::test::scratch_dir() / "studio_flags.gltf",
                             rig::test::scene_gltf({rig::test::square_facing_z(0, 0, 0, 1)}));
  const std::string png = (rig::test::scratch_dir() / "studio_flags.png").string();
  for (const char* flags :
       {"--lights reference --tone-mapping aces", "--lights classic --exposure 1",
        "--tone-mapping filmic", "--environment-intensity -1", "--lights studios"}) {
    const auto r = rig::test::run_rigview(quote(model) + " " + flags + " --output " + quote(png));
    EXPECT_NE(r.status, 0) << flags;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << flags << ": " << r.err;
  }
}

}  // namespace
