// The skeleton the pose jobs walk: per node its parent, rest transform, name and shear, and the
// orders a job needs (parents first, depth first with subtree ranges, by depth). Built once per
// model, so the jobs read these flat arrays instead of the whole Model (and a job can run on a
// skeleton that no file gave, once there are such).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "model/model.h"

namespace rig {

// The nodes in depth-first order (roots in node index order, children in file order), with
// each node's place in it and where its subtree ends. Part of a Skeleton.
struct NodeHierarchy {
  std::vector<int> order;             // every node, depth first
  std::vector<uint32_t> position;     // per node: its index in `order`
  std::vector<uint32_t> subtree_end;  // per node: one past the last `order` index of its subtree
  // Every node by depth: the roots, then their children, then theirs... Parents come first as in
  // any order the job accepts, and consecutive nodes rarely depend on each other, so the
  // parent-to-child products of a full update overlap instead of waiting one for the next.
  std::vector<int> by_depth;
  // Per by_depth entry: its parent, -1 at roots, kShear where the node has a shear (the job reads
  // the skeleton's shear then). The full update's loop reads these contiguous ints.
  std::vector<int> by_depth_parent;
  static constexpr int kShear = -2;

  static NodeHierarchy build(const Model& model);
};

struct Skeleton {
  std::vector<int> parent;        // per node, -1 at roots
  std::vector<Transform> rest;    // per node: Node::rest
  std::vector<std::string> name;  // per node: Node::name
  // Per node: local = TRS(pose) · shear where the file's matrix had shear (model/model.h, Node).
  std::vector<uint8_t> has_shear;
  std::vector<glm::mat4> shear;
  std::vector<int> parents_first;  // Model::node_order: every node, parents before children
  NodeHierarchy hierarchy;

  size_t size() const { return parent.size(); }
  // Allocates: once per model.
  static Skeleton build(const Model& model);
};

}  // namespace rig
