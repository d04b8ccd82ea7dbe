// Local → world job: world(node) = world(parent) · local(node), parents first.
//
// It can recompute one subtree alone (`root`): after a constraint changes the local transforms
// of a chain, only the chain and its descendants need new world matrices. The skeleton's
// NodeHierarchy keeps the nodes in depth-first order, where every subtree is one contiguous range.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "anim/skeleton.h"
#include "model/model.h"

namespace rig {

struct LocalToWorldJob {
  // Parents, per-node shear and the orders: a full update runs by depth, a subtree as a range of
  // the depth-first order.
  const Skeleton* skeleton = nullptr;
  std::span<const Transform> local;  // one per node
  std::span<glm::mat4> world;        // one per node
  // -1: every node. Otherwise only `root` and its descendants are recomputed; the world matrix
  // of root's parent must already be current.
  int root = -1;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
