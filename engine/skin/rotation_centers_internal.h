// What the centre-of-rotation sources share (rotation_centers.cpp: the computation;
// rotation_centers_similarity.cpp: the public per-vertex helpers): weight vectors and the
// subdivision of Ω (step 2), inline here so that the computation's inner loops keep them
// inlined. Include it from nowhere else.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "skin/rotation_centers.h"

namespace rig {

namespace rotation_centers_detail {

// ---------------------------------------------------------------------------------------------
// Weight vectors.

// `prim`: a Primitive (the file's influences) or a SkinMesh (the skin layer's), which name their
// influence fields alike.
template <typename Influences>
void sparse_weights(const Influences& prim, uint32_t v, CorWeights& out) {
  out.clear();
  const uint32_t k = prim.influences;
  if (k == 0 || (size_t(v) + 1) * k > prim.weights.size() ||
      (size_t(v) + 1) * k > prim.joints.size())
    return;
  for (uint32_t i = 0; i < k; ++i) {
    const float w = prim.weights[size_t(v) * k + i];
    if (!(w > 0.0f)) continue;  // zero-weight slots are ignored
    const uint32_t joint = prim.joints[size_t(v) * k + i];
    auto it = std::find_if(out.begin(), out.end(),
                           [joint](const CorWeight& e) { return e.joint == joint; });
    if (it != out.end())
      it->weight += double(w);  // a joint named in several slots: weights summed
    else
      out.push_back({joint, double(w)});
  }
  std::sort(out.begin(), out.end(),
            [](const CorWeight& a, const CorWeight& b) { return a.joint < b.joint; });
  double sum = 0.0;
  for (const CorWeight& e : out) sum += e.weight;
  if (!(sum > 0.0) || !std::isfinite(sum)) {
    out.clear();
    return;
  }
  for (CorWeight& e : out) e.weight /= sum;
}

// Sorted union of the joints of `lists`.
inline void joint_union(std::initializer_list<const CorWeights*> lists,
                        std::vector<uint32_t>& out) {
  out.clear();
  for (const CorWeights* l : lists)
    for (const CorWeight& e : *l) out.push_back(e.joint);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// Scatters sparse `w` into dense[u] over the sorted joints `joints`.
inline void densify(const CorWeights& w, const std::vector<uint32_t>& joints, double* dense) {
  std::fill(dense, dense + joints.size(), 0.0);
  size_t i = 0;
  for (const CorWeight& e : w) {
    while (joints[i] != e.joint) ++i;
    dense[i] = e.weight;
  }
}

inline double dense_distance(const double* a, const double* b, uint32_t u) {
  double s = 0.0;
  for (uint32_t i = 0; i < u; ++i) {
    const double d = a[i] - b[i];
    s += d * d;
  }
  return std::sqrt(s);
}

// ---------------------------------------------------------------------------------------------
// Subdivision (step 2) over dense weight vectors of the triangle's joint union: every leaf of a
// triangle has its joints among the corners' joints. `scratch` holds 3u doubles per level.

struct SubdivParams {
  double epsilon;
  int max_depth;
};

template <class Emit>
void subdivide(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const double* wa,
               const double* wb, const double* wc, uint32_t u, int depth, const SubdivParams& p,
               double* scratch, Emit& emit) {
  const bool split = depth < p.max_depth && (dense_distance(wa, wb, u) > p.epsilon ||
                                             dense_distance(wb, wc, u) > p.epsilon ||
                                             dense_distance(wc, wa, u) > p.epsilon);
  if (!split) {
    emit(a, b, c, wa, wb, wc, depth);
    return;
  }
  double* mab = scratch;
  double* mbc = scratch + u;
  double* mca = scratch + 2 * size_t(u);
  for (uint32_t i = 0; i < u; ++i) {
    mab[i] = (wa[i] + wb[i]) / 2.0;
    mbc[i] = (wb[i] + wc[i]) / 2.0;
    mca[i] = (wc[i] + wa[i]) / 2.0;
  }
  const glm::dvec3 pab = (a + b) / 2.0, pbc = (b + c) / 2.0, pca = (c + a) / 2.0;
  double* next = scratch + 3 * size_t(u);
  subdivide(a, pab, pca, wa, mab, mca, u, depth + 1, p, next, emit);
  subdivide(pab, b, pbc, mab, wb, mbc, u, depth + 1, p, next, emit);
  subdivide(pca, pbc, c, mca, mbc, wc, u, depth + 1, p, next, emit);
  subdivide(pab, pbc, pca, mab, mbc, mca, u, depth + 1, p, next, emit);
}

// Subdivides one triangle with sparse corner weights; emit(a, b, c, wa, wb, wc, depth, joints).
template <class Emit>
void subdivide_sparse(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      const CorWeights& wa, const CorWeights& wb, const CorWeights& wc,
                      const SubdivParams& p, std::vector<uint32_t>& joints,
                      std::vector<double>& buffer, Emit& emit) {
  joint_union({&wa, &wb, &wc}, joints);
  const uint32_t u = static_cast<uint32_t>(joints.size());
  const size_t levels = size_t(std::max(p.max_depth, 0)) + 1;
  buffer.resize(3 * size_t(u) + 3 * size_t(u) * levels);
  double* da = buffer.data();
  double* db = da + u;
  double* dc = db + u;
  densify(wa, joints, da);
  densify(wb, joints, db);
  densify(wc, joints, dc);
  subdivide(a, b, c, da, db, dc, u, 0, p, dc + u, emit);
}

}  // namespace rotation_centers_detail

// Only the centre-of-rotation sources include this header: its helpers read unqualified there.
using namespace rotation_centers_detail;

}  // namespace rig
