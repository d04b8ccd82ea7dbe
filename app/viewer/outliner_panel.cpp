// The outliner, the workspace's left column: the Open field and recent files, the clip list
// with a filter (room for files with dozens of clips), a splitter, then the skeleton tree with
// search, selection and the mix's per-joint checkboxes, down to the window's bottom.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "viewer/panels.h"

namespace rigview {

namespace {

// Case-insensitive substring test, allocation free (the filters run every frame).
bool contains_ignoring_case(std::string_view text, std::string_view part) {
  if (part.empty()) return true;
  if (part.size() > text.size()) return false;
  for (size_t i = 0; i + part.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < part.size() && std::tolower(static_cast<unsigned char>(text[i + k])) ==
                                  std::tolower(static_cast<unsigned char>(part[k])))
      ++k;
    if (k == part.size()) return true;
  }
  return false;
}

// One joint of the skeleton panel's tree and, when open, its children. `mix`: a checkbox per
// joint sets the mix's DQS amount on its subtree.
constexpr float kTreeIndent = 14.0f;  // pixels per tree level (ImGui's default is 21)

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

void draw_file_panel(ViewerState& state, const Document& doc, const ViewerSettings& settings) {
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
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 50.0f);
  const bool entered = ImGui::InputTextWithHint("##open", "path to .gltf / .glb", &state.open_field,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nor drop a .gltf / .glb onto the window", doc.path.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Open") || entered) state.requests.open_path = state.open_field;
  if (ImGui::SmallButton("Add clips from file")) state.requests.add_clips_path = state.open_field;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "add the animations of the file in the field above to the clip list,\n"
        "retargeted when its skeleton differs (or Shift+drop a .gltf / .glb)");
  if (std::any_of(
          doc.clip_files.begin(), doc.clip_files.end(),
          [](const Document::AddedClipFile& f) { return f.file.retargeted && !f.withdrawn; })) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Bone map")) state.bone_map.open = !state.bone_map.open;
  }
  if (!settings.recent_files().empty()) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##recent", "Recent files")) {
      for (const std::string& recent : settings.recent_files()) {
        if (ImGui::Selectable(recent.c_str(), recent == doc.path))
          state.requests.open_path = recent;
      }
      ImGui::EndCombo();
    }
  }
}

void draw_clip_list(ViewerState& state, Document& doc) {
  rig::Playback& p = doc.playback;
  const rig::ClipSet& clips = doc.character->clips();
  if (clips.empty()) {
    ImGui::TextDisabled("No animations (rest pose).");
    return;
  }
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputTextWithHint("##clip_filter", "filter clips", &state.clip_filter);
  if (ImGui::BeginListBox("##clips", ImVec2(-FLT_MIN, -FLT_MIN))) {
    for (size_t c = 0; c < clips.size() && c < doc.clip_list_rows.size(); ++c) {
      if (doc.clip_list_rows[c].empty()) continue;  // withdrawn by an undo
      const bool current = static_cast<int>(c) == p.clip();
      if (!current && !contains_ignoring_case(doc.clip_list_rows[c], state.clip_filter)) continue;
      if (ImGui::Selectable(doc.clip_list_rows[c].c_str(), current)) p.select_clip(int(c));
      if (current && state.scroll_to_clip) {
        ImGui::SetScrollHereY(0.5f);
        state.scroll_to_clip = false;
      }
    }
    ImGui::EndListBox();
  }
}

void draw_skeleton_panel(ViewerState& state, Document& doc) {
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
  // Wrapped: a long joint name or the hint would otherwise run past the outliner's edge.
  if (state.selected_node >= 0) {
    const std::string& name = doc.node_labels[static_cast<size_t>(state.selected_node)];
    if (ImGui::SmallButton("Clear")) state.selected_node = -1;
    ImGui::SameLine();
    ImGui::TextWrapped("Selected: %s", name.c_str());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Click a joint (bones on) or a tree entry to select it.");
    ImGui::PopStyleColor();
  }
  if (state.reveal_selection && state.selected_node >= 0) doc.reveal_joint(state.selected_node);
  const std::span<const rig::SkinningMethod> shown = methods_shown(state);
  const bool mix = std::any_of(shown.begin(), shown.end(), [](rig::SkinningMethod m) {
    return rig::method_info(m).write_joint_amounts != nullptr;
  });
  if (mix) ImGui::TextWrapped("Mix: ticked joints and their subtrees use DQS, the rest LBS.");
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputTextWithHint("##joint_search", "search joints", &state.joint_search);
  // Deep hierarchies (a Mixamo finger is 12 levels down) outgrow any outliner width: the tree
  // indents less than ImGui's default and scrolls sideways rather than cutting names off.
  ImGui::BeginChild("##joint_tree", ImVec2(0.0f, 0.0f), true, ImGuiWindowFlags_HorizontalScrollbar);
  if (state.joint_search.empty()) {
    ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, kTreeIndent);
    for (int root : doc.joint_roots[static_cast<size_t>(state.tree_skin)])
      draw_joint_tree(state, doc, state.tree_skin, root, mix);
    ImGui::PopStyleVar();
  } else {  // searching: the matching joints as a flat list
    const rig::Skin& s = model.skins[static_cast<size_t>(state.tree_skin)];
    for (size_t j = 0; j < s.joints.size(); ++j) {
      const int node = s.joints[j];
      const std::string& label = doc.node_labels[static_cast<size_t>(node)];
      if (!contains_ignoring_case(label, state.joint_search)) continue;
      if (ImGui::Selectable(label.c_str(), node == state.selected_node)) {
        state.selected_node = node;
        doc.reveal_joint(node);
      }
    }
  }
  ImGui::EndChild();
  state.reveal_selection = false;
}

}  // namespace rigview
