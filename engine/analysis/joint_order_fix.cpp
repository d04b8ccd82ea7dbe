#include "analysis/joint_order_fix.h"

#include <vector>

namespace rig {

bool apply_joint_order(Model& model, int skin_index, std::span<const int> order,
                       std::string& error) {
  if (skin_index < 0 || size_t(skin_index) >= model.skins.size()) {
    error = "no skin " + std::to_string(skin_index);
    return false;
  }
  Skin& skin = model.skins[size_t(skin_index)];
  const size_t n = skin.joints.size();
  if (order.size() != n) {
    error = "the joint order has " + std::to_string(order.size()) + " entries, the skin " +
            std::to_string(n) + " joints";
    return false;
  }
  std::vector<uint8_t> seen(n, 0);
  for (int k : order) {
    if (k < 0 || size_t(k) >= n || seen[size_t(k)]) {
      error = "the joint order is not a permutation of the skin's joints";
      return false;
    }
    seen[size_t(k)] = 1;
  }
  const std::vector<int> listed = skin.joints;
  for (size_t a = 0; a < n; ++a) skin.joints[a] = listed[size_t(order[a])];
  std::vector<int> node_to_joint(model.nodes.size(), -1);
  for (size_t j = 0; j < n; ++j) node_to_joint[size_t(skin.joints[j])] = int(j);
  skin.joint_parent.assign(n, -1);
  for (size_t j = 0; j < n; ++j) {
    for (int p = model.nodes[size_t(skin.joints[j])].parent; p >= 0;
         p = model.nodes[size_t(p)].parent) {
      if (node_to_joint[size_t(p)] >= 0) {
        skin.joint_parent[j] = node_to_joint[size_t(p)];
        break;
      }
    }
  }
  skin.order.clear();
  for (int node : model.node_order) {
    if (node_to_joint[size_t(node)] >= 0) skin.order.push_back(node_to_joint[size_t(node)]);
  }
  return true;
}

}  // namespace rig
