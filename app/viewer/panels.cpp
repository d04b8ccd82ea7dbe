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
#include "viewer/posing_panel.h"

namespace rigview {

namespace {

// Read-only overlays over the 3D view (stats, weight legend): no frame, no input, no focus.
constexpr ImGuiWindowFlags kOverlayFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs |
    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;

}  // namespace

void draw_file_panel(ViewerState& state, const Document& doc, const ViewerSettings& settings) {
  if (!ImGui::CollapsingHeader("File", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%s", doc.path.c_str());
  if (!doc.model->warnings.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%zu import warning(s)",
                       doc.model->warnings.size());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (const rig::ImportWarning& w : doc.model->warnings)
        ImGui::Text("%s: %s", w.code.c_str(), w.message.c_str());
      ImGui::EndTooltip();
    }
  }
  if (state.requests.focus_open_field) {
    ImGui::SetKeyboardFocusHere();
    state.requests.focus_open_field = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
  const bool entered = ImGui::InputTextWithHint("##open", "path to .gltf / .glb", &state.open_field,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Open") || entered) state.requests.open_path = state.open_field;
  ImGui::TextDisabled("or drop a .gltf / .glb file onto the window");
  if (!settings.recent_files().empty() && ImGui::TreeNode("Recent files")) {
    for (const std::string& recent : settings.recent_files()) {
      if (ImGui::Selectable(recent.c_str(), recent == doc.path)) state.requests.open_path = recent;
    }
    ImGui::TreePop();
  }
}

void draw_animation_panel(ViewerState& state, Document& doc) {
  if (!ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  rig::Playback& p = doc.playback;
  const rig::Model& model = *doc.model;
  if (model.clips.empty()) {
    ImGui::TextDisabled("This model has no animations (rest pose).");
    return;
  }
  const float list_height =
      ImGui::GetTextLineHeightWithSpacing() * std::min<float>(8.0f, model.clips.size() + 0.5f);
  if (ImGui::BeginListBox("##clips", ImVec2(-FLT_MIN, list_height))) {
    for (size_t c = 0; c < model.clips.size(); ++c) {
      const bool current = static_cast<int>(c) == p.clip();
      if (ImGui::Selectable(doc.clip_list_rows[c].c_str(), current)) p.select_clip(int(c));
      if (current && state.scroll_to_clip) {
        ImGui::SetScrollHereY(0.5f);
        state.scroll_to_clip = false;
      }
    }
    ImGui::EndListBox();
  }
  if (state.rest_pose) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Rest pose is on (R)");

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
  if (ImGui::Checkbox("Loop", &loop)) p.set_looping(loop);

  float speed = p.speed();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
  if (ImGui::SliderFloat("##speed", &speed, rig::Playback::kMinSpeed, rig::Playback::kMaxSpeed,
                         "speed %.2fx"))
    p.set_speed(speed);
  ImGui::SameLine();
  if (ImGui::Button("1x")) p.set_speed(1.0f);

  const rig::Clip& clip = model.clips[static_cast<size_t>(p.clip())];
  float time = p.time();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (clip.end > clip.start) {
    if (ImGui::SliderFloat("##timeline", &time, clip.start, clip.end, "%.3f s")) p.set_time(time);
    state.scrubbing = ImGui::IsItemActive();
    draw_contact_marks(doc);
  } else {
    ImGui::TextDisabled("zero-length clip: a single pose at %.3f s", static_cast<double>(time));
    state.scrubbing = false;
  }
  ImGui::Text("time %.3f s   frame %d / %d   (frame %.1f ms)", static_cast<double>(p.time()),
              p.frame_index(), p.frame_count(p.clip()) - 1,
              1000.0 * static_cast<double>(p.frame_duration(p.clip())));
}

void draw_crossfade_panel(ViewerState& state, Document& doc) {
  if (!ImGui::CollapsingHeader("Crossfade", ImGuiTreeNodeFlags_DefaultOpen)) return;
  rig::Playback& p = doc.playback;
  const rig::Model& model = *doc.model;
  if (model.clips.size() < 1) {
    ImGui::TextDisabled("Needs an animation.");
    return;
  }
  state.fade_target = std::clamp(state.fade_target, 0, static_cast<int>(model.clips.size()) - 1);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##fade_target",
                        doc.clip_labels[static_cast<size_t>(state.fade_target)].c_str())) {
    for (size_t c = 0; c < model.clips.size(); ++c) {
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
  if (!ImGui::CollapsingHeader("Skinning and display", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // One button per skinning-method row, then compare; the digits are their keys (actions.h).
  const std::span<const rig::SkinningMethodInfo> table = rig::skinning_methods();
  const int compare_choice = static_cast<int>(table.size());
  int choice = state.compare ? compare_choice : static_cast<int>(state.method);
  bool changed = false;
  char label[64];
  for (int i = 0; i < compare_choice; ++i) {
    std::snprintf(label, sizeof label, "%s (%d)", table[static_cast<size_t>(i)].label, i + 1);
    changed |= ImGui::RadioButton(label, &choice, i);
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
}

namespace {

// One joint of the skeleton panel's tree and, when open, its children. `mix`: a checkbox per
// joint sets the mix's DQS amount on its subtree.
void draw_joint_tree(ViewerState& state, Document& doc, int skin, int joint, bool mix) {
  const rig::Skin& s = doc.model->skins[static_cast<size_t>(skin)];
  const int node = s.joints[static_cast<size_t>(joint)];
  const std::vector<int>& children =
      doc.joint_children[static_cast<size_t>(skin)][static_cast<size_t>(joint)];
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                             ImGuiTreeNodeFlags_SpanAvailWidth;
  if (children.empty()) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (s.joint_parent[static_cast<size_t>(joint)] < 0) flags |= ImGuiTreeNodeFlags_DefaultOpen;
  if (node == state.selected_node) flags |= ImGuiTreeNodeFlags_Selected;
  const bool on_path =
      doc.joint_on_selected_path[static_cast<size_t>(skin)][static_cast<size_t>(joint)] != 0;
  if (state.reveal_selection && on_path && !children.empty()) ImGui::SetNextItemOpen(true);
  if (mix && static_cast<size_t>(node) < doc.dqs_amounts.size()) {
    bool dqs = doc.dqs_amounts[static_cast<size_t>(node)] > 0.0f;
    ImGui::PushID(joint);
    if (ImGui::Checkbox("##dqs", &dqs)) doc.set_dqs_subtree(node, dqs);
    ImGui::PopID();
    ImGui::SameLine();
  }
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(joint)), flags,
                                      "%s", doc.node_labels[static_cast<size_t>(node)].c_str());
  if (state.reveal_selection && node == state.selected_node) ImGui::SetScrollHereY(0.5f);
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) {
    state.selected_node = node;
    doc.reveal_joint(node);
  }
  if (ImGui::BeginPopupContextItem()) {  // Posing: a two-bone IK chain ending at this joint
    if (ImGui::MenuItem("Make IK chain ending here")) state.requests.make_ik_chain = node;
    ImGui::EndPopup();
  }
  if (open && !children.empty()) {
    for (int child : children) draw_joint_tree(state, doc, skin, child, mix);
    ImGui::TreePop();
  }
}

}  // namespace

void draw_skeleton_panel(ViewerState& state, Document& doc) {
  if (!ImGui::CollapsingHeader("Skeleton", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const rig::Model& model = *doc.model;
  if (model.skins.empty()) {
    ImGui::TextDisabled("This model has no skin.");
    return;
  }
  state.tree_skin = std::clamp(state.tree_skin, 0, static_cast<int>(model.skins.size()) - 1);
  if (model.skins.size() > 1) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##skin",
                          doc.skin_labels[static_cast<size_t>(state.tree_skin)].c_str())) {
      for (size_t s = 0; s < model.skins.size(); ++s) {
        if (ImGui::Selectable(doc.skin_labels[s].c_str(), static_cast<int>(s) == state.tree_skin))
          state.tree_skin = static_cast<int>(s);
      }
      ImGui::EndCombo();
    }
  }
  if (state.selected_node >= 0) {
    ImGui::Text("Selected: %s", doc.node_labels[static_cast<size_t>(state.selected_node)].c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear")) state.selected_node = -1;
  } else {
    ImGui::TextDisabled("Click a joint (bones on) or a tree entry to select it.");
  }
  if (state.reveal_selection && state.selected_node >= 0) doc.reveal_joint(state.selected_node);
  const std::span<const rig::SkinningMethod> shown = methods_shown(state);
  const bool mix = std::any_of(shown.begin(), shown.end(), [](rig::SkinningMethod m) {
    return rig::method_info(m).write_joint_amounts != nullptr;
  });
  if (mix) ImGui::TextDisabled("Mix: ticked joints and their subtrees use DQS, the rest LBS.");
  ImGui::BeginChild("##joint_tree", ImVec2(0.0f, 0.0f), true);
  for (int root : doc.joint_roots[static_cast<size_t>(state.tree_skin)])
    draw_joint_tree(state, doc, state.tree_skin, root, mix);
  ImGui::EndChild();
  state.reveal_selection = false;
}

void draw_stats_overlay(ViewerState& state, const Document& doc, double gpu_ms) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 10.0f,
                                 viewport->WorkPos.y + viewport->WorkSize.y - 10.0f),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
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
    ImGui::Text("frame %7.2f ms (%4.0f fps) | animation CPU %6.3f ms | GPU %9s | %-9s",
                state.frame_ms, state.frame_ms > 0.0 ? 1000.0 / state.frame_ms : 0.0,
                state.animation_cpu_ms, gpu_text, labels);
    ImGui::Text("%u joints | %llu vertices | %u skinned draw calls", doc.joint_count,
                static_cast<unsigned long long>(doc.vertex_count), skinned_draws);
    if (state.crowd_count > 0) {
      char crowd_gpu[32];
      if (state.crowd_gpu_ms >= 0.0)
        std::snprintf(crowd_gpu, sizeof crowd_gpu, "%.2f ms", state.crowd_gpu_ms);
      else
        std::snprintf(crowd_gpu, sizeof crowd_gpu, "n/a");
      ImGui::Text(
          "crowd %6d characters | update %7.3f ms (CPU %7.3f ms, %d threads) | upload %6.3f ms | "
          "GPU %9s",
          state.crowd_count, state.crowd_update_ms, state.crowd_update_cpu_ms, state.crowd_threads,
          state.crowd_upload_ms, crowd_gpu);
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
    std::string methods;
    for (rig::SkinningMethod m : methods_shown(state))
      methods += std::string(methods.empty() ? "" : " | ") + rig::method_info(m).label;
    ImGui::Text("Deflation h = log2(r_pose / r_rest): %s", methods.c_str());
  } else {
    ImGui::TextUnformatted(field.title.c_str());
  }
  constexpr float kBarWidth = 240.0f;
  constexpr int kSteps = 24;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  for (int i = 0; i < kSteps; ++i) {
    const float v0 = field.min + (field.max - field.min) * float(i) / kSteps;
    const float v1 = field.min + (field.max - field.min) * float(i + 1) / kSteps;
    // Just inside the range, so a heat map's "at or below min" grey stays out of the bar.
    const ImU32 a = legend_color(rig::analysis::color_map_color(
        field.map, std::max(v0, field.min + 1e-6f * (field.max - field.min)), field.min,
        field.max));
    const ImU32 b =
        legend_color(rig::analysis::color_map_color(field.map, v1, field.min, field.max));
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
  if (findings) return;  // every vertex has a value: no undefined swatch
  const ImVec2 q = ImGui::GetCursorScreenPos();
  draw->AddRectFilled(q, ImVec2(q.x + h, q.y + h), legend_color(field.undefined_color));
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(state.surface_view == SurfaceView::Deflation
                             ? "undefined (on the bone, no weight, singular joint)"
                             : "undefined");
}

void draw_weight_legend(const ViewerState& state, const Document& doc) {
  if (state.surface_view == SurfaceView::Off) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  // Above the stats overlay, which spans the bottom of narrow windows.
  ImGui::SetNextWindowPos(
      ImVec2(viewport->WorkPos.x + single_view_left(state, viewport->Size.x) + 10.0f,
             viewport->WorkPos.y + viewport->WorkSize.y - 16.0f - state.stats_height),
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

// Labels next to the divider of the split view, where the side panel cannot cover them.
void draw_compare_labels(const ViewerState& state) {
  const std::span<const rig::SkinningMethod> methods = methods_shown(state);
  if (methods.size() < 2) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float view_left = single_view_left(state, viewport->Size.x);
  const float view_width = (viewport->Size.x - view_left) / static_cast<float>(methods.size());
  const float y = viewport->Pos.y + 12.0f;
  const ImU32 background = IM_COL32(0, 0, 0, 150), text = IM_COL32(255, 255, 255, 255);
  char label[96];
  for (size_t i = 0; i < methods.size(); ++i) {
    const rig::SkinningMethodInfo& m = rig::method_info(methods[i]);
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
}

void draw_help_panel(ViewerState& state, const ViewerSettings& settings) {
  if (!state.show_help) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 8.0f, viewport->WorkPos.y + 40.0f),
      ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
  if (ImGui::Begin("Help", &state.show_help, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const ViewerAction& row : viewer_actions()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(row.input.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(row.description.c_str());
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled(
        "Layout, window size and recent files are kept in %s",
        settings.persistent() ? settings.imgui_ini_path().c_str() : "(nowhere: no HOME)");
  }
  ImGui::End();
}

void draw_side_panel(ViewerState& state, Document& doc, const ViewerSettings& settings) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + 8.0f, viewport->WorkPos.y + 8.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kSidePanelWidth, viewport->WorkSize.y - 16.0f),
                           ImGuiCond_FirstUseEver);
  const bool panel_open = ImGui::Begin("rigview");
  const ImVec2 panel_pos = ImGui::GetWindowPos(), panel_size = ImGui::GetWindowSize();
  state.panel_right = panel_open && panel_pos.x - viewport->Pos.x < 40.0f
                          ? panel_pos.x - viewport->Pos.x + panel_size.x
                          : 0.0f;
  if (panel_open) {
    if (!state.error_message.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::TextWrapped("Could not open %s", state.error_message.c_str());
      ImGui::PopStyleColor();
      if (ImGui::SmallButton("Dismiss")) state.error_message.clear();
    }
    draw_file_panel(state, doc, settings);
    draw_animation_panel(state, doc);
    draw_crossfade_panel(state, doc);
    draw_display_panel(state, doc);
    if (ImGui::Button("Help (H)")) state.show_help = !state.show_help;
    draw_artefacts_panel(state, doc);
    draw_compression_panel(state, doc);
    draw_rig_health_panel(state, doc);
    draw_teaching_aids_panel(state, doc);
    draw_posing_panel(state, doc);
    draw_skeleton_panel(state, doc);
  }
  ImGui::End();
}

void draw_ui(ViewerState& state, Document& doc, const ViewerSettings& settings, double gpu_ms) {
  if (state.panels_hidden) return;
  draw_side_panel(state, doc, settings);
  draw_stats_overlay(state, doc, gpu_ms);
  draw_weight_legend(state, doc);
  draw_compare_labels(state);
  draw_help_panel(state, settings);
}

void draw_hover_tooltip(const ViewerState& state, const Document& doc) {
  if (state.hovered_node >= 0)
    ImGui::SetTooltip("%s%s", doc.node_labels[static_cast<size_t>(state.hovered_node)].c_str(),
                      state.hovered_node == state.selected_node ? " (selected)" : "");
}

}  // namespace rigview
