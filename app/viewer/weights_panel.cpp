// The Weights tab: the skin's weight operations (the command line's --weights-op rows: normalize,
// clean, limit with refit, smooth, mirror) as undoable edits, Undo / Redo, Save / Save As; and
// the two questions the viewer asks about unsaved edits (recover a journal; save before opening
// another file or quitting). Everything posts requests (state.requests), served by the frame loop
// through viewer/skin_editing.h.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "viewer/panels.h"

namespace rigview {

namespace {

// Posts one weights operation given as the command line writes it (`text`), with `joints` for
// smooth. The syntax is the panel's own, so it always parses.
void post_op(ViewerState& state, const char* text, std::vector<std::string> joints = {}) {
  std::string error;
  if (!parse_weights_op(text, state.requests.op, error)) {
    state.edits.message = error;
    return;
  }
  state.requests.op.joints = std::move(joints);
  state.requests.weights_op = true;
}

// A running background job's row: its progress bar and a Cancel button; true when clicked.
bool progress_row(float progress, const char* overlay, const char* cancel_label) {
  ImGui::ProgressBar(progress, ImVec2(ImGui::GetContentRegionAvail().x - 70.0f, 0.0f), overlay);
  ImGui::SameLine();
  return ImGui::Button(cancel_label);
}

void draw_history(ViewerState& state) {
  const EditStatus& e = state.edits;
  ImGui::BeginDisabled(e.undo_label.empty());
  if (ImGui::Button("Undo")) state.requests.undo = true;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Ctrl+Z: %s",
                      e.undo_label.empty() ? "nothing to undo" : e.undo_label.c_str());
  ImGui::SameLine();
  ImGui::BeginDisabled(e.redo_label.empty());
  if (ImGui::Button("Redo")) state.requests.redo = true;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Ctrl+Shift+Z: %s",
                      e.redo_label.empty() ? "nothing to redo" : e.redo_label.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Save")) state.requests.save = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+S: %s", e.save_path.c_str());
  ImGui::TextWrapped("%s%s", e.modified ? "* unsaved edits to " : "saved: ", e.save_path.c_str());
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 70.0f);
  const bool entered = ImGui::InputTextWithHint("##save_as", "save as .glb / .gltf",
                                                &state.weight_tools.save_as_field,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Save As") || entered) && !state.weight_tools.save_as_field.empty())
    state.requests.save_as = state.weight_tools.save_as_field;
}

void draw_tools(ViewerState& state, const Document& doc) {
  WeightTools& t = state.weight_tools;
  char text[96];
  if (ImGui::Button("Normalize")) post_op(state, "normalize");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("every vertex's weights scaled to sum 1");

  ImGui::SetNextItemWidth(120.0f);
  ImGui::SliderFloat("##clean", &t.clean_threshold, 0.0f, 0.25f, "%.3f");
  ImGui::SameLine();
  if (ImGui::Button("Clean")) {
    std::snprintf(text, sizeof text, "clean=%g", double(t.clean_threshold));
    post_op(state, text);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("drop weights below the threshold, renormalize");

  if (state.edits.op_running) {
    // Limit with refit, in the background.
    if (progress_row(state.edits.op_progress, "refitting...", "Cancel##op"))
      state.requests.cancel_weights_op = true;
  } else {
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderInt("##limit", &t.limit, 1, int(rig::kMaxInfluences));
    ImGui::SameLine();
    ImGui::Checkbox("refit", &t.refit);
    ImGui::SameLine();
    if (ImGui::Button("Limit")) {
      std::snprintf(text, sizeof text, "limit=%d%s", t.limit, t.refit ? ":refit" : "");
      post_op(state, text);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "at most N influences per vertex; refit: the weights that best reproduce the "
          "deformation over every clip's sampled poses (least squares, >= 0, sum 1), in the "
          "background with a progress bar and Cancel");
  }

  ImGui::SetNextItemWidth(120.0f);
  ImGui::SliderFloat("##smooth_factor", &t.smooth_factor, 0.0f, 1.0f, "factor %.2f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90.0f);
  ImGui::SliderInt("##smooth_iterations", &t.smooth_iterations, 1, 50, "x%d");
  const bool joint =
      state.selected_node >= 0 && size_t(state.selected_node) < doc.node_labels.size();
  ImGui::BeginDisabled(!joint);
  ImGui::Checkbox("selected joint only", &t.smooth_selected_joint);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Smooth")) {
    std::snprintf(text, sizeof text, "smooth=%g:%d", double(t.smooth_factor), t.smooth_iterations);
    std::vector<std::string> joints;
    if (joint && t.smooth_selected_joint)
      joints.push_back(doc.model->nodes[size_t(state.selected_node)].name);
    post_op(state, text, std::move(joints));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Laplacian smoothing over the mesh's edges, seams welded by position");

  if (ImGui::Button("Mirror")) post_op(state, "mirror");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("left <-> right by joint names and mirrored positions");

  ImGui::Separator();
  ImGui::BeginDisabled(!joint);
  ImGui::Checkbox("Paint the selected joint", &t.paint);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "left drag on the surface paints (the camera orbits with the middle "
        "button or Shift); one stroke, one undo; it works while the clip plays");
  if (t.paint && joint) {
    ImGui::RadioButton("Add", &t.brush_mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("Subtract", &t.brush_mode, 1);
    ImGui::SameLine();
    ImGui::RadioButton("Replace", &t.brush_mode, 2);
    ImGui::SameLine();
    ImGui::RadioButton("Smooth", &t.brush_mode, 3);
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderFloat("radius", &t.brush_radius, 0.005f, 0.3f, "%.3f");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderFloat("strength", &t.brush_strength, 0.0f, 1.0f, "%.2f");
    if (t.brush_mode == 2) {
      ImGui::SetNextItemWidth(120.0f);
      ImGui::SliderFloat("weight", &t.brush_value, 0.0f, 1.0f, "%.2f");
      ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(120.0f);
    ImGui::Combo("falloff", &t.brush_falloff, "smooth\0linear\0constant\0");
    ImGui::SameLine();
    ImGui::Checkbox("X symmetry", &t.brush_mirror);
  }
  if (t.paint && t.brush_pixel_radius > 0.0f)
    ImGui::GetForegroundDrawList()->AddCircle(ImVec2(t.brush_pixel.x, t.brush_pixel.y),
                                              t.brush_pixel_radius, IM_COL32(255, 255, 255, 200),
                                              40, 1.5f);
  ImGui::Separator();
  if (state.edits.fix_running) {
    if (progress_row(state.edits.fix_progress, "fixing...", "Cancel##fix"))
      state.requests.cancel_fix_joint = true;
  } else {
    ImGui::BeginDisabled(doc.playback.clip() < 0);
    if (ImGui::Button(joint ? "Fix this joint" : "Fix the worst joint"))
      state.requests.fix_joint = true;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip(
          "search the smoothing (factor, iterations, extent) that lowers the %s joint's worst "
          "score (Artefacts tab's method, LBS or DQS) over the current clip, no other joint's "
          "rising more than 5%%; one undoable edit",
          joint ? "selected" : "worst");
  }
}

// Remembers where button `k` of the open question was drawn.
void note_button(EditStatus& e, int k) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  const float r[4] = {min.x, min.y, max.x - min.x, max.y - min.y};
  std::copy(r, r + 4, e.question_buttons[k]);
}

// A small window in the middle of the screen that stays until answered.
bool begin_question(const char* id, float width) {
  const ImGuiViewport* v = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(v->Pos.x + v->Size.x * 0.5f, v->Pos.y + v->Size.y * 0.4f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowFocus();
  return ImGui::Begin(id, nullptr,
                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize |
                          ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
}

}  // namespace

void draw_weights_tab(ViewerState& state, Document& doc) {
  if (!doc.loaded()) return;
  draw_history(state);
  ImGui::Separator();
  if (doc.simulated_bug >= 0)
    ImGui::TextWrapped("A simulated bug is on (Rig health): its edits are not saved.");
  draw_tools(state, doc);
  if (!state.edits.message.empty()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", state.edits.message.c_str());
  }
}

void draw_edit_questions(ViewerState& state, const Document& doc) {
  EditStatus& e = state.edits;
  for (float(&button)[4] : e.question_buttons) std::fill(button, button + 4, 0.0f);
  if (!e.recover_prompt.empty()) {
    if (begin_question("Recover unsaved edits", 460.0f)) {
      ImGui::TextWrapped("Recover unsaved edits to %s?", doc.path.c_str());
      ImGui::TextWrapped("%s (journaled before rigview stopped).", e.recover_prompt.c_str());
      if (ImGui::Button("Recover")) state.requests.recover = ViewerRequests::Answer::Yes;
      note_button(e, 0);
      ImGui::SameLine();
      if (ImGui::Button("Discard")) state.requests.recover = ViewerRequests::Answer::No;
      note_button(e, 1);
    }
    ImGui::End();
    return;
  }
  if (e.pending_open.empty() && !e.pending_quit) return;
  if (begin_question("Unsaved edits", 460.0f)) {
    ImGui::TextWrapped("%s has unsaved skin edits. Save them before %s?", e.save_path.c_str(),
                       e.pending_quit ? "quitting" : "opening another file");
    if (ImGui::Button("Save")) state.requests.unsaved = ViewerRequests::Answer::Yes;
    note_button(e, 0);
    ImGui::SameLine();
    if (ImGui::Button("Discard")) state.requests.unsaved = ViewerRequests::Answer::No;
    note_button(e, 1);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) state.requests.unsaved = ViewerRequests::Answer::Cancel;
    note_button(e, 2);
  }
  ImGui::End();
}

}  // namespace rigview
