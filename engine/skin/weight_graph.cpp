#include "skin/weight_graph.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "model/triangles.h"
#include "skin/weight_edit.h"

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

}  // namespace

PointGraph build_point_graph(const Model& model, const SkinMeshes& meshes,
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

}  // namespace rig
