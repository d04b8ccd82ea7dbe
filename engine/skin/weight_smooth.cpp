#include "skin/weight_smooth.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <unordered_map>

#include "model/triangles.h"

namespace rig {

namespace {

struct PositionKey {
  uint32_t x = 0, y = 0, z = 0;
  bool operator==(const PositionKey&) const = default;
};
struct PositionHash {
  size_t operator()(const PositionKey& k) const {
    uint64_t h = k.x * 0x9E3779B97F4A7C15ull;
    h ^= (h >> 29) + k.y * 0xBF58476D1CE4E5B9ull;
    h ^= (h >> 31) + k.z * 0x94D049BB133111EBull;
    return size_t(h ^ (h >> 32));
  }
};
uint32_t bits(float f) { return std::bit_cast<uint32_t>(f == 0.0f ? 0.0f : f); }

// The welded points of one skin group and the edges between them (CSR).
struct PointGraph {
  std::vector<std::vector<uint32_t>> point_of;  // per group primitive, per vertex
  uint32_t points = 0;
  std::vector<uint32_t> offsets, neighbours;
};

PointGraph build_graph(const Model& model, const SkinMeshes& meshes,
                       const std::vector<uint32_t>& primitives) {
  PointGraph g;
  std::unordered_map<PositionKey, uint32_t, PositionHash> welded;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<uint32_t> triangles;
  for (uint32_t prepared : primitives) {
    const Primitive& prim = model_primitive(model, meshes, prepared);
    const uint32_t count = std::min(prim.vertex_count(), meshes.primitives[prepared].vertex_count);
    std::vector<uint32_t>& point = g.point_of.emplace_back(count);
    for (uint32_t v = 0; v < count; ++v) {
      const glm::vec3& p = prim.positions[v];
      const auto [it, added] =
          welded.try_emplace(PositionKey{bits(p.x), bits(p.y), bits(p.z)}, g.points);
      if (added) ++g.points;
      point[v] = it->second;
    }
    triangles.clear();
    append_triangles(prim, triangles);
    for (size_t t = 0; t + 2 < triangles.size(); t += 3)
      for (int e = 0; e < 3; ++e) {
        const uint32_t a = triangles[t + size_t(e)], b = triangles[t + size_t((e + 1) % 3)];
        if (a >= count || b >= count || point[a] == point[b]) continue;
        edges.emplace_back(point[a], point[b]);
        edges.emplace_back(point[b], point[a]);
      }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  g.offsets.assign(size_t(g.points) + 1, 0);
  for (const auto& e : edges) ++g.offsets[size_t(e.first) + 1];
  for (size_t p = 0; p < g.points; ++p) g.offsets[p + 1] += g.offsets[p];
  g.neighbours.reserve(edges.size());
  for (const auto& e : edges) g.neighbours.push_back(e.second);
  return g;
}

}  // namespace

WeightEditResult smooth_weights(SkinLayer& layer, const Model& model,
                                const SmoothOptions& options) {
  WeightEditResult result;
  const double f = std::clamp(double(options.factor), 0.0, 1.0);
  for (const SkinGroup& group : skin_groups(model, layer.meshes())) {
    const SkinMeshes& meshes = layer.meshes();
    const Skin& skin = model.skins[size_t(group.skin)];
    const PointGraph g = build_graph(model, meshes, group.primitives);
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
