#include "character/posing_constraints.h"

#include <algorithm>

#include "anim/joint_mask.h"

namespace rig {

void TwoBoneIKConstraint::apply(const ConstraintContext& context) {
  TwoBoneIKJob job;
  job.skeleton = &context.skeleton;
  job.local = context.local;
  job.world = context.world;
  job.ik = ik;
  job.run();
}

AimConstraint::AimConstraint(std::vector<int> chain, std::vector<float> weights)
    : chain_(std::move(chain)), weights_(std::move(weights)) {
  if (weights_.size() != chain_.size()) weights_.clear();
}

void AimConstraint::apply(const ConstraintContext& context) {
  AimJob job;
  job.skeleton = &context.skeleton;
  job.local = context.local;
  job.world = context.world;
  job.chain = chain_;
  job.chain_weights = weights_;
  job.aim = aim;
  job.run();
}

std::vector<int> chain_between(const Model& model, int top, int bottom) {
  std::vector<int> chain;
  if (top < 0 || bottom < 0 || size_t(top) >= model.nodes.size() ||
      size_t(bottom) >= model.nodes.size())
    return chain;
  for (int n = bottom; n >= 0; n = model.nodes[size_t(n)].parent) {
    chain.push_back(n);
    if (n == top) {
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
  }
  return {};
}

std::vector<int> find_nodes(const Model& model, std::initializer_list<std::string_view> names) {
  std::vector<int> out;
  for (std::string_view name : names) {
    const int n = find_node(model, name);
    if (n < 0) return {};
    out.push_back(n);
  }
  return out;
}

}  // namespace rig
