// The Joint tab's Sweep: per local axis, each method's score against the angle, drawn with the
// draw list (ImGui 1.86 has no multi-series plot), with the playhead and the click that poses.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "viewer/panels.h"

namespace rigview {

namespace {

constexpr float kPlotHeight = 64.0f;
constexpr const char* kAxisNames[3] = {"X", "Y", "Z"};

void draw_axis_plot(ViewerState& state, int axis) {
  SweepView& s = state.sweep;
  const float width = std::max(ImGui::GetContentRegionAvail().x, 60.0f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::PushID(axis);
  ImGui::InvisibleButton("##sweep_plot", ImVec2(width, kPlotHeight));
  const bool clicked = ImGui::IsItemClicked(0);
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + width, p0.y + kPlotHeight);
  draw->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  auto x_of = [&](float angle) { return p0.x + width * (angle + s.degrees) / (2.0f * s.degrees); };
  const float top = s.score_max > 0.0f ? s.score_max : 1.0f;
  auto y_of = [&](float score) { return p1.y - (kPlotHeight - 4.0f) * score / top - 2.0f; };
  draw->AddLine(ImVec2(x_of(0.0f), p0.y), ImVec2(x_of(0.0f), p1.y),
                ImGui::GetColorU32(ImGuiCol_Border));
  for (size_t m = 0; m < s.methods.size(); ++m) {
    ImVec2 prev;
    bool have = false;
    for (int k = 0; k < s.steps; ++k) {
      const float score = s.score(axis, k, m);
      if (!std::isfinite(score)) {
        have = false;
        continue;
      }
      const float angle = -s.degrees + 2.0f * s.degrees * float(k) / float(s.steps - 1);
      const ImVec2 p(x_of(angle), y_of(score));
      if (have) draw->AddLine(prev, p, artefact_curve_color(s.methods[m]), 1.5f);
      prev = p, have = true;
    }
  }
  const bool playing_here = s.play >= 0.0f && int(s.play) == axis;
  const bool posed_here = s.play < 0.0f && s.posed_axis == axis;
  if (playing_here || posed_here) {
    const float angle =
        playing_here ? -s.degrees + 2.0f * s.degrees * (s.play - float(axis)) : s.posed_angle;
    draw->AddLine(ImVec2(x_of(angle), p0.y), ImVec2(x_of(angle), p1.y),
                  IM_COL32(255, 255, 255, 220), 1.5f);
  }
  draw->AddText(ImVec2(p0.x + 3.0f, p0.y + 1.0f), ImGui::GetColorU32(ImGuiCol_Text),
                kAxisNames[axis]);
  const float mouse_angle =
      std::clamp((ImGui::GetIO().MousePos.x - p0.x) / width * 2.0f * s.degrees - s.degrees,
                 -s.degrees, s.degrees);
  if (hovered)
    ImGui::SetTooltip("%s %.1f deg: click to pose", kAxisNames[axis], double(mouse_angle));
  if (clicked) {
    s.posed_axis = axis;
    s.posed_angle = mouse_angle;
    state.requests.pose_sweep = true;
  }
}

}  // namespace

void draw_sweep_section(ViewerState& state, const Document& doc) {
  SweepView& s = state.sweep;
  const int node = state.selected_node;
  if (s.running) {
    ImGui::ProgressBar(s.progress, ImVec2(ImGui::GetContentRegionAvail().x - 70.0f, 0.0f),
                       "sweeping...");
    ImGui::SameLine();
    if (ImGui::Button("Cancel##sweep")) state.requests.cancel_sweep = true;
    return;
  }
  if (ImGui::Button("Sweep")) state.requests.sweep = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "turn the joint about each local axis from -120 to +120 degrees (25 steps) on the pose "
        "shown, measuring every method's score for the joint (as --range-of-motion), then play "
        "it");
  if (s.node != node || s.scores.empty()) {
    if (!s.error.empty() && s.node == node) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", s.error.c_str());
    }
    return;
  }
  ImGui::SameLine();
  if (ImGui::Button(s.play >= 0.0f ? "Playing" : "Play")) state.requests.play_sweep = true;
  ImGui::SameLine();
  for (size_t m = 0; m < s.methods.size(); ++m) {
    if (m) ImGui::SameLine();
    ImGui::TextColored(ImColor(artefact_curve_color(s.methods[m])), "%s",
                       rig::method_info(s.methods[m]).label);
  }
  ImGui::TextDisabled("score of %s vs angle, 0 to %.3g", doc.node_labels[size_t(node)].c_str(),
                      double(s.score_max));
  for (int axis = 0; axis < 3; ++axis) draw_axis_plot(state, axis);
}

}  // namespace rigview
