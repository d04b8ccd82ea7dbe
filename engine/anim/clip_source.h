// What the sampling job samples: an interface, so a compressed runtime clip can stand in for the
// file's raw keys without touching any caller. `Clip` (model/model.h) stays what the file says.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/model.h"

namespace rig {

class ClipSource {
 public:
  virtual ~ClipSource() = default;
  virtual float start() const = 0;  // seconds on the file's timeline
  virtual float end() const = 0;
  // Cursor slots the source may use to remember where the previous sample was (the sampling
  // job owns them, one set per playing clip). Any content is valid: a stale cursor costs a
  // search, never a wrong value.
  virtual size_t cursor_count() const = 0;
  // Writes the clip's values at `time` over `local` (one per node) and `morph_weights`
  // (Model::morph_weight_count), which hold the rest pose on entry; what the clip does not
  // animate is left alone. Times outside the keys hold the end values. No allocation.
  virtual void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                      std::span<float> morph_weights) const = 0;
  // The nodes whose transform sample() may change, ascending; empty when the source does not
  // say (every node then counts as animated). A crossfade blends only the union of its clips'.
  virtual std::span<const int> animated_nodes() const { return {}; }
};

// The readable form of sampling a raw clip, channel by channel through sample_channel
// (anim/sampling.h), exactly as glTF 2.0 Appendix C says; RawClipSource's contract, and the
// oracle its tests compare it with. cursors: one per channel, or empty (every channel then
// searches its keys). No allocation.
void sample_clip_channels(const Model& model, const Clip& clip, float time,
                          std::span<uint32_t> cursors, std::span<Transform> local,
                          std::span<float> morph_weights);

// The file's own keys, sampled as sample_clip_channels does, from a layout prepared once per
// clip for the per-frame cost:
//   - channels that cannot change value (one key; or LINEAR/STEP keys all equal, as exporters
//     write for untouched bones) are written as constants, with no key search or interpolation;
//   - channels sharing one key-time array (the usual case: one timeline per clip) share one
//     key search per frame, on the cursor of the first of them;
//   - LINEAR rotations of a timeline are slerped four tracks at a time (quat_simd.h) from key
//     segments stored as SoA rows, with slerp_shortest's time-independent first steps (the flip
//     to the short way round, acos of the dot product) done once here: bit for bit
//     slerp_shortest; LINEAR translations and scales are lerped from flat key arrays;
//   - STEP, CUBICSPLINE and morph-weight channels go through sample_channel as they are.
// Identical to sample_clip_channels but for end values of LINEAR rotations held outside the keys
// and constant rotations, which come back normalized (≤ 4e-7 per component from the file's
// unit keys; tests/engine/clip_sampling_speed_test.cpp).
class RawClipSource final : public ClipSource {
 public:
  // Prepares the layout (allocates: once per clip, not per frame).
  RawClipSource(const Model& model, const Clip& clip);
  float start() const override { return clip_->start; }
  float end() const override { return clip_->end; }
  size_t cursor_count() const override { return clip_->channels.size(); }
  void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
              std::span<float> morph_weights) const override;
  std::span<const int> animated_nodes() const override { return animated_nodes_; }
  const Clip& clip() const { return *clip_; }

 private:
  // One key-time array shared by `channels` with equal times; its key search uses the cursor
  // slot of the first of them.
  struct Timeline {
    uint32_t first_time = 0;  // offset in times_
    uint32_t key_count = 0;   // >= 2
    uint32_t cursor = 0;      // cursor slot
  };
  // The segment a timeline found this frame: value = key a + (key b − key a)·u (slerp for
  // rotations); a == b and u == 0 where an end value holds.
  struct Segment {  // no initializers: an array of them is a per-sample stack buffer
    uint32_t a, b;
    float u;
  };
  // A LINEAR T/R/S channel: node, its timeline, and where its keys start: in values_ (3 floats
  // each) for translations and scales; for rotations, in the constructor's list of segments.
  struct Track {
    uint32_t node = 0;
    uint32_t timeline = 0;
    uint32_t first_value = 0;
    TargetPath path = TargetPath::Translation;
  };
  // A LINEAR rotation's key segment k, as slerp_shortest would start on it: key k, key k + 1
  // on the short way round from it, and θ = acos(|dot|), or −1 where the keys are nearly
  // parallel (slerp_shortest's normalized-lerp branch). One per key; the last pairs the last
  // key with itself.
  struct RotationSegment {
    float a[4];
    float b[4];
    float theta;
  };
  struct Constant {
    uint32_t node = 0;
    TargetPath path = TargetPath::Translation;
    float value[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // x, y, z (, w)
  };
  // Timelines, one segment per timeline per sample, at most this many without allocating.
  static constexpr size_t kMaxTimelines = 64;

  const Model* model_;
  const Clip* clip_;
  // The prepared layout can be used when every node the clip targets is < this many (so with any
  // pose of the model); otherwise, and for clips that target a node and path twice, sample()
  // falls back to sample_clip_channels.
  size_t node_bound_ = 0;
  bool prepared_ = false;
  std::vector<int> animated_nodes_;  // of the T/R/S channels, ascending
  std::vector<Timeline> timelines_;
  std::vector<Track> vectors_;  // LINEAR translations and scales
  std::vector<Constant> constants_;
  std::vector<uint32_t> others_;       // channel indices sampled by sample_channel
  std::vector<float> times_, values_;  // key times; translation and scale keys
  // Four LINEAR rotation tracks of one timeline: their nodes, and their key segments as SoA
  // rows in rotation_rows_ from `first`, kBatchFloats per key.
  struct RotationBatch {
    uint32_t timeline = 0;
    uint32_t node[4] = {0, 0, 0, 0};
    uint32_t first = 0;
  };
  static constexpr size_t kBatchFloats = 36;
  std::vector<RotationBatch> rotation_batches_;
  std::vector<float> rotation_rows_;

  static void add_rotation_segments(const Channel& c, std::vector<RotationSegment>& out);
};

}  // namespace rig
