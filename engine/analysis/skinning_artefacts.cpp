#include "analysis/skinning_artefacts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "model/triangles.h"
#include "skin/cpu_skinning.h"

namespace rig {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Box {
  glm::vec3 lo{std::numeric_limits<float>::max()}, hi{std::numeric_limits<float>::lowest()};
  void add(glm::vec3 p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  float diagonal() const { return lo.x <= hi.x ? glm::length(hi - lo) : 0.0f; }
};

const Primitive& primitive_of(const Model& m, const DrawItem& item) {
  return m.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
}

bool skinned_item(const Model& m, const DrawItem& item) {
  return item.skin >= 0 && size_t(item.skin) < m.skins.size() && primitive_of(m, item).skinned();
}

// The skin joint with the largest summed weight (ties → the smallest joint index); −1 when no
// influence is usable (weights sum to 0 or every joint is out of range).
int32_t dominant_joint(const Primitive& prim, uint32_t v, size_t joint_count) {
  const uint32_t k = prim.influences;
  const uint16_t* joints = &prim.joints[size_t(v) * k];
  const float* weights = &prim.weights[size_t(v) * k];
  int32_t best = -1;
  float best_weight = 0.0f;
  for (uint32_t i = 0; i < k; ++i) {
    if (!(weights[i] > 0.0f) || joints[i] >= joint_count) continue;
    float sum = 0.0f;  // this joint over every slot that names it
    for (uint32_t s = 0; s < k; ++s)
      if (joints[s] == joints[i] && weights[s] > 0.0f) sum += weights[s];
    const int32_t j = joints[i];
    if (sum > best_weight || (sum == best_weight && best >= 0 && j < best)) {
      best = j;
      best_weight = sum;
    }
  }
  return best;
}

// Welded vertex ids by position within `tolerance` (a hash grid with neighbour lookups).
class Welder {
 public:
  explicit Welder(float tolerance)
      : cell_(tolerance > 0.0f ? tolerance : 1e-30f), tol_(tolerance) {}
  uint32_t id(int group, glm::vec3 p) {
    const glm::ivec3 c = cell(p);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          auto it = cells_.find(key(group, c + glm::ivec3(dx, dy, dz)));
          if (it == cells_.end()) continue;
          for (uint32_t candidate : it->second)
            if (glm::length(points_[candidate] - p) <= tol_) return candidate;
        }
    const uint32_t fresh = static_cast<uint32_t>(points_.size());
    points_.push_back(p);
    cells_[key(group, c)].push_back(fresh);
    return fresh;
  }

 private:
  glm::ivec3 cell(glm::vec3 p) const {
    const glm::vec3 q = glm::floor(p / cell_);
    return glm::ivec3(glm::clamp(q, glm::vec3(-1e9f), glm::vec3(1e9f)));
  }
  static uint64_t key(int group, glm::ivec3 c) {
    uint64_t h = uint64_t(uint32_t(group)) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(uint32_t(c.x)) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= uint64_t(uint32_t(c.y)) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    h ^= uint64_t(uint32_t(c.z)) * 0x27D4EB2F165667C5ull + (h << 6) + (h >> 2);
    return h;
  }
  float cell_, tol_;
  std::vector<glm::vec3> points_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
};

double signed_volume(const ArtefactSetup& setup, const std::vector<std::vector<glm::vec3>>& pos) {
  double volume = 0.0;
  for (size_t t = 0; t + 3 < setup.triangles.size(); t += 4) {
    const std::vector<glm::vec3>& p = pos[setup.triangles[t]];
    const glm::dvec3 a(p[setup.triangles[t + 1]]), b(p[setup.triangles[t + 2]]),
        c(p[setup.triangles[t + 3]]);
    volume += glm::dot(a, glm::cross(b, c)) / 6.0;
  }
  return volume;
}

void skin_all(const Model& model, const Character& character, SkinningMethod method,
              ArtefactFrame& frame) {
  for (size_t d = 0; d < model.draws.size(); ++d)
    character.skin_draw_item(model.draws[d], method, frame.positions[d], frame.normals[d]);
}

}  // namespace

double distance_to_segment(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b) {
  const glm::dvec3 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

ArtefactSetup ArtefactSetup::build(const Model& model, const SkinLayer& skin_layer) {
  ArtefactSetup setup;
  // Bone segments and D_bind per skin.
  setup.skins.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    SkinSetup& out = setup.skins[s];
    const size_t n = skin.joints.size();
    out.segment_a.resize(n);
    for (size_t j = 0; j < n; ++j)
      out.segment_a[j] = glm::vec3(glm::inverse(glm::dmat4(skin_layer.inverse_bind(s)[j]))[3]);
    std::vector<glm::vec3> child_sum(n, glm::vec3(0.0f));
    std::vector<int> child_count(n, 0);
    for (size_t c = 0; c < n; ++c) {
      const int parent = c < skin.joint_parent.size() ? skin.joint_parent[c] : -1;
      if (parent < 0 || size_t(parent) >= n) continue;
      child_sum[size_t(parent)] += out.segment_a[c];
      ++child_count[size_t(parent)];
    }
    out.segment_b.resize(n);
    for (size_t j = 0; j < n; ++j)
      out.segment_b[j] =
          child_count[j] > 0 ? child_sum[j] / float(child_count[j]) : out.segment_a[j];
    Box box;
    for (const Node& node : model.nodes) {
      if (node.skin != int(s) || node.mesh < 0) continue;
      for (const Primitive& prim : model.meshes[size_t(node.mesh)].primitives)
        for (const glm::vec3& p : prim.positions) box.add(p);
    }
    out.bind_diagonal = box.diagonal();
  }

  // Per draw item: dominant joints, vertex areas, triangles and their welded ids.
  setup.draws.resize(model.draws.size());
  std::vector<uint32_t> tri;
  std::vector<std::vector<uint32_t>> welded(model.draws.size());
  std::map<int, float> node_diagonal;  // weld tolerance per mesh node
  for (const DrawItem& item : model.draws) {
    if (node_diagonal.count(item.node)) continue;
    Box box;
    for (const Primitive& prim : model.meshes[size_t(item.mesh)].primitives)
      for (const glm::vec3& p : prim.positions) box.add(p);
    node_diagonal[item.node] = box.diagonal();
  }
  float largest = 0.0f;
  for (const auto& [node, diagonal] : node_diagonal) largest = std::max(largest, diagonal);
  Welder welder(kWeldTolerance * largest);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const DrawItem& item = model.draws[d];
    const Primitive& prim = primitive_of(model, item);
    DrawSetup& out = setup.draws[d];
    const uint32_t n = prim.vertex_count();
    out.dominant.assign(n, -1);
    if (skinned_item(model, item)) {
      const size_t joints = model.skins[size_t(item.skin)].joints.size();
      for (uint32_t v = 0; v < n; ++v) out.dominant[v] = dominant_joint(prim, v, joints);
    }
    std::vector<double> area(n, 0.0);
    tri.clear();
    append_triangles(prim, tri);
    for (size_t t = 0; t + 2 < tri.size(); t += 3) {
      if (tri[t] >= n || tri[t + 1] >= n || tri[t + 2] >= n) continue;
      const glm::dvec3 a(prim.positions[tri[t]]), b(prim.positions[tri[t + 1]]),
          c(prim.positions[tri[t + 2]]);
      const double third = 0.5 * glm::length(glm::cross(b - a, c - a)) / 3.0;
      for (int k = 0; k < 3; ++k) area[tri[t + size_t(k)]] += third;
      setup.triangles.insert(setup.triangles.end(), {uint32_t(d), tri[t], tri[t + 1], tri[t + 2]});
    }
    out.area.assign(area.begin(), area.end());
    welded[d].resize(n);
    for (uint32_t v = 0; v < n; ++v) welded[d][v] = welder.id(item.node, prim.positions[v]);
  }

  // Closed: every directed edge of the welded surface has exactly one opposite partner.
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  for (size_t t = 0; t + 3 < setup.triangles.size(); t += 4) {
    const std::vector<uint32_t>& w = welded[setup.triangles[t]];
    const uint32_t v[3] = {w[setup.triangles[t + 1]], w[setup.triangles[t + 2]],
                           w[setup.triangles[t + 3]]};
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;  // degenerate after welding
    for (int e = 0; e < 3; ++e) ++edges[{v[e], v[(e + 1) % 3]}];
  }
  setup.closed = !edges.empty();
  for (const auto& [edge, count] : edges) {
    auto opposite = edges.find({edge.second, edge.first});
    if (count != 1 || opposite == edges.end() || opposite->second != 1) {
      setup.closed = false;
      break;
    }
  }

  // The node rest pose (LBS, default morph weights): D_rest and V_rest.
  Character rest(model, std::make_shared<const SkinLayer>(skin_layer));
  ArtefactFrame frame = ArtefactFrame::make(model);
  skin_all(model, rest, SkinningMethod::Linear, frame);
  Box box;
  for (const auto& positions : frame.positions)
    for (const glm::vec3& p : positions) box.add(p);
  setup.rest_diagonal = box.diagonal();
  setup.rest_volume = signed_volume(setup, frame.positions);
  return setup;
}

ArtefactFrame ArtefactFrame::make(const Model& model) {
  ArtefactFrame f;
  const size_t draws = model.draws.size();
  f.positions.resize(draws);
  f.normals.resize(draws);
  f.deflation.resize(draws);
  for (size_t d = 0; d < draws; ++d) {
    const uint32_t n = primitive_of(model, model.draws[d]).vertex_count();
    f.positions[d].resize(n);
    f.normals[d].resize(n);
    f.deflation[d].assign(n, kNaN);
  }
  f.joint_scores.resize(model.skins.size());
  f.score_sums.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s) {
    f.joint_scores[s].assign(model.skins[s].joints.size(), kNaN);
    f.score_sums[s].assign(model.skins[s].joints.size(), glm::dvec2(0.0));
    f.inverse_skinning.emplace_back(model.skins[s].joints.size(), glm::dmat4(0.0));
  }
  return f;
}

void analyze_frame(const ArtefactSetup& setup, const Character& character, SkinningMethod method,
                   ArtefactFrame& out) {
  const Model& model = character.model();
  skin_all(model, character, method, out);

  for (std::vector<glm::dvec2>& sums : out.score_sums)
    std::fill(sums.begin(), sums.end(), glm::dvec2(0.0));
  // M_d⁻¹ once per joint, in float64 (h divides small radii: float would cost digits).
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const std::span<const glm::mat4> skinning = character.skinning_matrices(int(s));
    for (size_t j = 0; j < skinning.size(); ++j) {
      const glm::dmat4 m(skinning[j]);
      const double det = glm::determinant(glm::dmat3(m));
      out.inverse_skinning[s][j] =
          std::isfinite(det) && std::abs(det) >= 1e-12 ? glm::inverse(m) : glm::dmat4(0.0);
    }
  }
  double rms_num = 0.0, rms_den = 0.0;
  out.max_abs_h = ArtefactFrame::Worst{};

  for (size_t d = 0; d < model.draws.size(); ++d) {
    const DrawItem& item = model.draws[d];
    std::vector<float>& h = out.deflation[d];
    std::fill(h.begin(), h.end(), kNaN);
    if (!skinned_item(model, item)) continue;
    const Primitive& prim = primitive_of(model, item);
    const ArtefactSetup::SkinSetup& skin = setup.skins[size_t(item.skin)];
    const ArtefactSetup::DrawSetup& draw = setup.draws[d];
    const std::vector<glm::dmat4>& inverse = out.inverse_skinning[size_t(item.skin)];
    std::span<const float> morph = character.morph_weights(item.node);
    const float min_radius = kDeflationMinRadius * skin.bind_diagonal;
    std::vector<glm::dvec2>& sums = out.score_sums[size_t(item.skin)];
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
      const int32_t j = draw.dominant[v];
      if (j < 0) continue;
      glm::vec3 bind = prim.positions[v];
      for (size_t t = 0; t < std::min(morph.size(), prim.targets.size()); ++t)
        if (morph[t] != 0.0f && prim.targets[t].positions.size() == prim.vertex_count())
          bind += morph[t] * prim.targets[t].positions[v];
      const glm::dvec3 a(skin.segment_a[size_t(j)]), b(skin.segment_b[size_t(j)]);
      const double r_rest = distance_to_segment(glm::dvec3(bind), a, b);
      if (!(r_rest >= double(min_radius))) continue;
      const glm::dmat4& m_inv = inverse[size_t(j)];
      if (m_inv[3][3] == 0.0) continue;  // singular M_d (an affine inverse has 1 there)
      const glm::dvec3 local(m_inv * glm::dvec4(glm::dvec3(out.positions[d][v]), 1.0));
      const double r_pose = distance_to_segment(local, a, b);
      const float value =
          float(std::log2(std::max(r_pose / r_rest, std::exp2(double(kDeflationFloor)))));
      if (!std::isfinite(value)) continue;
      h[v] = value;
      const double area = draw.area[v];
      sums[size_t(j)] += glm::dvec2(area * value * value, area);
      rms_num += area * value * value;
      rms_den += area;
      if (std::isnan(out.max_abs_h.value) || std::abs(value) > std::abs(out.max_abs_h.value))
        out.max_abs_h = {value, int(d), int(v), j};
    }
  }
  for (size_t s = 0; s < model.skins.size(); ++s)
    for (size_t j = 0; j < out.joint_scores[s].size(); ++j) {
      const glm::dvec2 sum = out.score_sums[s][j];
      out.joint_scores[s][j] = sum.y > 0.0 ? float(std::sqrt(sum.x / sum.y)) : kNaN;
    }
  out.rms = rms_den > 0.0 ? float(std::sqrt(rms_num / rms_den)) : kNaN;
  const double volume = signed_volume(setup, out.positions);
  out.volume_change_percent =
      setup.rest_volume != 0.0 ? 100.0 * (volume - setup.rest_volume) / std::abs(setup.rest_volume)
                               : std::numeric_limits<double>::quiet_NaN();
}

float method_difference(const ArtefactSetup& setup, const Model& model, const ArtefactFrame& a,
                        const ArtefactFrame& b, std::vector<std::vector<float>>& out) {
  float largest = 0.0f;
  const float scale = setup.rest_diagonal > 0.0f ? 1.0f / setup.rest_diagonal : 0.0f;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    std::vector<float>& diff = out[d];
    if (!skinned_item(model, model.draws[d])) {
      std::fill(diff.begin(), diff.end(), 0.0f);
      continue;
    }
    for (size_t v = 0; v < diff.size(); ++v) {
      diff[v] = glm::length(a.positions[d][v] - b.positions[d][v]) * scale;
      if (diff[v] > largest) largest = diff[v];
    }
  }
  return largest;
}

float clip_sample_rate(const Clip& clip, float fallback_hz) {
  // The smallest key gap names the candidate grid; the average spacing over the clip refines
  // it, and a rate within 0.1% of a whole number of hertz is taken as that number.
  float gap = 0.0f;
  for (const Channel& c : clip.channels)
    for (size_t k = 1; k < c.times.size(); ++k) {
      const float g = c.times[k] - c.times[k - 1];
      if (g > 1e-6f && (gap == 0.0f || g < gap)) gap = g;
    }
  const double span = double(clip.end) - double(clip.start);
  if (gap == 0.0f || span <= 0.0) return fallback_hz;
  const double steps = std::round(span / gap);
  double rate = steps > 0.0 ? steps / span : 1.0 / gap;
  if (std::abs(rate - std::round(rate)) <= 1e-3 * rate) rate = std::round(rate);
  for (const Channel& c : clip.channels)
    for (float t : c.times) {
      const double k = std::round((double(t) - clip.start) * rate);
      if (std::abs(double(t) - clip.start - k / rate) > 1e-4) return fallback_hz;
    }
  return float(rate);
}

std::vector<float> clip_sample_times(const Clip& clip, float rate_hz) {
  const double span = std::max(0.0, double(clip.end) - double(clip.start));
  const size_t n = size_t(std::ceil(span * rate_hz - 1e-6)) + 1;
  std::vector<float> times(std::max<size_t>(n, 1));
  for (size_t k = 0; k < times.size(); ++k)
    times[k] = float(std::min(double(clip.start) + double(k) / rate_hz, double(clip.end)));
  times.back() = clip.end;
  if (span <= 0.0) times.assign(1, clip.start);
  return times;
}

bool scan_clip(const Model& model, const ArtefactSetup& setup, const ClipScanOptions& options,
               ClipScan& out, ScanProgress progress, void* user) {
  out = ClipScan{};
  if (options.clip < 0 || size_t(options.clip) >= model.clips.size()) return false;
  const Clip& clip = model.clips[size_t(options.clip)];
  out.clip = options.clip;
  out.rate_hz = clip_sample_rate(clip, options.fallback_hz);
  out.times = clip_sample_times(clip, out.rate_hz);
  Character character(model, options.skin_layer);
  character.set_dqs_amounts(options.dqs_amounts);
  character.set_pitfalls(options.pitfalls);

  // One frame per scanned method, plus the two compared ones if they are not scanned.
  std::vector<SkinningMethod> analysed = options.methods;
  for (SkinningMethod m : {options.difference_a, options.difference_b})
    if (std::find(analysed.begin(), analysed.end(), m) == analysed.end()) analysed.push_back(m);
  std::vector<ArtefactFrame> frames(analysed.size(), ArtefactFrame::make(model));
  auto frame_of = [&](SkinningMethod m) -> ArtefactFrame& {
    return frames[size_t(std::find(analysed.begin(), analysed.end(), m) - analysed.begin())];
  };
  std::vector<std::vector<float>> difference(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d)
    difference[d].resize(frames[0].positions[d].size());

  out.methods.resize(options.methods.size());
  // Per method: every skin's joints flattened, worst score and time.
  std::vector<std::vector<float>> worst(options.methods.size());
  std::vector<std::vector<float>> worst_time(options.methods.size());
  size_t joint_total = 0;
  for (const Skin& s : model.skins) joint_total += s.joints.size();
  for (size_t i = 0; i < options.methods.size(); ++i) {
    out.methods[i].method = options.methods[i];
    out.methods[i].closed = setup.closed;
    worst[i].assign(joint_total, kNaN);
    worst_time[i].assign(joint_total, 0.0f);
  }

  for (size_t k = 0; k < out.times.size(); ++k) {
    const float t = out.times[k];
    character.evaluate(PoseSelection{options.clip, t});
    for (size_t i = 0; i < analysed.size(); ++i)
      analyze_frame(setup, character, analysed[i], frames[i]);
    out.max_method_difference = std::max(
        out.max_method_difference, method_difference(setup, model, frame_of(options.difference_a),
                                                     frame_of(options.difference_b), difference));
    for (size_t i = 0; i < options.methods.size(); ++i) {
      const ArtefactFrame& f = frames[i];
      MethodScan& scan = out.methods[i];
      scan.rms.push_back(f.rms);
      scan.volume_change_percent.push_back(f.volume_change_percent);
      std::vector<float> flat;
      flat.reserve(joint_total);
      size_t at = 0;
      for (const std::vector<float>& scores : f.joint_scores)
        for (float s : scores) {
          flat.push_back(s);
          if (!std::isnan(s) && (std::isnan(worst[i][at]) || s > worst[i][at])) {
            worst[i][at] = s;
            worst_time[i][at] = t;
          }
          ++at;
        }
      scan.scores.push_back(std::move(flat));
      if (!std::isnan(f.max_abs_h.value) &&
          (std::isnan(scan.max_abs_h.value) ||
           std::abs(f.max_abs_h.value) > std::abs(scan.max_abs_h.value))) {
        scan.max_abs_h = f.max_abs_h;
        scan.max_abs_h_time = t;
      }
    }
    if (progress && !progress(user, float(k + 1) / float(out.times.size()))) return false;
  }

  for (size_t i = 0; i < options.methods.size(); ++i) {
    size_t at = 0;
    for (size_t s = 0; s < model.skins.size(); ++s)
      for (size_t j = 0; j < model.skins[s].joints.size(); ++j, ++at)
        if (!std::isnan(worst[i][at]))
          out.methods[i].joints.push_back({int(s), int(j), worst[i][at], worst_time[i][at]});
    std::stable_sort(
        out.methods[i].joints.begin(), out.methods[i].joints.end(),
        [](const JointScoreOverClip& a, const JointScoreOverClip& b) { return a.score > b.score; });
  }
  return true;
}

}  // namespace rig
