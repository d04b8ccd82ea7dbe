// What the compressed clip's own sources share (compressed_clip.cpp: the format, written and
// read key by key; compressed_clip_context.cpp: the playback context's layout and the readable
// path; compressed_clip_refill.cpp: sampling through the context): the bit-level readers, the
// quantization tables, the context's word layout, and the decoding members the sampling path
// calls per key, inline here so that every one of those sources keeps them inlined. Include it
// from nowhere else.
#pragma once

#include <emmintrin.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "anim/compressed_clip.h"

namespace rig {

namespace compressed_clip_detail {

constexpr double kRotationRange = 0.70711;  // ≥ 1/√2: every smallest-three component fits

inline float rotation_end(uint16_t q) {
  return float(double(q) * (2 * kRotationRange / 65535.0) - kRotationRange);
}

// Rotation component extents: 2R · 2^((j − 255) / 16), j = 0…255 (2.5e-5 … 2R, 4.4% apart).
const auto kExtents = [] {
  std::array<float, 256> t{};
  for (int j = 0; j < 256; ++j)
    t[size_t(j)] = float(2 * kRotationRange * std::exp2(double(j - 255) / 16.0));
  return t;
}();

// 1 / (2^b − 1) per bit width b (index 0 unused).
constexpr auto kInvLevels = [] {
  std::array<float, 33> t{};
  for (uint32_t b = 1; b < 33; ++b) t[b] = float(1.0 / double((uint64_t(1) << b) - 1));
  return t;
}();

// 64 mask bits starting at bit 64·w of a byte-granular mask (little-endian).
inline uint64_t mask_word(const uint8_t* mask, uint32_t w) {
  uint64_t word;
  std::memcpy(&word, mask + size_t(w) * 8, sizeof word);
  return word;
}

// The frame of the first key after `frame` in a sparse track's key mask. The caller knows one
// exists (`frame` is not at or past the last key), so the search stops at a real key before
// reaching the bits past the last frame (which belong to the next track's mask).
inline uint32_t next_key_frame(const uint8_t* mask, uint32_t frame) {
  uint32_t w = frame / 64;
  uint64_t above = frame % 64 == 63 ? 0 : mask_word(mask, w) & (~uint64_t(0) << (frame % 64 + 1));
  while (above == 0) above = mask_word(mask, ++w);
  return w * 64 + uint32_t(std::countr_zero(above));
}

inline uint32_t read_bits(const uint8_t* data, uint64_t bit, uint32_t count) {
  uint64_t word;
  std::memcpy(&word, data + (bit >> 3), sizeof word);
  word >>= (bit & 7u);
  return count >= 32 ? uint32_t(word) : uint32_t(word & ((uint64_t(1) << count) - 1u));
}

// One quantized key's codes at `bit`, as floats (exact: ≤ 24 bits each), and as the fourth the
// dropped component's index: `index_bits` bits read first (2 for a rotation that stores it per
// key, else 0) or-ed with `index` (a rotation's one index; 0 for translations and scales). The
// three codes' widths are the bytes of `packed`. One 64-bit read holds the index and two codes
// (≤ 2 + 2 × 24 bits); the third comes from a second read, as a key may be longer (≤ 74 bits)
// than one read holds. Built in registers: the refills gather lanes without narrow stores.
inline __m128 key_codes(const uint8_t* data, uint64_t bit, uint32_t index_bits, uint32_t index,
                        uint32_t packed) {
  uint64_t word;
  std::memcpy(&word, data + (bit >> 3), sizeof word);
  word >>= (bit & 7u);
  index |= uint32_t(word) & ((1u << index_bits) - 1u);
  word >>= index_bits;
  const uint32_t w0 = packed & 0xffu, w1 = (packed >> 8) & 0xffu, w2 = (packed >> 16) & 0xffu;
  const uint32_t c0 = uint32_t(word & ((uint64_t(1) << w0) - 1u));
  word >>= w0;
  const uint32_t c1 = uint32_t(word & ((uint64_t(1) << w1) - 1u));
  const uint32_t c2 = read_bits(data, bit + index_bits + w0 + w1, w2);
  return _mm_cvtepi32_ps(_mm_setr_epi32(int32_t(c0), int32_t(c1), int32_t(c2), int32_t(index)));
}

// A group of four tracks in the playback context, kGroupWords words, SoA (word + lane):
//   kA, kB      the current segment's keys, component-major rows: key k, and key k + 1 (on k's
//               side for rotations: negated where kFlipped says so); b = a where u stays 0
//   kTheta      θ as slerp_shortest computes it for the pair, or −1 (its normalized-lerp branch)
//   kOrigin, kInvLength   u = (coordinate − origin) · (1 / length), the coordinate x (grid, dense
//   tracks)
//               or the time (table frames); segment_u's operations
//   kPrev, kNext       the segment holds for frames prev ≤ floor(x) < next
//   kFlags      see below; kDest: the byte offset of the value in the pose (T/R/S) or the node
//   kKey        k; then what decoding needs, found once: the stream's bit offset (lo, hi), the
//               key mask, bits per key, per component the quantization's min and step as the
//               decoder computes them (float), and the component bit widths (a byte each).
//               Float32, one-key rotation and weight tracks, which decode() reads, keep its
//               offsets in the kLo rows instead: range, bits, rotation_range.
//   kLast       the track's last key index; kNextBit: the bit offset of key k + 1 (kForward)
// The context's header (kContextHeader words) before the groups: the frame-table cursor, the
// clip's serial and its complement, 1 + the largest node a T/R/S track writes, and the frames
// [from, until) where every T/R/S lane's segment holds (no refill to look for there).
namespace ctx {
constexpr uint32_t kA = 0, kB = 16, kTheta = 32, kOrigin = 36, kInvLength = 40, kPrev = 44,
                   kNext = 48, kFlags = 52, kDest = 56, kKey = 60, kBitLo = 64, kBitHi = 68,
                   kMask = 72, kKeyBits = 76, kLo = 80, kStep = 92, kBits = 104, kLast = 108,
                   kNextBit = 112, kWords = 116;
// A T/R/S track (sampled in the group), a rotation among them, a weight track (sampled on its
// own; its index among the weight tracks in bits 16 and up), and of the current segment: key k
// holds (u = 0), u runs on the time, b was negated, b is key k + 1. Then what refill_forward
// needs of the track: it qualifies (T/R/S, interpolated, stream offsets below 2^32), its keys
// are sparse (a mask), its keys hold a 2-bit index, (bits 10–11) the index every key drops when
// they do not, and it stores float32.
constexpr uint32_t kTrs = 1, kRotation = 2, kWeights = 4, kHold = 8, kTimeCoordinate = 16,
                   kFlipped = 32, kBIsNext = 64, kForward = 128, kSparse = 256, kIndexBits = 512,
                   kIndexShift = 10, kFloat32 = 4096;
}  // namespace ctx

inline void put_float(uint32_t* at, float v) { std::memcpy(at, &v, 4); }

// All ones in the lanes whose bit is set, for the 16 lane sets.
alignas(16) constexpr int32_t kLaneMasks[16][4] = {
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},
    {0, 0, -1, 0},  {-1, 0, -1, 0},  {0, -1, -1, 0},  {-1, -1, -1, 0},
    {0, 0, 0, -1},  {-1, 0, 0, -1},  {0, -1, 0, -1},  {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};
inline __m128i lane_mask_i(uint32_t lanes) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(kLaneMasks[lanes & 15u]));
}

inline __m128 lane_mask(uint32_t lanes) { return _mm_castsi128_ps(lane_mask_i(lanes)); }

}  // namespace compressed_clip_detail

// Only the compressed clip's sources include this header: its helpers read unqualified there.
using namespace compressed_clip_detail;

static_assert(CompressedClip::kGroupWords == ctx::kWords);

inline uint32_t CompressedClip::key_bits(const Track& t, const Offsets& o) const {
  if (t.flags & kFloat) return 32u * t.components;
  const uint32_t stored = stored_components(t);
  if (constant_rotation(t)) return 0;
  uint32_t kb = (t.path == uint8_t(TargetPath::Rotation) && !(t.flags & kOneIndex)) ? 2u : 0u;
  for (uint32_t c = 0; c < stored; ++c) kb += bits_[o.bits + c];
  return kb;
}

inline void CompressedClip::advance(const Track& t, uint32_t kb, Offsets& o) const {
  if (t.key_count > 1 && !(t.flags & kDense)) o.mask += mask_bytes();
  if (constant_rotation(t)) {
    o.rotation_range += 3;
  } else if (!(t.flags & kFloat)) {
    const uint32_t stored = stored_components(t);
    if (t.path == uint8_t(TargetPath::Rotation))
      o.rotation_range += stored, o.rotation_extent += stored;
    else
      o.range += 2 * stored;
    o.bits += stored;
  }
  o.bit += uint64_t(kb) * t.key_count;
}

inline void CompressedClip::decode(const Track& t, const Offsets& o, uint32_t kb, uint32_t k,
                                   float* out) const {
  const uint8_t* data = data_.data();
  uint64_t bit = o.bit + uint64_t(k) * kb;
  if (t.flags & kFloat) {
    for (uint32_t c = 0; c < t.components; ++c, bit += 32) {
      const uint32_t q = read_bits(data, bit, 32);
      std::memcpy(out + c, &q, 4);
    }
    return;
  }
  const float* range = ranges_.data() + o.range;
  const uint8_t* bits = bits_.data() + o.bits;
  if (t.path == uint8_t(TargetPath::Rotation)) {
    const uint16_t* ends = rotation_ranges_.data() + o.rotation_range;
    if (t.key_count == 1) {
      const float c3[3] = {rotation_end(ends[0]), rotation_end(ends[1]), rotation_end(ends[2])};
      smallest_three_decode((t.flags >> 4) & 3u, c3, out);
      return;
    }
    uint32_t index;
    if (t.flags & kOneIndex) {
      index = (t.flags >> 4) & 3u;
    } else {
      index = read_bits(data, bit, 2);
      bit += 2;
    }
    float s[3];
    const uint8_t* extents = rotation_extents_.data() + o.rotation_extent;
    for (uint32_t c = 0; c < 3; ++c) {
      const float lo = rotation_end(ends[c]);
      const float step = kExtents[extents[c]] * kInvLevels[bits[c]];
      s[c] = lo + float(read_bits(data, bit, bits[c])) * step;
      bit += bits[c];
    }
    smallest_three_decode(index, s, out);
    return;
  }
  for (uint32_t c = 0; c < t.components; ++c) {
    out[c] = range[2 * c] + float(read_bits(data, bit, bits[c])) * range[2 * c + 1];
    bit += bits[c];
  }
}

inline CompressedClip::KeySegment CompressedClip::find_segment(const Track& t, uint32_t mask_offset,
                                                               uint32_t fl) const {
  const uint32_t keys = t.key_count;
  if (keys == 1) return {0, 0, frame_count_, true};
  if (t.flags & kDense) {  // key i at frame i
    if (fl + 1 >= keys) return {keys - 1, keys - 1, frame_count_, true};
    return {fl, fl, fl + 1, false};
  }
  // Keys at the set bits of the mask: the last at or before fl, the first after. Bits past the
  // last frame in the last word belong to the next mask: every search below stops at a real
  // key before reaching them.
  const uint8_t* masks = key_masks_.data() + mask_offset;
  uint32_t wd = fl / 64;
  uint64_t below = mask_word(masks, wd) & (~uint64_t(0) >> (63 - fl % 64));  // bits 0..fl%64
  while (below == 0 && wd > 0) below = mask_word(masks, --wd);
  if (below == 0) return {0, 0, next_key_frame(masks, fl), true};  // the first key holds
  const uint32_t prev = wd * 64 + 63 - uint32_t(std::countl_zero(below));
  uint32_t rank = uint32_t(std::popcount(below)) - 1;
  for (uint32_t i = 0; i < wd; ++i) rank += uint32_t(std::popcount(mask_word(masks, i)));
  if (rank + 1 >= keys) return {rank, prev, frame_count_, true};  // the last key holds
  return {rank, prev, next_key_frame(masks, fl), false};  // none in (prev, fl]: the same key
}

inline float CompressedClip::segment_u(const Track& t, const KeySegment& s, float x,
                                       float time) const {
  if (s.hold || (t.flags & kStep)) return 0.0f;
  // Linear in time: on a grid frames are evenly spaced, in a table they are not (dense tracks
  // interpolate in x, whose fraction is already the table segment's).
  if ((t.flags & kDense) || rate_ > 0.0f)
    return (x - float(s.prev)) * (1.0f / float(s.next - s.prev));
  return (time - table_[s.prev]) * (1.0f / (table_[s.next] - table_[s.prev]));
}

}  // namespace rig
