#include "anim/compressed_clip.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "anim/compressed_clip_internal.h"
#include "anim/quat_simd.h"

namespace rig {

namespace {

// A new tag for a clip's content: never 0, so a zeroed context never matches.
uint32_t next_serial() {
  static std::atomic<uint32_t> counter{0};
  uint32_t s;
  do s = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  while (s == 0);
  return s;
}

void write_bits(std::vector<uint8_t>& data, uint64_t bit, uint32_t count, uint32_t value) {
  for (uint32_t i = 0; i < count; ++i, ++bit)
    if ((value >> i) & 1u) data[size_t(bit >> 3)] |= uint8_t(1u << (bit & 7u));
}

}  // namespace

uint32_t smallest_three_encode(const float q[4], float out[3]) {
  uint32_t largest = 0;
  for (uint32_t i = 1; i < 4; ++i)
    if (std::abs(q[i]) > std::abs(q[largest])) largest = i;
  const float sign = q[largest] < 0.0f ? -1.0f : 1.0f;
  for (uint32_t i = 0, o = 0; i < 4; ++i)
    if (i != largest) out[o++] = sign * q[i];
  return largest;
}

void smallest_three_decode(uint32_t index, const float in[3], float q[4]) {
  // Where the three stored components go, per dropped index: no branch per component (the
  // index changes from track to track, so branches on it mispredict).
  static constexpr uint8_t kSlots[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  const uint8_t* slot = kSlots[index & 3u];
  float sum = 0.0f;
  for (uint32_t o = 0; o < 3; ++o) {
    q[slot[o]] = in[o];
    sum += in[o] * in[o];
  }
  q[index & 3u] = std::sqrt(std::max(0.0f, 1.0f - sum));
}

void CompressedClip::set_frames(float start, float end, uint32_t frame_count, float rate_hz,
                                std::vector<float> table) {
  start_ = start;
  end_ = end;
  frame_count_ = std::max<uint32_t>(frame_count, 1);
  rate_ = rate_hz;
  table_ = std::move(table);
  serial_ = next_serial();
}

float CompressedClip::frame_time(uint32_t frame) const {
  if (rate_ <= 0.0f)
    return table_.empty() ? start_ : table_[std::min<size_t>(frame, table_.size() - 1)];
  if (frame + 1 >= frame_count_) return end_;
  return std::min(float(double(start_) + double(frame) / rate_), end_);
}

bool CompressedClip::add_track(int node, TargetPath path, bool step, uint32_t components,
                               std::span<const uint8_t> bits, std::span<const uint32_t> frames,
                               std::span<const float> values, uint32_t morph_offset) {
  const size_t keys = frames.size();
  if (keys == 0 || keys > 0xffff || node < 0 || node > 0xffff || components == 0 ||
      components > 255 || values.size() != keys * components || bits.empty())
    return false;
  const bool is_float = bits.size() == 1 && bits[0] == 32;
  Track t;
  t.node = uint16_t(node);
  t.path = uint8_t(path);
  t.components = uint8_t(components);
  t.key_count = uint16_t(keys);
  t.flags = uint8_t((step ? kStep : 0) | (is_float ? kFloat : 0));
  const bool rotation = path == TargetPath::Rotation;
  const uint32_t stored = stored_components(t);
  std::vector<uint8_t> widths(stored, 32);
  if (!is_float) {
    if (bits.size() != 1 && bits.size() != stored) return false;
    for (uint32_t c = 0; c < stored; ++c) {
      widths[c] = bits.size() == 1 ? bits[0] : bits[c];
      if (widths[c] == 0 || widths[c] > 24) return false;
    }
  }
  for (size_t k = 0; k < keys; ++k)
    if (frames[k] >= frame_count_ || (k > 0 && frames[k] <= frames[k - 1])) return false;
  bool dense = keys > 1 && keys == frame_count_;
  for (size_t k = 0; dense && k < keys; ++k) dense = frames[k] == k;
  if (dense) t.flags |= kDense;
  if (!dense && keys > 1) {
    // Byte-granular masks, 8 bytes of padding kept at the end for 64-bit reads.
    if (key_masks_.empty()) key_masks_.resize(8, 0);
    const size_t first = key_masks_.size() - 8;
    key_masks_.resize(key_masks_.size() + mask_bytes(), 0);
    for (size_t k = 0; k < keys; ++k)
      key_masks_[first + frames[k] / 8] |= uint8_t(1u << (frames[k] % 8));
  }

  // The values as stored, before quantization (smallest-three for quantized rotations).
  std::vector<float> raw(keys * stored);
  std::vector<uint32_t> index(keys, 0);
  for (size_t k = 0; k < keys; ++k) {
    const float* v = values.data() + k * components;
    if (rotation && !is_float)
      index[k] = smallest_three_encode(v, raw.data() + k * 3);
    else
      std::copy_n(v, components, raw.data() + k * stored);
  }
  // One dropped component for every key: stored once, in the flags.
  const bool one_index =
      rotation && !is_float &&
      std::all_of(index.begin(), index.end(), [&](uint32_t i) { return i == index[0]; });
  if (one_index) t.flags |= uint8_t(kOneIndex | (index[0] << 4));
  if (constant_rotation(t)) {
    // One key: its three components as 16-bit fixed point, nearest, no range or data.
    for (uint32_t c = 0; c < 3; ++c)
      rotation_ranges_.push_back(uint16_t(
          std::clamp(std::round((double(raw[c]) + kRotationRange) / (2 * kRotationRange) * 65535.0),
                     0.0, 65535.0)));
    tracks_.push_back(t);
    serial_ = next_serial();
    return true;
  }
  std::vector<float> lo(stored), step_size(stored);
  if (!is_float) {
    for (uint32_t c = 0; c < stored; ++c) {
      float mn = raw[c], mx = raw[c];
      for (size_t k = 1; k < keys; ++k) {
        mn = std::min(mn, raw[k * stored + c]);
        mx = std::max(mx, raw[k * stored + c]);
      }
      if (rotation) {
        // Smallest-three components lie in [-1/√2, 1/√2]: the minimum in 16-bit fixed point
        // (rounded down), the extent on an 8-bit log scale (rounded up), the keys quantized
        // over the decoded interval.
        const uint16_t qlo = uint16_t(
            std::clamp(std::floor((double(mn) + kRotationRange) / (2 * kRotationRange) * 65535.0),
                       0.0, 65535.0));
        lo[c] = rotation_end(qlo);
        uint32_t j = 0;
        while (j < 255 && kExtents[j] < mx - lo[c]) ++j;
        rotation_ranges_.push_back(qlo);
        rotation_extents_.push_back(uint8_t(j));
        step_size[c] = kExtents[j] * kInvLevels[widths[c]];
      } else {
        lo[c] = mn;
        step_size[c] = (mx - mn) * kInvLevels[widths[c]];
        ranges_.push_back(lo[c]);
        ranges_.push_back(step_size[c]);
      }
      bits_.push_back(widths[c]);
    }
  }
  uint32_t kb = (rotation && !is_float && !one_index) ? 2u : 0u;
  for (uint32_t c = 0; c < stored; ++c) kb += widths[c];
  uint64_t bit = data_bits_;
  data_bits_ += uint64_t(kb) * keys;
  data_.resize(size_t((data_bits_ + 7) / 8) + 8, 0);
  for (size_t k = 0; k < keys; ++k) {
    if (rotation && !is_float && !one_index) {
      write_bits(data_, bit, 2, index[k]);
      bit += 2;
    }
    for (uint32_t c = 0; c < stored; ++c) {
      const float v = raw[k * stored + c];
      uint32_t q;
      if (is_float) {
        std::memcpy(&q, &v, 4);
      } else {
        const float sz = step_size[c];
        const double n = sz > 0.0f ? std::round((double(v) - lo[c]) / sz) : 0.0;
        q = uint32_t(std::clamp(n, 0.0, double((1u << widths[c]) - 1u)));
      }
      write_bits(data_, bit, widths[c], q);
      bit += widths[c];
    }
  }
  tracks_.push_back(t);
  if (path == TargetPath::Weights) weight_offsets_.push_back(morph_offset);
  serial_ = next_serial();
  return true;
}

CompressedClip::Offsets CompressedClip::offsets_of(size_t track) const {
  Offsets o;
  for (size_t i = 0; i < track && i < tracks_.size(); ++i)
    advance(tracks_[i], key_bits(tracks_[i], o), o);
  return o;
}

std::span<const uint8_t> CompressedClip::track_bits(size_t track) const {
  const Track& t = tracks_[track];
  if ((t.flags & kFloat) || constant_rotation(t)) return {};
  return std::span<const uint8_t>(bits_).subspan(offsets_of(track).bits, stored_components(t));
}

void CompressedClip::decode_key(size_t track, uint32_t k, float* out) const {
  const Offsets o = offsets_of(track);
  decode(tracks_[track], o, key_bits(tracks_[track], o), k, out);
}

uint32_t CompressedClip::key_frame(size_t track, uint32_t k) const {
  const Track& t = tracks_[track];
  if (t.flags & kDense) return k;
  if (t.key_count == 1) return 0;
  const uint8_t* masks = key_masks_.data() + offsets_of(track).mask;
  for (uint32_t w = 0;; ++w) {
    const uint64_t word_w = mask_word(masks, w);
    const uint32_t count = uint32_t(std::popcount(word_w));
    if (k < count) {
      uint64_t word = word_w;
      for (uint32_t i = 0; i < k; ++i) word &= word - 1;  // clear the k lowest set bits
      return w * 64 + uint32_t(std::countr_zero(word));
    }
    k -= count;
  }
}

CompressedClip::ByteBreakdown CompressedClip::byte_breakdown() const {
  ByteBreakdown b;
  // start, end, rate (float32), frame count, track count (uint16). Stream lengths follow from
  // the descriptors, which the runtime walks anyway.
  b.header = 3 * 4 + 2 * 2;
  b.tracks = tracks_.size() * sizeof(Track);
  b.key_masks = key_masks_.size();
  b.ranges = ranges_.size() * sizeof(float) + rotation_ranges_.size() * sizeof(uint16_t) +
             rotation_extents_.size();
  b.bit_widths = bits_.size();
  b.data = data_.size();
  b.table = table_.size() * sizeof(float);
  b.weights = weight_offsets_.size() * sizeof(uint32_t);
  return b;
}

size_t CompressedClip::byte_size() const {
  const ByteBreakdown b = byte_breakdown();
  return b.header + b.tracks + b.key_masks + b.bit_widths + b.ranges + b.data + b.table + b.weights;
}

}  // namespace rig
