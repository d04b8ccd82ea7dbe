// The Joint tab: the selected joint's hand rotation (forward kinematics over the clip pose, as
// --pose-joint: q_clip · q_X(x) · q_Y(y) · q_Z(z) about the joint's own local axes) typed as
// Euler angles, with the quaternion beside them and Reset; then the joint read as numbers: its
// local TRS as posed, its world matrix, and per skin its inverse bind and skinning matrices.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "viewer/camera_controls.h"
#include "viewer/panels.h"

namespace rigview {

namespace {

void matrix_rows(const char* label, const glm::mat4& m) {
  ImGui::TextUnformatted(label);
  for (int r = 0; r < 4; ++r)
    ImGui::Text("  %9.4f %9.4f %9.4f %9.4f", double(m[0][r]), double(m[1][r]), double(m[2][r]),
                double(m[3][r]));
}

// Joints whose bind (IBM⁻¹) and rest differ by more than this share of the model's size, or
// these degrees.
constexpr float kGhostDistanceShare = 1e-4f;
constexpr float kGhostAngleDeg = 0.5f;

void draw_bind_ghost_table(ViewerState& state, Document& doc) {
  ImGui::Checkbox("Bind-pose ghost", &state.show_bind_ghost);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Orange: the skeleton the inverse bind matrices imply (IBM⁻¹).\n"
        "White: the node rest pose.");
  if (!state.show_bind_ghost || !doc.skin) return;
  state.bind_ghost.refresh(*doc.model, *doc.skin);
  const float size = std::max(doc.bounds().diagonal(), 1e-6f);
  int differ = 0;
  for (const BindPoseJoint& j : state.bind_ghost.joints)
    differ += bind_differs(j, kGhostDistanceShare * size, kGhostAngleDeg) ? 1 : 0;
  if (differ == 0) {
    ImGui::TextWrapped("Bind pose = rest pose for all %zu joints.", state.bind_ghost.joints.size());
    return;
  }
  ImGui::TextWrapped("%d of %zu joints: bind pose differs from the rest pose", differ,
                     state.bind_ghost.joints.size());
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                     ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  const float height =
      std::min(float(differ) + 1.5f, 10.0f) * ImGui::GetTextLineHeightWithSpacing();
  if (!ImGui::BeginTable("##bind_ghost", 3, kFlags, ImVec2(0.0f, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("joint", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("apart %", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("turned °", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  for (const BindPoseJoint& j : state.bind_ghost.joints) {
    if (!bind_differs(j, kGhostDistanceShare * size, kGhostAngleDeg)) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable(doc.node_labels[size_t(j.node)].c_str(), state.selected_node == j.node,
                          ImGuiSelectableFlags_SpanAllColumns)) {
      state.selected_node = j.node;
      state.reveal_selection = true;
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", double(100.0f * j.distance / size));
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", double(j.angle_deg));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_bind_ghost_overlay(const ViewerState& state) {
  if (!state.show_bind_ghost || state.layout.tab != InspectorTab::Joint || state.compare ||
      state.crowd_count > 0 || state.bind_ghost.joints.empty())
    return;
  const ImGuiIO& io = ImGui::GetIO();
  const SingleView single = single_view(state, io.DisplaySize.x, io.DisplaySize.y);
  if (single.empty()) return;
  const Rect& v = single.view;
  const rig::render::ScreenRect& rect = single.rect;
  const rig::render::Camera& camera = single.camera;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(v.x, v.y), ImVec2(v.right(), v.bottom()));
  const std::vector<BindPoseJoint>& joints = state.bind_ghost.joints;
  // The skin's joints are listed in order, so joint k of skin s is at (first of s) + k.
  size_t first = 0;
  for (size_t i = 0; i < joints.size(); ++i) {
    if (i > 0 && joints[i].skin != joints[i - 1].skin) first = i;
    const BindPoseJoint& j = joints[i];
    const size_t p = first + size_t(j.parent_joint);
    for (const bool ghost : {false, true}) {
      const glm::vec3 a = ghost ? j.bind : j.rest;
      glm::vec2 pa, pb;
      if (!rig::render::world_to_screen(camera, rect, a, pa)) continue;
      const ImU32 colour = ghost ? IM_COL32(255, 150, 40, 230) : IM_COL32(235, 235, 235, 180);
      draw->AddCircleFilled(ImVec2(pa.x, pa.y), ghost ? 3.0f : 2.5f, colour);
      if (j.parent_joint < 0 || p >= joints.size()) continue;
      const glm::vec3 b = ghost ? joints[p].bind : joints[p].rest;
      if (rig::render::world_to_screen(camera, rect, b, pb))
        draw->AddLine(ImVec2(pb.x, pb.y), ImVec2(pa.x, pa.y), colour, ghost ? 2.0f : 1.5f);
    }
  }
  draw->PopClipRect();
}

void draw_joint_tab(ViewerState& state, Document& doc) {
  const int node = state.selected_node;
  const rig::Model& model = doc.character->model();
  if (node < 0 || size_t(node) >= model.nodes.size()) {
    ImGui::TextWrapped("Select a joint in the skeleton tree or click one in the view.");
    return;
  }
  ImGui::Text("Joint: %s", doc.node_labels[size_t(node)].c_str());
  if (doc.posing) {
    Posing& posing = *doc.posing;
    if (state.joint_euler_node != node) {
      rotation_to_euler_xyz(posing.joint_rotation(node), state.joint_euler_deg);
      state.joint_euler_node = node;
    }
    ImGui::TextWrapped("Hand rotation over the clip pose (local axes, degrees):");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::DragFloat3("##euler", state.joint_euler_deg, 0.5f, -360.0f, 360.0f, "%.1f"))
      posing.set_joint_rotation(node, euler_xyz_rotation(state.joint_euler_deg));
    const glm::quat q = posing.joint_rotation(node);
    ImGui::Text("q = (%.4f, %.4f, %.4f, %.4f)  x y z w", double(q.x), double(q.y), double(q.z),
                double(q.w));
    if (ImGui::Button("Reset joint")) {
      posing.reset_joint(node);
      state.joint_euler_deg[0] = state.joint_euler_deg[1] = state.joint_euler_deg[2] = 0.0f;
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(posing.joint_rotation_count() == 0);
    if (ImGui::Button("Reset all")) {
      posing.reset_all_joints();
      state.joint_euler_deg[0] = state.joint_euler_deg[1] = state.joint_euler_deg[2] = 0.0f;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text("%zu joint(s) turned", posing.joint_rotation_count());
    draw_sweep_section(state, doc);
  }
  draw_bind_ghost_table(state, doc);
  ImGui::Separator();
  const rig::Pose& pose = doc.character->pose();
  if (size_t(node) < pose.local.size()) {
    const rig::Transform& t = pose.local[size_t(node)];
    ImGui::Text("Local T %.4f %.4f %.4f", double(t.translation.x), double(t.translation.y),
                double(t.translation.z));
    ImGui::Text("Local R %.4f %.4f %.4f %.4f", double(t.rotation.x), double(t.rotation.y),
                double(t.rotation.z), double(t.rotation.w));
    ImGui::Text("Local S %.4f %.4f %.4f", double(t.scale.x), double(t.scale.y), double(t.scale.z));
  }
  matrix_rows("World matrix", doc.character->world()[size_t(node)]);
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    for (size_t j = 0; j < joints.size(); ++j) {
      if (joints[j] != node) continue;
      ImGui::Text("Skin %zu (%s), joint %zu", s, model.skins[s].name.c_str(), j);
      if (doc.skin && s < doc.skin->skin_count())
        matrix_rows("Inverse bind", doc.skin->inverse_bind(s)[j]);
      const std::span<const glm::mat4> skinning = doc.character->skinning_matrices(int(s));
      if (j < skinning.size()) matrix_rows("Skinning (world · inverse bind)", skinning[j]);
    }
  }
}

}  // namespace rigview
