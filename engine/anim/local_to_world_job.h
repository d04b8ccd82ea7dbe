// Local → world job: world(node) = world(parent) · local(node), parents first.
//
// It can recompute one subtree alone (`root`): after a constraint changes the local transforms
// of a chain, only the chain and its descendants need new world matrices. NodeHierarchy keeps
// the nodes in depth-first order, where every subtree is one contiguous range.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

// The nodes in depth-first order (roots in node index order, children in file order), with
// each node's place in it and where its subtree ends. Built once per model (allocates).
struct NodeHierarchy {
  std::vector<int> order;             // every node, depth first
  std::vector<uint32_t> position;     // per node: its index in `order`
  std::vector<uint32_t> subtree_end;  // per node: one past the last `order` index of its subtree
  // Every node by depth: the roots, then their children, then theirs... Parents come first as in
  // any order the job accepts, and consecutive nodes rarely depend on each other, so the
  // parent-to-child products of a full update overlap instead of waiting one for the next.
  std::vector<int> by_depth;
  // Per by_depth entry: its parent, -1 at roots, kShear where the node has a shear (the job reads
  // the Node then). The full update's loop reads these contiguous ints, not the Nodes.
  std::vector<int> by_depth_parent;
  static constexpr int kShear = -2;

  static NodeHierarchy build(const Model& model);
};

struct LocalToWorldJob {
  const Model* model = nullptr;  // parents, order, per-node shear
  // Needed when root >= 0; with root -1, optional: its by_depth order is then used (faster).
  const NodeHierarchy* hierarchy = nullptr;
  std::span<const Transform> local;  // one per node
  std::span<glm::mat4> world;        // one per node
  // -1: every node. Otherwise only `root` and its descendants are recomputed; the world matrix
  // of root's parent must already be current.
  int root = -1;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
