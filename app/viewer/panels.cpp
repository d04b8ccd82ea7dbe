#include "viewer/panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <span>

#include "render/weight_colors.h"
#include "viewer/actions.h"
#include "viewer/field_legend.h"
#include "viewer/glossary.h"
#include "viewer/mistakes.h"
#include "viewer/posing_panel.h"

namespace rigview {

namespace {

// Read-only overlays over the 3D view (stats, weight legend): no frame, no input, no focus.
constexpr ImGuiWindowFlags kOverlayFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs |
    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;

constexpr float kHelpWidth = 640.0f;

// The 3D view's rectangle in ImGui's screen coordinates.
Rect view_on_screen(const ViewerState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  Rect r = scene_view(state, viewport->Size.x, viewport->Size.y);
  r.x += viewport->Pos.x;
  r.y += viewport->Pos.y;
  return r;
}

}  // namespace

void draw_crossfade_panel(ViewerState& state, Document& doc) {
  if (!ImGui::CollapsingHeader("Crossfade")) return;
  rig::Playback& p = doc.playback;
  const rig::ClipSet& clips = doc.character->clips();
  if (clips.size() < 1) {
    ImGui::TextDisabled("Needs an animation.");
    return;
  }
  state.fade_target = std::clamp(state.fade_target, 0, static_cast<int>(clips.size()) - 1);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##fade_target",
                        doc.clip_labels[static_cast<size_t>(state.fade_target)].c_str())) {
    for (size_t c = 0; c < clips.size(); ++c) {
      if (doc.clip_list_rows[c].empty()) continue;  // withdrawn by an undo
      const bool chosen = static_cast<int>(c) == state.fade_target;
      if (ImGui::Selectable(doc.clip_list_rows[c].c_str(), chosen)) state.fade_target = int(c);
      if (chosen) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  ImGui::SliderFloat("##fade_duration", &state.fade_duration, 0.0f, rig::Playback::kMaxFadeDuration,
                     "over %.2f s");
  ImGui::SameLine();
  ImGui::Checkbox("Phase sync", &state.fade_phase_sync);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Start the target at the same normalized time as the current clip");
  if (ImGui::Button("Start crossfade")) {
    p.start_crossfade(state.fade_target, state.fade_duration, state.fade_phase_sync);
    if (!p.playing() && p.fading()) p.set_playing(true);
  }
  if (p.fading()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) p.cancel_crossfade();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "weight %.2f -> %s",
                  static_cast<double>(p.blend_weight()),
                  doc.clip_labels[static_cast<size_t>(p.fade_target())].c_str());
    ImGui::ProgressBar(p.blend_weight(), ImVec2(-FLT_MIN, 0.0f), overlay);
    ImGui::Text("target time %.3f s", static_cast<double>(p.fade_target_time()));
  } else {
    ImGui::TextDisabled("blend weight 0 (no fade running)");
  }
  draw_crossfade_graph(state, doc);
}

void draw_display_panel(ViewerState& state, const Document& doc) {
  // One button per skinning-method row, then compare; the digits are their keys (actions.h).
  const std::span<const rig::SkinningMethodInfo> table = rig::skinning_methods();
  const int compare_choice = static_cast<int>(table.size());
  int choice = state.compare ? compare_choice : static_cast<int>(state.method);
  bool changed = false;
  char label[64];
  for (int i = 0; i < compare_choice; ++i) {
    std::snprintf(label, sizeof label, "%s (%d)", table[static_cast<size_t>(i)].label, i + 1);
    changed |= ImGui::RadioButton(label, &choice, i);
    glossary_tooltip(table[static_cast<size_t>(i)].label);
    if (i + 1 < compare_choice) ImGui::SameLine();  // Compare below: four methods fill the row
  }
  std::snprintf(label, sizeof label, "Compare (%d)", compare_choice + 1);
  changed |= ImGui::RadioButton(label, &choice, compare_choice);
  if (changed && choice == compare_choice && !state.compare) toggle_compare(state);
  if (changed && choice < compare_choice) select_method(state, static_cast<size_t>(choice));
  if (state.methods_preparing != 0) {
    std::string preparing;
    for (const rig::SkinningMethodInfo& m : table)
      if ((state.methods_preparing >> static_cast<uint32_t>(m.method)) & 1u)
        preparing += std::string(preparing.empty() ? "preparing " : ", ") + m.label;
    ImGui::ProgressBar(state.preparing_progress, ImVec2(-1.0f, 0.0f), (preparing + "...").c_str());
    if (!state.skinning_notice.empty()) ImGui::TextDisabled("%s", state.skinning_notice.c_str());
  }
  ImGui::Checkbox("Rest pose (R)", &state.rest_pose);
  ImGui::SameLine();
  ImGui::Checkbox("Bones (B)", &state.show_skeleton);
  ImGui::SameLine();
  ImGui::Checkbox("Grid (G)", &state.show_grid);
  ImGui::Checkbox("Surfaces", &state.show_surfaces);
  ImGui::SameLine();
  ImGui::Checkbox("Wireframe (W)", &state.show_wireframe);
  ImGui::Checkbox("Shadows (S)", &state.show_shadows);
  int weights = static_cast<int>(state.surface_view);
  ImGui::SetNextItemWidth(170.0f);
  ImGui::Combo("Colour (V)", &weights,
               "Off\0Selected joint\0Influence count\0Deflation\0Method difference\0"
               "Compression error\0Rig findings\0");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Selected joint: its skin weight per vertex (heat map, grey = none)\n"
        "Influence count: non-zero influences per vertex\n"
        "Deflation: log2(r_pose / r_rest) per vertex for each view's method (blue loss,\n"
        "white rigid, red bulge, clamped at +-1; grey undefined)\n"
        "Method difference: |LBS - DQS| / rest diagonal\n"
        "Compression error: raw vs compressed clip, cm per vertex (Compression panel)\n"
        "Rig findings: vertices the rig doctor's findings affect (Rig health panel)");
  state.surface_view = static_cast<SurfaceView>(weights);
  if (state.surface_view == SurfaceView::SelectedJoint) {
    if (state.selected_node < 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
      ImGui::TextWrapped("Select a joint in the tree or click one with bones on (B).");
      ImGui::PopStyleColor();
    } else
      ImGui::TextDisabled("Weights of %s",
                          doc.node_labels[static_cast<size_t>(state.selected_node)].c_str());
  }
  if (doc.skinned_draw_items == 0 && state.surface_view != SurfaceView::Off)
    ImGui::TextDisabled("This model has no skinned mesh: it draws as usual.");
  if (ImGui::Button("Frame model (F)")) state.requests.frame_model = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset camera")) state.requests.reset_camera = true;
  // Skinning cost (render/skinning_cost.h, as --bench-skinning): the UI waits while it runs.
  if (ImGui::Button("Measure cost")) state.requests.measure_cost = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "GPU time of every skinning method's vertex stage: the model drawn 'draws' times\n"
        "per measurement behind the eye, 7 rounds, median; blocks the viewer while it runs");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(100.0f);
  ImGui::InputInt("draws", &state.cost_draws);
  state.cost_draws = std::clamp(state.cost_draws, 1, 1000);
  if (!state.cost_error.empty()) ImGui::TextDisabled("%s", state.cost_error.c_str());
  if (!state.cost.methods.empty())
    ImGui::TextDisabled(
        "%s", state.cost.wall_clock ? "wall clock (software rasterizer)" : "GPU timer queries");
  for (const rig::render::SkinningCost& c : state.cost.methods)
    ImGui::Text("%-4s %8.3f ms per M vertices  x%.2f", rig::method_info(c.method).label,
                c.ms_per_million, c.ratio);
  if (ImGui::CollapsingHeader("Look", ImGuiTreeNodeFlags_DefaultOpen)) draw_look_section(state);
}

void draw_stats_overlay(ViewerState& state, const Document& doc, double gpu_ms) {
  const Rect view = view_on_screen(state);
  ImGui::SetNextWindowPos(ImVec2(view.right() - 6.0f, view.bottom() - 6.0f), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.55f);
  if (ImGui::Begin("##stats", nullptr, kOverlayFlags)) {
    state.stats_height = ImGui::GetWindowSize().y;
    const double gpu = gpu_ms;
    const std::span<const rig::SkinningMethod> methods = methods_shown(state);
    const int views = static_cast<int>(methods.size());
    char labels[64] = "";  // "LBS | DQS"
    for (size_t i = 0; i < methods.size(); ++i) {
      const size_t used = std::strlen(labels);
      std::snprintf(labels + used, sizeof labels - used, "%s%s", i == 0 ? "" : " | ",
                    rig::method_info(methods[i]).label);
    }
    const int passes = (state.show_surfaces ? 1 : 0) + (state.show_wireframe ? 1 : 0);
    const unsigned skinned_draws = doc.skinned_draw_items * static_cast<unsigned>(views * passes);
    char gpu_text[32];
    if (gpu >= 0.0)
      std::snprintf(gpu_text, sizeof gpu_text, "%.2f ms", gpu);
    else
      std::snprintf(gpu_text, sizeof gpu_text, "n/a");
    // Fixed field widths keep the auto-sized overlay from jittering as the numbers change.
    // Short lines: the overlay must fit the viewport between the side panels.
    ImGui::Text("frame %7.2f ms (%4.0f fps) | GPU %9s", state.frame_ms,
                state.frame_ms > 0.0 ? 1000.0 / state.frame_ms : 0.0, gpu_text);
    ImGui::Text("animation CPU %6.3f ms | %s", state.animation_cpu_ms, labels);
    ImGui::Text("%u joints | %llu vertices | %u skinned draws", doc.joint_count,
                static_cast<unsigned long long>(doc.vertex_count), skinned_draws);
    if (state.crowd_count > 0) {
      char crowd_gpu[32];
      if (state.crowd_gpu_ms >= 0.0)
        std::snprintf(crowd_gpu, sizeof crowd_gpu, "%.2f ms", state.crowd_gpu_ms);
      else
        std::snprintf(crowd_gpu, sizeof crowd_gpu, "n/a");
      ImGui::Text("crowd %6d characters | update %7.3f ms (CPU %7.3f ms, %d threads)",
                  state.crowd_count, state.crowd_update_ms, state.crowd_update_cpu_ms,
                  state.crowd_threads);
      ImGui::Text("crowd upload %6.3f ms | GPU %9s", state.crowd_upload_ms, crowd_gpu);
    }
  }
  ImGui::End();
}

namespace {

ImU32 legend_color(glm::vec3 c) {
  return IM_COL32(static_cast<int>(c.r * 255.0f + 0.5f), static_cast<int>(c.g * 255.0f + 0.5f),
                  static_cast<int>(c.b * 255.0f + 0.5f), 255);
}

}  // namespace

// The weight view's key, at the bottom left of the 3D view (above the stats): the heat map as a bar
// from 0 to 1 (plus the "not influenced" and "broken" swatches), or one swatch per influence count.
// The colours are the renderer's own (render/weight_colors.h), unlit.
// The artefact heat maps' key: the field's colour map as a bar with its ticks, and its undefined
// colour. Deflation in compare mode names every column's method (each has its own map).
void draw_field_legend(const ViewerState& state, const Document& doc, ImDrawList* draw, float h) {
  const bool compression = state.surface_view == SurfaceView::Compression;
  const bool findings = state.surface_view == SurfaceView::RigFindings;
  if (!findings && (compression ? !doc.compression() : !doc.artefacts())) {
    ImGui::TextUnformatted("(measuring...)");
    return;
  }
  const rig::analysis::ScalarField& field =
      findings      ? doc.health().field
      : compression ? doc.compression()->session.displacement_field()
      : state.surface_view == SurfaceView::Difference
          ? doc.artefacts()->difference_field_view()
          : doc.artefacts()->deflation_field(methods_shown(state).front());
  if (state.surface_view == SurfaceView::Deflation) {
    char methods[64] = "";  // "LBS | DQS"
    for (rig::SkinningMethod m : methods_shown(state)) {
      const size_t used = std::strlen(methods);
      std::snprintf(methods + used, sizeof methods - used, "%s%s", used ? " | " : "",
                    rig::method_info(m).label);
    }
    ImGui::Text("Deflation h = log2(r_pose / r_rest): %s", methods);
  } else {
    ImGui::TextUnformatted(field.title.c_str());
  }
  constexpr float kBarWidth = 240.0f;
  constexpr int kSteps = 24;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  for (int i = 0; i < kSteps; ++i) {
    const ImU32 a = legend_color(field_legend_bar_color(field, float(i) / kSteps));
    const ImU32 b = legend_color(field_legend_bar_color(field, float(i + 1) / kSteps));
    const float x0 = p.x + kBarWidth * float(i) / kSteps,
                x1 = p.x + kBarWidth * float(i + 1) / kSteps;
    draw->AddRectFilledMultiColor(ImVec2(x0, p.y), ImVec2(x1, p.y + h), a, b, b, a);
  }
  ImGui::Dummy(ImVec2(kBarWidth, h));
  const float left = ImGui::GetCursorPosX();
  for (size_t i = 0; i < field.ticks.size(); ++i) {
    const rig::analysis::LegendTick& tick = field.ticks[i];
    const float t =
        field.max > field.min ? (tick.value - field.min) / (field.max - field.min) : 0.0f;
    const float width = ImGui::CalcTextSize(tick.label.c_str()).x;
    const float x = std::clamp(left + t * kBarWidth - 0.5f * width, left, left + kBarWidth - width);
    if (i > 0)
      ImGui::SameLine(x);
    else
      ImGui::SetCursorPosX(x);
    ImGui::TextUnformatted(tick.label.c_str());
  }
  // The solid colours the surface shows beside the bar's: at the minimum, and undefined.
  const char* at_min = findings ? "unaffected" : compression ? "no error" : "no difference";
  const char* undefined = findings ? nullptr
                          : state.surface_view == SurfaceView::Deflation
                              ? "undefined (on the bone, no weight, singular joint)"
                              : "undefined";
  const FieldLegendKey key = field_legend_key(field, at_min, undefined);
  for (size_t i = 0; i < key.swatch_count; ++i) {
    if (i > 0) ImGui::SameLine();
    const ImVec2 q = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(q, ImVec2(q.x + h, q.y + h), legend_color(key.swatches[i].color));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(key.swatches[i].label);
  }
}

void draw_weight_legend(const ViewerState& state, const Document& doc) {
  // The crowd draws plain surfaces: no colour view applies to it.
  if (state.surface_view == SurfaceView::Off || state.crowd_count > 0) return;
  const Rect view = view_on_screen(state);
  // Above the stats overlay, which spans the bottom of narrow views.
  ImGui::SetNextWindowPos(ImVec2(view.x + 6.0f, view.bottom() - 12.0f - state.stats_height),
                          ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.65f);
  if (ImGui::Begin("##weight_legend", nullptr, kOverlayFlags)) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = ImGui::GetTextLineHeight();
    auto swatch = [&](glm::vec3 color, const char* label) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      draw->AddRectFilled(p, ImVec2(p.x + h, p.y + h), legend_color(color));
      ImGui::Dummy(ImVec2(h, h));
      ImGui::SameLine();
      ImGui::TextUnformatted(label);
    };
    if (state.surface_view == SurfaceView::SelectedJoint) {
      if (state.selected_node >= 0)
        ImGui::Text("Weight of %s",
                    doc.node_labels[static_cast<size_t>(state.selected_node)].c_str());
      else
        ImGui::TextUnformatted("Weight of the selected joint (none selected)");
      constexpr float kBarWidth = 220.0f;
      const size_t segments = rig::render::kWeightHeatStops.size() - 1;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float segment = kBarWidth / static_cast<float>(segments);
      for (size_t i = 0; i < segments; ++i) {
        const ImU32 a = legend_color(rig::render::kWeightHeatStops[i]);
        const ImU32 b = legend_color(rig::render::kWeightHeatStops[i + 1]);
        const float x0 = p.x + segment * static_cast<float>(i);
        draw->AddRectFilledMultiColor(ImVec2(x0, p.y), ImVec2(x0 + segment, p.y + h), a, b, b, a);
      }
      ImGui::Dummy(ImVec2(kBarWidth, h));
      // Tick labels under the bar's start, middle and end (SameLine offsets count from the
      // window's left edge, padding included).
      const float left = ImGui::GetCursorPosX();
      ImGui::TextUnformatted("0");
      ImGui::SameLine(left + 0.5f * (kBarWidth - ImGui::CalcTextSize("0.5").x));
      ImGui::TextUnformatted("0.5");
      ImGui::SameLine(left + kBarWidth - ImGui::CalcTextSize("1").x);
      ImGui::TextUnformatted("1");
      swatch(rig::render::kZeroWeightColor, "not influenced (0)");
      ImGui::SameLine();
      swatch(rig::render::kBrokenWeightColor, "no usable weights");
    } else if (state.surface_view == SurfaceView::Deflation ||
               state.surface_view == SurfaceView::Difference ||
               state.surface_view == SurfaceView::Compression ||
               state.surface_view == SurfaceView::RigFindings) {
      draw_field_legend(state, doc, draw, h);
    } else {
      ImGui::TextUnformatted("Non-zero influences per vertex");
      static const char* const kCounts[] = {"", "1", "2", "3", "4", "5", "6", "7", "8"};
      static_assert(std::size(kCounts) == rig::render::kInfluenceCountColors.size());
      for (size_t n = 1; n < rig::render::kInfluenceCountColors.size(); ++n) {
        if (n > 1) ImGui::SameLine();
        swatch(rig::render::kInfluenceCountColors[n], kCounts[n]);
      }
      swatch(rig::render::kBrokenWeightColor, "none usable (broken)");
    }
  }
  ImGui::End();
}

// Labels next to the divider of the split view, at the top of the workspace's viewport. The
// crowd draws one method only: no labels.
void draw_compare_labels(const ViewerState& state) {
  const std::span<const rig::SkinningMethod> methods = methods_shown(state);
  if (methods.size() < 2 || state.crowd_count > 0) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImDrawList* draw = ImGui::GetBackgroundDrawList();  // under the panels, over the 3D view
  const Rect view = scene_view(state, viewport->Size.x, viewport->Size.y);
  const float view_left = view.x;
  const float view_width = view.width / static_cast<float>(methods.size());
  const float y = viewport->Pos.y + view.y + 12.0f;
  const ImU32 background = IM_COL32(0, 0, 0, 150), text = IM_COL32(255, 255, 255, 255);
  char label[96];
  const int mistake = state.learn.mistake;
  for (size_t i = 0; i < methods.size(); ++i) {
    const rig::SkinningMethodInfo& m = rig::method_info(methods[i]);
    if (mistake >= 0)
      mistake_label(mistake, static_cast<int>(i), methods[i], label, sizeof label);
    else
      std::snprintf(label, sizeof label, "%s (%s)", m.label, m.description);
    // Cut to the column (room for the padding and the divider gap), ending in "...", so
    // neighbouring labels never overlap.
    const float room = std::floor(view_width) - 32.0f;
    for (size_t n = std::strlen(label); n > 4 && ImGui::CalcTextSize(label).x > room; --n)
      std::memcpy(label + n - 4, "...", 4);
    const ImVec2 size = ImGui::CalcTextSize(label);
    // The first label sits left of the first divider, the others right of their own divider.
    float x;
    if (i == 0)
      x = viewport->Pos.x + view_left + std::floor(view_width) - size.x - 10.0f;
    else
      x = viewport->Pos.x + view_left + std::floor(view_width * static_cast<float>(i)) + 10.0f;
    draw->AddRectFilled(ImVec2(x - 6.0f, y - 4.0f), ImVec2(x + size.x + 6.0f, y + size.y + 4.0f),
                        background, 4.0f);
    draw->AddText(ImVec2(x, y), text, label);
  }
  // A mistake's one line of what went wrong and why, under the labels, wrapped to the view.
  if (mistake >= 0 && mistake < kMistakeCount) {
    const char* caption = mistakes()[size_t(mistake)].caption;
    const float x = viewport->Pos.x + view_left + 12.0f;
    const float wrap = std::max(view.width - 24.0f, 50.0f);
    const float cy = y + ImGui::GetTextLineHeight() + 14.0f;
    const ImVec2 size = ImGui::CalcTextSize(caption, nullptr, false, wrap);
    draw->AddRectFilled(ImVec2(x - 6.0f, cy - 4.0f), ImVec2(x + size.x + 6.0f, cy + size.y + 4.0f),
                        background, 4.0f);
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x, cy),
                  IM_COL32(255, 220, 120, 255), caption, nullptr, wrap);
  }
}

void draw_help_panel(ViewerState& state, const ViewerSettings& settings) {
  if (!state.show_help) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  // A fixed width that fits the window, the descriptions wrapped in it: an auto-sized window
  // grows as wide as the longest row and cuts it off at the window's edge.
  const float width = std::min(kHelpWidth, viewport->WorkSize.x - 16.0f);
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + 0.5f * viewport->WorkSize.x,
                                 viewport->WorkPos.y + 0.5f * viewport->WorkSize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, viewport->WorkSize.y * 0.85f), ImGuiCond_Always);
  if (ImGui::Begin("Help", &state.show_help,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthFixed, 0.3f * width);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
      for (const ViewerAction& row : viewer_actions()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextWrapped("%s", row.help_input.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::TextWrapped("%s", row.help_description.c_str());
      }
      ImGui::EndTable();
    }
    if (ImGui::CollapsingHeader("Glossary"))
      for (const GlossaryEntry& e : glossary()) ImGui::TextWrapped("%s: %s", e.term, e.definition);
    ImGui::TextWrapped(
        "Layout, window size and recent files are kept in %s",
        settings.persistent() ? settings.imgui_ini_path().c_str() : "(nowhere: no HOME)");
  }
  ImGui::End();
}

void draw_error_banner(ViewerState& state) {
  if (state.error_message.empty()) return;
  const Rect view = view_on_screen(state);
  ImGui::SetNextWindowPos(ImVec2(view.x + 0.5f * view.width, view.y + 8.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f),
                                      ImVec2(std::max(view.width - 16.0f, 100.0f), FLT_MAX));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("##error_banner", nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                       ImGuiWindowFlags_NoNav)) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(view.width - 40.0f, 80.0f));
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "Could not open %s",
                       state.error_message.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::SmallButton("Dismiss")) state.error_message.clear();
  }
  ImGui::End();
}

void draw_ui(ViewerState& state, Document& doc, const ViewerSettings& settings, double gpu_ms) {
  draw_edit_questions(state, doc);
  if (state.panels_hidden) return;
  draw_workspace(state, doc, settings);
  draw_stats_overlay(state, doc, gpu_ms);
  draw_weight_legend(state, doc);
  draw_compare_labels(state);
  draw_bind_ghost_overlay(state);
  draw_source_ghost_overlay(state, doc);
  draw_vertex_overlay(state);
  draw_bone_map_window(state, doc);
  draw_error_banner(state);
  draw_help_panel(state, settings);
}

void draw_hover_tooltip(const ViewerState& state, const Document& doc) {
  if (state.hovered_node >= 0)
    ImGui::SetTooltip("%s%s", doc.node_labels[static_cast<size_t>(state.hovered_node)].c_str(),
                      state.hovered_node == state.selected_node ? " (selected)" : "");
}

}  // namespace rigview
