// Local → world job: world(node) = world(parent) · local(node), parents first.
//
// It can recompute one subtree alone (`root`): after a constraint changes the local transforms
// of a chain, only the chain and its descendants need new world matrices. That works because
// Model::node_order is depth first, so every subtree is one contiguous range of it
// (NodeHierarchy gives the ranges).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

// Where each node sits in Model::node_order, and where its subtree ends there. Built once per
// model (allocates).
struct NodeHierarchy {
  std::vector<uint32_t> position;     // per node: its index in node_order
  std::vector<uint32_t> subtree_end;  // per node: one past the last node_order index of its subtree

  static NodeHierarchy build(const Model& model);
};

struct LocalToWorldJob {
  const Model* model = nullptr;             // parents, order, per-node shear
  const NodeHierarchy* hierarchy = nullptr;  // needed when root >= 0
  std::span<const Transform> local;         // one per node
  std::span<glm::mat4> world;               // one per node
  // -1: every node. Otherwise only `root` and its descendants are recomputed; the world matrix
  // of root's parent must already be current.
  int root = -1;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
