// The compressed clip's playback context: its layout filled in from the clip (init_context), and
// the readable path the context's sampling is held to (sample_uncached).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "anim/compressed_clip.h"
#include "anim/compressed_clip_internal.h"
#include "anim/quat_simd.h"

namespace rig {

void CompressedClip::init_context(uint32_t* context) const {
  context[1] = serial_;
  context[2] = ~serial_;
  uint32_t bound = 0;  // 1 + the largest node a T/R/S track writes
  Offsets o;
  uint32_t weights = 0;
  const size_t groups = (tracks_.size() + 3) / 4;
  std::fill_n(context + kContextHeader, groups * kGroupWords, 0u);
  for (size_t i = 0; i < tracks_.size(); ++i) {
    const Track& t = tracks_[i];
    uint32_t* g = context + kContextHeader + (i / 4) * kGroupWords;
    const uint32_t lane = uint32_t(i % 4);
    const bool rotation = t.path == uint8_t(TargetPath::Rotation);
    uint32_t flags;
    if (t.path == uint8_t(TargetPath::Weights)) {
      flags = ctx::kWeights | (weights++ << 16);
      g[ctx::kDest + lane] = t.node;
    } else {
      flags = ctx::kTrs | (rotation ? ctx::kRotation : 0u);
      const size_t field = t.path == uint8_t(TargetPath::Translation)
                               ? offsetof(Transform, translation)
                           : rotation ? offsetof(Transform, rotation)
                                      : offsetof(Transform, scale);
      g[ctx::kDest + lane] = uint32_t(size_t(t.node) * sizeof(Transform) + field);
      bound = std::max(bound, uint32_t(t.node) + 1);
    }
    g[ctx::kPrev + lane] = 1;  // [1, 0): holds for no frame, so the first sample decodes
    g[ctx::kNext + lane] = 0;
    g[ctx::kBitLo + lane] = uint32_t(o.bit);
    g[ctx::kBitHi + lane] = uint32_t(o.bit >> 32);
    g[ctx::kMask + lane] = o.mask;
    const uint32_t kb = key_bits(t, o);
    g[ctx::kKeyBits + lane] = kb;
    g[ctx::kLast + lane] = uint32_t(t.key_count) - 1u;
    if (t.path != uint8_t(TargetPath::Weights) && !(t.flags & kStep) && t.key_count > 1 &&
        data_bits_ < (uint64_t(1) << 32)) {
      flags |= ctx::kForward;
      if (t.flags & kFloat) flags |= ctx::kFloat32;
      if (!(t.flags & kDense)) flags |= ctx::kSparse;
      if (rotation && !(t.flags & kOneIndex)) flags |= ctx::kIndexBits;
      if (rotation && (t.flags & kOneIndex)) flags |= ((t.flags >> 4) & 3u) << ctx::kIndexShift;
    }
    g[ctx::kFlags + lane] = flags;
    if (!(t.flags & kFloat) && !constant_rotation(t) && t.path != uint8_t(TargetPath::Weights)) {
      // decode()'s per-component min and step, computed as it computes them.
      const uint32_t stored = std::min(stored_components(t), 3u);
      uint32_t packed = 0;
      for (uint32_t c = 0; c < stored; ++c) {
        const uint8_t width = bits_[o.bits + c];
        float lo, step;
        if (rotation) {
          lo = rotation_end(rotation_ranges_[o.rotation_range + c]);
          step = kExtents[rotation_extents_[o.rotation_extent + c]] * kInvLevels[width];
        } else {
          lo = ranges_[o.range + 2 * c];
          step = ranges_[o.range + 2 * c + 1];
        }
        put_float(g + ctx::kLo + c * 4 + lane, lo);
        put_float(g + ctx::kStep + c * 4 + lane, step);
        packed |= uint32_t(width) << (8 * c);
      }
      g[ctx::kBits + lane] = packed;
    } else {  // float32, one-key rotation, weights: decode() from these offsets
      g[ctx::kLo + lane] = o.range;
      g[ctx::kLo + 4 + lane] = o.bits;
      g[ctx::kLo + 8 + lane] = o.rotation_range;
    }
    advance(t, kb, o);
  }
  context[3] = bound;
  context[4] = 1;  // [1, 0): no frame yet
  context[5] = 0;
}

// The readable form, and the reference of the context path: every track located and decoded.
void CompressedClip::sample_uncached(float x, float time, std::span<Transform> local,
                                     std::span<float> morph_weights) const {
  const uint32_t fl = std::min(uint32_t(x), frame_count_ - 1);
  uint32_t w = 0;  // weight tracks seen: index into weight_offsets_
  Offsets o;       // the stream offsets of track i, summed on the way
  uint32_t kb = 0;
  for (size_t i = 0; i < tracks_.size(); ++i, advance(tracks_[i - 1], kb, o)) {
    const Track& t = tracks_[i];
    kb = key_bits(t, o);
    if (t.path == uint8_t(TargetPath::Weights)) {
      if (t.node < local.size()) sample_weight_track(t, o, w, x, time, morph_weights);
      ++w;
      continue;
    }
    if (t.node >= local.size()) continue;
    const KeySegment s = find_segment(t, o.mask, fl);
    const float u = segment_u(t, s, x, time);
    // Zeroed only for GCC, which cannot see through the inlined decode() that it writes them.
    float a[4] = {}, b[4] = {};
    decode(t, o, kb, s.k, a);
    if (u > 0.0f) {  // between two keys: interpolate (u = 0: key k exactly)
      decode(t, o, kb, s.k + 1, b);
      if (t.path == uint8_t(TargetPath::Rotation)) {
        slerp_keys(a, b, u, a);
      } else {
        for (uint32_t j = 0; j < 3; ++j) a[j] = a[j] + (b[j] - a[j]) * u;
      }
    }
    Transform& tr = local[t.node];
    if (t.path == uint8_t(TargetPath::Translation))
      tr.translation = glm::vec3(a[0], a[1], a[2]);
    else if (t.path == uint8_t(TargetPath::Scale))
      tr.scale = glm::vec3(a[0], a[1], a[2]);
    else
      tr.rotation = glm::quat(a[3], a[0], a[1], a[2]);
  }
}

}  // namespace rig
