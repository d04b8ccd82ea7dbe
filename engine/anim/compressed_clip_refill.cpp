// Sampling a compressed clip through its playback context: the frame coordinate, the refills of
// a group's segments (forward into the next segment, or decoded afresh) and sample() itself.
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

float CompressedClip::frame_coordinate(float time, uint32_t& cursor) const {
  const float last = float(frame_count_ - 1);
  if (!(time > start_)) return 0.0f;
  if (time >= end_) return last;
  if (rate_ > 0.0f) {
    float x = (time - start_) * rate_;
    // A sample time on a frame lands on it exactly (STEP tracks switch there).
    const float r = float(uint32_t(x + 0.5f));  // x ≥ 0: nearest, where it matters below
    if (std::abs(x - r) < 1e-4f) x = r;
    return std::min(x, last);
  }
  const size_t n = table_.size();
  size_t i = cursor;
  if (!(i + 1 < n && table_[i] <= time && time < table_[i + 1])) {
    if (i + 2 < n && table_[i + 1] <= time && time < table_[i + 2]) {
      ++i;
    } else {
      auto it = std::upper_bound(table_.begin(), table_.end(), time);
      i = size_t(it - table_.begin());
      i = i == 0 ? 0 : std::min(i - 1, n - 2);
    }
  }
  cursor = uint32_t(i);
  return float(i) + (time - table_[i]) / (table_[i + 1] - table_[i]);
}

void CompressedClip::sample_weight_track(const Track& t, const Offsets& o, uint32_t weight_index,
                                         float x, float time,
                                         std::span<float> morph_weights) const {
  float a[256], b[256];
  const uint32_t kb = key_bits(t, o);
  const uint32_t fl = std::min(uint32_t(x), frame_count_ - 1);
  const KeySegment s = find_segment(t, o.mask, fl);
  const float u = segment_u(t, s, x, time);
  decode(t, o, kb, s.k, a);
  const uint32_t m = t.components;
  if (u > 0.0f) {
    decode(t, o, kb, s.k + 1, b);
    for (uint32_t j = 0; j < m; ++j) a[j] = a[j] + (b[j] - a[j]) * u;
  }
  const uint32_t offset = weight_offsets_[weight_index];
  if (size_t(offset) + m <= morph_weights.size()) std::copy_n(a, m, &morph_weights[offset]);
}

// decode()'s offsets of a float32, one-key rotation or weight track in `lane`.
CompressedClip::Offsets CompressedClip::offsets_of_lane(const uint32_t* g, uint32_t lane) const {
  Offsets o;
  o.bit = uint64_t(g[ctx::kBitLo + lane]) | (uint64_t(g[ctx::kBitHi + lane]) << 32);
  o.mask = g[ctx::kMask + lane];
  o.range = g[ctx::kLo + lane];
  o.bits = g[ctx::kLo + 4 + lane];
  o.rotation_range = g[ctx::kLo + 8 + lane];
  return o;
}

// Key k of the track in `lane` as decode() gives it, in two parts: here, per lane, what is
// read from the streams; in refill_group, four lanes at a time, the arithmetic (dequantization
// min + code·step, smallest-three's fourth component). Returns, with `direct` set, the value
// itself (float32 tracks, the rare kinds); else key_codes: the three codes and the dropped
// component's index.
inline __m128 CompressedClip::read_lane_key(const uint32_t* g, uint32_t lane, const Track& t,
                                            uint32_t k, bool& direct) const {
  const bool rotation = t.path == uint8_t(TargetPath::Rotation);
  if ((t.flags & kFloat) || (rotation && t.key_count == 1) ||
      t.path == uint8_t(TargetPath::Weights)) {
    float value[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    decode(t, offsets_of_lane(g, lane), g[ctx::kKeyBits + lane], k, value);
    direct = true;
    return _mm_loadu_ps(value);
  }
  direct = false;
  const uint64_t bit = (uint64_t(g[ctx::kBitLo + lane]) | (uint64_t(g[ctx::kBitHi + lane]) << 32)) +
                       uint64_t(k) * g[ctx::kKeyBits + lane];
  const bool one_index = t.flags & kOneIndex;
  return key_codes(data_.data(), bit, rotation && !one_index ? 2u : 0u,
                   rotation && one_index ? (t.flags >> 4) & 3u : 0u, g[ctx::kBits + lane]);
}

namespace {

// `value` into lane `lane` of `row` (whose lane holds 0).
inline __m128i put_lane(__m128i row, uint32_t lane, uint32_t value) {
  return _mm_or_si128(row, _mm_and_si128(lane_mask_i(1u << lane), _mm_set1_epi32(int32_t(value))));
}
inline __m128 put_lane(__m128 row, uint32_t lane, float value) {
  return _mm_or_ps(row, _mm_and_ps(_mm_castsi128_ps(lane_mask_i(1u << lane)), _mm_set1_ps(value)));
}

// Four lanes' keys, component-major rows of read_lane_key's results: decode()'s arithmetic, in
// its operations and order (so the same bits): s = min + code·step per component, and for
// quantized rotations smallest_three_decode (sum of squares in order, sqrt(max(0, 1 − sum))
// into the dropped slot). Direct lanes pass through.
[[gnu::always_inline]] inline quat4::Quat4 finish_keys(const quat4::Quat4& v, __m128 direct,
                                                       __m128 rotation, const float* lo_rows,
                                                       const float* step_rows) {
  using namespace quat4;
  const __m128 s0 = add(_mm_loadu_ps(lo_rows), mul(v.x, _mm_loadu_ps(step_rows)));
  const __m128 s1 = add(_mm_loadu_ps(lo_rows + 4), mul(v.y, _mm_loadu_ps(step_rows + 4)));
  const __m128 s2 = add(_mm_loadu_ps(lo_rows + 8), mul(v.z, _mm_loadu_ps(step_rows + 8)));
  const __m128 sum = add(add(mul(s0, s0), mul(s1, s1)), mul(s2, s2));
  const __m128 d = _mm_sqrt_ps(_mm_max_ps(sub(k(1.0f), sum), _mm_setzero_ps()));
  const __m128i idx = _mm_cvttps_epi32(v.w);
  const __m128 i0 = _mm_castsi128_ps(_mm_cmpeq_epi32(idx, _mm_set1_epi32(0)));
  const __m128 i1 = _mm_castsi128_ps(_mm_cmpeq_epi32(idx, _mm_set1_epi32(1)));
  const __m128 i2 = _mm_castsi128_ps(_mm_cmpeq_epi32(idx, _mm_set1_epi32(2)));
  const __m128 i3 = _mm_castsi128_ps(_mm_cmpeq_epi32(idx, _mm_set1_epi32(3)));
  // Rotations: the stored three around the dropped slot; translations and scales: s itself.
  const Quat4 r{select(i0, d, s0), select(i0, s0, select(i1, d, s1)),
                select(_mm_or_ps(i0, i1), s1, select(i2, d, s2)), select(i3, d, s2)};
  const Quat4 q{select(rotation, r.x, s0), select(rotation, r.y, s1), select(rotation, r.z, s2),
                _mm_and_ps(rotation, r.w)};
  return {select(direct, v.x, q.x), select(direct, v.y, q.y), select(direct, v.z, q.z),
          select(direct, v.w, q.w)};
}

// The old segment's key k + 1, carried over as the new key k: the b rows, back to their own
// sign (exact) where the old flags say they were negated (kFlipped).
inline quat4::Quat4 carried_keys(const float* g, __m128i flags) {
  const __m128i bit = _mm_set1_epi32(int32_t(ctx::kFlipped));
  const __m128 unflip = _mm_and_ps(
      _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(flags, bit), bit)), _mm_set1_ps(-0.0f));
  return {_mm_xor_ps(_mm_loadu_ps(g + ctx::kB), unflip),
          _mm_xor_ps(_mm_loadu_ps(g + ctx::kB + 4), unflip),
          _mm_xor_ps(_mm_loadu_ps(g + ctx::kB + 8), unflip),
          _mm_xor_ps(_mm_loadu_ps(g + ctx::kB + 12), unflip)};
}

// slerp_shortest's first steps on a segment's keys, in its operations and order (so the batch
// gives its bits): the dot product, b negated to the short way round (lanes in `slerps`), acos
// of it; θ = −1 for its normalized-lerp branch and for lanes not slerped. Returns θ; `flipped`:
// the lanes whose b was negated.
inline __m128 prepare_pair(const quat4::Quat4& a, quat4::Quat4& b, __m128 slerps, __m128& flipped) {
  using namespace quat4;
  __m128 d = add(add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z)), mul(a.w, b.w));
  flipped = _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), slerps);
  const __m128 flip = _mm_and_ps(flipped, k(-0.0f));
  b = {_mm_xor_ps(b.x, flip), _mm_xor_ps(b.y, flip), _mm_xor_ps(b.z, flip), _mm_xor_ps(b.w, flip)};
  d = _mm_xor_ps(d, flip);
  const __m128 theta = select(_mm_cmpgt_ps(d, k(0.9995f)), k(-1.0f), acos01_4(d));
  return select(slerps, theta, k(-1.0f));
}

// Lane vectors (one key each) → component-major rows.
inline quat4::Quat4 rows_of(const __m128 (&lane)[4]) {
  __m128 x = lane[0], y = lane[1], z = lane[2], w = lane[3];
  _MM_TRANSPOSE4_PS(x, y, z, w);
  return {x, y, z, w};
}

}  // namespace

// The segment of frame fl for the track in `lane` (find_segment's result). Forward play mostly
// lands in the segment after the old one, which starts at the old next key: then only the key
// after it is searched for (no rank count over the mask).
inline CompressedClip::KeySegment CompressedClip::next_segment(const Track& t, const uint32_t* g,
                                                               uint32_t lane, uint32_t flags,
                                                               uint32_t fl) const {
  const uint32_t keys = t.key_count;
  if ((t.flags & kDense) && keys > 1 && fl + 1 < keys) return {fl, fl, fl + 1, false};
  const uint32_t prev = g[ctx::kNext + lane];
  if ((flags & ctx::kBIsNext) && fl >= prev) {
    const uint32_t k = g[ctx::kKey + lane] + 1;               // the old key k + 1
    if (k + 1 >= keys) return {k, prev, frame_count_, true};  // the last key holds
    if (!(t.flags & kDense)) {
      // Key k + 1 exists (k is not the last).
      const uint32_t next = next_key_frame(key_masks_.data() + g[ctx::kMask + lane], prev);
      if (fl < next) return {k, prev, next, false};
    }
  }
  return find_segment(t, g[ctx::kMask + lane], fl);
}

// The common steps of playback, on every stale lane at once, with no segment search on dense
// tracks and no branch on the track's kind:
// - forward (kRestart false) into the next segment. Its key k is the old key k + 1 (decoded
//   already: the old b row). When that is the last key it holds; else only key k + 1 is read,
//   from the bit offset the previous segment left (kNextBit).
// - restart (kRestart true): a looping clip starts over, so every stale lane goes back to its
//   first segment, key 0 at frame 0 to key 1, both read from the track's first bits (kBitLo).
// Returns false, having written nothing, when a stale lane does not qualify (backward other than
// into the first segment, a jump over a segment, a sparse track whose first key is not at frame
// 0, or a track refill_group decodes); refill_group then handles the group. The same operations
// as refill_group, so the same bits.
template <bool kRestart>
bool CompressedClip::refill_forward(uint32_t* g, uint32_t stale, uint32_t fl) const {
  using namespace quat4;
  auto row_i = [&](uint32_t word) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + word));
  };
  const __m128i flags = row_i(ctx::kFlags);
  auto flag_lanes_i = [&](uint32_t flag) {
    const __m128i bit = _mm_set1_epi32(int32_t(flag));
    return _mm_cmpeq_epi32(_mm_and_si128(flags, bit), bit);
  };
  auto lanes_of = [](__m128i m) { return uint32_t(_mm_movemask_ps(_mm_castsi128_ps(m))); };
  const __m128i frame = _mm_set1_epi32(int32_t(fl)), one = _mm_set1_epi32(1);
  const __m128i key = row_i(ctx::kKey);
  // The new segment starts at the old next key (forward) or at frame 0, key 0 (restart).
  const __m128i next = kRestart ? _mm_setzero_si128() : row_i(ctx::kNext);
  const __m128i new_key = kRestart ? _mm_setzero_si128() : _mm_add_epi32(key, one);
  // Qualifying lanes: kForward; going forward, interpolating and past the old segment's end.
  // Frames and keys < 2^16: signed compares are exact.
  const uint32_t ok = kRestart ? lanes_of(flag_lanes_i(ctx::kForward))
                               : lanes_of(flag_lanes_i(ctx::kForward | ctx::kBIsNext)) &
                                     ~lanes_of(_mm_cmpgt_epi32(next, frame));
  if (stale & ~ok) return false;
  // Lanes whose new key k is the last: it holds from its frame on.
  const uint32_t last = stale & lanes_of(_mm_cmpeq_epi32(new_key, row_i(ctx::kLast)));
  const uint32_t moving = stale & ~last;
  // The new segment ends one frame on (dense), at the next key in the mask (sparse), or at the
  // clip's end (the last key). It must hold this frame.
  __m128i new_next = _mm_add_epi32(next, one);
  const __m128i in_last = lane_mask_i(last);
  new_next = _mm_or_si128(_mm_andnot_si128(in_last, new_next),
                          _mm_and_si128(in_last, _mm_set1_epi32(int32_t(frame_count_))));
  const uint32_t sparse = moving & lanes_of(flag_lanes_i(ctx::kSparse));
  alignas(16) uint32_t next_frames[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(next_frames), new_next);
  if (sparse) {
    for (uint32_t lanes = sparse; lanes; lanes &= lanes - 1) {
      const uint32_t lane = uint32_t(std::countr_zero(lanes));
      const uint8_t* mask = key_masks_.data() + g[ctx::kMask + lane];
      if (kRestart && !(mask[0] & 1u)) return false;  // key 0 is not at frame 0
      // Key k + 1 exists (k is not the last).
      next_frames[lane] = next_key_frame(mask, kRestart ? 0u : g[ctx::kNext + lane]);
    }
    new_next = _mm_load_si128(reinterpret_cast<const __m128i*>(next_frames));
  }
  if (stale & ~lanes_of(_mm_cmpgt_epi32(new_next, frame))) return false;
  // The key at bit `bits` of each moving lane: float32 values, or key_codes as read_lane_key
  // reads them.
  const uint8_t* data = data_.data();
  const uint32_t floats = moving & lanes_of(flag_lanes_i(ctx::kFloat32));
  const float* f = reinterpret_cast<const float*>(g);
  auto flag_lanes = [&](uint32_t flag) { return _mm_castsi128_ps(flag_lanes_i(flag)); };
  const __m128 rotations = flag_lanes(ctx::kRotation);
  auto read_keys = [&](__m128i bits) {
    alignas(16) uint32_t bit_of[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(bit_of), bits);
    __m128 lanes_read[4] = {};
    for (uint32_t lanes = floats; lanes; lanes &= lanes - 1) {  // decode()'s float32 components
      const uint32_t lane = uint32_t(std::countr_zero(lanes));
      const uint32_t bit = bit_of[lane];
      const bool rotation = g[ctx::kFlags + lane] & ctx::kRotation;
      const __m128i v = _mm_setr_epi32(
          int32_t(read_bits(data, bit, 32)), int32_t(read_bits(data, uint64_t(bit) + 32, 32)),
          int32_t(read_bits(data, uint64_t(bit) + 64, 32)),
          rotation ? int32_t(read_bits(data, uint64_t(bit) + 96, 32)) : 0);
      lanes_read[lane] = _mm_castsi128_ps(v);
    }
    for (uint32_t lanes = moving & ~floats; lanes; lanes &= lanes - 1) {
      const uint32_t lane = uint32_t(std::countr_zero(lanes));
      const uint32_t lane_flags = g[ctx::kFlags + lane];
      lanes_read[lane] = key_codes(data, bit_of[lane], (lane_flags & ctx::kIndexBits) ? 2u : 0u,
                                   (lane_flags >> ctx::kIndexShift) & 3u, g[ctx::kBits + lane]);
    }
    return finish_keys(rows_of(lanes_read), lane_mask(floats), rotations, f + ctx::kLo,
                       f + ctx::kStep);
  };
  // Key k + 1 after the old one (forward), or key 0 and key 1 from the track's start (restart).
  const __m128i first_bit = row_i(ctx::kBitLo);
  const __m128i next_bit =
      _mm_add_epi32(kRestart ? first_bit : row_i(ctx::kNextBit), row_i(ctx::kKeyBits));
  const Quat4 a = kRestart ? read_keys(first_bit) : carried_keys(f, flags);
  Quat4 b = read_keys(next_bit);
  const __m128 moves = lane_mask(moving), slerps = _mm_and_ps(moves, rotations);
  b = {select(moves, b.x, a.x), select(moves, b.y, a.y), select(moves, b.z, a.z),
       select(moves, b.w, a.w)};
  __m128 flipped;
  const __m128 theta = prepare_pair(a, b, slerps, flipped);
  // segment_u's operands: frames (grid, dense) or the table's times (kTimeCoordinate); a
  // holding key: 0 and 1, as refill_group leaves them.
  __m128 origin = _mm_cvtepi32_ps(next), length = _mm_cvtepi32_ps(_mm_sub_epi32(new_next, next));
  // Timed lanes: sparse tracks of a clip off any grid (refill_group's rule; going forward, the
  // old segment's flag says it).
  const uint32_t timed = kRestart ? (rate_ > 0.0f ? 0u : sparse)
                                  : moving & lanes_of(flag_lanes_i(ctx::kTimeCoordinate));
  if (timed) {
    alignas(16) float o[4], l[4];
    _mm_store_ps(o, origin);
    _mm_store_ps(l, length);
    for (uint32_t lanes = timed; lanes; lanes &= lanes - 1) {
      const uint32_t lane = uint32_t(std::countr_zero(lanes));
      const uint32_t prev = kRestart ? 0u : g[ctx::kNext + lane], to = next_frames[lane];
      o[lane] = table_[prev];
      l[lane] = table_[to] - table_[prev];
    }
    origin = _mm_load_ps(o);
    length = _mm_load_ps(l);
  }
  origin = _mm_and_ps(moves, origin);
  length = select(moves, length, k(1.0f));
  // The stale lanes' rows (whole rows when every lane is: no read of the old ones).
  const bool all = stale == 0xfu;
  const __m128 mask = lane_mask(stale);
  const __m128i mask_i = lane_mask_i(stale);
  float* out = reinterpret_cast<float*>(g);
  auto put = [&](uint32_t word, __m128 row) {
    _mm_storeu_ps(out + word, all ? row : select(mask, row, _mm_loadu_ps(f + word)));
  };
  const __m128 rows_a[4] = {a.x, a.y, a.z, a.w}, rows_b[4] = {b.x, b.y, b.z, b.w};
  for (uint32_t c = 0; c < 4; ++c) {
    put(ctx::kA + c * 4, rows_a[c]);
    put(ctx::kB + c * 4, rows_b[c]);
  }
  put(ctx::kTheta, theta);
  put(ctx::kOrigin, origin);
  put(ctx::kInvLength, _mm_div_ps(k(1.0f), length));
  auto store_row = [&](uint32_t word, __m128i row, __m128i old) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(g + word),
                     _mm_or_si128(_mm_and_si128(mask_i, row), _mm_andnot_si128(mask_i, old)));
  };
  store_row(ctx::kKey, new_key, key);
  store_row(ctx::kPrev, next, row_i(ctx::kPrev));
  store_row(ctx::kNext, new_next, row_i(ctx::kNext));  // (a restart's `next` is 0)
  store_row(ctx::kNextBit, next_bit, row_i(ctx::kNextBit));
  // Flipped where b was negated; a last key holds, is not timed, and b is not key k + 1. A
  // restart interpolates in every lane (the old segment may have held the last key).
  const __m128i flipped_bit = _mm_set1_epi32(int32_t(ctx::kFlipped));
  __m128i new_flags = _mm_or_si128(_mm_andnot_si128(flipped_bit, flags),
                                   _mm_and_si128(_mm_castps_si128(flipped), flipped_bit));
  if constexpr (kRestart) {
    new_flags = _mm_andnot_si128(
        _mm_set1_epi32(int32_t(ctx::kHold | ctx::kTimeCoordinate | ctx::kBIsNext)), new_flags);
    new_flags = _mm_or_si128(new_flags, _mm_set1_epi32(int32_t(ctx::kBIsNext)));
    new_flags = _mm_or_si128(
        new_flags,
        _mm_and_si128(lane_mask_i(timed), _mm_set1_epi32(int32_t(ctx::kTimeCoordinate))));
  }
  const __m128i held = _mm_or_si128(
      _mm_andnot_si128(_mm_set1_epi32(int32_t(ctx::kBIsNext | ctx::kTimeCoordinate)), new_flags),
      _mm_set1_epi32(int32_t(ctx::kHold)));
  new_flags = _mm_or_si128(_mm_andnot_si128(in_last, new_flags), _mm_and_si128(in_last, held));
  store_row(ctx::kFlags, new_flags, flags);
  return true;
}

// Every result goes into the context as whole rows, selected by lane, and the per-lane values
// are gathered in registers (put_lane): sample() reads these rows right after, and a row read
// over four narrow stores would stall on store forwarding.
void CompressedClip::refill_group(uint32_t* g, uint32_t stale, size_t first, uint32_t fl) const {
  using namespace quat4;
  __m128 a_lanes[4] = {}, b_lanes[4] = {};
  uint32_t a_direct = 0, b_direct = 0, interpolating = 0, carried = 0, hold = 0, time_lanes = 0;
  __m128i keys = _mm_setzero_si128(), prevs = keys, nexts = keys, next_bits = keys;
  __m128 origins = _mm_setzero_ps(), lengths = origins;
  uint32_t lanes = stale;
  while (lanes) {
    const uint32_t lane = uint32_t(std::countr_zero(lanes));
    lanes &= lanes - 1;
    const Track& t = tracks_[first + lane];
    const uint32_t flags = g[ctx::kFlags + lane];
    const KeySegment s = next_segment(t, g, lane, flags, fl);
    bool direct = false;
    if ((flags & ctx::kBIsNext) && s.k == g[ctx::kKey + lane] + 1) {
      // Forward into the next segment: its key k is the old key k + 1, decoded already (taken
      // from the b rows below).
      carried |= 1u << lane;
    } else {
      a_lanes[lane] = read_lane_key(g, lane, t, s.k, direct);
      if (direct) a_direct |= 1u << lane;
    }
    float origin = 0.0f, length = 1.0f;
    if (s.hold || (t.flags & kStep)) {
      hold |= 1u << lane;  // u stays 0: key k (b is set to a below)
    } else {
      b_lanes[lane] = read_lane_key(g, lane, t, s.k + 1, direct);
      if (direct) b_direct |= 1u << lane;
      interpolating |= 1u << lane;
      next_bits =
          put_lane(next_bits, lane, g[ctx::kBitLo + lane] + (s.k + 1) * g[ctx::kKeyBits + lane]);
      // segment_u's operands.
      if ((t.flags & kDense) || rate_ > 0.0f) {
        origin = float(s.prev);
        length = float(s.next - s.prev);
      } else {
        origin = table_[s.prev];
        length = table_[s.next] - table_[s.prev];
        time_lanes |= 1u << lane;
      }
    }
    keys = put_lane(keys, lane, s.k);
    prevs = put_lane(prevs, lane, s.prev);
    nexts = put_lane(nexts, lane, s.next);
    origins = put_lane(origins, lane, origin);
    lengths = put_lane(lengths, lane, length);
  }
  const float* f = reinterpret_cast<const float*>(g);
  // The flags as the previous segments left them.
  const __m128i old_flags = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kFlags));
  auto flag_lanes = [&](uint32_t flag) {
    const __m128i bit = _mm_set1_epi32(int32_t(flag));
    return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(old_flags, bit), bit));
  };
  const __m128 rotations = flag_lanes(ctx::kRotation);
  const Quat4 old_b = carried_keys(f, old_flags);  // the carried lanes' key k
  Quat4 a = old_b;
  if (stale & ~carried) {
    const Quat4 rows = rows_of(a_lanes);
    // finish_keys passes direct values through: when every lane read is direct, they are the
    // rows as they stand.
    const Quat4 read =
        (stale & ~carried & ~a_direct) == 0
            ? rows
            : finish_keys(rows, lane_mask(a_direct), rotations, f + ctx::kLo, f + ctx::kStep);
    const __m128 c = lane_mask(carried);
    a = {select(c, old_b.x, read.x), select(c, old_b.y, read.y), select(c, old_b.z, read.z),
         select(c, old_b.w, read.w)};
  }
  const __m128 moving = lane_mask(interpolating);
  const Quat4 b_rows = rows_of(b_lanes);
  Quat4 b = (interpolating & ~b_direct) == 0
                ? b_rows
                : finish_keys(b_rows, lane_mask(b_direct), rotations, f + ctx::kLo, f + ctx::kStep);
  b = {select(moving, b.x, a.x), select(moving, b.y, a.y), select(moving, b.z, a.z),
       select(moving, b.w, a.w)};
  __m128 flipped;
  const __m128 theta = prepare_pair(a, b, _mm_and_ps(moving, rotations), flipped);
  // Only the stale lanes change.
  const __m128 mask = lane_mask(stale);
  const __m128i mask_i = lane_mask_i(stale);
  float* out = reinterpret_cast<float*>(g);
  const __m128 rows_a[4] = {a.x, a.y, a.z, a.w}, rows_b[4] = {b.x, b.y, b.z, b.w};
  for (uint32_t c = 0; c < 4; ++c) {
    _mm_storeu_ps(out + ctx::kA + c * 4,
                  select(mask, rows_a[c], _mm_loadu_ps(f + ctx::kA + c * 4)));
    _mm_storeu_ps(out + ctx::kB + c * 4,
                  select(mask, rows_b[c], _mm_loadu_ps(f + ctx::kB + c * 4)));
  }
  _mm_storeu_ps(out + ctx::kTheta, select(mask, theta, _mm_loadu_ps(f + ctx::kTheta)));
  _mm_storeu_ps(out + ctx::kOrigin, select(mask, origins, _mm_loadu_ps(f + ctx::kOrigin)));
  _mm_storeu_ps(out + ctx::kInvLength,
                select(mask, _mm_div_ps(k(1.0f), lengths), _mm_loadu_ps(f + ctx::kInvLength)));
  auto store_rows = [&](uint32_t word, __m128i row) {
    __m128i* at = reinterpret_cast<__m128i*>(g + word);
    const __m128i old = _mm_loadu_si128(at);
    _mm_storeu_si128(at, _mm_or_si128(_mm_and_si128(mask_i, row), _mm_andnot_si128(mask_i, old)));
  };
  store_rows(ctx::kKey, keys);
  store_rows(ctx::kPrev, prevs);
  store_rows(ctx::kNext, nexts);
  store_rows(ctx::kNextBit, next_bits);  // used only while kForward and kBIsNext
  // The segment's flags: the old ones less the segment bits, then this segment's.
  auto bits_in = [](uint32_t lanes_set, uint32_t flag) {
    return _mm_and_si128(lane_mask_i(lanes_set), _mm_set1_epi32(int32_t(flag)));
  };
  const __m128i segment_bits =
      _mm_set1_epi32(int32_t(ctx::kHold | ctx::kTimeCoordinate | ctx::kFlipped | ctx::kBIsNext));
  __m128i flags = _mm_andnot_si128(segment_bits, old_flags);
  flags = _mm_or_si128(flags, bits_in(hold, ctx::kHold));
  flags = _mm_or_si128(flags, bits_in(time_lanes, ctx::kTimeCoordinate));
  flags = _mm_or_si128(flags, bits_in(interpolating, ctx::kBIsNext));
  flags = _mm_or_si128(
      flags, _mm_and_si128(_mm_castps_si128(flipped), _mm_set1_epi32(int32_t(ctx::kFlipped))));
  store_rows(ctx::kFlags, flags);
}

void CompressedClip::sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                            std::span<float> morph_weights) const {
  uint32_t scratch = 0;
  uint32_t& frame_cursor = cursors.empty() ? scratch : cursors[0];
  const float x = frame_coordinate(time, frame_cursor);
  if (cursors.size() < cursor_count()) {
    sample_uncached(x, time, local, morph_weights);
    return;
  }
  uint32_t* context = cursors.data();
  if (context[1] != serial_ || context[2] != ~serial_) init_context(context);
  const uint32_t fl = std::min(uint32_t(x), frame_count_ - 1);
  const size_t track_count = tracks_.size();
  // Every node written exists (the usual case): no per-track check.
  const bool all_nodes = context[3] <= local.size();
  char* pose = reinterpret_cast<char*>(local.data());
  using namespace quat4;
  const __m128i frame = _mm_set1_epi32(int32_t(fl));
  const __m128 xs = _mm_set1_ps(x), times = _mm_set1_ps(time);
  // Two passes: first the refills (calls, branches), then the interpolation, straight-line per
  // group so that the groups' long dependency chains (slerp, then normalization) overlap.
  auto active_lanes = [&](size_t first, __m128i flags) {
    const __m128i trs = _mm_set1_epi32(int32_t(ctx::kTrs));
    uint32_t active = uint32_t(
        _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(flags, trs), trs))));
    if (!all_nodes) {
      const uint32_t lanes = uint32_t(std::min<size_t>(4, track_count - first));
      for (uint32_t lane = 0; lane < lanes; ++lane)
        if (tracks_[first + lane].node >= local.size()) active &= ~(1u << lane);
    }
    return active;
  };
  // Within the frames where every segment holds, nothing to refill; else refill the stale
  // lanes and find those frames again, from the T/R/S lanes' segments (a superset of the
  // active ones: the window is never wider than theirs).
  if (!(context[4] <= fl && fl < context[5])) {
    __m128i from = _mm_setzero_si128(), until = _mm_set1_epi32(0x7fffffff);
    for (size_t first = 0; first < track_count; first += 4) {
      uint32_t* g = context + kContextHeader + (first / 4) * kGroupWords;
      const __m128i flags = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kFlags));
      const uint32_t active = active_lanes(first, flags);
      if (!active) continue;
      // Lanes whose segment does not hold this frame (frames < 2^16: signed compares are exact).
      __m128i prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kPrev));
      __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kNext));
      const uint32_t before =
          uint32_t(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(frame, prev))));
      const uint32_t inside =
          uint32_t(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(next, frame))));
      const uint32_t stale = (before | (~inside & 0xfu)) & active;
      if (stale) {
        if (!refill_forward<false>(g, stale, fl) && !refill_forward<true>(g, stale, fl))
          refill_group(g, stale, first, fl);
        prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kPrev));
        next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kNext));
      }
      const __m128i trs_bit = _mm_set1_epi32(int32_t(ctx::kTrs));
      const __m128i trs = _mm_cmpeq_epi32(_mm_and_si128(flags, trs_bit), trs_bit);
      const __m128i later = _mm_and_si128(trs, _mm_cmpgt_epi32(prev, from));
      from = _mm_or_si128(_mm_and_si128(later, prev), _mm_andnot_si128(later, from));
      const __m128i sooner = _mm_and_si128(trs, _mm_cmplt_epi32(next, until));
      until = _mm_or_si128(_mm_and_si128(sooner, next), _mm_andnot_si128(sooner, until));
    }
    alignas(16) int32_t f4[4], u4[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(f4), from);
    _mm_store_si128(reinterpret_cast<__m128i*>(u4), until);
    context[4] = uint32_t(std::max(std::max(f4[0], f4[1]), std::max(f4[2], f4[3])));
    context[5] = uint32_t(std::min(std::min(u4[0], u4[1]), std::min(u4[2], u4[3])));
  }
  for (size_t first = 0; first < track_count; first += 4) {
    uint32_t* g = context + kContextHeader + (first / 4) * kGroupWords;
    const uint32_t lanes = uint32_t(std::min<size_t>(4, track_count - first));
    // Lane bits of the flags (lanes past the last track have none).
    const __m128i flags = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + ctx::kFlags));
    auto lanes_with = [&](uint32_t flag) {
      const __m128i f = _mm_set1_epi32(int32_t(flag));
      return uint32_t(
          _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(flags, f), f))));
    };
    const uint32_t active = active_lanes(first, flags);
    if (!active) continue;
    auto now_with = [&](uint32_t flag) {  // the segments' flags
      const __m128i f = _mm_set1_epi32(int32_t(flag));
      return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(flags, f), f));
    };
    const uint32_t rotations = lanes_with(ctx::kRotation);
    const float* f = reinterpret_cast<const float*>(g);  // the context's float rows
    // u per lane (segment_u), 0 where key k holds.
    const __m128 coordinate = select(now_with(ctx::kTimeCoordinate), times, xs);
    __m128 u =
        mul(sub(coordinate, _mm_loadu_ps(f + ctx::kOrigin)), _mm_loadu_ps(f + ctx::kInvLength));
    u = _mm_andnot_ps(now_with(ctx::kHold), u);
    const __m128 moving = _mm_cmpgt_ps(u, _mm_setzero_ps());
    const Quat4 a{_mm_loadu_ps(f + ctx::kA), _mm_loadu_ps(f + ctx::kA + 4),
                  _mm_loadu_ps(f + ctx::kA + 8), _mm_loadu_ps(f + ctx::kA + 12)};
    const Quat4 b{_mm_loadu_ps(f + ctx::kB), _mm_loadu_ps(f + ctx::kB + 4),
                  _mm_loadu_ps(f + ctx::kB + 8), _mm_loadu_ps(f + ctx::kB + 12)};
    if (active == 0xfu && rotations == 0xfu) {  // four rotations: slerp or key k, 16 bytes each
      Quat4 r = a;
      const int slerping = _mm_movemask_ps(moving);
      if (slerping) {
        r = slerp_prepared4(a, b, _mm_loadu_ps(f + ctx::kTheta), u);
        if (slerping != 0xf)  // key k itself where u = 0
          r = {select(moving, r.x, a.x), select(moving, r.y, a.y), select(moving, r.z, a.z),
               select(moving, r.w, a.w)};
      }
      scatter_quats(r, reinterpret_cast<float*>(pose + g[ctx::kDest]),
                    reinterpret_cast<float*>(pose + g[ctx::kDest + 1]),
                    reinterpret_cast<float*>(pose + g[ctx::kDest + 2]),
                    reinterpret_cast<float*>(pose + g[ctx::kDest + 3]));
      continue;
    }
    // Key k where u = 0, else a + (b − a)·u, or for rotations the slerp.
    Quat4 r{select(moving, add(a.x, mul(sub(b.x, a.x), u)), a.x),
            select(moving, add(a.y, mul(sub(b.y, a.y), u)), a.y),
            select(moving, add(a.z, mul(sub(b.z, a.z), u)), a.z),
            select(moving, add(a.w, mul(sub(b.w, a.w), u)), a.w)};
    const __m128 slerped = _mm_and_ps(moving, lane_mask(rotations));
    if (_mm_movemask_ps(slerped)) {
      const Quat4 q = slerp_prepared4(a, b, _mm_loadu_ps(f + ctx::kTheta), u);
      r = {select(slerped, q.x, r.x), select(slerped, q.y, r.y), select(slerped, q.z, r.z),
           select(slerped, q.w, r.w)};
    }
    _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
    const __m128 rows[4] = {r.x, r.y, r.z, r.w};
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      if (!(active & (1u << lane))) continue;
      char* dest = pose + g[ctx::kDest + lane];
      if (rotations & (1u << lane)) {
        _mm_storeu_ps(reinterpret_cast<float*>(dest), rows[lane]);
      } else {  // 12 bytes: x, y, then z
        _mm_storel_pi(reinterpret_cast<__m64*>(dest), rows[lane]);
        _mm_store_ss(reinterpret_cast<float*>(dest) + 2,
                     _mm_shuffle_ps(rows[lane], rows[lane], _MM_SHUFFLE(2, 2, 2, 2)));
      }
    }
  }
  if (weight_offsets_.empty()) return;
  for (size_t i = 0; i < track_count; ++i) {  // morph weights, each track on its own
    const uint32_t* g = context + kContextHeader + (i / 4) * kGroupWords;
    const uint32_t lane = uint32_t(i % 4), flags = g[ctx::kFlags + lane];
    const Track& t = tracks_[i];
    if (!(flags & ctx::kWeights) || t.node >= local.size()) continue;
    sample_weight_track(t, offsets_of_lane(g, lane), flags >> 16, x, time, morph_weights);
  }
}

}  // namespace rig
