#include "render/weight_view.h"

namespace rig::render {

bool weight_view_from_name(const rig::Model& model, const std::string& name, WeightView& view,
                           int& joint_node, std::string& error) {
  view = WeightView::Off;
  joint_node = -1;
  if (name.empty()) return true;
  if (name == kInfluencesWeightName) {
    view = WeightView::InfluenceCount;
    return true;
  }
  const SkinJointNodes skin_joints = skin_joint_nodes(model);
  auto is_joint = [&](size_t node) { return skin_joints.slot_of_node[node] >= 0; };
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    if (is_joint(n) && model.nodes[n].name == name) {
      view = WeightView::SelectedJoint;
      joint_node = static_cast<int>(n);
      return true;
    }
  }
  // The first few joint names, so a typo is easy to fix; unnamed joints as "node N".
  constexpr int kListed = 12;
  std::string listed;
  int joints = 0;
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    if (!is_joint(n)) continue;
    if (joints < kListed) {
      if (joints > 0) listed += ", ";
      listed += model.nodes[n].name.empty() ? "node " + std::to_string(n) : model.nodes[n].name;
    }
    ++joints;
  }
  error = "no joint named '" + name + "' ";
  if (joints == 0)
    error += "(the model has no skin)";
  else if (joints > kListed)
    error += "(joints: " + listed + ", ... " + std::to_string(joints) + " in all)";
  else
    error += "(joints: " + listed + ")";
  return false;
}

}  // namespace rig::render
