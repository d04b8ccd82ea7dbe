// A pose: local T/R/S per node plus morph weights, flat and indexed by node.
#pragma once

#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

struct Pose {
  std::vector<Transform> local;      // one per node
  std::vector<float> morph_weights;  // Model::morph_weight_count, see Node::morph_offset
};

// Sizes `pose` for `model` and fills it with the rest pose. Allocates: call once per model.
void init_rest_pose(const Model& model, Pose& pose);

// Overwrites `pose` (already sized by init_rest_pose) with the rest pose. No allocation.
void reset_to_rest(const Model& model, Pose& pose);

// Samples `clip` at `time` seconds on the file's timeline into `pose`, per the glTF spec:
// nodes the clip does not animate keep their rest values, times outside a channel's keys
// hold its end value. No allocation.
void sample_clip(const Model& model, const Clip& clip, float time, Pose& pose);

// World matrices of every node, parents first. world.size() == model.nodes.size().
void compute_world_matrices(const Model& model, const Pose& pose, std::span<glm::mat4> world);

// Skinning matrix per joint: world(joints[j]) * inverse_bind[j]. out.size() == joints.size() ==
// inverse_bind.size(). The inverse bind matrices are an argument, not the skin's, because the
// editable skin layer (skin/skin_layer.h) holds the ones in use.
void compute_skinning_matrices(std::span<const int> joints, std::span<const glm::mat4> inverse_bind,
                               std::span<const glm::mat4> world, std::span<glm::mat4> out);
// The same with the file's inverse bind matrices.
inline void compute_skinning_matrices(const Skin& skin, std::span<const glm::mat4> world,
                                      std::span<glm::mat4> out) {
  compute_skinning_matrices(skin.joints, skin.inverse_bind, world, out);
}

}  // namespace rig
