// The timeline along the workspace's bottom: play controls, frame stepping, speed and loop; the
// scrub bar with the clip's key times marked; under it the foot contacts, the crossfade weights
// (only while a fade runs), the layer weights and the artefact curves of the methods shown.
// Pressing anywhere on the bar or its rows scrubs the character. Plots are draw-list shapes.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "viewer/panels.h"
#include "viewer/posing_panel.h"
#include "viewer/timeline_scale.h"

namespace rigview {

namespace {

constexpr ImU32 kBarColor = IM_COL32(25, 27, 32, 255);
constexpr ImU32 kKeyColor = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kPlayheadColor = IM_COL32(255, 255, 255, 220);
constexpr ImU32 kSourceColor = IM_COL32(90, 160, 255, 255);  // the crossfade graph's colours
constexpr ImU32 kTargetColor = IM_COL32(255, 150, 60, 255);
constexpr ImU32 kLayerColor = IM_COL32(180, 110, 230, 255);
constexpr float kRowHeight = 12.0f;
constexpr float kCurveHeight = 34.0f;

// Widest bar whose key columns are marked; wider bars mark at half resolution and so on.
constexpr size_t kMaxKeyColumns = 4096;

void draw_play_controls(ViewerState& state, rig::Playback& p) {
  if (ImGui::Button("|<")) p.jump_to_start();
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_frames(-1);
  ImGui::SameLine();
  if (ImGui::Button(p.playing() ? "Pause" : "Play ", ImVec2(60.0f, 0.0f))) p.toggle_playing();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_frames(1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.jump_to_end();
  ImGui::SameLine();
  bool loop = p.looping();
  if (ImGui::Checkbox("Loop (L)", &loop)) p.set_looping(loop);
  ImGui::SameLine();
  float speed = p.speed();
  ImGui::SetNextItemWidth(150.0f);
  if (ImGui::SliderFloat("##speed", &speed, rig::Playback::kMinSpeed, rig::Playback::kMaxSpeed,
                         "speed %.2fx"))
    p.set_speed(speed);
  ImGui::SameLine();
  if (ImGui::Button("1x")) p.set_speed(1.0f);
  if (state.rest_pose) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Rest pose is on (R)");
  }
}

// One row: a label at the left of the rows' area and the row's band.
void row_label(ImDrawList* draw, ImVec2 at, const char* label) {
  draw->AddText(ImVec2(at.x + 2.0f, at.y - 1.0f), ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
}

}  // namespace

void draw_timeline_panel(ViewerState& state, Document& doc) {
  rig::Playback& p = doc.playback;
  const rig::ClipSet& clips = doc.character->clips();
  if (!clips.valid(p.clip())) {
    ImGui::TextDisabled("This model has no animations (rest pose).");
    state.scrubbing = false;
    return;
  }
  draw_play_controls(state, p);
  const rig::ClipEntry& clip = clips[size_t(p.clip())];
  char readout[96];
  ImGui::TextUnformatted(format_time_readout(readout, sizeof readout, p.time(), clip.start,
                                             clip.end, p.frame_index(), p.frame_count(p.clip())));
  ImGui::SameLine();
  ImGui::TextDisabled("%s", doc.clip_labels[size_t(p.clip())].c_str());

  // The scrub bar: the clip's range with its key times, the playhead.
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  const float bar_height = ImGui::GetFrameHeight();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  // The same inset as a slider's grab, so the contact marks (posing_panel) line up with it.
  const float inset = 2.0f + 0.5f * ImGui::GetStyle().GrabMinSize;
  const float x0 = o.x + inset, span = std::max(width - 2.0f * inset, 1.0f);
  draw->AddRectFilled(o, ImVec2(o.x + width, o.y + bar_height), kBarColor, 3.0f);
  std::array<unsigned char, kMaxKeyColumns> columns;
  const size_t n = std::min(static_cast<size_t>(span), kMaxKeyColumns);
  // A clip without raw keys (a sampler alone) has no key marks.
  if (clip.keys)
    mark_key_columns(*clip.keys, std::span<unsigned char>(columns.data(), n));
  else
    std::fill(columns.begin(), columns.begin() + ptrdiff_t(n), 0);
  for (size_t c = 0; c < n; ++c) {
    if (!columns[c]) continue;
    const float x = x0 + (static_cast<float>(c) + 0.5f) * span / static_cast<float>(n);
    draw->AddLine(ImVec2(x, o.y + bar_height - 6.0f), ImVec2(x, o.y + bar_height), kKeyColor);
  }
  ImGui::InvisibleButton("##scrub", ImVec2(width, bar_height));
  bool active = ImGui::IsItemActive();
  draw_contact_marks(doc);  // under the bar: one row per planted foot

  // Rows: crossfade weights (while fading), layer weights, artefact curves of the methods shown.
  const ImVec2 rows = ImGui::GetCursorScreenPos();
  float y = rows.y;
  if (p.fading()) {
    const float w = p.blend_weight();
    row_label(draw, ImVec2(o.x, y), "fade");
    const float mid = x0 + span * 0.5f;
    draw->AddRectFilled(ImVec2(mid - 0.5f * span * (1.0f - w), y + 1.0f),
                        ImVec2(mid, y + kRowHeight - 1.0f), kSourceColor);
    draw->AddRectFilled(ImVec2(mid, y + 1.0f), ImVec2(mid + 0.5f * span * w, y + kRowHeight - 1.0f),
                        kTargetColor);
    y += kRowHeight;
  }
  if (doc.posing) {
    for (size_t i = 0; i < doc.posing->layer_count(); ++i) {
      const float w = std::clamp(doc.posing->layer(i).weight, 0.0f, 1.0f);
      draw->AddRectFilled(ImVec2(x0, y + 2.0f), ImVec2(x0 + span * w, y + kRowHeight - 2.0f),
                          kLayerColor);
      char label[24];
      std::snprintf(label, sizeof label, "L%zu", i + 1);
      row_label(draw, ImVec2(o.x, y), label);
      y += kRowHeight;
    }
  }
  const ArtefactAnalysis* artefacts = doc.artefacts();
  const rig::ClipScan* scan = artefacts ? artefacts->scan() : nullptr;
  if (scan && scan->clip == p.clip() && scan->times.size() > 1) {
    draw->AddRectFilled(ImVec2(o.x, y), ImVec2(o.x + width, y + kCurveHeight), kBarColor);
    float top = 1e-3f;
    for (const rig::MethodScan& m : scan->methods)
      for (float v : m.rms)
        if (std::isfinite(v)) top = std::max(top, v);
    const std::span<const rig::SkinningMethod> shown = methods_shown(state);
    for (const rig::MethodScan& m : scan->methods) {
      if (std::find(shown.begin(), shown.end(), m.method) == shown.end()) continue;
      const ImU32 color = artefact_curve_color(m.method);
      for (size_t k = 1; k < m.rms.size() && k < scan->times.size(); ++k) {
        if (!std::isfinite(m.rms[k - 1]) || !std::isfinite(m.rms[k])) continue;
        auto at = [&](size_t i) {
          return ImVec2(timeline_x_at(scan->times[i], x0, span, clip.start, clip.end),
                        y + kCurveHeight - 2.0f - m.rms[i] / top * (kCurveHeight - 4.0f));
        };
        draw->AddLine(at(k - 1), at(k), color, 1.5f);
      }
    }
    row_label(draw, ImVec2(o.x, y), "RMS h");
    y += kCurveHeight;
  }
  if (y > rows.y) {
    ImGui::InvisibleButton("##rows", ImVec2(width, y - rows.y));
    active |= ImGui::IsItemActive();
  }
  // The playhead across the bar and every row.
  const float head = timeline_x_at(p.time(), x0, span, clip.start, clip.end);
  draw->AddLine(ImVec2(head, o.y), ImVec2(head, std::max(y, o.y + bar_height)), kPlayheadColor,
                2.0f);
  if (active && clip.end > clip.start) {
    p.set_time(timeline_time_at(ImGui::GetIO().MousePos.x, x0, span, clip.start, clip.end));
  }
  state.scrubbing = active;
}

}  // namespace rigview
