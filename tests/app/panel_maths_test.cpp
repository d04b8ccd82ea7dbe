// The window-free parts of the viewer's panels: the timeline's scale and read-out, the heat-map
// legend's colours and the coincident artefact curves, against hand-made inputs and the colour
// rules of analysis/color_map.h (the function the shaders evaluate).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "analysis/color_map.h"
#include "viewer/artefact_curves.h"
#include "viewer/field_legend.h"
#include "viewer/timeline_scale.h"

namespace rigview {
namespace {

// A one-frame "pose" clip of keys at 0 and 1/30 s read 0.035 s of 0.033 s after a frame step
// (the step lands on the 30 Hz grid past the clip's last key).
TEST(TimelineScale, ReadoutStaysInsideAOneFramePoseClip) {
  char text[96];
  EXPECT_STREQ(format_time_readout(text, sizeof text, 0.035f, 0.0f, 1.0f / 30.0f, 1, 1),
               "0.033 / 0.033 s   frame 1 / 1");
  EXPECT_STREQ(format_time_readout(text, sizeof text, -0.5f, 0.0f, 1.0f / 30.0f, -3, 1),
               "0.000 / 0.033 s   frame 1 / 1");
  // A clip starting at 2 s: the read-out counts from the clip's start.
  EXPECT_STREQ(format_time_readout(text, sizeof text, 2.5f, 2.0f, 3.0f, 15, 31),
               "0.500 / 1.000 s   frame 16 / 31");
}

TEST(TimelineScale, PixelsAndTimes) {
  EXPECT_FLOAT_EQ(timeline_time_at(150.0f, 100.0f, 200.0f, 1.0f, 3.0f), 1.5f);
  EXPECT_FLOAT_EQ(timeline_time_at(0.0f, 100.0f, 200.0f, 1.0f, 3.0f), 1.0f);    // clamped
  EXPECT_FLOAT_EQ(timeline_time_at(900.0f, 100.0f, 200.0f, 1.0f, 3.0f), 3.0f);  // clamped
  EXPECT_FLOAT_EQ(timeline_x_at(2.5f, 100.0f, 200.0f, 1.0f, 3.0f), 250.0f);
  EXPECT_FLOAT_EQ(timeline_time_at(150.0f, 100.0f, 200.0f, 1.0f, 1.0f), 1.0f);  // zero length
}

TEST(TimelineScale, KeyColumnsMarkEachKeyOnce) {
  rig::Clip clip;
  clip.start = 0.0f;
  clip.end = 1.0f;
  rig::Channel a, b;
  a.times = {0.0f, 0.5f, 1.0f};
  b.times = {0.25f, 0.26f, 0.5f};  // 0.26 shares 0.25's column at 10 columns; 0.5 is a's
  clip.channels = {a, b};
  std::array<unsigned char, 10> columns{};
  EXPECT_EQ(mark_key_columns(clip, columns), 4u);
  const std::array<unsigned char, 10> expected = {1, 0, 1, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(columns, expected);
  // A baked channel with far more keys than columns marks every column.
  rig::Channel dense;
  for (int k = 0; k <= 3000; ++k) dense.times.push_back(float(k) / 3000.0f);
  clip.channels = {dense};
  EXPECT_EQ(mark_key_columns(clip, columns), 10u);
}

// The method-difference and rig-findings views draw a value at the minimum grey (the heat map's
// own at-or-below-minimum colour), while the legend's bar starts dark blue: the legend names the
// grey with a swatch of exactly that colour.
TEST(FieldLegend, HeatMapsShowTheirMinimumColourAsASwatch) {
  rig::analysis::ScalarField field;
  field.map = rig::analysis::ColorMap::Heat;
  field.min = 0.0f;
  field.max = 0.05f;
  const FieldLegendKey key = field_legend_key(field, "no difference", "undefined");
  ASSERT_EQ(key.swatch_count, 2u);
  EXPECT_EQ(key.swatches[0].color, rig::analysis::kZeroColor);  // grey, as drawn at 0
  EXPECT_STREQ(key.swatches[0].label, "no difference");
  EXPECT_EQ(key.swatches[1].color, field.undefined_color);
  // The bar is the map above the minimum: its start is not the grey.
  EXPECT_NE(field_legend_bar_color(field, 0.0f), rig::analysis::kZeroColor);
  EXPECT_EQ(field_legend_bar_color(field, 1.0f), rig::analysis::kHeatStops.back());

  // The rig findings cannot be undefined: the grey "unaffected" swatch alone.
  const FieldLegendKey findings = field_legend_key(field, "unaffected", nullptr);
  ASSERT_EQ(findings.swatch_count, 1u);
  EXPECT_EQ(findings.swatches[0].color, rig::analysis::kZeroColor);
}

TEST(FieldLegend, DivergingMapsNeedNoMinimumSwatch) {
  rig::analysis::ScalarField field;
  field.map = rig::analysis::ColorMap::Diverging;
  field.min = -1.0f;
  field.max = 1.0f;
  const FieldLegendKey key = field_legend_key(field, "unused", "undefined");
  ASSERT_EQ(key.swatch_count, 1u);  // the minimum is the bar's first colour
  EXPECT_STREQ(key.swatches[0].label, "undefined");
}

rig::MethodScan curve(rig::SkinningMethod method, std::vector<float> rms) {
  rig::MethodScan m;
  m.method = method;
  m.rms = std::move(rms);
  return m;
}

// Mix with no DQS joint is LBS: its curve hid LBS's. Equal curves are found, so the plot can
// draw the later one dashed and say "Mix = LBS".
TEST(ArtefactCurves, EqualCurvesAreFound) {
  rig::ClipScan scan;
  scan.times = {0.0f, 0.5f, 1.0f};
  scan.methods = {curve(rig::SkinningMethod::Linear, {0.1f, 0.3f, std::nanf("")}),
                  curve(rig::SkinningMethod::DualQuaternion, {0.1f, 0.2f, 0.1f}),
                  curve(rig::SkinningMethod::Mix, {0.1f, 0.3f, std::nanf("")})};
  EXPECT_EQ(first_equal_curve(scan, 0), -1);
  EXPECT_EQ(first_equal_curve(scan, 1), -1);
  EXPECT_EQ(first_equal_curve(scan, 2), 0);  // Mix = LBS
  scan.methods[2].rms[1] = 0.31f;            // a ticked joint: they part
  EXPECT_EQ(first_equal_curve(scan, 2), -1);
  EXPECT_EQ(first_equal_curve(scan, 7), -1);  // no such method
}

}  // namespace
}  // namespace rigview
