// The Rig health and Teaching aids panels and the rig findings legend, drawn every frame into a
// Dear ImGui context without a window (no backend, no GL): once warmed up, a frame allocates
// nothing, neither through operator new (counted: counting_new.h) nor through ImGui's own
// allocator (counted too). Everything they show is made with the diagnosis.
#include <gtest/gtest.h>
#include <imgui.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "counting_new.h"  // this binary counts every operator new (g_allocations)
#include "headless_imgui.h"
#include "viewer/document.h"
#include "viewer/lessons.h"
#include "viewer/mistakes.h"
#include "viewer/panels.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {
namespace {

void frame(ViewerState& state, Document& doc) {
  ImGui::NewFrame();
  ImGui::SetNextWindowSize(ImVec2(400.0f, 1380.0f));
  ImGui::Begin("rigview");
  draw_rig_health_panel(state, doc);
  ImGui::SetNextItemOpen(true);  // the Teaching aids header starts closed
  draw_teaching_aids_panel(state, doc);
  ImGui::End();
  draw_weight_legend(state, doc);
  ImGui::Render();
}

TEST(PanelPerFrame, RigHealthPanelsDrawWithoutAllocating) {
  Options options;
  options.simulate_bug = "no-ibm";  // rows to list: two errors with long messages and joints
  Document doc;
  std::string error;
  ASSERT_TRUE(
      load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", options, doc, error))
      << error;
  doc.stop_background_work();  // its worker thread allocates; not the panel's doing
  ASSERT_GE(doc.health().rows.size(), 2u);
  ViewerState state;
  state.surface_view = SurfaceView::RigFindings;  // the legend too
  show_finding(doc.health(), 0);                  // one row highlighted, "All findings" shown

  HeadlessImGui imgui(&g_allocations);
  for (int i = 0; i < 5; ++i) frame(state, doc);  // ImGui sizes its buffers
  const long before = g_allocations.load();
  for (int i = 0; i < 30; ++i) frame(state, doc);
  EXPECT_EQ(g_allocations.load() - before, 0);
  // The frames drew what was asked: nothing changed the state.
  EXPECT_EQ(state.requests.simulate_bug, ViewerRequests::kNoBugRequest);
  EXPECT_EQ(state.surface_view, SurfaceView::RigFindings);
}

// The whole workspace (outliner, timeline, inspector, splitters) and the overlays, with each
// inspector tab open in turn, at 1280x720: once warmed up, no frame allocates.
TEST(PanelPerFrame, WorkspaceDrawsEveryTabWithoutAllocating) {
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", Options{},
                            doc, error))
      << error;
  doc.stop_background_work();
  ViewerState state;
  state.playback = &doc.playback;
  state.compare_methods = {rig::SkinningMethod::Linear, rig::SkinningMethod::DualQuaternion};
  ViewerSettings settings;  // not loaded: nothing on disk is read or written
  HeadlessImGui imgui(&g_allocations, 1280.0f, 720.0f);
  auto frame = [&] {
    ImGui::NewFrame();
    draw_ui(state, doc, settings, 1.0);
    ImGui::Render();
  };
  for (int tab = 0; tab < kInspectorTabCount; ++tab) {
    state.layout.tab = static_cast<InspectorTab>(tab);
    for (int i = 0; i < 6; ++i) frame();  // ImGui sizes its buffers; the tab comes forward
    ASSERT_EQ(state.layout.tab, static_cast<InspectorTab>(tab));
    const long before = g_allocations.load();
    for (int i = 0; i < 30; ++i) frame();
    EXPECT_EQ(g_allocations.load() - before, 0) << inspector_tab_name(state.layout.tab);
  }
}

// The Learn tab on the twist arm with the candy-wrapper lesson shown: the sliders move every
// frame, the cross-section is measured again (the ring found once) and plotted, and no frame
// allocates.
TEST(PanelPerFrame, LearnTabTwistDemoMeasuresAndPlotsWithoutAllocating) {
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb", Options{},
                            doc, error))
      << error;
  doc.stop_background_work();
  ViewerState state;
  state.playback = &doc.playback;
  size_t candy = 0;
  while (std::string(lessons()[candy].title) != "Candy wrapper") ++candy;
  apply_lesson(state, doc, lessons()[candy]);
  state.learn.active = int(candy);
  state.layout.tab = InspectorTab::Learn;
  ViewerSettings settings;
  HeadlessImGui imgui(&g_allocations, 1280.0f, 720.0f);
  int step = 0;
  auto frame = [&] {
    state.learn.twist_deg = float(step % 72) * 5.0f - 180.0f;
    state.learn.bend_deg = float(step % 7) * 10.0f;
    ++step;
    apply_twist_sliders(state, doc);
    doc.posing->evaluate(rig::PoseSelection{}, glm::vec3(0.0f, 0.0f, 3.0f), false, 1.0f);
    update_twist_demo(state.learn, doc);
    ImGui::NewFrame();
    draw_ui(state, doc, settings, 1.0);
    ImGui::Render();
  };
  // Warm-up through every slider step: the plots' dots (and ImGui's buffers) reach their most.
  for (int i = 0; i < 80; ++i) frame();
  ASSERT_TRUE(state.learn.demo.valid);
  const long before = g_allocations.load();
  for (int i = 0; i < 40; ++i) frame();
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// Learn mode's Mistakes with a switch on: while the clip plays, the right and wrong characters
// are posed and skinned on the CPU every frame, the Learn tab and the compare labels with the
// caption are drawn, and once warmed up no frame allocates. A pose pitfall, the crossfade one
// and a simulated bug's model.
TEST(PanelPerFrame, LearnMistakePosesSkinsAndDrawsWithoutAllocating) {
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", Options{},
                            doc, error))
      << error;
  doc.stop_background_work();
  ViewerState state;
  state.playback = &doc.playback;
  state.layout.tab = InspectorTab::Learn;
  ViewerSettings settings;
  HeadlessImGui imgui(&g_allocations, 1280.0f, 720.0f);
  for (const char* name : {"lerp-quaternions", "average-matrices", "reversed-multiply"}) {
    SCOPED_TRACE(name);
    const int mistake = find_mistake(name);
    toggle_mistake(state, mistake);
    ASSERT_EQ(state.learn.mistake, mistake);
    MistakeView view;
    view.prepare(doc, mistake);
    ASSERT_TRUE(view.active());
    int step = 0;
    auto frame = [&] {
      const rig::PoseSelection at{1, 0.03f * float(step++ % 30)};
      doc.character->evaluate(at);
      view.update(doc, at, state.method);
      ImGui::NewFrame();
      draw_ui(state, doc, settings, 1.0);
      ImGui::Render();
    };
    for (int i = 0; i < 35; ++i) frame();
    const long before = g_allocations.load();
    for (int i = 0; i < 30; ++i) frame();
    EXPECT_EQ(g_allocations.load() - before, 0);
    EXPECT_GT(view.largest_difference(), 0.0f);
    toggle_mistake(state, mistake);
  }
}

TEST(PanelPerFrame, TheCountersSeeAllocations) {
  const long before = g_allocations.load();
  std::string* s = new std::string(100, 'x');
  delete s;
  EXPECT_EQ(g_allocations.load() - before, 2);  // the string object, then its characters
  HeadlessImGui imgui(&g_allocations);
  const long with_imgui = g_allocations.load();
  void* p = ImGui::MemAlloc(16);
  ImGui::MemFree(p);
  EXPECT_EQ(g_allocations.load() - with_imgui, 1);
}

}  // namespace
}  // namespace rigview
