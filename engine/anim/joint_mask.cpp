#include "anim/joint_mask.h"

namespace rig {

int find_node(const Model& model, std::string_view name) {
  for (size_t i = 0; i < model.nodes.size(); ++i)
    if (model.nodes[i].name == name) return static_cast<int>(i);
  return -1;
}

bool is_in_subtree(const Model& model, int node, int ancestor) {
  for (int n = node; n >= 0; n = model.nodes[size_t(n)].parent)
    if (n == ancestor) return true;
  return false;
}

void set_subtree_weight(const Model& model, int root, float weight, std::span<float> mask) {
  if (root < 0 || size_t(root) >= model.nodes.size() || mask.size() != model.nodes.size()) return;
  // Depth first without recursion; the mask itself is the only output, so a small explicit
  // stack of (node) is enough.
  std::vector<int> stack{root};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    mask[size_t(n)] = weight;
    for (int c : model.nodes[size_t(n)].children) stack.push_back(c);
  }
}

std::vector<float> subtree_mask(const Model& model, std::span<const int> roots, float weight) {
  std::vector<float> mask(model.nodes.size(), 0.0f);
  for (int r : roots) set_subtree_weight(model, r, weight, mask);
  return mask;
}

std::vector<float> subtree_mask(const Model& model, std::initializer_list<std::string_view> roots,
                                float weight) {
  std::vector<float> mask(model.nodes.size(), 0.0f);
  for (std::string_view name : roots)
    set_subtree_weight(model, find_node(model, name), weight, mask);
  return mask;
}

}  // namespace rig
