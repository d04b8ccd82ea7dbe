// The Vertex tab: the picked vertex's inspection (analysis/vertex_inspection.h, what
// --inspect-vertex prints) as tables, and its influences' opinions over the view: a point per
// joint where that joint alone would take the vertex, joined to the vertex, and the LBS sum.
#include <imgui.h>

#include <cmath>

#include "viewer/camera_controls.h"
#include "viewer/panels.h"

namespace rigview {

namespace {

void vec3_cells(glm::vec3 v) {
  for (int k = 0; k < 3; ++k) {
    ImGui::TableNextColumn();
    ImGui::Text("%.5g", double(v[k]));
  }
}

ImU32 opinion_colour(int i) {
  static constexpr ImU32 kColours[8] = {IM_COL32(255, 190, 60, 255),  IM_COL32(80, 200, 255, 255),
                                        IM_COL32(120, 230, 120, 255), IM_COL32(240, 110, 200, 255),
                                        IM_COL32(250, 250, 120, 255), IM_COL32(160, 140, 255, 255),
                                        IM_COL32(255, 130, 110, 255), IM_COL32(150, 255, 220, 255)};
  return kColours[i & 7];
}

}  // namespace

void draw_vertex_tab(ViewerState& state, Document& doc) {
  VertexInspectorState& v = state.vertex;
  ImGui::TextWrapped(
      "Click the skinned surface to pick the nearest vertex (single view). Its influences' "
      "opinions, where each joint alone would take it, are drawn as points joined to it.");
  if (v.picked.primitive < 0) {
    ImGui::TextDisabled("No vertex picked.");
    return;
  }
  ImGui::Text("primitive %d, vertex %d", v.picked.primitive, v.picked.vertex);
  ImGui::SameLine();
  if (ImGui::SmallButton("Refresh")) v.inspect = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("inspect again at the current pose (done by itself when playback pauses)");
  ImGui::SameLine();
  if (ImGui::SmallButton("Clear")) v.picked = PickedVertex{}, v.valid = v.live_valid = false;
  if (!v.error.empty()) {
    ImGui::TextWrapped("%s", v.error.c_str());
    return;
  }
  if (!v.valid) return;
  const rig::VertexInspection& in = v.inspection;
  if (v.clip >= 0 && size_t(v.clip) < doc.clip_labels.size())
    ImGui::TextDisabled("at %s, t = %.3f s (world space)", doc.clip_labels[size_t(v.clip)].c_str(),
                        double(v.time));
  else
    ImGui::TextDisabled("at the rest pose (world space)");
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("##vertex_influences", 5, kFlags)) {
    ImGui::TableSetupColumn("joint");
    ImGui::TableSetupColumn("weight");
    ImGui::TableSetupColumn("opinion x");
    ImGui::TableSetupColumn("y");
    ImGui::TableSetupColumn("z");
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < in.influences.size(); ++i) {
      const rig::VertexInfluence& f = in.influences[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(ImColor(opinion_colour(int(i))), "%s",
                         f.node >= 0 && size_t(f.node) < doc.node_labels.size()
                             ? doc.node_labels[size_t(f.node)].c_str()
                             : "?");
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", double(f.weight));
      vec3_cells(f.opinion);
    }
    ImGui::EndTable();
  }
  if (ImGui::BeginTable("##vertex_methods", 5, kFlags)) {
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn("x");
    ImGui::TableSetupColumn("y");
    ImGui::TableSetupColumn("z");
    ImGui::TableSetupColumn("h");
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("bind");
    vec3_cells(in.bind_position);
    ImGui::TableNextColumn();
    for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
      const size_t k = size_t(m.method);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.label);
      vec3_cells(in.positions[k]);
      ImGui::TableNextColumn();
      if (std::isfinite(in.deflation[k]))
        ImGui::Text("%.4f", double(in.deflation[k]));
      else
        ImGui::TextDisabled("-");
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("CoR centre");
    vec3_cells(in.cor_center);
    ImGui::TableNextColumn();
    ImGui::EndTable();
  }
}

void draw_vertex_overlay(const ViewerState& state) {
  const VertexInspectorState& v = state.vertex;
  if (state.layout.tab != InspectorTab::Vertex || !v.live_valid || state.compare ||
      state.crowd_count > 0)
    return;
  const ImGuiIO& io = ImGui::GetIO();
  const SingleView single = single_view(state, io.DisplaySize.x, io.DisplaySize.y);
  if (single.empty()) return;
  const Rect& view = single.view;
  const rig::render::ScreenRect& rect = single.rect;
  const rig::render::Camera& camera = single.camera;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(view.x, view.y), ImVec2(view.x + view.width, view.y + view.height));
  glm::vec2 lbs;
  const bool have_lbs = rig::render::world_to_screen(camera, rect, v.live.lbs, lbs);
  for (int i = 0; i < v.live.count; ++i) {
    glm::vec2 p;
    if (!rig::render::world_to_screen(camera, rect, v.live.opinion[size_t(i)], p)) continue;
    if (have_lbs)
      draw->AddLine(ImVec2(lbs.x, lbs.y), ImVec2(p.x, p.y), opinion_colour(i) & 0xA0FFFFFFu, 1.5f);
    draw->AddCircleFilled(ImVec2(p.x, p.y), 4.0f, opinion_colour(i));
  }
  if (have_lbs) {
    draw->AddCircleFilled(ImVec2(lbs.x, lbs.y), 5.0f, IM_COL32(255, 255, 255, 255));
    draw->AddCircle(ImVec2(lbs.x, lbs.y), 6.0f, IM_COL32(0, 0, 0, 255), 0, 1.5f);
  }
  draw->PopClipRect();
}

}  // namespace rigview
