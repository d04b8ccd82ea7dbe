#include "compress/gltf_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "anim/clip_source.h"
#include "compress/clip_compression.h"
#include "compress/clip_error.h"
#include "import/gltf_file.h"

namespace rig {

namespace {

const char* path_name(TargetPath p) {
  switch (p) {
    case TargetPath::Translation:
      return "translation";
    case TargetPath::Rotation:
      return "rotation";
    case TargetPath::Scale:
      return "scale";
    case TargetPath::Weights:
      return "weights";
  }
  return "translation";
}

// Whether channel c goes out as 16-bit integers under `flags`.
bool stored_sixteen_bit(std::span<const Channel> channels, std::span<const uint8_t> flags,
                        size_t c) {
  return c < flags.size() && flags[c] && sixteen_bit_allowed(channels[c]);
}

// Appends `bytes` to buffer 0 as a new bufferView (4-byte aligned); returns its index.
int append_view(tinygltf::Model& doc, const void* bytes, size_t size) {
  std::vector<unsigned char>& data = doc.buffers[0].data;
  data.resize((data.size() + 3) & ~size_t(3), 0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = size;
  const auto* p = static_cast<const unsigned char*>(bytes);
  data.insert(data.end(), p, p + size);
  doc.bufferViews.push_back(view);
  return int(doc.bufferViews.size()) - 1;
}

int add_accessor(tinygltf::Model& doc, int view, int component_type, bool normalized, int type,
                 size_t count) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.byteOffset = 0;
  a.componentType = component_type;
  a.normalized = normalized;
  a.type = type;
  a.count = count;
  doc.accessors.push_back(a);
  return int(doc.accessors.size()) - 1;
}

// Drops bufferViews nothing references and repacks buffer 0 (single-buffer files only).
void repack(tinygltf::Model& doc) {
  if (doc.buffers.size() != 1) return;
  std::vector<int> used(doc.bufferViews.size(), 0);
  auto mark = [&](int v) {
    if (v >= 0 && size_t(v) < used.size()) used[size_t(v)] = 1;
  };
  for (const tinygltf::Accessor& a : doc.accessors) {
    mark(a.bufferView);
    if (a.sparse.isSparse) {
      mark(a.sparse.indices.bufferView);
      mark(a.sparse.values.bufferView);
    }
  }
  for (const tinygltf::Image& im : doc.images) mark(im.bufferView);
  std::vector<int> remap(doc.bufferViews.size(), -1);
  std::vector<tinygltf::BufferView> views;
  std::vector<unsigned char> data;
  const std::vector<unsigned char>& old = doc.buffers[0].data;
  for (size_t v = 0; v < doc.bufferViews.size(); ++v) {
    if (!used[v]) continue;
    tinygltf::BufferView view = doc.bufferViews[v];
    if (view.buffer != 0 || view.byteOffset + view.byteLength > old.size()) return;  // leave it
    data.resize((data.size() + 15) & ~size_t(15), 0);  // keep any element alignment
    const size_t offset = data.size();
    data.insert(data.end(), old.begin() + std::ptrdiff_t(view.byteOffset),
                old.begin() + std::ptrdiff_t(view.byteOffset + view.byteLength));
    view.byteOffset = offset;
    remap[v] = int(views.size());
    views.push_back(view);
  }
  auto fix = [&](int& v) {
    if (v >= 0) v = remap[size_t(v)];
  };
  for (tinygltf::Accessor& a : doc.accessors) {
    fix(a.bufferView);
    if (a.sparse.isSparse) {
      fix(a.sparse.indices.bufferView);
      fix(a.sparse.values.bufferView);
    }
  }
  for (tinygltf::Image& im : doc.images) fix(im.bufferView);
  doc.bufferViews = std::move(views);
  data.resize((data.size() + 3) & ~size_t(3), 0);
  doc.buffers[0].data = std::move(data);
}

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

// A URI's %XX escapes decoded (glTF URIs are RFC 3986 references).
std::string percent_decoded(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(uint8_t(uri[i + 1])) &&
        std::isxdigit(uint8_t(uri[i + 2]))) {
      out.push_back(char(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(uri[i]);
    }
  }
  return out;
}

// A GLB written elsewhere cannot reach the input's image files by their relative URIs: each one
// is embedded as read (PNG or JPEG, the core formats; a file of another kind keeps its URI), so
// the copy shows what the original showed. data: URIs stay as they are.
bool embed_image_files(tinygltf::Model& doc, const std::string& in_path, std::string& error) {
  const std::filesystem::path folder = std::filesystem::path(in_path).parent_path();
  for (size_t i = 0; i < doc.images.size(); ++i) {
    tinygltf::Image& image = doc.images[i];
    if (image.uri.empty() || image.uri.rfind("data:", 0) == 0) continue;
    std::ifstream in(folder / percent_decoded(image.uri), std::ios::binary);
    if (!in) {
      error = "cannot read image " + std::to_string(i) + " (" + image.uri + ") to embed it";
      return false;
    }
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    const bool png = bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0;
    const bool jpeg = bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
    if (!png && !jpeg) continue;
    image.bufferView = append_view(doc, bytes.data(), bytes.size());
    image.mimeType = png ? "image/png" : "image/jpeg";
    image.uri.clear();
  }
  return true;
}

// Bytes of the accessors the given animations' samplers use (each once), as stored.
size_t sampler_accessor_bytes(const tinygltf::Model& doc,
                              std::span<const tinygltf::Animation> animations) {
  std::set<int> used;
  for (const tinygltf::Animation& anim : animations)
    for (const tinygltf::AnimationSampler& s : anim.samplers) used.insert({s.input, s.output});
  size_t bytes = 0;
  for (int a : used) {
    if (a < 0 || size_t(a) >= doc.accessors.size()) continue;
    const tinygltf::Accessor& accessor = doc.accessors[size_t(a)];
    const int components = tinygltf::GetNumComponentsInType(uint32_t(accessor.type));
    const int size = tinygltf::GetComponentSizeInBytes(uint32_t(accessor.componentType));
    if (components > 0 && size > 0) bytes += accessor.count * size_t(components) * size_t(size);
  }
  return bytes;
}

size_t animation_accessor_bytes(const tinygltf::Model& doc, const tinygltf::Animation& anim) {
  return sampler_accessor_bytes(doc, std::span<const tinygltf::Animation>(&anim, 1));
}

struct WrittenChoice {
  bool fits = false;
  std::vector<Channel> channels;
  std::vector<uint8_t> sixteen_bit;         // per channel: outputs as normalized 16-bit integers
  std::vector<int> component_type;          // per channel: FLOAT, SHORT or UNSIGNED_SHORT
  std::vector<std::vector<int16_t>> words;  // per channel: the 16-bit words when flagged
  double e_max = 0.0;
  double key_tolerance_m = 0.0;
  size_t bytes = 0;
};

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
    std::vector<int> types(flags.size(), TINYGLTF_COMPONENT_TYPE_FLOAT);
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
    std::vector<int> types(n, TINYGLTF_COMPONENT_TYPE_FLOAT);
    std::vector<uint8_t> base(n, 0);  // the 16-bit weight tracks every rotation prefix builds on
    std::vector<size_t> order;        // rotation channels by increasing lever
    for (size_t i = 0; i < n; ++i) {
      if (rounded[i].path == TargetPath::Rotation) {
        round_rotations(rounded[i], true, &words[i]);
        types[i] = TINYGLTF_COMPONENT_TYPE_SHORT;
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
          shared.component_type[m] = TINYGLTF_COMPONENT_TYPE_FLOAT;
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
  return is_unsigned ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT : TINYGLTF_COMPONENT_TYPE_SHORT;
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

double stored_length_e_max(const Model& model, int clip, std::span<const Channel> channels,
                           std::span<const uint8_t> sixteen_bit,
                           std::span<const std::vector<int16_t>> words) {
  Clip written = model.clips[size_t(clip)];
  written.channels.assign(channels.begin(), channels.end());
  const StoredLengthPlayback played(model, written, sixteen_bit, words);
  if (!played.any()) return 0.0;
  return measure_clip_error(model, clip, played, 0.0f, false).e_max;
}

bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options, std::vector<WrittenClip>* report,
                          WrittenSizes* sizes) {
  import::GltfSource source;
  if (!import::load_gltf_source(in_path, ImportOptions{}, source, error)) return false;
  tinygltf::Model& doc = source.document;
  if (doc.animations.size() != model.clips.size() || clips.size() != model.clips.size()) {
    error = "the clips do not match the file's animations";
    return false;
  }
  if (sizes) sizes->before = sampler_accessor_bytes(doc, doc.animations);
  if (doc.buffers.empty()) doc.buffers.emplace_back();
  if (doc.buffers.size() > 1 || !doc.buffers[0].uri.empty()) {
    // GLB carries buffer 0 as its binary chunk: every buffer's bytes go there.
    for (size_t b = 1; b < doc.buffers.size(); ++b) {
      const size_t base = (doc.buffers[0].data.size() + 15) & ~size_t(15);
      doc.buffers[0].data.resize(base, 0);
      doc.buffers[0].data.insert(doc.buffers[0].data.end(), doc.buffers[b].data.begin(),
                                 doc.buffers[b].data.end());
      for (tinygltf::BufferView& v : doc.bufferViews)
        if (v.buffer == int(b)) v.buffer = 0, v.byteOffset += base;
    }
    doc.buffers.resize(1);
    doc.buffers[0].uri.clear();
  }
  if (!embed_image_files(doc, in_path, error)) return false;

  const std::vector<double> levers = rest_levers(model);
  std::set<int> old_accessors;
  if (report) report->assign(clips.size(), WrittenClip{});
  // Key times written once for every channel of every clip that has them.
  std::vector<std::pair<std::vector<float>, int>> inputs;
  // Output accessors by (component type, element type, bytes), shared the same way.
  using OutputKey = std::tuple<int, int, std::vector<uint8_t>>;
  std::map<OutputKey, int> outputs;
  for (size_t c = 0; c < clips.size(); ++c) {
    if (!clips[c]) continue;
    WrittenChoice choice = choose_written_keys(model, int(c), *clips[c], levers, options);
    share_equal_tracks(choice, model, int(c), levers, options);
    // An optimizer never grows a clip: one whose file keys are already fewer bytes (sparse
    // CUBICSPLINE or STEP keys, SHORT or BYTE outputs) stays as it was, as does one left without
    // a channel (its first target unusable: glTF needs one).
    if (!choice.fits || choice.channels.empty() ||
        choice.bytes >= animation_accessor_bytes(doc, doc.animations[c])) {
      if (report) (*report)[c] = WrittenClip{};
      continue;
    }
    const std::vector<Channel>& channels = choice.channels;
    tinygltf::Animation& anim = doc.animations[c];
    for (const tinygltf::AnimationSampler& s : anim.samplers) {
      old_accessors.insert(s.input);
      old_accessors.insert(s.output);
    }
    anim.samplers.clear();
    anim.channels.clear();
    WrittenClip written;
    written.replaced = true;
    written.e_max = choice.e_max;
    written.bytes = choice.bytes;
    written.key_tolerance_m = choice.key_tolerance_m;
    for (size_t i = 0; i < channels.size(); ++i) {
      const Channel& ch = channels[i];
      tinygltf::AnimationSampler sampler;
      sampler.interpolation = ch.interpolation == Interpolation::Step ? "STEP" : "LINEAR";
      for (const auto& [times, accessor] : inputs)
        if (times == ch.times) sampler.input = accessor;
      if (sampler.input < 0) {
        const int in_view = append_view(doc, ch.times.data(), ch.times.size() * sizeof(float));
        sampler.input = add_accessor(doc, in_view, TINYGLTF_COMPONENT_TYPE_FLOAT, false,
                                     TINYGLTF_TYPE_SCALAR, ch.times.size());
        doc.accessors.back().minValues = {double(ch.times.front())};
        doc.accessors.back().maxValues = {double(ch.times.back())};
        inputs.emplace_back(ch.times, sampler.input);
      }
      const int type = ch.path == TargetPath::Weights    ? TINYGLTF_TYPE_SCALAR
                       : ch.path == TargetPath::Rotation ? TINYGLTF_TYPE_VEC4
                                                         : TINYGLTF_TYPE_VEC3;
      const size_t count = ch.values.size() / (ch.path == TargetPath::Weights ? 1 : ch.components);
      const bool as_16 = choice.sixteen_bit[i] != 0;
      // The 16-bit words chosen before renormalizing: exactly what was measured.
      const int component_type = as_16 ? choice.component_type[i] : TINYGLTF_COMPONENT_TYPE_FLOAT;
      const auto* bytes = as_16 ? reinterpret_cast<const uint8_t*>(choice.words[i].data())
                                : reinterpret_cast<const uint8_t*>(ch.values.data());
      const size_t size =
          as_16 ? choice.words[i].size() * sizeof(int16_t) : ch.values.size() * sizeof(float);
      OutputKey key{component_type, type, std::vector<uint8_t>(bytes, bytes + size)};
      const auto found = outputs.find(key);
      if (found != outputs.end()) {
        sampler.output = found->second;  // equal outputs share one accessor (any clip)
        ++written.shared_outputs;
      } else {
        const int view = append_view(doc, bytes, size);
        sampler.output = add_accessor(doc, view, component_type, as_16, type, count);
        outputs.emplace(std::move(key), sampler.output);
      }
      if (ch.path == TargetPath::Rotation) {
        ++written.rotation_tracks;
        written.short_tracks += as_16 ? 1 : 0;
      } else if (ch.path == TargetPath::Weights) {
        ++written.weight_tracks;
        written.sixteen_bit_weight_tracks += as_16 ? 1 : 0;
      }
      anim.samplers.push_back(sampler);
      tinygltf::AnimationChannel channel;
      channel.sampler = int(anim.samplers.size()) - 1;
      channel.target_node = ch.node;
      channel.target_path = path_name(ch.path);
      anim.channels.push_back(channel);
    }
    written.short_rotations = written.short_tracks > 0;
    if (report) (*report)[c] = written;
  }
  // Old animation accessors still used elsewhere (rare) keep their data.
  std::set<int> still_used;
  for (const tinygltf::Animation& a : doc.animations)
    for (const tinygltf::AnimationSampler& s : a.samplers) still_used.insert({s.input, s.output});
  for (const tinygltf::Mesh& m : doc.meshes)
    for (const tinygltf::Primitive& p : m.primitives) {
      still_used.insert(p.indices);
      for (const auto& kv : p.attributes) still_used.insert(kv.second);
      for (const auto& target : p.targets)
        for (const auto& kv : target) still_used.insert(kv.second);
    }
  for (const tinygltf::Skin& s : doc.skins) still_used.insert(s.inverseBindMatrices);
  for (int a : old_accessors)
    if (a >= 0 && size_t(a) < doc.accessors.size() && !still_used.count(a)) {
      // Zeros, as the spec allows; index kept. Without a bufferView the accessor may not have
      // a byteOffset either (the validator's error), nor sparse data.
      tinygltf::Accessor& accessor = doc.accessors[size_t(a)];
      accessor.bufferView = -1;
      accessor.byteOffset = 0;
      accessor.sparse = tinygltf::Accessor().sparse;
    }
  repack(doc);
  if (sizes) sizes->after = sampler_accessor_bytes(doc, doc.animations);

  tinygltf::TinyGLTF writer;
  std::ofstream out(out_path, std::ios::binary);
  if (!out) {
    error = "cannot write " + out_path;
    return false;
  }
  if (!writer.WriteGltfSceneToStream(&doc, out, false, true) || !out) {
    error = "writing " + out_path + " failed";
    return false;
  }
  return true;
}

}  // namespace rig
