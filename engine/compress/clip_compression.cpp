#include "compress/clip_compression.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

#include "analysis/skinning_artefacts.h"
#include "anim/local_to_world_job.h"

namespace rig {

namespace {

constexpr uint32_t kMinBits = 1, kMaxBits = 20;
constexpr int kMaxAttempts = 5;
constexpr double kAttemptScale = 0.6;

// The frames every track is resampled at (see the header).
struct Frames {
  std::vector<float> times;
  float rate = 0.0f;  // > 0: a grid (times are the metric's); 0: explicit table
};

Frames build_frames(const Clip& clip) {
  Frames fr;
  const float f = clip_sample_rate(clip, kFallbackRateHz);
  std::vector<float> metric = clip_sample_times(clip, f);
  bool grid = true, cubic = false;
  for (const Channel& c : clip.channels) {
    cubic = cubic || c.interpolation == Interpolation::CubicSpline;
    for (float t : c.times) {
      const double k = std::round((double(t) - clip.start) * f);
      if (std::abs(double(t) - clip.start - k / f) > 1e-4) grid = false;
    }
  }
  if (grid && !(cubic && f < 30.0f)) {
    fr.times = std::move(metric);
    fr.rate = f;
    return fr;
  }
  std::vector<float> t = metric;
  for (const Channel& c : clip.channels) t.insert(t.end(), c.times.begin(), c.times.end());
  if (cubic)
    for (size_t k = 0;; ++k) {
      const double s = double(clip.start) + double(k) / 60.0;
      if (s >= clip.end) break;
      t.push_back(float(s));
    }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  // Keys outside [start, end] cannot exist (start/end are the key extremes); keep it exact.
  while (!t.empty() && t.back() > clip.end) t.pop_back();
  if (t.empty() || t.back() < clip.end) t.push_back(clip.end);
  fr.times = std::move(t);
  fr.rate = 0.0f;
  if (fr.times.size() == 1) fr.rate = f;  // a single frame: any rate
  return fr;
}

struct WorkTrack {
  int node = 0;
  TargetPath path = TargetPath::Translation;
  bool step = false;
  uint32_t comps = 3;
  uint32_t morph_offset = 0;
  std::vector<float> dense;       // F × comps: the raw clip's values at the frames
  std::vector<float> vals;        // F × comps: what the runtime decodes at kept key frames
  std::vector<uint32_t> keys;     // kept frames, ascending
  bool dropped = false;           // rest value: no track stored
  std::vector<uint8_t> bits{32};  // per stored component, or {32}: float32
  std::vector<float> rest;        // comps: the rest value
};

// The raw values of `t` at frames `keys`, one key after another (what add_track stores).
void key_values(const WorkTrack& t, std::span<const uint32_t> keys, std::vector<float>& values) {
  values.clear();
  for (uint32_t k : keys)
    values.insert(values.end(), t.dense.begin() + std::ptrdiff_t(size_t(k) * t.comps),
                  t.dense.begin() + std::ptrdiff_t(size_t(k + 1) * t.comps));
}

class Compressor {
 public:
  Compressor(const Model& model, const Clip& clip) : model_(model), clip_(clip) {
    frames_ = build_frames(clip);
    F_ = uint32_t(frames_.times.size());
    n_ = model.nodes.size();
    M_ = model.morph_weight_count;
    hierarchy_ = NodeHierarchy::build(model);

    // Dense raw poses at the frames.
    RawClipSource raw(model, clip);
    std::vector<Transform> rest(n_);
    for (size_t i = 0; i < n_; ++i) rest[i] = model.nodes[i].rest;
    raw_local_.resize(F_ * n_);
    raw_morph_.resize(size_t(F_) * M_);
    std::vector<uint32_t> cursors(raw.cursor_count(), 0);
    for (uint32_t i = 0; i < F_; ++i) {
      std::span<Transform> local(raw_local_.data() + i * n_, n_);
      std::copy(rest.begin(), rest.end(), local.begin());
      std::span<float> morph(raw_morph_.data() + size_t(i) * M_, M_);
      std::copy(model.rest_morph_weights.begin(), model.rest_morph_weights.end(), morph.begin());
      raw.sample(frames_.times[i], cursors, local, morph);
    }

    // One track per animated (node, path), in the file's channel order.
    std::set<std::pair<int, int>> seen;
    for (const Channel& c : clip.channels) {
      if (c.node < 0 || size_t(c.node) >= n_) continue;
      const Node& node = model.nodes[size_t(c.node)];
      if (c.path == TargetPath::Weights &&
          (node.morph_count == 0 || node.morph_count != c.components || node.morph_count > 255))
        continue;
      if (!seen.insert({c.node, int(c.path)}).second) {
        // A second channel on the same target: the last one sampled wins; keep its mode.
        for (WorkTrack& t : tracks_)
          if (t.node == c.node && t.path == c.path) t.step = c.interpolation == Interpolation::Step;
        continue;
      }
      WorkTrack t;
      t.node = c.node;
      t.path = c.path;
      t.step = c.interpolation == Interpolation::Step;
      t.comps = c.path == TargetPath::Rotation  ? 4
                : c.path == TargetPath::Weights ? node.morph_count
                                                : 3;
      t.morph_offset = node.morph_offset;
      t.dense.resize(size_t(F_) * t.comps);
      for (uint32_t i = 0; i < F_; ++i)
        read_value(t, raw_local_.data() + i * n_, raw_morph_.data() + size_t(i) * M_,
                   t.dense.data() + size_t(i) * t.comps);
      t.rest.resize(t.comps);
      read_value(t, rest.data(), model.rest_morph_weights.data(), t.rest.data());
      tracks_.push_back(std::move(t));
    }
    // Hierarchy order (parents first), weights last.
    std::stable_sort(tracks_.begin(), tracks_.end(), [&](const WorkTrack& a, const WorkTrack& b) {
      const bool wa = a.path == TargetPath::Weights, wb = b.path == TargetPath::Weights;
      if (wa != wb) return wb;
      return hierarchy_.position[size_t(a.node)] < hierarchy_.position[size_t(b.node)];
    });

    // Checked nodes: the metric's joints, plus every animated node (a rigid prop a skinned clip
    // also moves keeps its motion rather than being free under the metric).
    checked_.assign(n_, 0);
    for (int j : counted_joints(model, clip)) checked_[size_t(j)] = 1;
    for (const WorkTrack& t : tracks_)
      if (t.path != TargetPath::Weights) checked_[size_t(t.node)] = 1;

    raw_world_.resize(F_ * n_);
    for (uint32_t i = 0; i < F_; ++i)
      world_of(raw_local_.data() + i * n_, raw_world_.data() + i * n_);
    shell_.resize(F_ * n_ * 3);
    for (size_t k = 0; k < F_ * n_; ++k)
      for (int a = 0; a < 3; ++a) {
        const double norm = glm::length(glm::dvec3(raw_world_[k][a]));
        shell_[k * 3 + size_t(a)] = norm < 1e-12 ? kShellDistance : kShellDistance / norm;
      }
    scratch_.resize(F_ * n_);
  }

  uint32_t frame_count() const { return F_; }
  const Frames& frames() const { return frames_; }
  std::vector<WorkTrack>& tracks() { return tracks_; }

  // Resets the lossy state to the raw clip with every key kept as float.
  void reset() {
    lossy_local_ = raw_local_;
    lossy_world_ = raw_world_;
    lossy_morph_ = raw_morph_;
    for (WorkTrack& t : tracks_) {
      t.dropped = false;
      t.bits.assign(1, 32);
      t.vals = t.dense;
      t.keys.resize(F_);
      for (uint32_t i = 0; i < F_; ++i) t.keys[i] = i;
    }
  }

  // Key reduction of one track within `budget` (metres, or weight units for morph tracks).
  void reduce(WorkTrack& t, double budget) {
    if (t.dropped) return;
    const uint32_t last = F_ - 1;
    // Whole track → rest value.
    {
      std::vector<uint32_t> none;
      if (try_keys(t, none, 0, last, budget)) {
        t.dropped = true;
        t.keys.clear();
        return;
      }
    }
    if (t.keys.size() > 1) {
      // Constant: the key nearest the middle of the clip.
      std::vector<uint32_t> one{t.keys[t.keys.size() / 2]};
      if (try_keys(t, one, 0, last, budget)) {
        t.keys = std::move(one);
        return;
      }
    }
    // Interior keys, left to right: drop when the neighbours reproduce them.
    std::vector<uint32_t> cand;
    for (size_t k = 1; k + 1 < t.keys.size();) {
      cand = t.keys;
      cand.erase(cand.begin() + std::ptrdiff_t(k));
      if (try_keys(t, cand, t.keys[k - 1] + 1, t.keys[k + 1] - 1, budget))
        t.keys.swap(cand);
      else
        ++k;
    }
    // The end keys: the next key held instead.
    if (t.keys.size() > 2) {
      cand.assign(t.keys.begin() + 1, t.keys.end());
      if (try_keys(t, cand, 0, t.keys[1] - 1, budget)) t.keys.swap(cand);
    }
    if (t.keys.size() > 2) {
      cand.assign(t.keys.begin(), t.keys.end() - 1);
      if (try_keys(t, cand, t.keys[t.keys.size() - 2] + 1, last, budget)) t.keys.swap(cand);
    }
  }

  // Bytes of a track's keys, ranges and widths under `bits` ({32}: float32).
  size_t track_bytes(const WorkTrack& t, std::span<const uint8_t> bits) const {
    if (bits.size() == 1 && bits[0] == 32) return t.keys.size() * t.comps * 4;
    if (t.path == TargetPath::Rotation && t.keys.size() == 1) return 6;  // 3 × 16-bit
    uint32_t kb = t.path == TargetPath::Rotation ? 2 : 0;
    for (uint8_t b : bits) kb += b;
    return bits.size() * 9 + (t.keys.size() * kb + 7) / 8;
  }

  bool try_bits(WorkTrack& t, const std::vector<uint8_t>& bits, double budget) {
    std::vector<float> vals = t.vals;
    if (!decode_quantized(t, bits, vals)) return false;
    std::swap(t.vals, vals);
    apply(t, t.keys, 0, F_ - 1);
    if (t.path == TargetPath::Weights ? check_morph(t, 0, F_ - 1, budget)
                                      : check_subtree(t.node, 0, F_ - 1, budget)) {
      t.bits = bits;
      return true;
    }
    std::swap(t.vals, vals);
    apply(t, t.keys, 0, F_ - 1);
    return false;
  }

  // Fewest bits that keep the check within `budget` and cost fewer bytes than float32: one
  // width for every component first, then each component lowered on its own.
  void quantize(WorkTrack& t, double budget) {
    if (t.dropped || t.keys.empty()) return;
    const uint32_t stored = t.path == TargetPath::Rotation ? 3 : t.comps;
    const std::vector<uint8_t> as_float{32};
    const size_t float_bytes = track_bytes(t, as_float);
    if (t.bits == as_float) {
      for (uint32_t b = kMinBits; b <= kMaxBits; ++b) {
        const std::vector<uint8_t> cand(stored, uint8_t(b));
        if (track_bytes(t, cand) >= float_bytes) break;
        if (try_bits(t, cand, budget)) break;
      }
      if (t.bits == as_float) return;
    }
    if (t.path == TargetPath::Rotation && t.keys.size() == 1) return;  // fixed 16-bit, no widths
    for (uint32_t c = 0; c < stored; ++c)
      while (t.bits[c] > kMinBits) {
        std::vector<uint8_t> cand = t.bits;
        --cand[c];
        if (!try_bits(t, cand, budget)) break;
      }
  }

  // Every frame's key back, when the key mask (one bit per frame, byte-rounded, on every track
  // with some keys dropped) costs at least what the dropped keys save: the track is then no
  // larger, and playback takes the dense path (no mask search; its segments end together with
  // its group's other dense tracks, so one refill serves them all). Kept only when the check
  // still holds at `budget`: the new keys change the quantization ranges, so every key moves.
  void densify(WorkTrack& t, double budget) {
    if (t.dropped || t.keys.size() < 2 || t.keys.size() == F_) return;
    std::vector<uint32_t> all(F_);
    std::iota(all.begin(), all.end(), 0u);
    if (stored_bytes(t, all) > stored_bytes(t, t.keys)) return;
    std::vector<uint32_t> old_keys = std::move(t.keys);
    std::vector<float> old_vals = t.vals;
    t.keys = std::move(all);
    const bool as_float = t.bits.size() == 1 && t.bits[0] == 32;
    bool ok = as_float ? (t.vals = t.dense, true) : decode_quantized(t, t.bits, t.vals);
    if (ok) {
      apply(t, t.keys, 0, F_ - 1);
      ok = t.path == TargetPath::Weights ? check_morph(t, 0, F_ - 1, budget)
                                         : check_subtree(t.node, 0, F_ - 1, budget);
    }
    if (ok) return;
    t.keys = std::move(old_keys);  // the check committed nothing: the old world still holds
    t.vals = std::move(old_vals);
    apply(t, t.keys, 0, F_ - 1);
  }

  // Builds the runtime clip from the current track state.
  bool build(CompressedClip& out) const {
    const Clip& clip = clip_;
    out = CompressedClip();
    out.set_frames(clip.start, clip.end, F_, frames_.rate,
                   frames_.rate > 0.0f ? std::vector<float>{} : frames_.times);
    std::vector<float> values;
    // Rotations first, then translations, scales and weights: the runtime samples four tracks
    // at a time, and groups of one kind take its fastest path. Within a kind, the most keys
    // first: tracks whose keys change as often share groups, which then decode their next keys
    // together (one refill for four lanes) instead of one lane at a time.
    std::vector<const WorkTrack*> order;
    for (const WorkTrack& t : tracks_) order.push_back(&t);
    auto rank = [](TargetPath p) {
      return p == TargetPath::Rotation      ? 0
             : p == TargetPath::Translation ? 1
             : p == TargetPath::Scale       ? 2
                                            : 3;
    };
    std::stable_sort(order.begin(), order.end(), [&](const WorkTrack* a, const WorkTrack* b) {
      if (rank(a->path) != rank(b->path)) return rank(a->path) < rank(b->path);
      if (a->keys.size() != b->keys.size()) return a->keys.size() > b->keys.size();
      return a->keys < b->keys;  // the same key frames side by side
    });
    for (const WorkTrack* tp : order) {
      const WorkTrack& t = *tp;
      if (t.dropped) continue;
      key_values(t, t.keys, values);
      if (!out.add_track(t.node, t.path, t.step, t.comps, t.bits, t.keys, values, t.morph_offset))
        return false;
    }
    return true;
  }

 private:
  void read_value(const WorkTrack& t, const Transform* local, const float* morph,
                  float* out) const {
    const Transform& tr = local[size_t(t.node)];
    switch (t.path) {
      case TargetPath::Translation:
        out[0] = tr.translation.x, out[1] = tr.translation.y, out[2] = tr.translation.z;
        break;
      case TargetPath::Scale:
        out[0] = tr.scale.x, out[1] = tr.scale.y, out[2] = tr.scale.z;
        break;
      case TargetPath::Rotation:
        out[0] = tr.rotation.x, out[1] = tr.rotation.y, out[2] = tr.rotation.z,
        out[3] = tr.rotation.w;
        break;
      case TargetPath::Weights:
        std::copy_n(morph + t.morph_offset, t.comps, out);
        break;
    }
  }

  void write_value(const WorkTrack& t, const float* v, uint32_t frame) {
    if (t.path == TargetPath::Weights) {
      std::copy_n(v, t.comps, lossy_morph_.data() + size_t(frame) * M_ + t.morph_offset);
      return;
    }
    Transform& tr = lossy_local_[frame * n_ + size_t(t.node)];
    switch (t.path) {
      case TargetPath::Translation:
        tr.translation = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Scale:
        tr.scale = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Rotation:
        tr.rotation = glm::quat(v[3], v[0], v[1], v[2]);
        break;
      case TargetPath::Weights:
        break;
    }
  }

  // The value at frame i of a track keeping `keys`, as CompressedClip::sample computes it.
  void eval(const WorkTrack& t, std::span<const uint32_t> keys, uint32_t i, float* out) const {
    if (keys.empty()) {
      std::copy_n(t.rest.data(), t.comps, out);
      return;
    }
    const float* v = t.vals.data();
    const size_t m = t.comps;
    if (keys.size() == 1 || i <= keys.front()) {
      std::copy_n(v + keys.front() * m, m, out);
      return;
    }
    if (i >= keys.back()) {
      std::copy_n(v + keys.back() * m, m, out);
      return;
    }
    const size_t k = size_t(std::upper_bound(keys.begin(), keys.end(), i) - keys.begin()) - 1;
    const float* a = v + keys[k] * m;
    if (t.step || i == keys[k]) {
      std::copy_n(a, m, out);
      return;
    }
    const float* b = v + keys[k + 1] * m;
    const float* T = frames_.times.data();
    const float u = frames_.rate > 0.0f
                        ? (float(i) - float(keys[k])) * (1.0f / float(keys[k + 1] - keys[k]))
                        : (T[i] - T[keys[k]]) * (1.0f / (T[keys[k + 1]] - T[keys[k]]));
    if (t.path == TargetPath::Rotation) {
      slerp_keys(a, b, u, out);
    } else {
      for (size_t j = 0; j < m; ++j) out[j] = a[j] + (b[j] - a[j]) * u;
    }
  }

  // Writes the lossy local values of frames [f0, f1] for a track keeping `keys`.
  void apply(const WorkTrack& t, std::span<const uint32_t> keys, uint32_t f0, uint32_t f1) {
    float v[256];
    for (uint32_t i = f0; i <= f1; ++i) {
      eval(t, keys, i, v);
      write_value(t, v, i);
    }
  }

  // Applies `keys` to frames [f0, f1]; keeps them when the check holds, else restores t.keys.
  bool try_keys(WorkTrack& t, std::span<const uint32_t> keys, uint32_t f0, uint32_t f1,
                double budget) {
    if (f0 > f1) return true;
    apply(t, keys, f0, f1);
    const bool ok = t.path == TargetPath::Weights ? check_morph(t, f0, f1, budget)
                                                  : check_subtree(t.node, f0, f1, budget);
    if (!ok) apply(t, t.keys, f0, f1);
    return ok;
  }

  bool check_morph(const WorkTrack& t, uint32_t f0, uint32_t f1, double budget) const {
    for (uint32_t i = f0; i <= f1; ++i)
      for (uint32_t c = 0; c < t.comps; ++c) {
        const size_t k = size_t(i) * M_ + t.morph_offset + c;
        if (std::abs(double(lossy_morph_[k]) - double(raw_morph_[k])) > budget) return false;
      }
    return true;
  }

  // World matrices of the subtree of `node` at frames [f0, f1] from the lossy locals; the metric
  // at every checked node within `budget`. Commits the matrices when it holds.
  bool check_subtree(int node, uint32_t f0, uint32_t f1, double budget) {
    const uint32_t p0 = hierarchy_.position[size_t(node)],
                   p1 = hierarchy_.subtree_end[size_t(node)];
    const int parent = model_.nodes[size_t(node)].parent;
    for (uint32_t i = f0; i <= f1; ++i) {
      const size_t base = i * n_;
      for (uint32_t p = p0; p < p1; ++p) {
        const int nd = hierarchy_.order[p];
        const Node& nn = model_.nodes[size_t(nd)];
        glm::mat4 l = trs_matrix(lossy_local_[base + size_t(nd)]);
        if (nn.has_shear) l = l * nn.shear;
        glm::mat4& w = scratch_[base + size_t(nd)];
        if (nn.parent < 0)
          w = l;
        else
          w = (nd == node ? lossy_world_[base + size_t(parent)]
                          : scratch_[base + size_t(nn.parent)]) *
              l;
        if (!checked_[size_t(nd)]) continue;
        const glm::mat4& r = raw_world_[base + size_t(nd)];
        const double* s = shell_.data() + (base + size_t(nd)) * 3;
        const glm::dvec3 dt = glm::dvec3(r[3]) - glm::dvec3(w[3]);
        for (int a = 0; a < 3; ++a) {
          const glm::dvec3 e = dt + s[a] * (glm::dvec3(r[a]) - glm::dvec3(w[a]));
          if (glm::dot(e, e) > budget * budget) return false;
        }
      }
    }
    for (uint32_t i = f0; i <= f1; ++i)
      for (uint32_t p = p0; p < p1; ++p) {
        const size_t k = i * n_ + size_t(hierarchy_.order[p]);
        lossy_world_[k] = scratch_[k];
      }
    return true;
  }

  void world_of(const Transform* local, glm::mat4* world) const {
    for (int i : model_.node_order) {
      const Node& node = model_.nodes[size_t(i)];
      glm::mat4 l = trs_matrix(local[size_t(i)]);
      if (node.has_shear) l = l * node.shear;
      world[size_t(i)] = node.parent < 0 ? l : world[size_t(node.parent)] * l;
    }
  }

  // The track alone in a runtime clip, keys at `keys` quantized to `bits`: what a form of one
  // track costs and decodes to.
  bool one_track_clip(const WorkTrack& t, std::span<const uint8_t> bits,
                      std::span<const uint32_t> keys, CompressedClip& one) const {
    one = CompressedClip();
    one.set_frames(0.0f, 1.0f, F_, 1.0f, {});
    std::vector<float> values;
    key_values(t, keys, values);
    return one.add_track(t.node, t.path, t.step, t.comps, bits, keys, values, 0);
  }

  // Bytes of the track with keys at `keys` alone in a runtime clip, under its current widths
  // (the clip's fixed header included: only differences mean something).
  size_t stored_bytes(const WorkTrack& t, std::span<const uint32_t> keys) const {
    CompressedClip one;
    return one_track_clip(t, t.bits, keys, one) ? one.byte_size() : SIZE_MAX;
  }

  // The kept keys quantized to `bits` and decoded exactly as the runtime decodes them.
  bool decode_quantized(const WorkTrack& t, std::span<const uint8_t> bits,
                        std::vector<float>& vals) const {
    CompressedClip one;
    if (!one_track_clip(t, bits, t.keys, one)) return false;
    for (size_t k = 0; k < t.keys.size(); ++k)
      one.decode_key(0, uint32_t(k), vals.data() + size_t(t.keys[k]) * t.comps);
    return true;
  }

  const Model& model_;
  const Clip& clip_;
  Frames frames_;
  uint32_t F_ = 1;
  size_t n_ = 0;
  uint32_t M_ = 0;
  NodeHierarchy hierarchy_;
  std::vector<WorkTrack> tracks_;
  std::vector<uint8_t> checked_;
  std::vector<Transform> raw_local_, lossy_local_;
  std::vector<float> raw_morph_, lossy_morph_;
  std::vector<glm::mat4> raw_world_, lossy_world_, scratch_;
  std::vector<double> shell_;
};

}  // namespace

uint64_t clip_file_bytes(const Clip& clip) {
  uint64_t bytes = 0;
  std::vector<const std::vector<float>*> counted;
  for (const Channel& c : clip.channels) {
    bytes += uint64_t(c.values.size()) * 4;
    bool shared = false;
    for (const std::vector<float>* t : counted) shared = shared || *t == c.times;
    if (!shared) {
      bytes += uint64_t(c.times.size()) * 4;
      counted.push_back(&c.times);
    }
  }
  return bytes;
}

std::vector<Channel> reduced_channels(const CompressedClip& clip, const Model& model) {
  std::vector<Channel> out;
  for (size_t i = 0; i < clip.tracks().size(); ++i) {
    const CompressedClip::Track& t = clip.tracks()[i];
    Channel c;
    c.node = t.node;
    c.path = TargetPath(t.path);
    c.interpolation =
        (t.flags & CompressedClip::kStep) ? Interpolation::Step : Interpolation::Linear;
    c.components = t.components;
    c.values.resize(size_t(t.key_count) * t.components);
    for (uint32_t k = 0; k < t.key_count; ++k) {
      const float time = clip.frame_time(clip.key_frame(i, k));
      // Two frames can share a time in float (the metric's last sample, clamped to the clip's
      // end, can fall on the one before): a glTF input must increase, so the later key wins.
      if (!c.times.empty() && time <= c.times.back()) c.times.pop_back();
      c.times.push_back(time);
      clip.decode_key(i, k, c.values.data() + (c.times.size() - 1) * t.components);
    }
    c.values.resize(c.times.size() * t.components);
    (void)model;
    out.push_back(std::move(c));
  }
  return out;
}

CompressionResult compress_clip(const Model& model, int clip_index,
                                const CompressionSettings& settings, CompressionProgress progress,
                                void* user) {
  if (clip_index < 0 || size_t(clip_index) >= model.clips.size()) {
    CompressionResult result;
    result.error = "no clip " + std::to_string(clip_index);
    return result;
  }
  return compress_clip(model, model.clips[size_t(clip_index)], settings, progress, user);
}

CompressionResult compress_clip(const Model& model, const Clip& raw,
                                const CompressionSettings& settings, CompressionProgress progress,
                                void* user) {
  const auto t0 = std::chrono::steady_clock::now();
  CompressionResult result;
  auto finish = [&]() {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(result);
  };
  if (!(settings.tolerance_m > 0.0) || !(settings.morph_tolerance > 0.0)) {
    result.error = "tolerances must be positive";
    return finish();
  }
  Compressor c(model, raw);
  if (c.frame_count() > 0xffff) {
    result.error = "clip has more than 65535 frames";
    return finish();
  }
  std::vector<WorkTrack>& tracks = c.tracks();
  // Strategies: stage budgets as shares of the tolerance (key reduction, then quantization).
  // Each is run, refined until it holds, and the smallest result kept.
  struct Strategy {
    std::vector<double> reduce, quantize;
    bool leaves_first = false;  // tracks in reverse hierarchy order (children before parents)
  };
  const Strategy strategies[] = {{{0.5, 0.85}, {0.92, 0.99}, false},
                                 {{0.5, 0.85}, {0.92, 0.99}, true},
                                 {{0.75, 0.95}, {0.98, 0.995}, false}};
  const size_t strategy_count = std::size(strategies);
  bool found = false;
  for (size_t si = 0; si < strategy_count; ++si) {
    const Strategy& st = strategies[si];
    const size_t stages = st.reduce.size() + (settings.quantize ? st.quantize.size() : 0);
    double scale = 1.0;
    bool done = false;
    CompressedClip clip;
    ClipErrorReport report;
    int attempts = 0;
    for (int attempt = 0; attempt <= kMaxAttempts && !done; ++attempt) {
      attempts = attempt + 1;
      c.reset();
      if (attempt < kMaxAttempts) {
        for (size_t s = 0; s < stages; ++s) {
          const bool reducing = s < st.reduce.size();
          const double share = reducing ? st.reduce[s] : st.quantize[s - st.reduce.size()];
          for (size_t i = 0; i < tracks.size(); ++i) {
            if (progress) {
              // Each strategy's first attempt spans its share; refinements stay at its end.
              const float inner = attempt == 0
                                      ? (float(s) + float(i) / float(tracks.size())) / float(stages)
                                      : 1.0f;
              const float fraction = 0.95f * (float(si) + inner) / float(strategy_count);
              if (!progress(user, fraction)) {
                result.cancelled = true;
                result.error = "cancelled";
                return finish();
              }
            }
            WorkTrack& t = tracks[st.leaves_first ? tracks.size() - 1 - i : i];
            const double tol =
                (t.path == TargetPath::Weights ? settings.morph_tolerance : settings.tolerance_m) *
                share * scale;
            if (reducing)
              c.reduce(t, tol);
            else
              c.quantize(t, tol);
          }
        }
        // Nearly dense tracks whose mask costs more than the keys it spares: all keys back.
        for (WorkTrack& t : tracks) {
          const double share = settings.quantize ? st.quantize.back() : st.reduce.back();
          c.densify(
              t, (t.path == TargetPath::Weights ? settings.morph_tolerance : settings.tolerance_m) *
                     share * scale);
        }
      }  // else the last resort: every frame of every track as float32
      if (!c.build(clip)) {
        result.error = "a track does not fit the runtime format";
        return finish();
      }
      report = measure_clip_error(model, raw, clip, 0.0f, false);
      done = report.e_max <= settings.tolerance_m && report.morph_max <= settings.morph_tolerance;
      scale *= kAttemptScale;
    }
    if (!done || (found && clip.byte_size() >= result.clip.byte_size())) continue;
    found = true;
    result.clip = std::move(clip);
    result.report = std::move(report);
    result.attempts = attempts;
    result.kept_keys = 0;
    result.dense_keys = 0;
    for (const WorkTrack& t : tracks) {
      result.kept_keys += uint32_t(t.keys.size());
      result.dense_keys += c.frame_count();
    }
  }
  if (!found) {
    result.error = "the error bound could not be met";
    return finish();
  }
  if (settings.measure_vertices)
    result.report = measure_clip_error(model, raw, result.clip, 0.0f, true);
  result.sizes.raw_bytes = 40ull * result.report.joints.size() * result.report.times.size();
  result.sizes.file_bytes = clip_file_bytes(raw);
  result.sizes.compressed_bytes = result.clip.byte_size();
  result.ok = true;
  if (progress) progress(user, 1.0f);
  return finish();
}

}  // namespace rig
