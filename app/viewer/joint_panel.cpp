// The Joint tab: the selected joint's hand rotation (forward kinematics over the clip pose, as
// --pose-joint: q_clip · q_X(x) · q_Y(y) · q_Z(z) about the joint's own local axes) typed as
// Euler angles, with the quaternion beside them and Reset; then the joint read as numbers: its
// local TRS as posed, its world matrix, and per skin its inverse bind and skinning matrices.
#include <imgui.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "viewer/panels.h"

namespace rigview {

namespace {

void matrix_rows(const char* label, const glm::mat4& m) {
  ImGui::TextUnformatted(label);
  for (int r = 0; r < 4; ++r)
    ImGui::Text("  %9.4f %9.4f %9.4f %9.4f", double(m[0][r]), double(m[1][r]), double(m[2][r]),
                double(m[3][r]));
}

}  // namespace

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
  }
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
