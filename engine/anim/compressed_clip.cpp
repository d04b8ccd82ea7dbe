#include "anim/compressed_clip.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

namespace rig {

namespace {

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

inline uint32_t read_bits(const uint8_t* data, uint64_t bit, uint32_t count) {
  uint64_t word;
  std::memcpy(&word, data + (bit >> 3), sizeof word);
  word >>= (bit & 7u);
  return count >= 32 ? uint32_t(word) : uint32_t(word & ((uint64_t(1) << count) - 1u));
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
  float sum = 0.0f;
  for (uint32_t i = 0, o = 0; i < 4; ++i)
    if (i != index) {
      q[i] = in[o];
      sum += in[o] * in[o];
      ++o;
    }
  q[index] = std::sqrt(std::max(0.0f, 1.0f - sum));
}

void CompressedClip::set_frames(float start, float end, uint32_t frame_count, float rate_hz,
                                std::vector<float> table) {
  start_ = start;
  end_ = end;
  frame_count_ = std::max<uint32_t>(frame_count, 1);
  rate_ = rate_hz;
  table_ = std::move(table);
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
  return true;
}

uint32_t CompressedClip::key_bits(const Track& t, const Offsets& o) const {
  if (t.flags & kFloat) return 32u * t.components;
  const uint32_t stored = stored_components(t);
  if (constant_rotation(t)) return 0;
  uint32_t kb = (t.path == uint8_t(TargetPath::Rotation) && !(t.flags & kOneIndex)) ? 2u : 0u;
  for (uint32_t c = 0; c < stored; ++c) kb += bits_[o.bits + c];
  return kb;
}

void CompressedClip::advance(const Track& t, uint32_t kb, Offsets& o) const {
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

void CompressedClip::decode(const Track& t, const Offsets& o, uint32_t kb, uint32_t k,
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

float CompressedClip::frame_coordinate(float time, uint32_t& cursor) const {
  const float last = float(frame_count_ - 1);
  if (!(time > start_)) return 0.0f;
  if (time >= end_) return last;
  if (rate_ > 0.0f) {
    float x = (time - start_) * rate_;
    // A sample time on a frame lands on it exactly (STEP tracks switch there).
    const float r = std::round(x);
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

void CompressedClip::sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                            std::span<float> morph_weights) const {
  uint32_t scratch = 0;
  const size_t track_count = tracks_.size();
  uint32_t& frame_cursor = cursors.empty() ? scratch : cursors[0];
  const float x = frame_coordinate(time, frame_cursor);
  float a[256], b[256];
  size_t w = 0;  // weight tracks seen: index into weight_offsets_
  Offsets o;     // the stream offsets of track i, summed on the way
  uint32_t kb = 0;
  for (size_t i = 0; i < track_count; ++i, advance(tracks_[i - 1], kb, o)) {
    const Track& t = tracks_[i];
    kb = key_bits(t, o);
    if (t.node >= local.size()) {
      if (t.path == uint8_t(TargetPath::Weights)) ++w;
      continue;
    }
    const uint32_t m = t.components;
    const uint32_t keys = t.key_count;
    float* out = a;
    if (keys == 1) {
      decode(t, o, kb, 0, a);
    } else {
      // Segment k: key_frame(k) <= x < key_frame(k + 1), the ends held.
      uint32_t k;
      float u = 0.0f;
      bool hold = false;
      if (t.flags & kDense) {
        const float fl = std::floor(x);
        k = uint32_t(fl);
        if (k + 1 >= keys) {
          k = keys - 1;
          hold = true;
        } else {
          u = x - fl;
        }
      } else {
        // Keys at the set bits of the mask: the last at or before floor(x), the first after.
        // Bits past the last frame in the last word belong to the next mask: every search
        // below stops at a real key before reaching them.
        const uint8_t* masks = key_masks_.data() + o.mask;
        const uint32_t fl = std::min(uint32_t(x), frame_count_ - 1);
        uint32_t wd = fl / 64;
        uint64_t below = mask_word(masks, wd) & (~uint64_t(0) >> (63 - fl % 64));  // 0..fl%64
        while (below == 0 && wd > 0) below = mask_word(masks, --wd);
        if (below == 0) {  // x before the first key
          k = 0;
          hold = true;
        } else {
          const uint32_t prev = wd * 64 + 63 - uint32_t(std::countl_zero(below));
          uint32_t rank = uint32_t(std::popcount(below)) - 1;
          for (uint32_t i2 = 0; i2 < wd; ++i2)
            rank += uint32_t(std::popcount(mask_word(masks, i2)));
          k = rank;
          if (k + 1 >= keys) {
            hold = true;
          } else if (!(t.flags & kStep)) {
            uint32_t v = fl / 64;
            uint64_t above =
                fl % 64 == 63 ? 0 : mask_word(masks, v) & (~uint64_t(0) << (fl % 64 + 1));
            while (above == 0) above = mask_word(masks, ++v);  // a key after prev exists
            const uint32_t next = v * 64 + uint32_t(std::countr_zero(above));
            // Linear in time: on a grid frames are evenly spaced, in a table they are not.
            u = rate_ > 0.0f ? (x - float(prev)) / float(next - prev)
                             : (time - table_[prev]) / (table_[next] - table_[prev]);
          }
        }
      }
      decode(t, o, kb, k, a);
      if (!hold && !(t.flags & kStep) && u > 0.0f) {
        decode(t, o, kb, k + 1, b);
        if (t.path == uint8_t(TargetPath::Rotation)) {
          float q[4];
          slerp_keys(a, b, u, q);
          std::copy_n(q, 4, a);
        } else {
          for (uint32_t j = 0; j < m; ++j) a[j] = a[j] + (b[j] - a[j]) * u;
        }
      }
    }
    Transform& tr = local[t.node];
    switch (TargetPath(t.path)) {
      case TargetPath::Translation:
        tr.translation = glm::vec3(out[0], out[1], out[2]);
        break;
      case TargetPath::Scale:
        tr.scale = glm::vec3(out[0], out[1], out[2]);
        break;
      case TargetPath::Rotation:
        tr.rotation = glm::quat(out[3], out[0], out[1], out[2]);
        break;
      case TargetPath::Weights: {
        const uint32_t offset = weight_offsets_[w++];
        if (size_t(offset) + m <= morph_weights.size()) std::copy_n(out, m, &morph_weights[offset]);
        break;
      }
    }
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
