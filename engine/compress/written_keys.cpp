#include "compress/written_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "compress/clip_compression.h"
#include "write/document_edit.h"

namespace rig {

namespace {

// Whether channel c goes out as 16-bit integers under `flags`.
bool stored_sixteen_bit(std::span<const Channel> channels, std::span<const uint8_t> flags,
                        size_t c) {
  return c < flags.size() && flags[c] && sixteen_bit_allowed(channels[c]);
}

}  // namespace

std::vector<Channel> written_channels(const CompressedClip& clip, const Model& model,
                                      std::span<const uint8_t> sixteen_bit) {
  std::vector<Channel> channels = reduced_channels(clip, model);
  for (size_t c = 0; c < channels.size(); ++c) {
    const bool as_16 = stored_sixteen_bit(channels, sixteen_bit, c);
    if (channels[c].path == TargetPath::Rotation)
      round_rotations(channels[c], as_16);
    else if (as_16)
      round_weights(channels[c]);
  }
  return channels;
}

double short_rotation_cost(const float* q, const double* c) {
  double len2 = 0.0, dot = 0.0;
  for (int i = 0; i < 4; ++i) len2 += c[i] * c[i], dot += c[i] * double(q[i]);
  if (len2 <= 0.0) return 1e30;
  const double len = std::sqrt(len2), sign = dot < 0.0 ? -1.0 : 1.0;
  double chord2 = 0.0;  // |c/|c| − ±q|² = (2 sin(φ/2))², φ the 4D angle; the rotation is off 2φ
  for (int i = 0; i < 4; ++i) {
    const double d = sign * c[i] / len - double(q[i]);
    chord2 += d * d;
  }
  const double angle = 4.0 * std::asin(std::min(1.0, std::sqrt(chord2) / 2.0));
  // |I − R|·d = 2 sin(θ/2)·d for a rotation by θ; sin(θ/2) is the length of q's vector part.
  const double half_sine =
      std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2]);
  return angle + 2.0 * std::abs(1.0 - len2 / (32767.0 * 32767.0)) * std::min(1.0, half_sine);
}

void nearest_short_rotation(const float* q, int16_t* out) {
  // Candidates: every component within (−2, 2) of q·32767, i.e. floor − 1 … floor + 2 (256).
  double base[4], best_cost = 1e300;
  for (int i = 0; i < 4; ++i) {
    base[i] = std::floor(double(std::clamp(q[i], -1.0f, 1.0f)) * 32767.0) - 1.0;
    out[i] = int16_t(std::lround(double(std::clamp(q[i], -1.0f, 1.0f)) * 32767.0));
  }
  for (int m = 0; m < 256; ++m) {
    double c[4];
    for (int i = 0; i < 4; ++i)
      c[i] = std::clamp(base[i] + double((m >> (2 * i)) & 3), -32767.0, 32767.0);
    const double cost = short_rotation_cost(q, c);
    if (cost < best_cost) {
      best_cost = cost;
      for (int i = 0; i < 4; ++i) out[i] = int16_t(c[i]);
    }
  }
}

void round_rotations(Channel& ch, bool short_rotations, std::vector<int16_t>* shorts) {
  if (shorts) shorts->assign(short_rotations ? ch.values.size() : 0, 0);
  for (size_t k = 0; k < ch.times.size(); ++k) {
    float* q = &ch.values[k * 4];
    if (short_rotations) {
      int16_t s[4];
      nearest_short_rotation(q, s);
      if (shorts) std::copy(s, s + 4, shorts->begin() + std::ptrdiff_t(k * 4));
      for (int i = 0; i < 4; ++i) q[i] = float(s[i]) / 32767.0f;  // as the spec dequantizes
    }
    // The importer normalizes rotation keys; do the same so the measure sees what plays.
    double len = 0.0;
    for (int i = 0; i < 4; ++i) len += double(q[i]) * q[i];
    for (int i = 0; i < 4; ++i) q[i] = float(q[i] / std::sqrt(len));
  }
  keep_one_hemisphere(ch, shorts && !shorts->empty() ? shorts : nullptr);
}

void keep_one_hemisphere(Channel& ch, std::vector<int16_t>* shorts) {
  if (ch.path != TargetPath::Rotation || ch.interpolation == Interpolation::CubicSpline) return;
  for (size_t k = 1; k < ch.times.size() && (k + 1) * 4 <= ch.values.size(); ++k) {
    float* q = &ch.values[k * 4];
    const float* p = q - 4;
    if (double(p[0]) * q[0] + double(p[1]) * q[1] + double(p[2]) * q[2] + double(p[3]) * q[3] >=
        0.0)
      continue;
    for (int i = 0; i < 4; ++i) q[i] = -q[i];  // the same rotation
    if (shorts)
      for (size_t i = 0; i < 4; ++i) {
        int16_t& c = (*shorts)[k * 4 + i];
        c = int16_t(-c);  // exact: SHORT components lie in [−32767, 32767]
      }
  }
}

bool sixteen_bit_allowed(const Channel& ch) {
  if (ch.path == TargetPath::Rotation) return true;
  if (ch.path != TargetPath::Weights || ch.interpolation == Interpolation::CubicSpline)
    return false;
  for (float v : ch.values)
    if (!(v >= -1.0f && v <= 1.0f)) return false;
  return true;
}

int round_weights(Channel& ch, std::vector<int16_t>* words) {
  // UNSIGNED_SHORT (twice the steps) unless a weight is negative.
  bool is_unsigned = true;
  for (float v : ch.values) is_unsigned = is_unsigned && v >= 0.0f;
  if (words) words->assign(ch.values.size(), 0);
  for (size_t i = 0; i < ch.values.size(); ++i) {
    const double v = std::clamp(double(ch.values[i]), -1.0, 1.0);
    // The spec's decoding, exactly as the importer does it (accessor_reader.cpp).
    if (is_unsigned) {
      const auto c = uint16_t(std::lround(v * 65535.0));
      if (words) (*words)[i] = int16_t(c);  // the bits as written
      ch.values[i] = float(c) / 65535.0f;
    } else {
      const auto c = int16_t(std::lround(v * 32767.0));
      if (words) (*words)[i] = c;
      ch.values[i] = std::max(float(c) / 32767.0f, -1.0f);
    }
  }
  return is_unsigned ? write::kUnsignedShort : write::kShort;
}

size_t written_bytes(std::span<const Channel> channels, std::span<const uint8_t> sixteen_bit) {
  size_t bytes = 0;
  std::vector<const std::vector<float>*> inputs;  // key times shared between channels
  std::vector<size_t> outputs;                    // channels whose outputs were counted
  for (size_t c = 0; c < channels.size(); ++c) {
    const Channel& ch = channels[c];
    bool shared = false;
    for (const std::vector<float>* times : inputs) shared = shared || *times == ch.times;
    if (!shared) {
      inputs.push_back(&ch.times);
      bytes += ch.times.size() * sizeof(float);
    }
    const bool as_16 = stored_sixteen_bit(channels, sixteen_bit, c);
    // Equal outputs in the same form are one accessor (the values after rounding decide: equal
    // rounded values come from equal 16-bit words).
    bool same_output = false;
    for (size_t o : outputs)
      same_output = same_output || (channels[o].path == ch.path &&
                                    stored_sixteen_bit(channels, sixteen_bit, o) == as_16 &&
                                    channels[o].values == ch.values);
    if (same_output) continue;
    outputs.push_back(c);
    bytes += ch.values.size() * (as_16 ? sizeof(int16_t) : sizeof(float));
  }
  return bytes;
}

}  // namespace rig
