#include "compress/written_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "anim/clip_source.h"
#include "compress/clip_compression.h"
#include "compress/clip_error.h"
#include "compress/written_keys.h"
#include "write/document_edit.h"

namespace rig {

namespace {

// The written channels span the clip as the file's did: a player takes a clip's length from its
// key times, and glTF requires at least one channel per animation. The keys added repeat the
// value a player holds there anyway (the first key's before it, the last key's after it), so
// nothing plays differently. A clip whose every track was dropped (all at rest) gets one channel:
// the rest value of the file's first target, over the clip's span.
void keep_clip_span(std::vector<Channel>& channels, const Model& model, int clip) {
  const Clip& c = model.clips[size_t(clip)];
  if (channels.empty()) {
    if (c.channels.empty()) return;
    const Channel& first = c.channels.front();
    if (first.node < 0 || size_t(first.node) >= model.nodes.size()) return;
    const Node& node = model.nodes[size_t(first.node)];
    Channel held;
    held.node = first.node;
    held.path = first.path;
    held.components = first.components;
    const Transform& rest = node.rest;
    switch (first.path) {
      case TargetPath::Translation:
        held.values = {rest.translation.x, rest.translation.y, rest.translation.z};
        break;
      case TargetPath::Rotation:
        held.values = {rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w};
        break;
      case TargetPath::Scale:
        held.values = {rest.scale.x, rest.scale.y, rest.scale.z};
        break;
      case TargetPath::Weights:
        if (node.morph_count != first.components ||
            size_t(node.morph_offset) + node.morph_count > model.rest_morph_weights.size())
          return;
        held.values.assign(model.rest_morph_weights.begin() + node.morph_offset,
                           model.rest_morph_weights.begin() + node.morph_offset + node.morph_count);
        break;
    }
    held.times = {c.start};
    channels.push_back(std::move(held));
  }
  auto by_first = [](const Channel& a, const Channel& b) {
    return a.times.front() < b.times.front();
  };
  auto by_last = [](const Channel& a, const Channel& b) { return a.times.back() < b.times.back(); };
  Channel& earliest = *std::min_element(channels.begin(), channels.end(), by_first);
  if (earliest.times.front() > c.start) {
    earliest.times.insert(earliest.times.begin(), c.start);
    const std::vector<float> first_value(earliest.values.begin(),
                                         earliest.values.begin() + earliest.components);
    earliest.values.insert(earliest.values.begin(), first_value.begin(), first_value.end());
  }
  Channel& latest = *std::max_element(channels.begin(), channels.end(), by_last);
  if (latest.times.back() < c.end) {
    latest.times.push_back(c.end);
    const size_t from = latest.values.size() - latest.components;
    for (size_t i = 0; i < latest.components; ++i) latest.values.push_back(latest.values[from + i]);
  }
}

// The written clip as a player that builds matrices from the SHORT rotation keys as stored plays
// it (stored_length_e_max in the header).
class StoredLengthPlayback final : public ClipSource {
 public:
  StoredLengthPlayback(const Model& model, const Clip& clip, std::span<const uint8_t> flags,
                       std::span<const std::vector<int16_t>> words)
      : clip_(clip), inner_(model, clip_) {
    for (size_t c = 0; c < clip_.channels.size(); ++c) {
      const Channel& ch = clip_.channels[c];
      if (ch.path != TargetPath::Rotation || c >= flags.size() || !flags[c] || c >= words.size() ||
          words[c].size() != ch.values.size())
        continue;
      Lengths l{size_t(ch.node), &ch.times, ch.interpolation == Interpolation::Step, {}};
      for (size_t k = 0; k + 3 < words[c].size(); k += 4) {
        double s2 = 0.0;
        for (size_t i = 0; i < 4; ++i) s2 += double(words[c][k + i]) * double(words[c][k + i]);
        l.length.push_back(float(std::sqrt(s2) / 32767.0));
      }
      lengths_.push_back(std::move(l));
    }
  }
  StoredLengthPlayback(const StoredLengthPlayback&) = delete;  // lengths_ points into clip_
  StoredLengthPlayback& operator=(const StoredLengthPlayback&) = delete;
  bool any() const { return !lengths_.empty(); }
  float start() const override { return inner_.start(); }
  float end() const override { return inner_.end(); }
  size_t cursor_count() const override { return inner_.cursor_count(); }
  std::span<const int> animated_nodes() const override { return inner_.animated_nodes(); }
  void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
              std::span<float> morph_weights) const override {
    inner_.sample(time, cursors, local, morph_weights);
    for (const Lengths& l : lengths_) {
      const std::vector<float>& t = *l.times;
      float s = l.length.front();
      if (time >= t.back()) {
        s = l.length.back();
      } else if (time > t.front()) {
        const size_t k = size_t(std::upper_bound(t.begin(), t.end(), time) - t.begin()) - 1;
        const float u = l.step ? 0.0f : (time - t[k]) / (t[k + 1] - t[k]);
        s = l.length[k] + (l.length[k + 1] - l.length[k]) * u;
      }
      glm::quat& q = local[l.node].rotation;
      q = glm::quat(q.w * s, q.x * s, q.y * s, q.z * s);
    }
  }

 private:
  struct Lengths {
    size_t node;
    const std::vector<float>* times;
    bool step;                  // STEP keys hold their length until the next key
    std::vector<float> length;  // per key: |SHORT key| (1 for a unit key)
  };
  Clip clip_;
  RawClipSource inner_;
  std::vector<Lengths> lengths_;
};

// What a player of the file would play, measured with the metric: E_max and whether it fits.
// With SHORT rotations, both players count: one that renormalizes the keys (the importer's
// channels) and one that does not (stored_length_e_max); E_max is the larger.
bool measure_written(const Model& model, int clip, const std::vector<Channel>& channels,
                     std::span<const uint8_t> flags, std::span<const std::vector<int16_t>> words,
                     const GltfWriteOptions& options, double& e_max) {
  Clip played = model.clips[size_t(clip)];
  played.channels = channels;
  const ClipErrorReport r =
      measure_clip_error(model, clip, RawClipSource(model, played), 0.0f, false);
  e_max = r.e_max;
  if (e_max > options.tolerance_m || r.morph_max > options.morph_tolerance) return false;
  e_max = std::max(e_max, stored_length_e_max(model, clip, channels, flags, words));
  return e_max <= options.tolerance_m;
}

}  // namespace

// How far a rotation error at each node reaches: the largest rest-pose distance from the node to
// itself or any descendant, plus the metric's 3 cm shell. A SHORT-rounded rotation (up to about
// 9e-5 rad off, its length error included) moves points by about that much times the lever, so
// short levers (feet, fingers, tail tips) are the tracks to round first.
std::vector<double> rest_levers(const Model& model) {
  const size_t n = model.nodes.size();
  std::vector<glm::dvec3> position(n);
  std::vector<glm::dmat4> world(n);
  std::vector<uint8_t> done(n, 0);
  // Parents before children without recursion (depth is bounded by n).
  for (size_t start = 0; start < n; ++start) {
    std::vector<int> chain;
    for (int i = int(start); i >= 0 && !done[size_t(i)]; i = model.nodes[size_t(i)].parent)
      chain.push_back(i);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Node& node = model.nodes[size_t(*it)];
      const glm::dmat4 local = glm::dmat4(trs_matrix(node.rest)) * glm::dmat4(node.shear);
      world[size_t(*it)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
      position[size_t(*it)] = glm::dvec3(world[size_t(*it)][3]);
      done[size_t(*it)] = 1;
    }
  }
  std::vector<double> lever(n, 0.0);
  for (size_t i = 0; i < n; ++i)  // every node raises the lever of each of its ancestors
    for (int a = int(i); a >= 0; a = model.nodes[size_t(a)].parent)
      lever[size_t(a)] = std::max(lever[size_t(a)], glm::length(position[i] - position[size_t(a)]));
  for (double& l : lever) l += 0.03;
  return lever;
}

// The smallest written form of clip `clip` that keeps the tolerance. The keys come from the
// compressor at the full tolerance, and at half and a quarter of it, leaving room for 16-bit
// rounding. For each key set, morph-weight tracks within [−1, 1] go 16-bit first (they move no
// joint) when the morph tolerance allows; then rotation tracks are rounded to SHORT in order of
// increasing lever: all of them when that fits, else the longest prefix of that order that fits
// (a binary search, every accepted choice measured). The smallest fitting candidate wins. If
// nothing fits at those key tolerances (a player's rounding differs from the runtime clip's),
// 0.9×, 0.81× and 0.73× are tried as float; failing those the caller keeps the file's own
// animation.
WrittenChoice choose_written_keys(const Model& model, int clip, const CompressedClip& given,
                                  const std::vector<double>& levers,
                                  const GltfWriteOptions& options) {
  WrittenChoice best;
  auto consider = [&](std::vector<Channel> channels, std::vector<uint8_t> flags, double e_max,
                      double key_tolerance, const std::vector<int>& all_types,
                      const std::vector<std::vector<int16_t>>& all_words) {
    const size_t bytes = written_bytes(channels, flags);
    if (best.fits && bytes >= best.bytes) return;
    std::vector<int> types(flags.size(), write::kFloat);
    std::vector<std::vector<int16_t>> words(flags.size());
    for (size_t i = 0; i < flags.size(); ++i)
      if (flags[i]) types[i] = all_types[i], words[i] = all_words[i];
    best = WrittenChoice{true,
                         std::move(channels),
                         std::move(flags),
                         std::move(types),
                         std::move(words),
                         e_max,
                         key_tolerance,
                         bytes};
  };
  auto with_16 = [](const std::vector<Channel>& float_channels,
                    const std::vector<Channel>& rounded_channels,
                    const std::vector<uint8_t>& flags) {
    std::vector<Channel> out = float_channels;
    for (size_t i = 0; i < out.size(); ++i)
      if (flags[i]) out[i] = rounded_channels[i];
    return out;
  };
  auto try_keys = [&](const CompressedClip& keys, double key_tolerance, bool allow_16) {
    std::vector<Channel> float_channels = written_channels(keys, model, {});
    keep_clip_span(float_channels, model, clip);
    const size_t n = float_channels.size();
    double e_max = 0.0;
    if (!measure_written(model, clip, float_channels, {}, {}, options, e_max))
      return false;  // rounding only adds error: no 16-bit variant of these keys is tried
    consider(float_channels, std::vector<uint8_t>(n, 0), e_max, key_tolerance, {}, {});
    if (!allow_16 || !options.sixteen_bit) return true;
    std::vector<Channel> rounded = reduced_channels(keys, model);
    keep_clip_span(rounded, model, clip);  // the same keys, before rounding
    std::vector<std::vector<int16_t>> words(n);
    std::vector<int> types(n, write::kFloat);
    std::vector<uint8_t> base(n, 0);  // the 16-bit weight tracks every rotation prefix builds on
    std::vector<size_t> order;        // rotation channels by increasing lever
    for (size_t i = 0; i < n; ++i) {
      if (rounded[i].path == TargetPath::Rotation) {
        round_rotations(rounded[i], true, &words[i]);
        types[i] = write::kShort;
        order.push_back(i);
      } else if (sixteen_bit_allowed(rounded[i])) {
        types[i] = round_weights(rounded[i], &words[i]);
        base[i] = 1;
      }
    }
    if (std::count(base.begin(), base.end(), 1) > 0) {
      std::vector<Channel> channels = with_16(float_channels, rounded, base);
      if (measure_written(model, clip, channels, {}, {}, options, e_max))  // no rotation rounded
        consider(std::move(channels), base, e_max, key_tolerance, types, words);
      else
        base.assign(n, 0);
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return levers[size_t(float_channels[a].node)] < levers[size_t(float_channels[b].node)];
    });
    auto prefix_flags = [&](size_t count) {
      std::vector<uint8_t> flags = base;
      for (size_t k = 0; k < count; ++k) flags[order[k]] = 1;
      return flags;
    };
    size_t lo = 0, hi = order.size();  // the prefix of length lo fits (0: measured above)
    while (lo < hi) {
      const size_t mid = (lo + hi + 1) / 2;
      std::vector<uint8_t> flags = prefix_flags(mid);
      std::vector<Channel> channels = with_16(float_channels, rounded, flags);
      if (measure_written(model, clip, channels, flags, words, options, e_max)) {
        consider(std::move(channels), std::move(flags), e_max, key_tolerance, types, words);
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return true;
  };
  // Tracks that could be 16-bit but stayed float in the best form.
  auto float_left = [&] {
    if (!best.fits) return true;
    for (size_t i = 0; i < best.channels.size(); ++i)
      if (!best.sixteen_bit[i] && sixteen_bit_allowed(best.channels[i])) return true;
    return false;
  };
  CompressionSettings settings;
  settings.morph_tolerance = options.morph_tolerance;
  settings.measure_vertices = false;
  try_keys(given, options.tolerance_m, true);
  // Tighter keys leave room for 16-bit rounding; only worth it when some tracks stayed float.
  // A quarter is tried only when a half helped (each try is a full compression).
  size_t previous_bytes = best.fits ? best.bytes : SIZE_MAX;
  const bool some_float = float_left();
  for (double scale : {0.5, 0.25}) {
    if (!some_float || !options.sixteen_bit) break;
    settings.tolerance_m = options.tolerance_m * scale;
    settings.morph_tolerance = options.morph_tolerance * scale;
    const CompressionResult tighter = compress_clip(model, clip, settings);
    if (tighter.ok) try_keys(tighter.clip, settings.tolerance_m, true);
    if (best.fits && best.bytes >= previous_bytes) break;
    previous_bytes = best.fits ? best.bytes : SIZE_MAX;
  }
  for (double scale : {0.9, 0.81, 0.73}) {
    if (best.fits) break;
    settings.tolerance_m = options.tolerance_m * scale;
    settings.morph_tolerance = options.morph_tolerance * scale;
    const CompressionResult tighter = compress_clip(model, clip, settings);
    if (tighter.ok) try_keys(tighter.clip, settings.tolerance_m, false);
  }
  return best;
}

// Tracks the file animates identically (instanced skeletons: RecursiveSkeletons drives 840
// joints with 3 distinct tracks) can share one output accessor, but only when they are written
// in one form, and the per-track choice above gives each its own. On top of that choice, every
// group of equal source tracks takes one form: first the written form of its member with the
// longest lever (the one the choice was hardest on), else the source's own keys as float (no
// error from those tracks). A form is kept when the clip measures within the tolerance and is
// smaller.
void share_equal_tracks(WrittenChoice& best, const Model& model, int clip,
                        const std::vector<double>& levers, const GltfWriteOptions& options) {
  if (!best.fits) return;
  const std::vector<Channel>& sources = model.clips[size_t(clip)].channels;
  const size_t n = best.channels.size();
  std::vector<int> source(n, -1);  // the file's channel each written one came from
  for (size_t i = 0; i < n; ++i)
    for (size_t s = 0; s < sources.size() && source[i] < 0; ++s)
      if (sources[s].node == best.channels[i].node && sources[s].path == best.channels[i].path)
        source[i] = int(s);
  auto same_track = [](const Channel& a, const Channel& b) {
    return a.path == b.path && a.interpolation == b.interpolation && a.components == b.components &&
           a.times == b.times && a.values == b.values;
  };
  std::vector<std::vector<size_t>> groups;  // written channels whose sources are equal
  for (size_t i = 0; i < n; ++i) {
    if (source[i] < 0) continue;
    bool placed = false;
    for (std::vector<size_t>& g : groups)
      if (same_track(sources[size_t(source[g.front()])], sources[size_t(source[i])])) {
        g.push_back(i);
        placed = true;
        break;
      }
    if (!placed) groups.push_back({i});
  }
  std::erase_if(groups, [](const std::vector<size_t>& g) { return g.size() < 2; });
  if (groups.empty()) return;
  for (const bool from_source : {false, true}) {
    WrittenChoice shared = best;
    for (const std::vector<size_t>& g : groups) {
      const Channel& file_track = sources[size_t(source[g.front()])];
      if (from_source && file_track.interpolation == Interpolation::CubicSpline) continue;
      const size_t leader = *std::max_element(g.begin(), g.end(), [&](size_t a, size_t b) {
        return levers[size_t(best.channels[a].node)] < levers[size_t(best.channels[b].node)];
      });
      for (size_t m : g) {
        const int node = shared.channels[m].node;
        if (from_source) {
          shared.channels[m] = file_track;
          keep_one_hemisphere(shared.channels[m]);
          shared.sixteen_bit[m] = 0;
          shared.component_type[m] = write::kFloat;
          shared.words[m].clear();
        } else {
          shared.channels[m] = best.channels[leader];
          shared.sixteen_bit[m] = best.sixteen_bit[leader];
          shared.component_type[m] = best.component_type[leader];
          shared.words[m] = best.words[leader];
        }
        shared.channels[m].node = node;
      }
    }
    keep_clip_span(shared.channels, model, clip);
    bool words_match = true;  // a span key added to a 16-bit track would have no word
    for (size_t i = 0; i < n; ++i)
      words_match = words_match && (!shared.sixteen_bit[i] ||
                                    shared.words[i].size() == shared.channels[i].values.size());
    if (!words_match) continue;
    shared.bytes = written_bytes(shared.channels, shared.sixteen_bit);
    if (shared.bytes < best.bytes &&
        measure_written(model, clip, shared.channels, shared.sixteen_bit, shared.words, options,
                        shared.e_max)) {
      best = std::move(shared);
      return;
    }
  }
}

double stored_length_e_max(const Model& model, int clip, std::span<const Channel> channels,
                           std::span<const uint8_t> sixteen_bit,
                           std::span<const std::vector<int16_t>> words) {
  Clip written = model.clips[size_t(clip)];
  written.channels.assign(channels.begin(), channels.end());
  const StoredLengthPlayback played(model, written, sixteen_bit, words);
  if (!played.any()) return 0.0;
  return measure_clip_error(model, clip, played, 0.0f, false).e_max;
}

}  // namespace rig
