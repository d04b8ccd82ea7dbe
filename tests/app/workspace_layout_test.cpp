// The workspace layout's maths (viewer/workspace_layout.h), checked against sizes worked out by
// hand from the defaults (outliner 300, inspector 400, timeline 190, clip list 260, splitters 5
// px), and its persistence through the settings folder.
#include "viewer/workspace_layout.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {
namespace {

void expect_rect(const Rect& r, float x, float y, float w, float h, const char* what) {
  EXPECT_FLOAT_EQ(r.x, x) << what;
  EXPECT_FLOAT_EQ(r.y, y) << what;
  EXPECT_FLOAT_EQ(r.width, w) << what;
  EXPECT_FLOAT_EQ(r.height, h) << what;
}

TEST(WorkspaceLayout, RegionsAt1280x720) {
  const WorkspaceRegions r = workspace_regions(WorkspaceLayout{}, 1280.0f, 720.0f);
  expect_rect(r.outliner, 0, 0, 300, 720, "outliner");
  expect_rect(r.outliner_splitter, 300, 0, 5, 720, "outliner splitter");
  // 1280 - 300 - 5 - 5 - 400 = 570 wide; 720 - 190 - 5 = 525 high.
  expect_rect(r.viewport, 305, 0, 570, 525, "viewport");
  expect_rect(r.timeline_splitter, 305, 525, 570, 5, "timeline splitter");
  expect_rect(r.timeline, 305, 530, 570, 190, "timeline");
  expect_rect(r.inspector_splitter, 875, 0, 5, 720, "inspector splitter");
  expect_rect(r.inspector, 880, 0, 400, 720, "inspector");
  expect_rect(r.clip_list, 0, 0, 300, 260, "clip list");
  expect_rect(r.clip_list_splitter, 0, 260, 300, 5, "clip list splitter");
  expect_rect(r.skeleton, 0, 265, 300, 455, "skeleton");
}

TEST(WorkspaceLayout, RegionsAt1920x1080) {
  const WorkspaceRegions r = workspace_regions(WorkspaceLayout{}, 1920.0f, 1080.0f);
  expect_rect(r.outliner, 0, 0, 300, 1080, "outliner");
  expect_rect(r.viewport, 305, 0, 1210, 885, "viewport");
  expect_rect(r.timeline, 305, 890, 1210, 190, "timeline");
  expect_rect(r.inspector, 1520, 0, 400, 1080, "inspector");
  expect_rect(r.skeleton, 0, 265, 300, 815, "skeleton");
}

TEST(WorkspaceLayout, PanelsHiddenGiveTheViewportTheWholeWindow) {
  const WorkspaceRegions r = workspace_regions(WorkspaceLayout{}, 1280.0f, 720.0f, true);
  expect_rect(r.viewport, 0, 0, 1280, 720, "viewport");
  EXPECT_EQ(r.outliner.width, 0.0f);
  EXPECT_EQ(r.timeline.height, 0.0f);
  // The viewer's scene view is that region: the renderer, picking and handles all read it.
  ViewerState state;
  expect_rect(scene_view(state, 1280.0f, 720.0f), 305, 0, 570, 525, "scene view");
  state.panels_hidden = true;
  expect_rect(scene_view(state, 1280.0f, 720.0f), 0, 0, 1280, 720, "scene view, Tab");
}

TEST(WorkspaceLayout, SplittersAreClamped) {
  WorkspaceLayout l;
  l.outliner_width = 50.0f;     // below the minimum
  l.inspector_width = 5000.0f;  // far beyond the window
  l.timeline_height = 5.0f;
  l.clip_list_height = 5000.0f;
  WorkspaceLayout c = clamp_layout(l, 1280.0f, 720.0f);
  EXPECT_FLOAT_EQ(c.outliner_width, 160.0f);
  // Room for the side panels: 1280 - 160 (viewport) - 10 (splitters) = 1110; less the outliner.
  EXPECT_FLOAT_EQ(c.inspector_width, 1110.0f - 160.0f);
  EXPECT_FLOAT_EQ(c.timeline_height, 110.0f);
  EXPECT_FLOAT_EQ(c.clip_list_height, 720.0f - 120.0f - 5.0f);  // the tree keeps 120 px

  l = WorkspaceLayout{};
  l.timeline_height = 1000.0f;
  l.outliner_width = 2000.0f;
  c = clamp_layout(l, 1280.0f, 720.0f);
  EXPECT_FLOAT_EQ(c.timeline_height, 720.0f - 160.0f - 5.0f);  // the viewport keeps 160 px
  EXPECT_FLOAT_EQ(c.outliner_width, 1110.0f - 240.0f);         // the inspector keeps its minimum
  EXPECT_FLOAT_EQ(c.inspector_width, 240.0f);

  // A window too small for both minima: they shrink in proportion, the viewport keeps 160 px.
  c = clamp_layout(WorkspaceLayout{}, 400.0f, 300.0f);
  EXPECT_NEAR(c.outliner_width, 160.0f * 230.0f / 400.0f, 1e-3f);
  EXPECT_NEAR(c.inspector_width, 240.0f * 230.0f / 400.0f, 1e-3f);
  const WorkspaceRegions r = workspace_regions(WorkspaceLayout{}, 400.0f, 300.0f);
  EXPECT_NEAR(r.viewport.width, 160.0f, 1e-3f);
  EXPECT_GE(r.viewport.height, 0.0f);

  // Not a number (a damaged file): the minimum.
  l.outliner_width = std::nanf("");
  EXPECT_FLOAT_EQ(clamp_layout(l, 1280.0f, 720.0f).outliner_width, 160.0f);
}

TEST(WorkspaceLayout, RegionsTileTheWindowAtAnySize) {
  for (float w : {640.0f, 1280.0f, 1920.0f, 3840.0f})
    for (float h : {480.0f, 720.0f, 1080.0f}) {
      const WorkspaceRegions r = workspace_regions(WorkspaceLayout{}, w, h);
      EXPECT_FLOAT_EQ(r.outliner.width + r.outliner_splitter.width + r.viewport.width +
                          r.inspector_splitter.width + r.inspector.width,
                      w);
      EXPECT_FLOAT_EQ(r.viewport.height + r.timeline_splitter.height + r.timeline.height, h);
      EXPECT_FLOAT_EQ(r.viewport.x, r.outliner_splitter.right());
      EXPECT_FLOAT_EQ(r.inspector.x, r.inspector_splitter.right());
      EXPECT_GE(r.viewport.width, kMinViewport) << w << "x" << h;
    }
}

TEST(WorkspaceLayout, SavedFormRoundTrips) {
  WorkspaceLayout l;
  l.outliner_width = 321.0f;
  l.inspector_width = 456.0f;
  l.timeline_height = 222.0f;
  l.clip_list_height = 333.0f;
  l.tab = InspectorTab::RigHealth;
  EXPECT_EQ(format_layout(l),
            "outliner_width 321\ninspector_width 456\ntimeline_height 222\n"
            "clip_list_height 333\ntab Rig health\n");
  const WorkspaceLayout back = parse_layout(format_layout(l));
  EXPECT_EQ(back.outliner_width, 321.0f);
  EXPECT_EQ(back.inspector_width, 456.0f);
  EXPECT_EQ(back.timeline_height, 222.0f);
  EXPECT_EQ(back.clip_list_height, 333.0f);
  EXPECT_EQ(back.tab, InspectorTab::RigHealth);
  // Damaged lines keep the fallback's value; good lines still count.
  const WorkspaceLayout damaged = parse_layout(
      "outliner_width banana\ninspector_width -4\ntimeline_height 1e9\n"
      "tab Nonsense\nclip_list_height 99\n");
  EXPECT_EQ(damaged.outliner_width, WorkspaceLayout{}.outliner_width);
  EXPECT_EQ(damaged.inspector_width, WorkspaceLayout{}.inspector_width);
  EXPECT_EQ(damaged.timeline_height, WorkspaceLayout{}.timeline_height);
  EXPECT_EQ(damaged.tab, WorkspaceLayout{}.tab);
  EXPECT_EQ(damaged.clip_list_height, 99.0f);
}

// Saved by one run, read by the next, through the settings folder, as the recent files are.
TEST(WorkspaceLayout, PersistsBetweenRunsInTheSettingsFolder) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("rigview_layout_test_" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved_env = old ? old : "";
  setenv("XDG_CONFIG_HOME", folder.c_str(), 1);
  WorkspaceLayout l;
  l.outliner_width = 250.0f;
  l.timeline_height = 300.0f;
  l.tab = InspectorTab::Compression;
  {
    ViewerSettings first;
    first.load();
    ASSERT_TRUE(first.persistent());
    EXPECT_EQ(first.layout().tab, InspectorTab::Display);  // nothing saved yet: the defaults
    first.save_layout(l);
  }
  ViewerSettings second;
  second.load();
  EXPECT_EQ(second.layout().outliner_width, 250.0f);
  EXPECT_EQ(second.layout().timeline_height, 300.0f);
  EXPECT_EQ(second.layout().inspector_width, WorkspaceLayout{}.inspector_width);
  EXPECT_EQ(second.layout().tab, InspectorTab::Compression);
  EXPECT_TRUE(std::filesystem::exists(folder / "rigview" / "layout.txt"));
  if (old)
    setenv("XDG_CONFIG_HOME", saved_env.c_str(), 1);
  else
    unsetenv("XDG_CONFIG_HOME");
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace rigview
