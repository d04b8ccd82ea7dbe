// Joint masks for blend layers: one weight per node in [0, 1] (BlendLayer::joint_weights).
// Built once when a layer is set up (allocates), never per frame.
//
//   auto upper = subtree_mask(model, {"Spine"});          // Spine and everything below it
//   auto arm = subtree_mask(model, {"LeftArm"}, 0.5f);     // half of the left arm
//   set_subtree_weight(model, find_node(model, "LeftHand"), 0.0f, arm);  // … but not the hand
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "model/model.h"

namespace rig {

// Index of the first node named `name`, or -1.
int find_node(const Model& model, std::string_view name);

// Whether `node` is `ancestor` or lies below it.
bool is_in_subtree(const Model& model, int node, int ancestor);

// Sets `weight` on `root` and all its descendants in `mask` (one per node). Ignores root < 0.
void set_subtree_weight(const Model& model, int root, float weight, std::span<float> mask);

// A mask that is `weight` on the named nodes and their descendants and 0 elsewhere. Unknown
// names are ignored (the mask then covers less; check with find_node first when it matters).
std::vector<float> subtree_mask(const Model& model, std::initializer_list<std::string_view> roots,
                                float weight = 1.0f);
std::vector<float> subtree_mask(const Model& model, std::span<const int> roots,
                                float weight = 1.0f);

}  // namespace rig
