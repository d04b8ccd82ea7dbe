#include "skin/weight_smooth.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <unordered_map>

#include "skin/weight_graph.h"

namespace rig {

namespace {}  // namespace

WeightEditResult smooth_weights(SkinLayer& layer, const Model& model,
                                const SmoothOptions& options) {
  WeightEditResult result;
  const double f = std::clamp(double(options.factor), 0.0, 1.0);
  for (const SkinGroup& group : skin_groups(model, layer.meshes())) {
    const SkinMeshes& meshes = layer.meshes();
    const Skin& skin = model.skins[size_t(group.skin)];
    const PointGraph g = build_point_graph(model, meshes, group.primitives);
    // Columns: the joints the group's vertices use, in joint order.
    std::vector<int32_t> column_of;
    std::vector<uint16_t> joint_of;
    for (size_t i = 0; i < group.primitives.size(); ++i)
      for (uint32_t v = 0; v < g.point_of[i].size(); ++v) {
        const InfluenceList list = read_influences(meshes.primitives[group.primitives[i]], v);
        for (uint32_t k = 0; k < list.count; ++k) {
          if (list.joints[k] >= column_of.size()) column_of.resize(size_t(list.joints[k]) + 1, -1);
          column_of[list.joints[k]] = 0;
        }
      }
    for (size_t j = 0; j < column_of.size(); ++j)
      if (column_of[j] >= 0) {
        column_of[j] = int32_t(joint_of.size());
        joint_of.push_back(uint16_t(j));
      }
    const size_t columns = joint_of.size();
    if (columns == 0) continue;
    std::vector<uint8_t> smoothed(columns, 1);
    if (!options.joint_nodes.empty())
      for (size_t c = 0; c < columns; ++c) {
        const int node = joint_of[c] < skin.joints.size() ? skin.joints[joint_of[c]] : -1;
        smoothed[c] = std::find(options.joint_nodes.begin(), options.joint_nodes.end(), node) !=
                      options.joint_nodes.end();
      }
    // The points' weights (the mean of their vertices') and which points move.
    std::vector<double> w(size_t(g.points) * columns, 0.0);
    std::vector<uint32_t> members(g.points, 0);
    std::vector<uint8_t> free(g.points, options.selected.empty() ? 1 : 0);
    auto selected = [&](uint32_t prepared, uint32_t v) {
      return options.selected.empty() ||
             (prepared < options.selected.size() && v < options.selected[prepared].size() &&
              options.selected[prepared][v] != 0);
    };
    for (size_t i = 0; i < group.primitives.size(); ++i)
      for (uint32_t v = 0; v < g.point_of[i].size(); ++v) {
        const uint32_t p = g.point_of[i][v];
        const InfluenceList list = read_influences(meshes.primitives[group.primitives[i]], v);
        for (uint32_t k = 0; k < list.count; ++k)
          w[size_t(p) * columns + size_t(column_of[list.joints[k]])] += list.weights[k];
        ++members[p];
        if (selected(group.primitives[i], v)) free[p] = 1;
      }
    for (uint32_t p = 0; p < g.points; ++p)
      for (size_t c = 0; c < columns; ++c) w[size_t(p) * columns + c] /= members[p];

    std::vector<double> next;
    for (int it = 0; it < options.iterations; ++it) {
      next = w;
      for (uint32_t p = 0; p < g.points; ++p) {
        const uint32_t begin = g.offsets[p], end = g.offsets[size_t(p) + 1];
        if (!free[p] || begin == end) continue;
        double* out = next.data() + size_t(p) * columns;
        const double inv = 1.0 / double(end - begin);
        for (size_t c = 0; c < columns; ++c) {
          if (!smoothed[c]) continue;
          double mean = 0.0;
          for (uint32_t e = begin; e < end; ++e) mean += w[size_t(g.neighbours[e]) * columns + c];
          out[c] = (1.0 - f) * out[c] + f * mean * inv;
        }
        double s_smoothed = 0.0, s_other = 0.0;
        for (size_t c = 0; c < columns; ++c) (smoothed[c] ? s_smoothed : s_other) += out[c];
        // The other joints fill what the smoothed ones leave of 1; alone, the smoothed ones sum 1.
        const double room = 1.0 - s_smoothed;
        const bool others_fill = s_other > 0.0 && room >= 0.0;
        const double scale_smoothed = others_fill || !(s_smoothed > 0.0) ? 1.0 : 1.0 / s_smoothed;
        const double scale_other = others_fill ? room / s_other : 0.0;
        for (size_t c = 0; c < columns; ++c) out[c] *= smoothed[c] ? scale_smoothed : scale_other;
      }
      w.swap(next);
    }

    std::vector<std::pair<float, uint16_t>> pairs;
    for (size_t i = 0; i < group.primitives.size(); ++i) {
      const uint32_t prepared = group.primitives[i];
      for (uint32_t v = 0; v < g.point_of[i].size(); ++v) {
        const uint32_t p = g.point_of[i][v];
        if (!free[p] || !selected(prepared, v)) continue;
        pairs.clear();
        for (size_t c = 0; c < columns; ++c) {
          const float weight = float(w[size_t(p) * columns + c]);
          if (weight > 0.0f) pairs.emplace_back(weight, joint_of[c]);
        }
        std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        InfluenceList list;
        for (size_t k = 0; k < pairs.size() && k < kMaxInfluences; ++k)
          list.add(pairs[k].second, pairs[k].first);
        if (pairs.size() > kMaxInfluences) normalize(list);
        // Unchanged within 1e-6: keep the vertex exactly (and its slot order).
        const InfluenceList before = read_influences(layer.meshes().primitives[prepared], v);
        float moved = 0.0f;
        for (uint32_t k = 0; k < before.count; ++k) {
          float now = 0.0f;
          for (uint32_t m = 0; m < list.count; ++m)
            if (list.joints[m] == before.joints[k]) now = list.weights[m];
          moved = std::max(moved, std::abs(now - before.weights[k]));
        }
        for (uint32_t m = 0; m < list.count; ++m) {
          bool known = false;
          for (uint32_t k = 0; k < before.count; ++k) known |= before.joints[k] == list.joints[m];
          if (!known) moved = std::max(moved, list.weights[m]);
        }
        if (moved <= 1e-6f) continue;
        if (commit_influences(layer, prepared, v, list)) ++result.vertices_changed;
      }
    }
  }
  return result;
}

}  // namespace rig
