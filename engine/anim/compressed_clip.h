// A compressed runtime clip: key-reduced, quantized tracks that the sampling job samples in
// place of the file's keys (Character::set_clip_source). Built offline by compress/ (the
// compressor measures its own result and guarantees an error bound); this file only decodes.
//
// Layout (every byte counted by byte_size()):
//   header      16 bytes: start, end, grid rate, frame count, track count (an explicit
//               frame-time table, when not on a grid, is counted with it)
//   tracks      one 6-byte descriptor per animated (node, path): node, path, STEP / dense /
//               float flags, components, key count
//   bit widths  per quantized track, one byte per stored component
//   key masks   one bit per frame, set where the track has a key, ceil(F / 8) bytes (none for
//               dense tracks, whose key i is frame i, and none for constant tracks), plus 8
//               bytes of padding once for 64-bit reads
//   weights     morph-weight slot offset per weight track
//   ranges      per quantized component (range reduction): min and step as float32, or for
//               rotations min in 16-bit fixed point over [-1/√2, 1/√2] and extent on an
//               8-bit log scale, both rounded outwards (a one-key
//               rotation: its three components there, nothing else)
//   data        bit stream, keys one after the other, components of a key together. Rotations
//               quantized smallest-three (2-bit index of the dropped largest component, once
//               per track when it never changes (kOneIndex), else per key; the
//               other three in [-1/√2, 1/√2] before range reduction); float tracks store plain
//               float32 components (rotations then keep all four).
//
// Time → frame coordinate x: on a grid x = (t − start)·rate; with a frame table x is the index of
// the table segment plus the fraction inside it. A track interpolates its keys linearly in x
// (shortest-path slerp for rotations, slerp_shortest's float form) or holds them (STEP), at
// u = (x − x_k)·(1 / (x_k+1 − x_k)): a product, so that playback multiplies by a stored
// reciprocal; the compressor evaluates the same expression.
//
// Playback context. Like ozz's SamplingJob::Context, the caller owns per-playback state: the
// cursor_count() words of SamplingJob::cursors (not part of the clip's bytes). They hold the
// frame-table cursor, a tag naming the clip, each track's stream offsets and dequantization
// constants (found once, not by a walk over every track per frame) and its current key segment
// decoded: while playback stays between the same two keys a sample decodes nothing and only
// interpolates, four tracks at a time (quat_simd.h); moving forward to the next segment decodes
// one key per track (the old key k + 1 is the new key k), four tracks at a time and without a
// segment search in the common case (refill_forward). The compressor puts tracks whose keys
// change together in the same group of four (rotations first, most keys first), so one refill
// serves four lanes, and the context remembers the frames where no segment ends, so most
// samples look for no refill at all. Any content is valid: a context whose tag is not this
// clip's is rebuilt, and a segment that does not hold the frame is decoded again. Without a
// context (fewer words) every track is located and decoded per sample; both ways give the same
// bits (tests/engine/compress_clip_test.cpp), so the error the compressor measures is the error
// played. Sampling allocates nothing.
#pragma once

#include <xmmintrin.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "anim/clip_source.h"
#include "anim/sampling.h"
#include "model/model.h"

namespace rig {

class CompressedClip final : public ClipSource {
 public:
  // 6 bytes per track; offsets into the streams are running sums over the tracks before it
  // (sample() visits every track in order, so it never stores them).
  struct Track {
    uint16_t node = 0;
    uint16_t key_count = 0;  // ≥ 1
    uint8_t path : 2 = 0;    // TargetPath
    uint8_t flags : 6 = 0;   // kStep | kDense | kFloat | kOneIndex (+ its index << 4)
    uint8_t components = 3;  // value components: 3 (T, S), 4 (R), morph target count (≤ 255)
  };
  // kOneIndex: every key of a quantized rotation drops the same component, whose index is in
  // flags bits 4–5 instead of 2 bits per key.
  static constexpr uint8_t kStep = 1, kDense = 2, kFloat = 4, kOneIndex = 8;

  CompressedClip() = default;
  static constexpr size_t kContextHeader = 6, kGroupWords = 116;

  float start() const override { return start_; }
  float end() const override { return end_; }
  // The playback context: kContextHeader words, then kGroupWords per group of four tracks.
  size_t cursor_count() const override {
    return kContextHeader + (tracks_.size() + 3) / 4 * kGroupWords;
  }
  void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
              std::span<float> morph_weights) const override;

  // Every byte the runtime needs: header, descriptors, key masks, bit widths, ranges, data,
  // frame table, morph offsets.
  size_t byte_size() const;
  struct ByteBreakdown {
    size_t header = 0, tracks = 0, key_masks = 0, bit_widths = 0, ranges = 0, data = 0, table = 0,
           weights = 0;
  };
  ByteBreakdown byte_breakdown() const;
  uint32_t frame_count() const { return frame_count_; }
  float frame_time(uint32_t frame) const;  // seconds of frame `frame`
  std::span<const Track> tracks() const { return tracks_; }
  // Bits per stored component of track `track` (empty for float32 tracks).
  std::span<const uint8_t> track_bits(size_t track) const;
  // Key k of track `track` decoded (what sample() interpolates), into out[0..components).
  void decode_key(size_t track, uint32_t k, float* out) const;
  // Frame of key k of track `track` (0 for the single key of a constant track).
  uint32_t key_frame(size_t track, uint32_t k) const;
  // A quantized rotation with one key: three 16-bit fixed-point components in the rotation
  // ranges, no bit widths, no data.
  static bool constant_rotation(const Track& t) {
    return t.path == uint8_t(TargetPath::Rotation) && !(t.flags & kFloat) && t.key_count == 1;
  }
  static uint32_t stored_components(const Track& t) {
    return (t.path == uint8_t(TargetPath::Rotation) && !(t.flags & kFloat)) ? 3u : t.components;
  }

  // Building (compress/ uses this): the frame grid or table, then tracks in sampling order.
  void set_frames(float start, float end, uint32_t frame_count, float rate_hz,
                  std::vector<float> table);
  // Appends a track. `frames`: the key frames (ascending); `values`: key_count × components
  // (rotations x, y, z, w, unit length). `bits`: {32} stores float32; else 1…24 bits per
  // stored component (one entry for all, or one per stored component: 3 for rotations), each
  // quantized over its range across these keys. `morph_offset`: Node::morph_offset of weight
  // tracks. Returns false when the track cannot be stored.
  bool add_track(int node, TargetPath path, bool step, uint32_t components,
                 std::span<const uint8_t> bits, std::span<const uint32_t> frames,
                 std::span<const float> values, uint32_t morph_offset = 0);

 private:
  struct Offsets {
    uint32_t mask = 0, range = 0, rotation_range = 0, rotation_extent = 0, bits = 0;
    uint64_t bit = 0;
  };
  // The keys around frame `fl` of one track: key k (at frame prev) and the next one (at frame
  // next); hold: before the first key, from the last key on, or a one-key track (key k holds;
  // [prev, next) is then the frames where it does).
  struct KeySegment {
    uint32_t k = 0, prev = 0, next = 0;
    bool hold = true;
  };
  float frame_coordinate(float time, uint32_t& cursor) const;
  uint32_t key_bits(const Track& t, const Offsets& o) const;
  void advance(const Track& t, uint32_t key_bits, Offsets& o) const;
  Offsets offsets_of(size_t track) const;
  void decode(const Track& t, const Offsets& o, uint32_t key_bits, uint32_t k, float* out) const;
  KeySegment find_segment(const Track& t, uint32_t mask_offset, uint32_t fl) const;
  float segment_u(const Track& t, const KeySegment& s, float x, float time) const;
  void sample_uncached(float x, float time, std::span<Transform> local,
                       std::span<float> morph_weights) const;
  void init_context(uint32_t* context) const;
  __m128 read_lane_key(const uint32_t* group, uint32_t lane, const Track& t, uint32_t k,
                       bool& direct) const;
  KeySegment next_segment(const Track& t, const uint32_t* group, uint32_t lane, uint32_t flags,
                          uint32_t fl) const;
  void refill_group(uint32_t* group, uint32_t stale, size_t first, uint32_t fl) const;
  template <bool kRestart>
  bool refill_forward(uint32_t* group, uint32_t stale, uint32_t fl) const;
  Offsets offsets_of_lane(const uint32_t* group, uint32_t lane) const;
  void sample_weight_track(const Track& t, const Offsets& o, uint32_t weight_index, float x,
                           float time, std::span<float> morph_weights) const;

  uint32_t serial_ = 0;  // names this content in playback contexts; new on every change
  float start_ = 0.0f, end_ = 0.0f;
  uint32_t frame_count_ = 1;
  float rate_ = 0.0f;         // > 0: frames on the grid start + i / rate; 0: table_
  std::vector<float> table_;  // frame times when not on a grid
  std::vector<Track> tracks_;
  std::vector<uint8_t> key_masks_;  // per sparse track: ceil(F / 8) bytes, bit f = key at f; +8
  uint32_t mask_bytes() const { return (frame_count_ + 7) / 8; }
  std::vector<float> ranges_;              // T, S, weights: (min, step) float32 per component
  std::vector<uint16_t> rotation_ranges_;  // rotations: min, 16-bit fixed point
  std::vector<uint8_t> rotation_extents_;  // rotations: extent, 8-bit log scale
  std::vector<uint8_t> bits_;              // per quantized track: bits per stored component
  std::vector<uint32_t> weight_offsets_;   // Node::morph_offset per weight track, in order
  std::vector<uint8_t> data_;  // 8 bytes of padding at the end for unaligned 64-bit reads
  uint64_t data_bits_ = 0;
};

// Rotation keys (x, y, z, w) slerped on the shortest path: slerp_shortest (anim/sampling.h), the
// function the runtime's batches reproduce bit for bit and the compressor measures with.
inline void slerp_keys(const float* a, const float* b, float u, float* out) {
  const glm::quat q =
      slerp_shortest(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u);
  out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}

// Smallest-three of a unit quaternion (x, y, z, w): index of the largest |component| and the
// other three in order, sign chosen so the dropped one is positive. Exposed for tests.
uint32_t smallest_three_encode(const float q[4], float out[3]);
void smallest_three_decode(uint32_t index, const float in[3], float q[4]);

}  // namespace rig
