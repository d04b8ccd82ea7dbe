// The viewer's look as saved between runs (viewer/look_state.h): what is written reads back,
// values out of range or unknown keep the defaults, and only .hdr files count as environments;
// of several files dropped at once the viewer takes a model, else an environment, else the first.
#include "viewer/look_state.h"

#include <gtest/gtest.h>

#include "viewer/document.h"

namespace rigview {
namespace {

TEST(ViewerLookSettings, RoundTripsThroughText) {
  ViewerLook look;
  look.studio = false;
  look.settings.environment_rotation_deg = -45.5f;
  look.settings.environment_intensity = 1.75f;
  look.settings.key_intensity = 0.0f;
  look.settings.tone_mapping = rig::render::ToneMapping::Aces;
  look.settings.exposure_ev = 1.5f;
  look.environment = "/tmp/some place/studio.HDR";
  const ViewerLook back = parse_look(format_look(look), ViewerLook{});
  EXPECT_FALSE(back.studio);
  EXPECT_FLOAT_EQ(back.settings.environment_rotation_deg, -45.5f);
  EXPECT_FLOAT_EQ(back.settings.environment_intensity, 1.75f);
  EXPECT_FLOAT_EQ(back.settings.key_intensity, 0.0f);
  EXPECT_EQ(back.settings.tone_mapping, rig::render::ToneMapping::Aces);
  EXPECT_FLOAT_EQ(back.settings.exposure_ev, 1.5f);
  EXPECT_EQ(back.environment, look.environment);
}

TEST(ViewerLookSettings, BadValuesKeepTheDefaults) {
  ViewerLook defaults;
  defaults.settings.exposure_ev = 0.5f;
  const ViewerLook back = parse_look(
      "exposure 1e9\nintensity -1\nkey nan\ntone_mapping filmic\nrotation 12abc\n"
      "environment /etc/passwd\nnonsense 3\nstudio",
      defaults);
  EXPECT_TRUE(back.studio);
  EXPECT_FLOAT_EQ(back.settings.exposure_ev, 0.5f);
  EXPECT_FLOAT_EQ(back.settings.environment_intensity, 1.0f);
  EXPECT_FLOAT_EQ(back.settings.key_intensity, 2.0f);
  EXPECT_EQ(back.settings.tone_mapping, rig::render::ToneMapping::Neutral);
  EXPECT_FLOAT_EQ(back.settings.environment_rotation_deg, 0.0f);
  EXPECT_TRUE(back.environment.empty());
}

TEST(ViewerLookSettings, OnlyHdrFilesAreEnvironments) {
  EXPECT_TRUE(is_environment_file("a/b/c.hdr"));
  EXPECT_TRUE(is_environment_file("C.HDR"));
  EXPECT_FALSE(is_environment_file("model.glb"));
  EXPECT_FALSE(is_environment_file("hdr"));
  EXPECT_FALSE(is_environment_file(""));
}

// Which of the paths a file manager drops together is taken, worked out by hand per list.
TEST(ViewerLookSettings, ADropTakesAModelThenAnEnvironmentThenTheFirst) {
  const char* hdr_after_text[] = {"notes.txt", "sky.HDR", "other.hdr"};
  EXPECT_EQ(dropped_file_to_take(3, hdr_after_text), 1);
  const char* model_after_hdr[] = {"sky.hdr", "notes.txt", "hero.GLB", "b.gltf"};
  EXPECT_EQ(dropped_file_to_take(4, model_after_hdr), 2);
  const char* neither[] = {"notes.txt", "photo.png"};
  EXPECT_EQ(dropped_file_to_take(2, neither), 0);
  EXPECT_EQ(dropped_file_to_take(0, nullptr), -1);
}

}  // namespace
}  // namespace rigview
