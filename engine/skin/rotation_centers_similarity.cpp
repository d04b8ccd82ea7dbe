// The public per-vertex helpers of the centre-of-rotation computation (skin/rotation_centers.h):
// a vertex's weight vector, the weight distance and similarity, one triangle's subdivision, the
// surface statistics.
#include <algorithm>
#include <cmath>
#include <vector>

#include "model/triangles.h"
#include "skin/rotation_centers_internal.h"

namespace rig {

// -----------------------------------------------------------------------------------------------
// Public helpers.

CorWeights cor_vertex_weights(const Primitive& prim, uint32_t v) {
  CorWeights w;
  sparse_weights(prim, v, w);
  return w;
}

double cor_weight_distance(const CorWeights& a, const CorWeights& b) {
  std::vector<uint32_t> joints;
  joint_union({&a, &b}, joints);
  std::vector<double> da(joints.size()), db(joints.size());
  densify(a, joints, da.data());
  densify(b, joints, db.data());
  return dense_distance(da.data(), db.data(), static_cast<uint32_t>(joints.size()));
}

double cor_similarity(const CorWeights& p, const CorWeights& v, double sigma) {
  auto weight_of = [](const CorWeights& w, uint32_t joint) {
    for (const CorWeight& e : w)
      if (e.joint == joint) return e.weight;
    return 0.0;
  };
  double s = 0.0;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = i + 1; j < p.size(); ++j) {
      const double pj = p[i].weight, pk = p[j].weight;
      const double vj = weight_of(v, p[i].joint), vk = weight_of(v, p[j].joint);
      if (vj == 0.0 || vk == 0.0) continue;
      const double d = pj * vk - pk * vj;
      s += pj * pk * vj * vk * std::exp(-(d * d) / (sigma * sigma));
    }
  return s;
}

void subdivide_cor_triangle(const CorVertex& a, const CorVertex& b, const CorVertex& c,
                            const CorOptions& options, std::vector<CorSubTriangle>& out) {
  std::vector<uint32_t> joints;
  std::vector<double> buffer;
  const SubdivParams params{options.epsilon, options.max_depth};
  auto emit = [&](const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc,
                  const double* da, const double* db, const double* dc, int depth) {
    CorSubTriangle t;
    t.centroid = (pa + pb + pc) / 3.0;
    t.area = 0.5 * glm::length(glm::cross(pb - pa, pc - pa));
    t.depth = depth;
    for (size_t i = 0; i < joints.size(); ++i) {
      const double w = (da[i] + db[i] + dc[i]) / 3.0;
      if (w > 0.0) t.weights.push_back({joints[i], w});
    }
    out.push_back(std::move(t));
  };
  subdivide_sparse(a.position, b.position, c.position, a.weights, b.weights, c.weights, params,
                   joints, buffer, emit);
}

CorSurfaceStats cor_surface_stats(const Mesh& mesh, const CorOptions& options) {
  CorSurfaceStats stats;
  const SubdivParams params{options.epsilon, options.max_depth};
  std::vector<uint32_t> tris, joints;
  std::vector<double> buffer;
  auto emit = [&](const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc, const double*,
                  const double*, const double*, int depth) {
    stats.area += 0.5 * glm::length(glm::cross(pb - pa, pc - pa));
    ++stats.sub_triangles;
    stats.max_depth = std::max(stats.max_depth, depth);
  };
  for (const Primitive& prim : mesh.primitives) {
    if (!has_triangles(prim.mode)) continue;
    tris.clear();
    append_triangles(prim, tris);
    std::vector<CorWeights> w(prim.vertex_count());
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) sparse_weights(prim, v, w[v]);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      if (tris[t] >= prim.vertex_count() || tris[t + 1] >= prim.vertex_count() ||
          tris[t + 2] >= prim.vertex_count())
        continue;
      ++stats.triangles;
      subdivide_sparse(glm::dvec3(prim.positions[tris[t]]), glm::dvec3(prim.positions[tris[t + 1]]),
                       glm::dvec3(prim.positions[tris[t + 2]]), w[tris[t]], w[tris[t + 1]],
                       w[tris[t + 2]], params, joints, buffer, emit);
    }
  }
  return stats;
}

}  // namespace rig
