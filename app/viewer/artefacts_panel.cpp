// The Artefacts panel: how much the current method deflates or bulges the character right now
// (ranked joints, RMS, worst vertex, volume), and over the current clip (RMS-h curves of every
// method from a background scan, with the playhead; click a curve to jump there; Go to worst).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "viewer/artefact_curves.h"
#include "viewer/panels.h"

namespace rigview {

namespace {

// One colour per skinning-method table row (the Artefacts tab's curves and the timeline's).
constexpr ImU32 kCurveColors[] = {IM_COL32(90, 160, 255, 255), IM_COL32(255, 120, 60, 255),
                                  IM_COL32(110, 220, 120, 255), IM_COL32(230, 210, 80, 255)};

const char* joint_name(const Document& doc, int skin, int joint) {
  const int node = doc.model->skins[size_t(skin)].joints[size_t(joint)];
  return doc.node_labels[size_t(node)].c_str();
}

// RMS of h over the scan's samples, one curve per method; returns the clicked time or NaN.
float draw_curves(const rig::ClipScan& scan, float playhead, ImU32 /*unused*/ = 0) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, 100.0f), height = 110.0f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + width, p.y + height), IM_COL32(25, 27, 32, 255));
  float top = 1e-3f;
  for (const rig::MethodScan& m : scan.methods)
    for (float v : m.rms)
      if (std::isfinite(v)) top = std::max(top, v);
  const float t0 = scan.times.front(), t1 = std::max(scan.times.back(), t0 + 1e-6f);
  auto x_of = [&](float t) { return p.x + (t - t0) / (t1 - t0) * width; };
  auto y_of = [&](float v) { return p.y + height - 4.0f - v / top * (height - 8.0f); };
  // A curve equal to one drawn before it (Mix with no DQS joint is LBS) is drawn dashed over it,
  // so both stay visible, and named under the plot.
  for (size_t m = 0; m < scan.methods.size(); ++m) {
    const std::vector<float>& rms = scan.methods[m].rms;
    const bool dashed = first_equal_curve(scan, m) >= 0;
    for (size_t k = 1; k < rms.size(); ++k)
      if (std::isfinite(rms[k - 1]) && std::isfinite(rms[k]) && (!dashed || k % 2 == 0))
        draw->AddLine(ImVec2(x_of(scan.times[k - 1]), y_of(rms[k - 1])),
                      ImVec2(x_of(scan.times[k]), y_of(rms[k])),
                      artefact_curve_color(scan.methods[m].method), dashed ? 3.0f : 2.0f);
  }
  const float x = x_of(std::clamp(playhead, t0, t1));
  draw->AddLine(ImVec2(x, p.y), ImVec2(x, p.y + height), IM_COL32(255, 255, 255, 200), 1.0f);
  char label[32];
  std::snprintf(label, sizeof label, "%.3g", double(top));
  draw->AddText(ImVec2(p.x + 3.0f, p.y + 2.0f), IM_COL32(200, 200, 200, 255), label);
  ImGui::InvisibleButton("##curves", ImVec2(width, height));
  float clicked = std::nanf("");
  if (ImGui::IsItemActive() && ImGui::IsMouseDown(0)) {
    const float u = std::clamp((ImGui::GetIO().MousePos.x - p.x) / width, 0.0f, 1.0f);
    clicked = t0 + u * (t1 - t0);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("RMS of h over the clip: click to jump there");
  // Key: one colour per method, and which curves lie on one another.
  for (size_t m = 0; m < scan.methods.size(); ++m) {
    if (m) ImGui::SameLine();
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(artefact_curve_color(scan.methods[m].method));
    ImGui::TextColored(c, "%s", rig::method_info(scan.methods[m].method).label);
  }
  for (size_t m = 0; m < scan.methods.size(); ++m) {
    const int same = first_equal_curve(scan, m);
    if (same < 0) continue;
    const rig::SkinningMethodInfo& info = rig::method_info(scan.methods[m].method);
    ImGui::TextDisabled("%s = %s%s (dashed)", info.label,
                        rig::method_info(scan.methods[size_t(same)].method).label,
                        info.write_joint_amounts ? ": no DQS joints ticked" : "");
  }
  return clicked;
}

}  // namespace

unsigned artefact_curve_color(rig::SkinningMethod method) {
  return kCurveColors[static_cast<size_t>(method) % std::size(kCurveColors)];
}

void draw_artefacts_panel(ViewerState& state, Document& doc) {
  if (doc.skinned_draw_items == 0 || !doc.artefacts()) {
    ImGui::TextDisabled(doc.skinned_draw_items == 0 ? "This model has no skinned mesh."
                                                    : "Measuring...");
    return;
  }
  // The method measured here.
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    if (&m != &rig::skinning_methods()[0]) ImGui::SameLine();
    if (ImGui::RadioButton(m.label, state.artefact_method == m.method))
      state.artefact_method = m.method;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "h = log2(r_pose / r_rest): the distance of each vertex to its main bone, posed over\n"
        "rest. < 0 collapses (candy wrapper), > 0 bulges, 0 moves rigidly. A joint's score is\n"
        "the area-weighted RMS of h over the vertices it dominates.");

  ArtefactAnalysis& a = *doc.artefacts();
  if (const rig::ArtefactFrame* f = a.frame(state.artefact_method)) {
    const char* approximate = a.setup().closed ? "" : " (approx.: open surface)";
    ImGui::Text("RMS h %.3f   volume %+.2f%%%s", double(f->rms), f->volume_change_percent,
                approximate);
    if (f->max_abs_h.joint >= 0) {
      const int skin = doc.model->draws[size_t(f->max_abs_h.draw)].skin;
      ImGui::Text("worst vertex h %.2f (%s)", double(f->max_abs_h.value),
                  joint_name(doc, skin, f->max_abs_h.joint));
    }
  }
  // Ranked joints, worst first: click a row to select the joint and frame it.
  const std::span<const RankedJoint> ranked = a.ranked_joints(state.artefact_method);
  if (ImGui::BeginTable(
          "##ranked", 3,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
          ImVec2(0.0f, 150.0f))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 24.0f);
    ImGui::TableSetupColumn("joint");
    ImGui::TableSetupColumn("score", ImGuiTableColumnFlags_WidthFixed, 60.0f);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < ranked.size(); ++i) {
      const RankedJoint& r = ranked[i];
      const int node = doc.model->skins[size_t(r.skin)].joints[size_t(r.joint)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Text("%zu", i + 1);
      ImGui::TableSetColumnIndex(1);
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(joint_name(doc, r.skin, r.joint), state.selected_node == node,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state.selected_node = node;
        state.reveal_selection = true;
        state.requests.frame_node = node;
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.3f", double(r.score));
    }
    ImGui::EndTable();
  }

  // Over the clip.
  if (!state.playback || state.playback->clip() < 0) {
    ImGui::TextDisabled("No clip: nothing to scan.");
    return;
  }
  if (a.scanning()) {
    ImGui::ProgressBar(a.scan_progress(), ImVec2(-70.0f, 0.0f), "scanning the clip");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) a.cancel_scan();
    return;
  }
  const rig::ClipScan* scan = a.scan();
  if (!scan || scan->times.empty()) {
    if (ImGui::Button("Scan the clip")) a.request_scan(state.playback->clip());
    return;
  }
  const float t = draw_curves(*scan, state.playback->time());
  if (std::isfinite(t)) {
    state.playback->set_playing(false);
    state.playback->set_time(t);
  }
  const rig::MethodScan* worst = nullptr;
  for (const rig::MethodScan& m : scan->methods)
    if (m.method == state.artefact_method) worst = &m;
  if (worst && worst->max_abs_h.joint >= 0 && ImGui::Button("Go to worst")) {
    state.playback->set_playing(false);
    state.playback->set_time(worst->max_abs_h_time);
    const int skin = doc.model->draws[size_t(worst->max_abs_h.draw)].skin;
    const int node = doc.model->skins[size_t(skin)].joints[size_t(worst->max_abs_h.joint)];
    state.selected_node = node;
    state.reveal_selection = true;
    state.requests.frame_node = node;
  }
  if (worst && worst->max_abs_h.joint >= 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("h %.2f at %.3f s", double(worst->max_abs_h.value),
                        double(worst->max_abs_h_time));
  }
  // Wrapped: the inspector may be narrower than the line.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%zu samples at %.0f Hz; largest LBS-DQS difference %.4f of the diagonal",
                     scan->times.size(), double(scan->rate_hz),
                     double(scan->max_method_difference));
  ImGui::PopStyleColor();
}

}  // namespace rigview

namespace rigview {

// The Compression panel: a tolerance (re-compressing every clip in the background), each clip's
// ratio and error, raw or compressed playback, and the joint with the largest error.
void draw_compression_panel(ViewerState& state, Document& doc) {
  // The slider is the tab's first item (tests/viewer_perframe drags it there).
  ImGui::SetNextItemWidth(200.0f);
  // It edits the state itself: a copy made each frame would lose the drag, and Ctrl+click's
  // typed value, on the frame the slider lets go. Recompressing waits for the release.
  ImGui::SliderFloat("tolerance (cm)", &state.tolerance_cm, 0.001f, 1.0f, "%.3f",
                     ImGuiSliderFlags_Logarithmic);
  state.tolerance_editing = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit()) doc.make_compression().request(state.tolerance_cm);
  if (doc.character->clips().empty()) {
    ImGui::TextDisabled("This model has no clips.");
    return;
  }
  ImGui::Checkbox("Play compressed clips", &state.play_compressed);
  if (!doc.compression()) return;
  CompressionSession& c = doc.compression()->session;
  if (c.running()) {
    ImGui::ProgressBar(c.progress(), ImVec2(-70.0f, 0.0f), "compressing");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) c.cancel();
    return;
  }
  const auto* results = c.results();
  if (!results) {
    if (!c.error().empty()) ImGui::TextWrapped("Failed: %s", c.error().c_str());
    if (ImGui::Button("Compress")) c.request(state.tolerance_cm);
    return;
  }
  uint64_t raw = 0, packed = 0;
  for (const auto& r : *results)
    if (r) raw += r->sizes.raw_bytes, packed += r->sizes.compressed_bytes;
  ImGui::Text("all clips %.1f:1 (%llu -> %llu bytes)", packed ? double(raw) / double(packed) : 0.0,
              static_cast<unsigned long long>(raw), static_cast<unsigned long long>(packed));
  if (ImGui::BeginTable(
          "##clips", 3,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
          ImVec2(0.0f, 120.0f))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("clip");
    ImGui::TableSetupColumn("ratio", ImGuiTableColumnFlags_WidthFixed, 50.0f);
    ImGui::TableSetupColumn("E_max cm", ImGuiTableColumnFlags_WidthFixed, 70.0f);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < results->size() && i < doc.clip_labels.size(); ++i) {
      if (!(*results)[i]) continue;  // a clip without raw keys is not compressed
      const rig::CompressionResult& r = *(*results)[i];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(doc.clip_labels[i].c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%.1f", r.sizes.ratio());
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.4f", r.report.e_max * 100.0);
    }
    ImGui::EndTable();
  }
  const int clip = state.playback ? state.playback->clip() : -1;
  if (clip >= 0 && size_t(clip) < results->size()) {
    const rig::ClipErrorReport& e = (*results)[size_t(clip)]->report;
    if (e.e_max_node >= 0) {
      ImGui::Text("largest error: %s, %.4f cm at %.3f s",
                  doc.node_labels[size_t(e.e_max_node)].c_str(), e.e_max * 100.0,
                  double(e.e_max_time));
      if (ImGui::SmallButton("Select and frame it")) {
        state.selected_node = e.e_max_node;
        state.reveal_selection = true;
        state.requests.frame_node = e.e_max_node;
        if (state.playback) {
          state.playback->set_playing(false);
          state.playback->set_time(e.e_max_time);
        }
      }
    }
  }
}

}  // namespace rigview
