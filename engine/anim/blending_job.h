// Blending job: an ordered stack of local poses → one local pose.
//
// layers[0] is the base and is taken as it is. Every further layer blends over the result so
// far by its weight (times its per-joint weight where it has one): translation, scale and morph
// weights lerp, rotation slerps by the shortest path. A two-layer stack {A, B weight w} is the
// crossfade from A to B. A layer whose effective weight is 0 leaves the result bit-identical.
// (This "override stack" is what the later additive and masked layers extend.)
#pragma once

#include <span>

#include "model/model.h"

namespace rig {

// One node's blend: a + (b − a)·w for translation and scale, shortest-path slerp for rotation.
Transform blend_transforms(const Transform& a, const Transform& b, float w);

struct BlendLayer {
  std::span<const Transform> local;        // one per node
  std::span<const float> morph_weights;    // Model::morph_weight_count
  float weight = 1.0f;                     // clamped to [0, 1]
  std::span<const float> joint_weights;    // one per node in [0, 1]; empty: 1 everywhere
};

struct BlendingJob {
  std::span<const BlendLayer> layers;  // at least one
  std::span<Transform> output;         // may be layers[0].local's storage
  std::span<float> output_morph_weights;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
