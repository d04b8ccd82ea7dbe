#include "anim/clip_source.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "anim/quat_simd.h"
#include "anim/sampling.h"

namespace rig {

namespace {

// One channel into its node's transform or morph weights, through sample_channel.
void sample_into(const Model& model, const Channel& c, float time, uint32_t& cursor,
                 std::span<Transform> local, std::span<float> morph_weights) {
  Transform& t = local[size_t(c.node)];
  float v[4];
  switch (c.path) {
    case TargetPath::Translation:
      sample_channel(c, time, cursor, v);
      t.translation = glm::vec3(v[0], v[1], v[2]);
      break;
    case TargetPath::Scale:
      sample_channel(c, time, cursor, v);
      t.scale = glm::vec3(v[0], v[1], v[2]);
      break;
    case TargetPath::Rotation:
      sample_channel(c, time, cursor, v);
      t.rotation = glm::quat(v[3], v[0], v[1], v[2]);
      break;
    case TargetPath::Weights: {
      const Node& node = model.nodes[size_t(c.node)];
      if (node.morph_count != c.components ||
          size_t(node.morph_offset) + node.morph_count > morph_weights.size())
        break;  // the importer rejects this; stay safe
      sample_channel(c, time, cursor, morph_weights.subspan(node.morph_offset, node.morph_count));
      break;
    }
  }
}

}  // namespace

void sample_clip_channels(const Model& model, const Clip& clip, float time,
                          std::span<uint32_t> cursors, std::span<Transform> local,
                          std::span<float> morph_weights) {
  const std::vector<Channel>& channels = clip.channels;
  for (size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    if (c.node < 0 || static_cast<size_t>(c.node) >= local.size()) continue;
    uint32_t scratch = 0;  // callers without cursors (one-off samples) search every time
    sample_into(model, c, time, i < cursors.size() ? cursors[i] : scratch, local, morph_weights);
  }
}

namespace {

bool same_floats(const std::vector<float>& a, size_t a_at, const std::vector<float>& b, size_t b_at,
                 size_t count) {
  return std::memcmp(a.data() + a_at, b.data() + b_at, count * sizeof(float)) == 0;
}

// Every value element of a LINEAR/STEP channel bit-equal to the first: its samples are that value
// whatever the time (interpolating between equal keys gives them back, up to the renormalization
// of a rotation).
bool constant_keys(const Channel& c) {
  const size_t m = c.components;
  for (size_t k = 1; k < c.times.size(); ++k)
    if (!same_floats(c.values, k * m, c.values, 0, m)) return false;
  return true;
}

}  // namespace

RawClipSource::RawClipSource(const Model& model, const Clip& clip) : model_(&model), clip_(&clip) {
  for (const Channel& c : clip.channels)
    if (c.node >= 0 && size_t(c.node) < model.nodes.size() && c.path != TargetPath::Weights &&
        !c.times.empty())
      animated_nodes_.push_back(c.node);
  std::sort(animated_nodes_.begin(), animated_nodes_.end());
  animated_nodes_.erase(std::unique(animated_nodes_.begin(), animated_nodes_.end()),
                        animated_nodes_.end());
  // Two channels on one node and path: the later one wins in sample_clip_channels, an order the
  // grouped layout does not keep. The importer rejects such files; stay exact anyway.
  std::set<std::pair<int, int>> targets;
  for (const Channel& c : clip.channels) {
    if (c.node < 0) continue;
    node_bound_ = std::max(node_bound_, size_t(c.node) + 1);
    if (!targets.insert({c.node, int(c.path)}).second) return;
  }
  std::vector<Track> rotations;           // LINEAR rotation tracks, batched below
  std::vector<RotationSegment> segments;  // theirs, one per key
  for (uint32_t i = 0; i < clip.channels.size(); ++i) {
    const Channel& c = clip.channels[i];
    const size_t n = c.times.size();
    if (c.node < 0 || n == 0) continue;  // nothing to write (as sample_channel)
    const bool trs = c.path != TargetPath::Weights;
    const bool components_ok = c.components == (c.path == TargetPath::Rotation ? 4u : 3u);
    const size_t stride = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
    if (!trs || !components_ok || c.values.size() < n * stride * c.components) {
      others_.push_back(i);
      continue;
    }
    if (n == 1 || (c.interpolation != Interpolation::CubicSpline && constant_keys(c))) {
      Constant k;
      k.node = uint32_t(c.node);
      k.path = c.path;
      // The value element of key 0 (CUBICSPLINE keys hold in-tangent, value, out-tangent).
      std::copy_n(c.values.data() + (stride == 3 ? c.components : 0), c.components, k.value);
      if (c.path == TargetPath::Rotation) {  // what slerp between equal keys gives
        const glm::quat q =
            glm::normalize(glm::quat(k.value[3], k.value[0], k.value[1], k.value[2]));
        k.value[0] = q.x, k.value[1] = q.y, k.value[2] = q.z, k.value[3] = q.w;
      }
      constants_.push_back(k);
      continue;
    }
    if (c.interpolation != Interpolation::Linear) {
      others_.push_back(i);
      continue;
    }
    // A timeline with the same key times, or a new one.
    uint32_t tl = 0;
    while (tl < timelines_.size() &&
           !(timelines_[tl].key_count == n && std::memcmp(times_.data() + timelines_[tl].first_time,
                                                          c.times.data(), n * sizeof(float)) == 0))
      ++tl;
    if (tl == timelines_.size()) {
      if (timelines_.size() == kMaxTimelines) {  // beyond the per-sample stack buffer
        others_.push_back(i);
        continue;
      }
      timelines_.push_back({uint32_t(times_.size()), uint32_t(n), i});
      times_.insert(times_.end(), c.times.begin(), c.times.end());
    }
    Track t;
    t.node = uint32_t(c.node);
    t.timeline = tl;
    t.path = c.path;
    if (c.path == TargetPath::Rotation) {
      t.first_value = uint32_t(segments.size());
      add_rotation_segments(c, segments);
      rotations.push_back(t);
    } else {
      t.first_value = uint32_t(values_.size());
      values_.insert(values_.end(), c.values.begin(), c.values.begin() + n * 3);
      vectors_.push_back(t);
    }
  }
  // Constants by path, then node: sample()'s switch on the path then takes one branch per run
  // (a mixed sequence costs mispredictions), and the writes walk the pose forwards.
  std::sort(constants_.begin(), constants_.end(), [](const Constant& a, const Constant& b) {
    return a.path != b.path ? a.path < b.path : a.node < b.node;
  });
  // Rotation tracks of one timeline in batches of four (a short batch repeats its first track),
  // each key segment of a batch stored as SoA rows: a.x[4] a.y[4] a.z[4] a.w[4], b likewise,
  // theta[4] (kBatchFloats), so that sampling loads them without a transpose.
  for (uint32_t tl = 0; tl < timelines_.size(); ++tl) {
    std::vector<const Track*> group;
    for (const Track& t : rotations)
      if (t.timeline == tl) group.push_back(&t);
    for (size_t g0 = 0; g0 < group.size(); g0 += 4) {
      RotationBatch batch;
      batch.timeline = tl;
      batch.first = uint32_t(rotation_rows_.size());
      const Track* lane[4];
      for (size_t j = 0; j < 4; ++j) {
        lane[j] = group[g0 + j < group.size() ? g0 + j : g0];
        batch.node[j] = lane[j]->node;
      }
      for (size_t k = 0; k < timelines_[tl].key_count; ++k) {
        float rows[kBatchFloats];
        for (size_t j = 0; j < 4; ++j) {
          const RotationSegment& seg = segments[lane[j]->first_value + k];
          for (size_t c = 0; c < 4; ++c) {
            rows[c * 4 + j] = seg.a[c];
            rows[16 + c * 4 + j] = seg.b[c];
          }
          rows[32 + j] = seg.theta;
        }
        rotation_rows_.insert(rotation_rows_.end(), rows, rows + kBatchFloats);
      }
      rotation_batches_.push_back(batch);
    }
  }
  prepared_ = true;
}

void RawClipSource::add_rotation_segments(const Channel& c, std::vector<RotationSegment>& out) {
  const size_t n = c.times.size();
  for (size_t k = 0; k < n; ++k) {
    RotationSegment seg;
    const float* a = c.values.data() + 4 * k;
    // The last entry holds the last key against itself: where the end value holds.
    const float* b = c.values.data() + 4 * std::min(k + 1, n - 1);
    // slerp_shortest's first steps, in its operations and order (so bit for bit what it
    // computes at sample time): the dot product, the flip to the short way round, acos.
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    const float sign = d < 0.0f ? -1.0f : 1.0f;
    if (d < 0.0f) d = -d;
    for (int i = 0; i < 4; ++i) {
      seg.a[i] = a[i];
      seg.b[i] = sign * b[i];
    }
    seg.theta = d > 0.9995f ? -1.0f : slerp_detail::acos01(d);
    out.push_back(seg);
  }
}

void RawClipSource::sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                           std::span<float> morph_weights) const {
  if (!prepared_ || local.size() < node_bound_) {
    sample_clip_channels(*model_, *clip_, time, cursors, local, morph_weights);
    return;
  }
  // One key search per timeline, the same comparisons and u as sample_channel's.
  Segment segments[kMaxTimelines];
  for (size_t s = 0; s < timelines_.size(); ++s) {
    const Timeline& tl = timelines_[s];
    const float* times = times_.data() + tl.first_time;
    const size_t n = tl.key_count;
    uint32_t scratch = 0;
    uint32_t& cursor = tl.cursor < cursors.size() ? cursors[tl.cursor] : scratch;
    size_t k = cursor;
    Segment& seg = segments[s];
    if (!(k + 1 < n && times[k] <= time && time < times[k + 1] && time > times[0])) {
      if (!(time > times[0])) {  // before the first key (or NaN): the first value holds
        seg = {0, 0, 0.0f};
        continue;
      }
      if (time >= times[n - 1]) {  // after the last key: the last value holds
        seg = {uint32_t(n - 1), uint32_t(n - 1), 0.0f};
        continue;
      }
      k = find_key(std::span<const float>(times, n), time, cursor);
    }
    seg = {uint32_t(k), uint32_t(k + 1), (time - times[k]) / (times[k + 1] - times[k])};
  }

  for (const Constant& c : constants_) {
    Transform& t = local[c.node];
    switch (c.path) {
      case TargetPath::Translation:
        t.translation = glm::vec3(c.value[0], c.value[1], c.value[2]);
        break;
      case TargetPath::Scale:
        t.scale = glm::vec3(c.value[0], c.value[1], c.value[2]);
        break;
      default:  // one 16-byte store, which forwards to local → world's 16-byte load
        _mm_storeu_ps(&t.rotation.x, _mm_loadu_ps(c.value));
        break;
    }
  }

  for (const Track& tr : vectors_) {
    const Segment& seg = segments[tr.timeline];
    const float* a = values_.data() + tr.first_value + 3 * size_t(seg.a);
    const float* b = values_.data() + tr.first_value + 3 * size_t(seg.b);
    const glm::vec3 v(a[0] + (b[0] - a[0]) * seg.u, a[1] + (b[1] - a[1]) * seg.u,
                      a[2] + (b[2] - a[2]) * seg.u);
    if (tr.path == TargetPath::Translation)
      local[tr.node].translation = v;
    else
      local[tr.node].scale = v;
  }

  // Rotations four tracks at a time, straight from their SoA rows: no gather, no transpose
  // in. The batches are independent, so their slerp latencies overlap.
  using namespace quat4;
  for (const RotationBatch& batch : rotation_batches_) {
    const Segment& seg = segments[batch.timeline];
    const float* p = rotation_rows_.data() + batch.first + size_t(seg.a) * kBatchFloats;
    const Quat4 a{_mm_loadu_ps(p), _mm_loadu_ps(p + 4), _mm_loadu_ps(p + 8), _mm_loadu_ps(p + 12)};
    const Quat4 b{_mm_loadu_ps(p + 16), _mm_loadu_ps(p + 20), _mm_loadu_ps(p + 24),
                  _mm_loadu_ps(p + 28)};
    const Quat4 q = slerp_prepared4(a, b, _mm_loadu_ps(p + 32), _mm_set1_ps(seg.u));
    // A short batch's repeated lanes write their track's value again, harmlessly.
    scatter_quats(q, &local[batch.node[0]].rotation.x, &local[batch.node[1]].rotation.x,
                  &local[batch.node[2]].rotation.x, &local[batch.node[3]].rotation.x);
  }

  // The rest exactly as the readable form does it.
  for (const uint32_t i : others_) {
    uint32_t scratch = 0;
    sample_into(*model_, clip_->channels[i], time, i < cursors.size() ? cursors[i] : scratch, local,
                morph_weights);
  }
}

}  // namespace rig
