// Blending job: an ordered stack of local poses → one local pose.
//
// layers[0] is the base and is taken as it is. Every further layer applies over the result so
// far, in order, by its weight times its per-joint weight (the mask) where it has one:
//
// - Override layers blend towards their pose: translation, scale and morph weights lerp,
//   rotation slerps by the shortest path. A two-layer stack {A, B weight w} is the crossfade
//   from A to B.
// - Additive layers add their difference from a reference pose, (pose ⊖ reference) × w:
//     rotation     r = r_base · slerp(identity, q_ref⁻¹ · q, w)   (the difference on the right,
//                  in the joint's own frame; shortest path)
//     translation  t = t_base + (t − t_ref) · w
//     scale        s = s_base · (s / s_ref)^w, per component (a ratio, so a reference pose with
//                  its own clip on top at weight 1 reproduces the clip exactly; a component
//                  whose ratio is not positive, or whose s_ref is 0, falls back to the linear
//                  1 + (ratio − 1)·w, and to ratio 1 when s_ref is 0)
//     morph weight m = m_base + (m − m_ref) · w
//   The reference is usually the same clip's first frame (see PoseStack in character/).
//
// A layer whose effective weight is 0 leaves the result bit-identical, for every node and mode.
#pragma once

#include <cstdint>
#include <span>

#include "model/model.h"

namespace rig {

// One node's blend: a + (b − a)·w for translation and scale, shortest-path slerp for rotation.
Transform blend_transforms(const Transform& a, const Transform& b, float w);

// One node's additive blend: base ⊕ (value ⊖ reference) × w, as in the header comment.
Transform add_transform_difference(const Transform& base, const Transform& value,
                                   const Transform& reference, float w);

enum class BlendMode : uint8_t { Override, Additive };

struct BlendLayer {
  std::span<const Transform> local;      // one per node
  std::span<const float> morph_weights;  // Model::morph_weight_count
  float weight = 1.0f;                   // clamped to [0, 1]
  std::span<const float> joint_weights;  // one per node in [0, 1]; empty: 1 everywhere
  BlendMode mode = BlendMode::Override;
  // Additive layers only: the pose the difference is taken from (one per node) and its morph
  // weights (Model::morph_weight_count; empty: all 0).
  std::span<const Transform> reference;
  std::span<const float> reference_morph_weights;
};

// The kernel of an override layer without a mask: eight nodes at a time with AVX where the
// processor has it (Auto), or four with SSE2; the same bits either way. Tests pin each in turn
// (Avx falls back to SSE2 where the processor lacks it); not for per-frame use.
enum class BlendKernel : uint8_t { Auto, Sse2, Avx };
void set_blend_kernel(BlendKernel kernel);
bool blend_kernel_available(BlendKernel kernel);

struct BlendingJob {
  std::span<const BlendLayer> layers;  // at least one; layers[0]'s mode is ignored
  std::span<Transform> output;         // may be layers[0].local's storage
  std::span<float> output_morph_weights;
  // The nodes to blend, each once (ascending keeps memory order); empty: every node. The others
  // keep the base layer's values: leave out only nodes whose transform is the same in every
  // layer (nodes no playing clip animates), where a blend would give that value back up to the
  // rounding of a renormalized rotation. Morph weights always blend.
  std::span<const int> nodes;

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
