#include "anim/skeleton.h"

#include <algorithm>

namespace rig {

NodeHierarchy NodeHierarchy::build(const Model& model) {
  NodeHierarchy h;
  const size_t n = model.nodes.size();
  h.order.reserve(n);
  h.position.assign(n, 0);
  h.subtree_end.assign(n, 0);
  std::vector<int> stack;
  for (size_t root = 0; root < n; ++root) {
    if (model.nodes[root].parent >= 0) continue;
    stack.push_back(static_cast<int>(root));
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      h.position[size_t(node)] = static_cast<uint32_t>(h.order.size());
      h.order.push_back(node);
      const std::vector<int>& children = model.nodes[size_t(node)].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
    }
  }
  // A subtree ends where its last descendant does: walking backwards, each node's end is the
  // largest of its own next position and its children's ends.
  for (size_t i = h.order.size(); i-- > 0;) {
    const int node = h.order[i];
    uint32_t end = static_cast<uint32_t>(i + 1);
    for (int child : model.nodes[size_t(node)].children)
      end = std::max(end, h.subtree_end[size_t(child)]);
    h.subtree_end[size_t(node)] = end;
  }
  // Breadth first from the roots (in the order above).
  h.by_depth.reserve(n);
  for (const int node : h.order)
    if (model.nodes[size_t(node)].parent < 0) h.by_depth.push_back(node);
  for (size_t i = 0; i < h.by_depth.size(); ++i)
    for (int child : model.nodes[size_t(h.by_depth[i])].children) h.by_depth.push_back(child);
  h.by_depth_parent.reserve(h.by_depth.size());
  for (const int node : h.by_depth) {
    const Node& n = model.nodes[size_t(node)];
    h.by_depth_parent.push_back(n.has_shear ? kShear : n.parent);
  }
  return h;
}

Skeleton Skeleton::build(const Model& model) {
  Skeleton s;
  const size_t n = model.nodes.size();
  s.parent.reserve(n);
  s.rest.reserve(n);
  s.name.reserve(n);
  s.has_shear.reserve(n);
  s.shear.reserve(n);
  for (const Node& node : model.nodes) {
    s.parent.push_back(node.parent);
    s.rest.push_back(node.rest);
    s.name.push_back(node.name);
    s.has_shear.push_back(node.has_shear ? 1 : 0);
    s.shear.push_back(node.shear);
  }
  s.parents_first = model.node_order;
  s.hierarchy = NodeHierarchy::build(model);
  return s;
}

}  // namespace rig
