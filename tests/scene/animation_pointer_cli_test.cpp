// KHR_animation_pointer seen from the command line: a square whose unlit material's
// baseColorFactor a pointer channel animates, rendered under --lights reference at two clip
// times. Unlit, each pixel of the square is its base colour sRGB-encoded, so the expected pixel
// is the hand-interpolated factor encoded by hand (a crossfade or layer mixed by hand too).
// --info lists the channel; --write-copy, which cannot keep it, says so.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "scene_gltf.h"
#include "scene_render.h"
#include "test_support.h"

namespace {

using rig::test::Png;
using rig::test::quote;

const char* kPointer = "/materials/0/pbrMetallicRoughness/baseColorFactor";

// The square of scene_gltf (accessors 0–2, bufferViews 0–2, buffer 0) plus buffer 1 with the
// keys: times [0, 1, 2] and colours red, green, blue (accessors 3 and 4), in animation 0.
std::string pointer_scene() {
  std::string json =
      rig::test::scene_gltf({rig::test::square_facing_z(0, 0, 0, 1.0f, 0)},
                            R"([{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1]},)"
                            R"("extensions":{"KHR_materials_unlit":{}}}])",
                            R"(["KHR_materials_unlit","KHR_animation_pointer"])");
  rig::test::ByteBuffer keys;
  keys.put<float>({0, 1, 2});
  keys.put<float>({1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1});
  auto insert_before = [&](const std::string& after, const std::string& close,
                           const std::string& text) {
    const size_t at = json.find(close, json.find(after));
    json.insert(at, text);
  };
  insert_before("\"accessors\":[", "],\"bufferViews\"",
                R"(,{"bufferView":3,"componentType":5126,"count":3,"type":"SCALAR",)"
                R"("min":[0],"max":[2]},)"
                R"({"bufferView":4,"componentType":5126,"count":3,"type":"VEC4"})");
  insert_before("\"bufferViews\":[", "],\"buffers\"",
                R"(,{"buffer":1,"byteLength":12},{"buffer":1,"byteOffset":12,"byteLength":48})");
  insert_before("\"buffers\":[", "}]",
                "},{\"byteLength\":" + std::to_string(keys.size()) + ",\"uri\":\"" +
                    rig::test::data_uri(keys.data) + "\"");
  json.pop_back();
  json += R"(,"animations":[{"name":"colour","samplers":[{"input":3,"output":4}],)"
          R"("channels":[{"sampler":0,"target":{"path":"pointer","extensions":)"
          R"({"KHR_animation_pointer":{"pointer":")" +
          std::string(kPointer) + R"("}}}}]}]})";
  return rig::test::write_scene(rig::test::scratch_dir() / "pointer_colour.gltf", json);
}

double srgb(double c) {
  return 255.0 * (c < 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055);
}

Png render_at(const std::string& model, float time, const std::string& name) {
  return rig::test::render(model,
                           rig::test::scene_flags(32, 32) +
                               "--lights reference --camera \"0,0,5;0,0,0;30\" "
                               "--animation-index 0 --animation-time " +
                               std::to_string(time),
                           name);
}

TEST(AnimationPointerCli, AnimatedBaseColourRendersAsTheHandInterpolatedColour) {
  const std::string model = pointer_scene();
  // t = 0.5: halfway from red to green; t = 1.75: three quarters of the way from green to blue.
  const struct {
    float time;
    double rgb[3];
  } cases[] = {{0.5f, {0.5, 0.5, 0.0}}, {1.75f, {0.0, 0.25, 0.75}}};
  for (const auto& c : cases) {
    const Png png = render_at(model, c.time, "pointer_" + std::to_string(c.time) + ".png");
    if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
    const uint8_t* centre = png.at(16, 16);
    EXPECT_EQ(centre[3], 255);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(centre[k], srgb(c.rgb[k]), 1.0) << "t = " << c.time << " channel " << k;
  }
}

// The pose flags reach the material too: a crossfade of the clip with itself at two times, and
// an additive layer over the base (the layer clip at its time minus its first frame).
TEST(AnimationPointerCli, CrossfadeAndAdditiveLayerBlendTheAnimatedColour) {
  const std::string model = pointer_scene();
  const struct {
    const char* flags;
    const char* name;
    double rgb[3];
  } cases[] = {
      // 0.75·(0.5, 0.5, 0) [t = 0.5] + 0.25·(0, 0.25, 0.75) [t = 1.75].
      {"--animation-time 0.5 --blend-index 0 --blend-time 1.75 --blend-weight 0.25",
       "pointer_crossfade.png",
       {0.375, 0.4375, 0.1875}},
      // Blue [t = 2] + 0.5·(green [t = 1] − red [t = 0]) = (−0.5, 0.5, 1): red clamped to 0.
      {"--animation-time 2 --layer 0:0.5:additive:time=1", "pointer_additive.png", {0, 0.5, 1}},
  };
  for (const auto& c : cases) {
    const Png png = rig::test::render(model,
                                      rig::test::scene_flags(32, 32) +
                                          "--lights reference --camera \"0,0,5;0,0,0;30\" "
                                          "--animation-index 0 " +
                                          c.flags,
                                      c.name);
    if (png.rgba.empty()) GTEST_SKIP() << "no headless OpenGL";
    const uint8_t* centre = png.at(16, 16);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(centre[k], srgb(c.rgb[k]), 1.0) << c.flags << " channel " << k;
  }
}

TEST(AnimationPointerCli, InfoListsTheMaterialChannelAndWriteCopyWarnsItIsDropped) {
  const std::string model = pointer_scene();
  const auto info = rig::test::run_rigview(quote(model) + " --info");
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find(std::string("\"material_channels\":[\"") + kPointer + "\"]"),
            std::string::npos)
      << info.out;
  const std::string copy = (rig::test::scratch_dir() / "pointer_copy.glb").string();
  const auto written = rig::test::run_rigview(quote(model) + " --write-copy " + quote(copy));
  ASSERT_EQ(written.status, 0) << written.err;
  EXPECT_NE(written.err.find("KHR_animation_pointer channel is not written"), std::string::npos)
      << written.err;
}

}  // namespace
