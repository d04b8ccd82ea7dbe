#include "anim/local_to_world_job.h"

#include <algorithm>

namespace rig {

NodeHierarchy NodeHierarchy::build(const Model& model) {
  NodeHierarchy h;
  const size_t n = model.nodes.size();
  h.position.assign(n, 0);
  h.subtree_end.assign(n, 0);
  for (size_t i = 0; i < model.node_order.size(); ++i)
    h.position[size_t(model.node_order[i])] = static_cast<uint32_t>(i);
  // Depth-first order: a subtree ends where the next node outside it starts. Walking backwards,
  // each node's end is the largest end among itself and its children.
  for (size_t i = model.node_order.size(); i-- > 0;) {
    const int node = model.node_order[i];
    uint32_t end = static_cast<uint32_t>(i + 1);
    for (int child : model.nodes[size_t(node)].children)
      end = std::max(end, h.subtree_end[size_t(child)]);
    h.subtree_end[size_t(node)] = end;
  }
  return h;
}

bool LocalToWorldJob::validate() const {
  if (!model || local.size() != model->nodes.size() || world.size() != model->nodes.size())
    return false;
  if (root < 0) return true;
  return hierarchy && size_t(root) < model->nodes.size() &&
         hierarchy->position.size() == model->nodes.size();
}

bool LocalToWorldJob::run() const {
  if (!validate()) return false;
  const Model& m = *model;
  size_t first = 0, last = m.node_order.size();
  if (root >= 0) {
    first = hierarchy->position[size_t(root)];
    last = hierarchy->subtree_end[size_t(root)];
  }
  for (size_t k = first; k < last; ++k) {
    const int i = m.node_order[k];
    const Node& node = m.nodes[size_t(i)];
    glm::mat4 l = trs_matrix(local[size_t(i)]);
    if (node.has_shear) l = l * node.shear;
    world[size_t(i)] = node.parent < 0 ? l : world[size_t(node.parent)] * l;
  }
  return true;
}

}  // namespace rig
