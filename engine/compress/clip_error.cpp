#include "compress/clip_error.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "analysis/skinning_artefacts.h"
#include "character/character.h"

namespace rig {

std::vector<int> counted_joints(const Model& model, const Clip& clip) {
  const size_t n = model.nodes.size();
  // Nodes whose transform the clip animates.
  std::vector<uint8_t> moved(n, 0), animated(n, 0);
  for (const Channel& c : clip.channels) {
    if (c.node < 0 || size_t(c.node) >= n) continue;
    animated[size_t(c.node)] = 1;
    if (c.path != TargetPath::Weights) moved[size_t(c.node)] = 1;
  }
  auto moved_or_ancestor = [&](int node) {
    for (int p = node; p >= 0; p = model.nodes[size_t(p)].parent)
      if (moved[size_t(p)]) return true;
    return false;
  };
  std::vector<uint8_t> counted(n, 0);
  bool any = false;
  for (const Skin& s : model.skins) {
    bool driven = false;
    for (int j : s.joints)
      if (j >= 0 && size_t(j) < n && moved_or_ancestor(j)) {
        driven = true;
        break;
      }
    if (!driven) continue;
    for (int j : s.joints)
      if (j >= 0 && size_t(j) < n) counted[size_t(j)] = 1, any = true;
  }
  if (!any) counted = animated;
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i)
    if (counted[i]) out.push_back(int(i));
  return out;
}

double joint_error(const glm::mat4& raw, const glm::mat4& lossy, double d) {
  double worst = 0.0;
  for (int a = 0; a < 3; ++a) {
    const glm::dvec3 col(raw[a]);
    const double norm = glm::length(col);
    const double s = norm < 1e-12 ? d : d / norm;
    const glm::dvec3 pr = glm::dvec3(raw[3]) + s * col;
    const glm::dvec3 pl = glm::dvec3(lossy[3]) + s * glm::dvec3(lossy[a]);
    worst = std::max(worst, glm::length(pr - pl));
  }
  return worst;
}

double nearest_rank_percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  size_t rank = size_t(std::ceil(p / 100.0 * double(values.size())));
  rank = std::clamp<size_t>(rank, 1, values.size());
  return values[rank - 1];
}

ClipErrorReport measure_clip_error(const Model& model, int clip_index, const ClipSource& lossy,
                                   float rate_hz, bool vertices) {
  if (clip_index < 0 || size_t(clip_index) >= model.clips.size()) return {};
  return measure_clip_error(model, model.clips[size_t(clip_index)], lossy, rate_hz, vertices);
}

ClipErrorReport measure_clip_error(const Model& model, const Clip& clip, const ClipSource& lossy,
                                   float rate_hz, bool vertices) {
  ClipErrorReport r;
  r.rate_hz = rate_hz > 0.0f ? rate_hz : clip_sample_rate(clip, kFallbackRateHz);
  r.times = clip_sample_times(clip, r.rate_hz);
  r.joints = counted_joints(model, clip);

  // Without vertices no mesh is skinned: empty prepared meshes spare preparing the whole model's
  // (the writer and the compressor call this many times per clip).
  std::shared_ptr<const SkinLayer> meshes = std::make_shared<const SkinLayer>(
      model, vertices ? prepare_skin_meshes(model) : SkinMeshes{});
  // Each character plays a set of this one clip: the raw keys, and `lossy` in their place.
  auto raw_set = std::make_shared<ClipSet>(), lossy_set = std::make_shared<ClipSet>();
  raw_set->add(model, clip);
  lossy_set->add(clip.name, borrowed_source(&lossy));
  Character raw(model, meshes, raw_set), compressed(model, meshes, lossy_set);
  const int clip_index = 0;

  std::vector<std::vector<glm::vec3>> pos_raw(model.draws.size()), pos_lossy(model.draws.size()),
      normals(model.draws.size());
  if (vertices)
    for (size_t d = 0; d < model.draws.size(); ++d) {
      const DrawItem& item = model.draws[d];
      if (item.skin < 0) continue;
      const uint32_t count =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
      pos_raw[d].resize(count);
      pos_lossy[d].resize(count);
      normals[d].resize(count);
    }

  std::vector<double> all;
  all.reserve(r.times.size() * r.joints.size());
  size_t within = 0;
  const uint32_t morphs = model.morph_weight_count;
  for (const float t : r.times) {
    raw.evaluate(PoseSelection{clip_index, t});
    compressed.evaluate(PoseSelection{clip_index, t});
    for (int j : r.joints) {
      const double e = joint_error(raw.world()[size_t(j)], compressed.world()[size_t(j)]);
      all.push_back(e);
      if (e <= 1e-4) ++within;
      if (e > r.e_max) {
        r.e_max = e;
        r.e_max_time = t;
        r.e_max_node = j;
      }
    }
    for (uint32_t w = 0; w < morphs; ++w)
      r.morph_max = std::max(r.morph_max, std::abs(double(raw.pose().morph_weights[w]) -
                                                   double(compressed.pose().morph_weights[w])));
    if (vertices)
      for (size_t d = 0; d < model.draws.size(); ++d) {
        if (pos_raw[d].empty()) continue;
        raw.skin_draw_item(model.draws[d], SkinningMethod::Linear, pos_raw[d], normals[d]);
        compressed.skin_draw_item(model.draws[d], SkinningMethod::Linear, pos_lossy[d], normals[d]);
        for (size_t v = 0; v < pos_raw[d].size(); ++v)
          r.max_vertex_displacement =
              std::max(r.max_vertex_displacement,
                       glm::length(glm::dvec3(pos_raw[d][v]) - glm::dvec3(pos_lossy[d][v])));
      }
  }
  r.vertices_measured = vertices;
  r.fraction_within_0_01cm = all.empty() ? 1.0 : double(within) / double(all.size());
  r.e_p99 = nearest_rank_percentile(all, 99.0);
  return r;
}

}  // namespace rig
