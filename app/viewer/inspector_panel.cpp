// The workspace's windows: the outliner, the timeline and the inspector, each fixed on its region
// of viewer/workspace_layout.h, and the splitters between them. The inspector's tabs are one
// table; a tab is a row (the workbench's Weights, Vertex and Joint tabs and the Learn tab).
#include <imgui.h>

#include <array>

#include "viewer/panels.h"
#include "viewer/posing_panel.h"

namespace rigview {

namespace {

// A region's window: placed and sized by the layout every frame, never moved, resized, saved
// to imgui.ini or brought over another (the layout has its own file).
constexpr ImGuiWindowFlags kRegionFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                          ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                          ImGuiWindowFlags_NoSavedSettings |
                                          ImGuiWindowFlags_NoBringToFrontOnFocus;

void place(const Rect& r) {
  const ImVec2 origin = ImGui::GetMainViewport()->Pos;
  ImGui::SetNextWindowPos(ImVec2(origin.x + r.x, origin.y + r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.width, r.height), ImGuiCond_Always);
}

// A splitter: a thin window over the gap between two regions (so the camera never takes a press
// on it), dragging `value` by the mouse's motion along its axis (`sign`: -1 where the region
// grows the other way).
void splitter(const char* id, const Rect& r, bool vertical, float sign, float& value) {
  if (r.width <= 0.0f || r.height <= 0.0f) return;
  place(r);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::Begin(id, nullptr, kRegionFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNav);
  ImGui::InvisibleButton("##drag", ImVec2(r.width, r.height));
  const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  if (ImGui::IsItemActive()) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    value += sign * (vertical ? d.x : d.y);
  }
  const ImVec2 p = ImGui::GetWindowPos();
  ImGui::GetWindowDrawList()->AddRectFilled(
      p, ImVec2(p.x + r.width, p.y + r.height),
      ImGui::GetColorU32(hot ? ImGuiCol_SeparatorActive : ImGuiCol_Separator));
  ImGui::End();
  ImGui::PopStyleVar(3);
}

void draw_display_tab(ViewerState& state, Document& doc) {
  if (state.crowd_count > 0)
    ImGui::TextWrapped("Crowd: every character draws the first method, without colour views.");
  draw_display_panel(state, doc);
  if (ImGui::Button("Help (H)")) state.show_help = !state.show_help;
}

void draw_posing_tab(ViewerState& state, Document& doc) {
  draw_crossfade_panel(state, doc);
  draw_posing_panel(state, doc);
}

struct InspectorTabRow {
  InspectorTab tab;
  void (*draw)(ViewerState&, Document&);
};
constexpr std::array<InspectorTabRow, kInspectorTabCount> kTabs = {{
    {InspectorTab::Display, draw_display_tab},
    {InspectorTab::Artefacts, draw_artefacts_panel},
    {InspectorTab::Compression, draw_compression_panel},
    {InspectorTab::RigHealth, draw_rig_health_tab},
    {InspectorTab::Posing, draw_posing_tab},
    {InspectorTab::Joint, draw_joint_tab},
    {InspectorTab::Vertex, draw_vertex_tab},
    {InspectorTab::Weights, draw_weights_tab},
    {InspectorTab::Learn, draw_learn_tab},
}};

// The tab whose work the frame loop does while it is open (artefact measures, compression).
void open_tab(ViewerState& state, InspectorTab tab) {
  state.layout.tab = tab;
  state.artefacts_open = tab == InspectorTab::Artefacts;
  state.compression_open = tab == InspectorTab::Compression;
}

// One tab of the strip: a button in the tab colours, the open one highlighted. True when
// clicked.
bool tab_button(const char* label, bool open) {
  ImGui::PushStyleColor(ImGuiCol_Button,
                        ImGui::GetColorU32(open ? ImGuiCol_TabActive : ImGuiCol_Tab));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetColorU32(ImGuiCol_TabHovered));
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImGui::GetColorU32(ImGuiCol_TabActive));
  const bool clicked = ImGui::Button(label);
  ImGui::PopStyleColor(3);
  return clicked;
}

// The tab strip wraps onto a further line where the inspector is narrower than all its tabs
// (Dear ImGui's tab bar would shrink the labels or hide tabs behind scroll arrows): every tab
// stays whole and one click away. A click opens its tab in the same frame.
void draw_tab_strip(ViewerState& state) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  float x = ImGui::GetCursorScreenPos().x;
  bool first = true;
  for (const InspectorTabRow& row : kTabs) {
    const char* label = inspector_tab_name(row.tab);
    const float width = ImGui::CalcTextSize(label).x + 2.0f * style.FramePadding.x;
    if (!first) {
      const float next = x + style.ItemSpacing.x;
      if (next + width <= right) {
        ImGui::SameLine();
        x = next;
      } else {
        x = ImGui::GetCursorScreenPos().x;  // a new line starts at the left
      }
    }
    if (tab_button(label, row.tab == state.layout.tab)) open_tab(state, row.tab);
    x += width;
    first = false;
  }
  ImGui::Separator();
}

void draw_inspector(ViewerState& state, Document& doc) {
  // A new IK chain (Skeleton tree) is made by the Posing tab: bring it forward.
  if (state.requests.open_posing_panel || state.requests.make_ik_chain >= 0) {
    state.requests.open_posing_panel = false;
    if (state.layout.tab != InspectorTab::Posing) open_tab(state, InspectorTab::Posing);
  }
  draw_tab_strip(state);
  for (const InspectorTabRow& row : kTabs) {
    if (row.tab != state.layout.tab) continue;
    ImGui::BeginChild("##tab_body");
    row.draw(state, doc);
    ImGui::EndChild();
  }
}

}  // namespace

// The teaching aids first: choosing a bug adds findings, which above the choices would push
// them down, away from the pointer that just clicked one.
void draw_rig_health_tab(ViewerState& state, Document& doc) {
  draw_teaching_aids_panel(state, doc);
  draw_rig_health_panel(state, doc);
}

void draw_workspace(ViewerState& state, Document& doc, const ViewerSettings& settings) {
  const ImVec2 size = ImGui::GetMainViewport()->Size;
  const WorkspaceRegions r = workspace_regions(state.layout, size.x, size.y);

  place(r.clip_list);
  ImGui::Begin("##outliner_clips", nullptr, kRegionFlags);
  draw_file_panel(state, doc, settings);
  draw_clip_list(state, doc);
  ImGui::End();
  place(r.skeleton);
  ImGui::Begin("##outliner_skeleton", nullptr, kRegionFlags);
  draw_skeleton_panel(state, doc);
  ImGui::End();

  place(r.timeline);
  ImGui::Begin("##timeline", nullptr, kRegionFlags | ImGuiWindowFlags_NoScrollbar);
  draw_timeline_panel(state, doc);
  ImGui::End();

  place(r.inspector);
  ImGui::Begin("##inspector", nullptr, kRegionFlags);
  draw_inspector(state, doc);
  ImGui::End();

  // The splitters move the sizes the user chose; each stays within the window's limits.
  const WorkspaceLayout before = state.layout;
  splitter("##split_outliner", r.outliner_splitter, true, 1.0f, state.layout.outliner_width);
  splitter("##split_inspector", r.inspector_splitter, true, -1.0f, state.layout.inspector_width);
  splitter("##split_timeline", r.timeline_splitter, false, -1.0f, state.layout.timeline_height);
  splitter("##split_clips", r.clip_list_splitter, false, 1.0f, state.layout.clip_list_height);
  if (state.layout.outliner_width != before.outliner_width ||
      state.layout.inspector_width != before.inspector_width ||
      state.layout.timeline_height != before.timeline_height ||
      state.layout.clip_list_height != before.clip_list_height)
    state.layout = clamp_layout(state.layout, size.x, size.y);
}

}  // namespace rigview
