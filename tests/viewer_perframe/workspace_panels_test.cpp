// The workspace's panels driven the way a person drives them, in a Dear ImGui context without a
// window: synthetic pointer presses, drags and releases frame by frame, then what the state, the
// document and ImGui's windows say. Each test names the defect it keeps away.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "headless_imgui.h"
#include "viewer/actions.h"
#include "viewer/document.h"
#include "viewer/panels.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {
namespace {

void load(Document& doc, const char* bug = nullptr) {
  Options options;
  if (bug) options.simulate_bug = bug;
  std::string error;
  ASSERT_TRUE(
      load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", options, doc, error))
      << error;
}

// One frame of `draw` inside a plain window at the display's top left (no title bar, default
// padding), with the pointer at `mouse` and the left button `down`.
template <typename Draw>
void frame_in_window(ImVec2 mouse, bool down, Draw&& draw) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = mouse;
  io.MouseDown[0] = down;
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(420.0f, 1300.0f));
  ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings);
  draw();
  ImGui::End();
  ImGui::Render();
}

// The tolerance slider snapped back to 0.010 cm on release: it edited a copy made each frame.
// Dragging it right and letting go keeps the new value and asks the compression for it.
TEST(WorkspacePanels, CompressionToleranceSliderKeepsItsValueAndRecompresses) {
  Document doc;
  load(doc);
  ViewerState state;
  state.playback = &doc.playback;
  HeadlessImGui imgui;
  const float padding = ImGui::GetStyle().WindowPadding.x;  // the slider is the first item
  const float y = padding + 0.5f * ImGui::GetFrameHeight();
  auto draw = [&] { draw_compression_panel(state, doc); };
  frame_in_window(ImVec2(padding + 40.0f, y), false, draw);  // hover
  frame_in_window(ImVec2(padding + 40.0f, y), true, draw);   // press
  frame_in_window(ImVec2(padding + 180.0f, y), true, draw);  // drag right
  EXPECT_TRUE(state.tolerance_editing);
  frame_in_window(ImVec2(padding + 180.0f, y), false, draw);  // release
  frame_in_window(ImVec2(padding + 180.0f, y), false, draw);  // a frame after
  // 180 of the slider's 200 px on a logarithmic 0.001..1 cm scale: well above 0.1 cm.
  EXPECT_GT(state.tolerance_cm, 0.1f);
  EXPECT_LE(state.tolerance_cm, 1.0f);
  EXPECT_FALSE(state.tolerance_editing);
  ASSERT_NE(doc.compression(), nullptr);
  EXPECT_EQ(doc.compression()->requested_tolerance, double(state.tolerance_cm));
}

// Choosing a simulated bug put findings above the choices, which jumped about 250 px down. The
// first choice stays where it was, whatever the rig health lists.
TEST(WorkspacePanels, TeachingAidChoicesStayInPlaceWhenABugAddsFindings) {
  float y[2] = {0.0f, 0.0f};
  const char* bugs[2] = {nullptr, "reversed-multiply"};
  size_t rows[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    Document doc;
    load(doc, bugs[i]);
    doc.stop_background_work();
    rows[i] = doc.health().rows.size();
    ViewerState state;
    state.playback = &doc.playback;
    HeadlessImGui imgui;
    for (int f = 0; f < 2; ++f)
      frame_in_window(ImVec2(-100.0f, -100.0f), false, [&] {
        // Open the Teaching aids header, as a click on it would.
        ImGui::GetStateStorage()->SetInt(ImGui::GetID("Teaching aids: classic rigging bugs"), 1);
        draw_rig_health_tab(state, doc);
      });
    y[i] = state.teaching_choices_y;
  }
  ASSERT_GT(rows[1], rows[0]);  // the bug does add findings
  EXPECT_GT(y[0], 0.0f);        // the choices were drawn
  EXPECT_EQ(y[0], y[1]);
}

// Help showed the README's Markdown backticks and cut the V row off at the window's edge: plain
// text, wrapped inside a window that fits the display.
TEST(WorkspacePanels, HelpIsPlainTextInsideTheWindow) {
  for (const ViewerAction& row : viewer_actions()) {
    EXPECT_EQ(row.help_input.find('`'), std::string::npos) << row.help_input;
    EXPECT_EQ(row.help_description.find('`'), std::string::npos) << row.help_description;
  }
  ViewerState state;
  state.show_help = true;
  ViewerSettings settings;
  HeadlessImGui imgui(nullptr, 1280.0f, 720.0f);
  for (int f = 0; f < 3; ++f) {
    ImGui::NewFrame();
    draw_help_panel(state, settings);
    ImGui::Render();
  }
  const ImGuiWindow* help = ImGui::FindWindowByName("Help");
  ASSERT_NE(help, nullptr);
  EXPECT_GE(help->Pos.x, 0.0f);
  EXPECT_LE(help->Pos.x + help->Size.x, 1280.0f);
  // No row is wider than its column (the V row was, and the column cut it off): each column's
  // widest content ends inside the column.
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ASSERT_EQ(g.Tables.GetAliveCount(), 1);
  const ImGuiTable* table = g.Tables.TryGetMapData(0);
  ASSERT_NE(table, nullptr);
  for (int c = 0; c < table->ColumnsCount; ++c) {
    const ImGuiTableColumn& column = table->Columns[c];
    EXPECT_LE(column.ContentMaxXUnfrozen, column.ClipRect.Max.x + 0.5f) << "column " << c;
  }
}

// The crowd draws one method without colour views, yet the compare labels and the heat-map
// legend were shown over it.
TEST(WorkspacePanels, CrowdShowsNeitherCompareLabelsNorTheLegend) {
  Document doc;
  load(doc);
  doc.stop_background_work();
  ViewerState state;
  state.playback = &doc.playback;
  state.compare_methods = {rig::SkinningMethod::Linear, rig::SkinningMethod::DualQuaternion};
  state.compare = true;
  state.surface_view = SurfaceView::Deflation;
  ViewerSettings settings;
  HeadlessImGui imgui(nullptr, 1280.0f, 720.0f);
  for (int crowd : {0, 100}) {
    state.crowd_count = crowd;
    int background_vertices = 0;
    for (int f = 0; f < 2; ++f) {
      ImGui::NewFrame();
      draw_ui(state, doc, settings, 1.0);
      background_vertices = ImGui::GetBackgroundDrawList()->VtxBuffer.Size;
      ImGui::Render();
    }
    const ImGuiWindow* legend = ImGui::FindWindowByName("##weight_legend");
    const bool legend_shown = legend && legend->Active;
    if (crowd == 0) {  // the single character: both are shown, so the check below can see them
      EXPECT_GT(background_vertices, 0);
      EXPECT_TRUE(legend_shown);
    } else {
      EXPECT_EQ(background_vertices, 0);
      EXPECT_FALSE(legend_shown);
    }
  }
}

// A failed open's message pushed the whole panel down: it is a banner over the viewport now, and
// the outliner's content is the same with and without it.
TEST(WorkspacePanels, ErrorBannerSitsOverTheViewportAndMovesNoPanel) {
  Document doc;
  load(doc);
  doc.stop_background_work();
  ViewerState state;
  state.playback = &doc.playback;
  ViewerSettings settings;
  HeadlessImGui imgui(nullptr, 1280.0f, 720.0f);
  float list_top[2] = {0.0f, 0.0f};
  for (int i = 0; i < 2; ++i) {
    state.error_message = i == 0 ? "" : "broken.glb: not a glTF file";
    for (int f = 0; f < 3; ++f) {
      ImGui::NewFrame();
      draw_ui(state, doc, settings, 1.0);
      ImGui::Render();
    }
    // The clip list (a child window of the outliner's clip region) starts where it did.
    const ImGuiWindow* clips = ImGui::FindWindowByName("##outliner_clips");
    ASSERT_NE(clips, nullptr);
    ASSERT_FALSE(clips->DC.ChildWindows.empty());
    list_top[i] = clips->DC.ChildWindows.back()->Pos.y;
  }
  EXPECT_EQ(list_top[0], list_top[1]);
  const ImGuiWindow* banner = ImGui::FindWindowByName("##error_banner");
  ASSERT_NE(banner, nullptr);
  EXPECT_TRUE(banner->Active);
  const Rect view = scene_view(state, 1280.0f, 720.0f);
  EXPECT_GE(banner->Pos.x, view.x);
  EXPECT_LE(banner->Pos.x + banner->Size.x, view.right());
  EXPECT_GE(banner->Pos.y, view.y);
}

// Scrubbing: a press on the timeline's scrub bar moves the character to the time under the
// pointer (the bar spans the clip; ImGui's slider inset at both ends), and the timeline says it
// is scrubbing while the button is held, so playback does not advance under the pointer.
TEST(WorkspacePanels, PressingTheScrubBarScrubsTheCharacter) {
  Document doc;
  load(doc);
  doc.stop_background_work();
  rig::Playback& p = doc.playback;
  p.select_clip(4);  // Twist, 2 s
  p.set_playing(false);
  p.set_time(doc.model->clips[4].start);
  ViewerState state;
  state.playback = &doc.playback;
  HeadlessImGui imgui(nullptr, 1280.0f, 1400.0f);
  const float width = 420.0f, padding = ImGui::GetStyle().WindowPadding.x;
  const float inset = 2.0f + 0.5f * ImGui::GetStyle().GrabMinSize;
  const float x0 = padding + inset, span = width - 2.0f * padding - 2.0f * inset;
  const float x = x0 + 0.75f * span;  // three quarters into the clip
  auto draw = [&] { draw_timeline_panel(state, doc); };
  // Find the bar from the top down, under the play controls and the read-out; a press on
  // anything else (a button at this x) leaves the time alone.
  float bar_y = -1.0f;
  for (float y = padding; y < 200.0f && bar_y < 0.0f; y += 3.0f) {
    frame_in_window(ImVec2(x, y), false, draw);
    frame_in_window(ImVec2(x, y), true, draw);
    frame_in_window(ImVec2(x, y), true, draw);
    if (state.scrubbing) bar_y = y;
    frame_in_window(ImVec2(x, y), false, draw);
    p.set_playing(false);
  }
  ASSERT_GT(bar_y, 2.0f * ImGui::GetFrameHeight()) << "no scrub bar under the controls";
  const rig::Clip& clip = doc.model->clips[4];
  EXPECT_NEAR(p.time(), clip.start + 0.75f * (clip.end - clip.start), 0.01f);
  EXPECT_FALSE(state.scrubbing);  // released
}

// The regions' windows sit exactly on the layout's regions at both common window sizes, and the
// inspector's tab bar shows every tab (none scrolled off or squeezed out).
TEST(WorkspacePanels, WindowsFollowTheLayoutAt1280x720And1920x1080) {
  Document doc;
  load(doc);
  doc.stop_background_work();
  for (const ImVec2 size : {ImVec2(1280.0f, 720.0f), ImVec2(1920.0f, 1080.0f)}) {
    ViewerState state;
    state.playback = &doc.playback;
    ViewerSettings settings;
    HeadlessImGui imgui(nullptr, size.x, size.y);
    for (int f = 0; f < 3; ++f) {
      ImGui::NewFrame();
      draw_ui(state, doc, settings, 1.0);
      ImGui::Render();
    }
    const WorkspaceRegions r = workspace_regions(state.layout, size.x, size.y);
    const std::pair<const char*, Rect> windows[] = {{"##outliner_clips", r.clip_list},
                                                    {"##outliner_skeleton", r.skeleton},
                                                    {"##timeline", r.timeline},
                                                    {"##inspector", r.inspector}};
    for (const auto& [name, rect] : windows) {
      const ImGuiWindow* w = ImGui::FindWindowByName(name);
      ASSERT_NE(w, nullptr) << name;
      EXPECT_EQ(w->Pos.x, rect.x) << name;
      EXPECT_EQ(w->Pos.y, rect.y) << name;
      EXPECT_EQ(w->Size.x, rect.width) << name;
      EXPECT_EQ(w->Size.y, rect.height) << name;
    }
    // Every tab stays whole (no label clipped) at any width: WorkspaceFit (workspace_fit_test.cpp).
  }
}

}  // namespace
}  // namespace rigview
