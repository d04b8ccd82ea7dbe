// The Rig health and Teaching aids panels (viewer/panels.h). Everything they show is made with
// the diagnosis (viewer/rig_health.h); drawing reads it and formats nothing on the heap.
#include <imgui.h>

#include <iterator>

#include "viewer/panels.h"

namespace rigview {

namespace {

ImU32 severity_color(rig::RigSeverity severity) {
  switch (severity) {
    case rig::RigSeverity::Error:
      return IM_COL32(225, 55, 45, 255);  // red
    case rig::RigSeverity::Warning:
      return IM_COL32(245, 170, 30, 255);  // amber
    case rig::RigSeverity::Info:
      break;
  }
  return IM_COL32(60, 185, 80, 255);  // green: a note, nothing wrong
}

// A traffic light: a filled circle one text line high at the cursor; the next item follows on
// the same line.
void traffic_light(rig::RigSeverity severity) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + 0.5f * h, p.y + 0.5f * h), 0.42f * h,
                                              severity_color(severity));
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
}

struct TeachingAid {
  const char* label;
  const char* what;
};
// In rig::kSimulatedBugs' order.
constexpr TeachingAid kTeachingAids[] = {
    {"No inverse bind matrix (no-ibm)",
     "The skinning matrix is the joint's world matrix alone: every part is carried away by its "
     "joint's bind position. The rig doctor says IBM_MISSING."},
    {"Translation-only IBM (translation-only-ibm)",
     "An inverse bind matrix made by hand that only negates the joint's bind translation and "
     "forgets its rotation: parts turn about their joints. The rig doctor says IBM_SUSPECT. On "
     "rigs whose joint frames are all parallel (the bundled mannequin) it changes nothing."},
    {"Reversed multiply (reversed-multiply)",
     "IBM x world instead of world x IBM: right in the rest pose, torn apart once the character "
     "moves. The rig doctor says JOINT_ORDER_SUSPECT."},
    {"Joint indices off by one (shifted-joints)",
     "Every vertex follows the next joint of the skin. The rig doctor says JOINT_ORDER_SUSPECT "
     "and names the shift."},
};
static_assert(std::size(kTeachingAids) == std::size(rig::kSimulatedBugs));

}  // namespace

void select_finding(ViewerState& state, Document& doc, int finding) {
  if (finding < 0 || size_t(finding) >= doc.health().rows.size()) return;
  const RigHealthRow& row = doc.health().rows[size_t(finding)];
  // The most involved joint becomes the selection (the skeleton tree opens to it; the others
  // get the renderer's second highlight while it stays selected), the camera frames them all,
  // and the affected-vertices view shows this finding's vertices.
  if (!row.joint_nodes.empty()) {
    state.selected_node = row.joint_nodes.front();
    state.reveal_selection = true;
    state.requests.frame_finding = finding;
  }
  show_finding(doc.health(), finding);
}

void draw_rig_health_panel(ViewerState& state, Document& doc) {
  RigHealth& health = doc.health();
  const bool open = ImGui::CollapsingHeader("Rig health", ImGuiTreeNodeFlags_DefaultOpen);
  {
    // The summary light and counts at the header's right end, visible even when it is closed.
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 centre(max.x - 0.9f * h, 0.5f * (min.y + max.y));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddCircleFilled(centre, 0.42f * h, severity_color(health.worst));
    const char* summary = health.summary.c_str();
    const ImVec2 size = ImGui::CalcTextSize(summary);
    draw->AddText(ImVec2(centre.x - 0.9f * h - size.x, centre.y - 0.5f * size.y),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), summary);
  }
  if (!open) return;
  if (doc.model->skins.empty()) {
    ImGui::TextDisabled("This model has no skin: nothing to examine.");
    return;
  }
  if (doc.simulated_bug >= 0)
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "Simulating %s (Teaching aids)",
                       rig::simulated_bug_name(rig::kSimulatedBugs[size_t(doc.simulated_bug)]));
  bool show = state.surface_view == SurfaceView::RigFindings;
  if (ImGui::Checkbox("Show affected vertices", &show))
    state.surface_view = show ? SurfaceView::RigFindings : SurfaceView::Off;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Colour each vertex by how strongly the findings affect it (grey: not at "
        "all). Click a finding to show its vertices alone.");
  if (health.field_finding >= 0) {
    ImGui::SameLine();
    if (ImGui::SmallButton("All findings")) show_finding(health, -1);
  }
  if (health.rows.empty()) {
    traffic_light(rig::RigSeverity::Info);
    ImGui::TextUnformatted("No findings: the skin looks healthy.");
    return;
  }
  for (size_t i = 0; i < health.rows.size(); ++i) {
    const RigHealthRow& row = health.rows[i];
    ImGui::PushID(static_cast<int>(i));
    traffic_light(row.severity);
    if (ImGui::Selectable(row.headline.c_str(), health.field_finding == static_cast<int>(i)))
      select_finding(state, doc, static_cast<int>(i));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Click: select its joints, frame them, show its vertices");
    ImGui::Indent();
    ImGui::TextWrapped("%s", row.message.c_str());
    if (!row.joints_text.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", row.joints_text.c_str());
      ImGui::PopStyleColor();
    }
    // The IBM findings' fixes, as undoable edits of the skin layer (viewer/skin_editing.h).
    if (i < health.diagnosis.findings.size()) {
      const rig::RigFinding& f = health.diagnosis.findings[i];
      if (f.warning.code == "IBM_MISSING" || f.warning.code == "IBM_SUSPECT") {
        if (ImGui::SmallButton("Repair")) state.requests.repair_ibm = true;
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip(
              "recompute the flagged skins' inverse bind matrices from the rest "
              "pose (undo: Ctrl+Z)");
        if (f.ibm_reading == rig::IbmReading::NegatedTranslation ||
            f.ibm_reading == rig::IbmReading::TranslationOnly) {
          ImGui::SameLine();
          if (ImGui::SmallButton("Recover bind pose")) state.requests.recover_ibm = true;
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "rebuild the inverse bind matrices from what the broken ones keep "
                "of the bind pose (right where the rest pose is posed)");
        }
      }
    }
    ImGui::Unindent();
    ImGui::PopID();
  }
}

void draw_teaching_aids_panel(ViewerState& state, const Document& doc) {
  if (!ImGui::CollapsingHeader("Teaching aids: classic rigging bugs")) return;
  if (doc.model->skins.empty()) {
    ImGui::TextDisabled("Needs a skinned model.");
    return;
  }
  ImGui::TextWrapped(
      "Each applies a classic bug's bad code path to this file, on a copy: watch the character "
      "explode, read the Rig health panel, choose None to restore the file exactly.");
  int choice = doc.simulated_bug;
  state.teaching_choices_y = ImGui::GetCursorScreenPos().y - ImGui::GetWindowPos().y;
  bool changed = ImGui::RadioButton("None (the file as it is)", &choice, -1);
  for (size_t i = 0; i < std::size(kTeachingAids); ++i) {
    changed |= ImGui::RadioButton(kTeachingAids[i].label, &choice, static_cast<int>(i));
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
      ImGui::TextUnformatted(kTeachingAids[i].what);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (changed && choice != doc.simulated_bug) state.requests.simulate_bug = choice;
  if (doc.simulated_bug >= 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", kTeachingAids[size_t(doc.simulated_bug)].what);
    ImGui::PopStyleColor();
  }
}

}  // namespace rigview
