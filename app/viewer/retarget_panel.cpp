// The Bone map window: for a file whose clips were retargeted onto the character, both
// skeletons' joints side by side, pair by pair (human part, source joint, target joint), the
// joints left unmapped on each side highlighted, each clip's measures, and remapping by picking:
// select a pair, pick the target joint in the view (or the skeleton tree), press Remap. Also the
// source ghost over the view: the source skeleton playing its clip beside the character, and the
// unmapped target joints circled.
#include <imgui.h>

#include <algorithm>

#include "viewer/camera_controls.h"
#include "viewer/panels.h"
#include "viewer/source_ghost.h"

namespace rigview {

namespace {

const ImVec4 kUnmapped(1.0f, 0.45f, 0.4f, 1.0f);

bool retargeted_file(const Document& doc, int f) {
  return f >= 0 && size_t(f) < doc.clip_files.size() && doc.clip_files[size_t(f)].file.retargeted &&
         !doc.clip_files[size_t(f)].withdrawn;
}

// The target joint a node of the character is, when it is one of a skin's joints.
bool is_skin_joint(const rig::Model& model, int node) {
  for (const rig::Skin& skin : model.skins)
    if (std::find(skin.joints.begin(), skin.joints.end(), node) != skin.joints.end()) return true;
  return false;
}

// Served by the viewer (remap_bone_pair), so the remap is one undoable edit.
void remap(ViewerState& state, int source_node, int target_node) {
  ViewerRequests& r = state.requests;
  r.remap_file = state.bone_map.file;
  r.remap_source = source_node;
  r.remap_target = target_node;
  state.bone_map.pending_source = -1;
}

}  // namespace

void draw_bone_map_window(ViewerState& state, Document& doc) {
  ViewerState::BoneMapView& view = state.bone_map;
  if (!view.open || !doc.model) return;
  ImGui::SetNextWindowSize(ImVec2(520.0f, 560.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Bone map", &view.open)) {
    ImGui::End();
    return;
  }
  if (!retargeted_file(doc, view.file)) {
    view.file = -1;
    for (size_t f = 0; f < doc.clip_files.size() && view.file < 0; ++f)
      if (retargeted_file(doc, int(f))) view.file = int(f);
  }
  if (view.file < 0) {
    ImGui::TextWrapped(
        "No retargeted clips. Add clips from a file whose skeleton differs (File panel: Add clips "
        "from file, or Shift+drop a .gltf / .glb).");
    ImGui::End();
    return;
  }
  if (ImGui::BeginCombo("File", doc.clip_files[size_t(view.file)].file.stem.c_str())) {
    for (size_t f = 0; f < doc.clip_files.size(); ++f)
      if (retargeted_file(doc, int(f)) &&
          ImGui::Selectable(doc.clip_files[f].file.stem.c_str(), int(f) == view.file)) {
        view.file = int(f);
        view.pair = view.pending_source = -1;
      }
    ImGui::EndCombo();
  }
  const Document::AddedClipFile& added = doc.clip_files[size_t(view.file)];
  const ClipFile& file = added.file;
  const rig::Model& source = *file.source;
  const rig::Model& target = *doc.model;
  ImGui::Checkbox("Source ghost beside the character", &view.ghost);
  ImGui::Text("Hip heights: source %.3f, target %.3f (ratio %.4f)", double(file.source_hip_height),
              double(file.target_hip_height),
              double(file.source_hip_height > 0.0f ? file.target_hip_height / file.source_hip_height
                                                   : 0.0f));
  for (const FileClip& clip : file.clips)
    ImGui::BulletText("%s: direction error max %.3f deg, mean %.3f; foot slide %.3f %%",
                      clip.name.c_str(), double(clip.measures.max_direction_error_deg),
                      double(clip.measures.mean_direction_error_deg),
                      double(clip.measures.max_foot_slide) * 100.0);
  ImGui::Separator();
  ImGui::TextWrapped(
      "Select a pair, pick the target joint in the view or the skeleton tree, then "
      "Remap. Unmapped joints are red.");
  const int picked = state.selected_node;
  const bool picked_joint = picked >= 0 && is_skin_joint(target, picked);
  const char* picked_name = picked_joint ? target.nodes[size_t(picked)].name.c_str() : "-";
  if (view.pair >= 0 && size_t(view.pair) < file.map.pairs.size()) {
    const rig::BonePair& pair = file.map.pairs[size_t(view.pair)];
    ImGui::BeginDisabled(!picked_joint);
    if (ImGui::Button("Remap to the picked joint")) remap(state, pair.source, picked);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text("(%s)", picked_name);
    ImGui::SameLine();
    if (ImGui::Button("Unmap")) {
      remap(state, pair.source, -1);
      view.pair = -1;
    }
  }
  if (view.pending_source >= 0) {
    ImGui::BeginDisabled(!picked_joint);
    if (ImGui::Button("Pair with the picked joint")) remap(state, view.pending_source, picked);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text("%s -> %s", source.nodes[size_t(view.pending_source)].name.c_str(), picked_name);
  }
  if (!view.message.empty()) ImGui::TextWrapped("%s", view.message.c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (ImGui::BeginTable("##pairs", 3, flags, ImVec2(0.0f, 220.0f))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Part");
    ImGui::TableSetupColumn("Source joint");
    ImGui::TableSetupColumn("Target joint");
    ImGui::TableHeadersRow();
    for (size_t p = 0; p < file.map.pairs.size(); ++p) {
      const rig::BonePair& pair = file.map.pairs[p];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(int(p));
      const char* part =
          pair.role == rig::HumanBone::Count ? "(by name)" : rig::human_bone_name(pair.role);
      if (ImGui::Selectable(part, view.pair == int(p), ImGuiSelectableFlags_SpanAllColumns)) {
        view.pair = int(p);
        view.pending_source = -1;
        state.selected_node = pair.target;
        state.reveal_selection = true;
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(source.nodes[size_t(pair.source)].name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(target.nodes[size_t(pair.target)].name.c_str());
    }
    ImGui::EndTable();
  }
  if (ImGui::CollapsingHeader("Unmapped source joints", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const std::string& name : file.unmapped_source) {
      ImGui::PushStyleColor(ImGuiCol_Text, kUnmapped);
      const int node = [&] {
        for (size_t n = 0; n < source.nodes.size(); ++n)
          if (source.nodes[n].name == name) return int(n);
        return -1;
      }();
      if (ImGui::Selectable(name.c_str(), node >= 0 && node == view.pending_source)) {
        view.pending_source = node;
        view.pair = -1;
      }
      ImGui::PopStyleColor();
    }
  }
  if (ImGui::CollapsingHeader("Unmapped target joints", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const std::string& name : file.unmapped_target)
      ImGui::TextColored(kUnmapped, "%s", name.c_str());
  }
  ImGui::End();
}

void draw_source_ghost_overlay(const ViewerState& state, const Document& doc) {
  if (!state.bone_map.ghost || state.compare || state.crowd_count > 0 || !state.playback ||
      doc.clip_files.empty())
    return;
  size_t count = 0;
  const glm::vec3* points =
      source_ghost_frame(doc, state.playback->clip(), state.playback->time(), count);
  const bool circles = state.bone_map.open && retargeted_file(doc, state.bone_map.file);
  if (!points && !circles) return;
  const ImGuiIO& io = ImGui::GetIO();
  const SingleView single = single_view(state, io.DisplaySize.x, io.DisplaySize.y);
  if (single.empty()) return;
  const Rect& v = single.view;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(v.x, v.y), ImVec2(v.right(), v.bottom()));
  const ImU32 ghost = IM_COL32(90, 200, 255, 220);
  for (size_t i = 0; points && i + 1 < count; i += 2) {
    glm::vec2 a, b;
    if (rig::render::world_to_screen(single.camera, single.rect, points[i], a) &&
        rig::render::world_to_screen(single.camera, single.rect, points[i + 1], b)) {
      draw->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), ghost, 2.0f);
      draw->AddCircleFilled(ImVec2(b.x, b.y), 2.5f, ghost);
    }
  }
  // With the window open: the character's joints that no pair drives, circled in red.
  if (circles && doc.character) {
    const ClipFile& file = doc.clip_files[size_t(state.bone_map.file)].file;
    for (const rig::Skin& skin : doc.model->skins)
      for (int joint : skin.joints) {
        const bool mapped = std::any_of(file.map.pairs.begin(), file.map.pairs.end(),
                                        [&](const rig::BonePair& p) { return p.target == joint; });
        glm::vec2 s;
        if (!mapped &&
            rig::render::world_to_screen(single.camera, single.rect,
                                         glm::vec3(doc.character->world()[size_t(joint)][3]), s))
          draw->AddCircle(ImVec2(s.x, s.y), 6.0f, IM_COL32(255, 110, 100, 230), 12, 2.0f);
      }
  }
  draw->PopClipRect();
}

}  // namespace rigview
