// Sampling job: one clip at one time → a local pose (every node's TRS plus morph weights).
// ozz-style: plain spans in and out, validate() rejects wrong sizes, run() does the work and
// allocates nothing.
#pragma once

#include <span>

#include "anim/clip_source.h"

namespace rig {

struct SamplingJob {
  const ClipSource* clip = nullptr;
  float time = 0.0f;  // seconds on the file's timeline
  // clip->cursor_count() slots kept between runs: playing forward then finds each key in O(1)
  // instead of a binary search per channel per frame.
  std::span<uint32_t> cursors;
  // The rest pose: what the clip does not animate keeps these values.
  std::span<const Transform> rest_local;
  std::span<const float> rest_morph_weights;
  std::span<Transform> output;  // rest_local.size()
  std::span<float> output_morph_weights;  // rest_morph_weights.size()

  bool validate() const;
  bool run() const;  // false (and nothing written) when validate() fails
};

}  // namespace rig
