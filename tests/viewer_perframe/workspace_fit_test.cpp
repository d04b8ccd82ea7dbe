// "No clipped text in any label": the whole workspace drawn at 1280 x 720 and 1920 x 1080, every
// inspector tab of both bundled models, in the states that add the most text (a simulated bug's
// findings, every method compared, the crowd, a joint selected or none, every header open), and
// then what Dear ImGui laid out compared with the room each window and table column had
// (viewer/clipped_content.h).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <array>
#include <string>

#include "headless_imgui.h"
#include "viewer/clipped_content.h"
#include "viewer/document.h"
#include "viewer/panels.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"
#include "viewer/workspace_layout.h"

namespace rigview {
namespace {

struct Variant {
  const char* name;
  const char* bug;  // --simulate-bug, or null
  bool compare = false;
  int crowd = 0;
};
constexpr std::array<Variant, 4> kVariants = {{
    {"plain", nullptr, false, 0},
    {"reversed-multiply findings, compare", "reversed-multiply", true, 0},
    {"translation-only IBMs, bind-pose ghost", "translation-only-ibm", false, 0},
    {"crowd", nullptr, false, 100},
}};
constexpr std::array<InspectorTab, kInspectorTabCount> kTabs = {
    InspectorTab::Display,   InspectorTab::Artefacts, InspectorTab::Compression,
    InspectorTab::RigHealth, InspectorTab::Posing,    InspectorTab::Joint,
    InspectorTab::Vertex,    InspectorTab::Weights,   InspectorTab::Learn};
// Every collapsing header of the tabs (closed ones draw nothing to check).
constexpr std::array<const char*, 3> kHeaders = {"Crossfade", "Rig health",
                                                 "Teaching aids: classic rigging bugs"};

// Opens every header in every window drawn so far: a header keeps its state in its window's
// storage under its label's ID, which is what a click on it would set.
void open_headers() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* w : g.Windows)
    for (const char* h : kHeaders) w->StateStorage.SetInt(w->GetID(h), 1);
}

// The joint with the most ancestors (the longest name among equals): the deepest tree row.
int deepest_joint(const Document& doc) {
  int best = -1;
  size_t best_depth = 0;
  for (const int node : doc.joint_nodes) {
    size_t depth = 0;
    for (int p = doc.model->nodes[size_t(node)].parent; p >= 0;
         p = doc.model->nodes[size_t(p)].parent)
      ++depth;
    if (best < 0 || depth > best_depth ||
        (depth == best_depth &&
         doc.node_labels[size_t(node)].size() > doc.node_labels[size_t(best)].size()))
      best = node, best_depth = depth;
  }
  return best;
}

std::string describe(const std::vector<ClippedContent>& clipped) {
  std::string s;
  for (const ClippedContent& c : clipped) s += " [" + c.where + "] " + std::to_string(c.pixels);
  return s;
}

TEST(WorkspaceFit, NoLabelIsClippedOnAnyTabAtEitherSize) {
  const std::array<std::string, 2> models = {
      std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb",
      std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb"};
  const std::array<ImVec2, 2> sizes = {ImVec2(1280.0f, 720.0f), ImVec2(1920.0f, 1080.0f)};
  for (size_t i = 0; i < kTabs.size(); ++i)  // every tab once (a short list would repeat Display)
    for (size_t j = i + 1; j < kTabs.size(); ++j) ASSERT_NE(kTabs[i], kTabs[j]);
  int checked = 0;
  for (const std::string& model : models)
    for (const Variant& variant : kVariants) {
      Document doc;
      Options options;
      if (variant.bug) options.simulate_bug = variant.bug;
      std::string error;
      ASSERT_TRUE(load_document(model, options, doc, error)) << error;
      doc.stop_background_work();
      for (const ImVec2 size : sizes)
        for (const InspectorTab tab : kTabs) {
          SCOPED_TRACE(model + ", " + variant.name + ", " + std::to_string(int(size.x)) + "x" +
                       std::to_string(int(size.y)) + ", tab " + inspector_tab_name(tab));
          ViewerState state;
          state.playback = &doc.playback;
          state.layout.tab = tab;
          state.artefacts_open = tab == InspectorTab::Artefacts;
          state.compression_open = tab == InspectorTab::Compression;
          state.compare = variant.compare;
          const auto methods = rig::all_skinning_methods();
          state.compare_methods.assign(methods.begin(), methods.end());
          state.crowd_count = variant.crowd;
          state.surface_view = SurfaceView::Deflation;
          // The deepest joint selected and revealed in the tree (the Joint tab's numbers, the
          // tree open to its longest branch), except in the plain variant (the outliner's hint).
          state.selected_node = variant.bug ? deepest_joint(doc) : -1;
          state.reveal_selection = state.selected_node >= 0;
          state.show_bind_ghost = variant.bug != nullptr;
          ViewerSettings settings;
          HeadlessImGui imgui(nullptr, size.x, size.y);
          std::vector<ClippedContent> clipped;
          // Frame 1 lays out and opens the tab; the headers open after it; frames 3 and 4 settle
          // the scrollbars (ImGui decides them from the previous frame's content).
          for (int f = 0; f < 4; ++f) {
            ImGui::NewFrame();
            draw_ui(state, doc, settings, 1.0);
            ImGui::Render();
            if (f == 0) open_headers();
          }
          ASSERT_EQ(state.layout.tab, tab);
          find_clipped_content(clipped);
          EXPECT_TRUE(clipped.empty()) << describe(clipped);
          ++checked;
        }
    }
  EXPECT_EQ(checked, int(models.size() * kVariants.size() * sizes.size() * kTabs.size()));
}

// The check itself: a label wider than its window is found, with how far it reaches; the same
// label wrapped is not.
TEST(WorkspaceFit, TheCheckFindsALabelWiderThanItsWindow) {
  HeadlessImGui imgui(nullptr, 1280.0f, 720.0f);
  const std::string label(60, 'x');  // 60 glyphs of 7 px: 420 px in a 200 px window
  for (const bool wrapped : {false, true}) {
    std::vector<ClippedContent> clipped;
    for (int f = 0; f < 2; ++f) {
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
      ImGui::SetNextWindowSize(ImVec2(200.0f, 300.0f));
      ImGui::Begin("narrow", nullptr, ImGuiWindowFlags_NoSavedSettings);
      if (wrapped)
        ImGui::TextWrapped("%s", "yyyyyyyyy yyyyyyyyy yyyyyyyyy yyyyyyyyy yyyyyyyyy yyyyyyyyy");
      else
        ImGui::TextUnformatted(label.c_str());
      ImGui::End();
      ImGui::Render();
    }
    find_clipped_content(clipped);
    if (wrapped) {
      EXPECT_TRUE(clipped.empty()) << describe(clipped);
      continue;
    }
    ASSERT_EQ(clipped.size(), 1u) << describe(clipped);
    EXPECT_EQ(clipped[0].where, "narrow");
    // Starts at the 8 px padding, 420 px long; the clip edge is 200 − 8 / 2 = 196.
    EXPECT_NEAR(clipped[0].pixels, 8.0f + 420.0f - 196.0f, 1.0f);
  }
}

}  // namespace
}  // namespace rigview
