#include "anim/local_to_world_job.h"

#include <algorithm>

#include "anim/quat_simd.h"

namespace rig {

namespace {

using namespace quat4;

// Pass 1: trs_matrix(local[i]) into world[i] for four nodes at once: glm's mat3_cast formulas
// in its operation order on four quaternions, columns times the scale, then transposed to one
// matrix per node: trs_matrix bit for bit. Independent per node, so batches pipeline, which the
// parent-to-child chain of pass 2 cannot.
void local_matrices4(std::span<const Transform> local, std::span<glm::mat4> world,
                     const int nodes[4]) {
  const Transform& t0 = local[size_t(nodes[0])];
  const Transform& t1 = local[size_t(nodes[1])];
  const Transform& t2 = local[size_t(nodes[2])];
  const Transform& t3 = local[size_t(nodes[3])];
  const Quat4 q = gather_quats(&t0.rotation.x, &t1.rotation.x, &t2.rotation.x, &t3.rotation.x);
  const __m128 qxx = mul(q.x, q.x), qyy = mul(q.y, q.y), qzz = mul(q.z, q.z);
  const __m128 qxz = mul(q.x, q.z), qxy = mul(q.x, q.y), qyz = mul(q.y, q.z);
  const __m128 qwx = mul(q.w, q.x), qwy = mul(q.w, q.y), qwz = mul(q.w, q.z);
  const __m128 one = k(1.0f), two = k(2.0f);
  // Scales by scalar loads: a 16-byte row load across the rotation would straddle the
  // sampler's and the blend's rotation stores, which cannot forward to it (the load then waits
  // for the stores to retire).
  const __m128 sx = _mm_setr_ps(t0.scale.x, t1.scale.x, t2.scale.x, t3.scale.x);
  const __m128 sy = _mm_setr_ps(t0.scale.y, t1.scale.y, t2.scale.y, t3.scale.y);
  const __m128 sz = _mm_setr_ps(t0.scale.z, t1.scale.z, t2.scale.z, t3.scale.z);
  const __m128 zero = _mm_setzero_ps();
  __m128 c0[4] = {mul(sub(one, mul(two, add(qyy, qzz))), sx), mul(mul(two, add(qxy, qwz)), sx),
                  mul(mul(two, sub(qxz, qwy)), sx), zero};
  __m128 c1[4] = {mul(mul(two, sub(qxy, qwz)), sy), mul(sub(one, mul(two, add(qxx, qzz))), sy),
                  mul(mul(two, add(qyz, qwx)), sy), zero};
  __m128 c2[4] = {mul(mul(two, add(qxz, qwy)), sz), mul(mul(two, sub(qyz, qwx)), sz),
                  mul(sub(one, mul(two, add(qxx, qyy))), sz), zero};
  _MM_TRANSPOSE4_PS(c0[0], c0[1], c0[2], c0[3]);
  _MM_TRANSPOSE4_PS(c1[0], c1[1], c1[2], c1[3]);
  _MM_TRANSPOSE4_PS(c2[0], c2[1], c2[2], c2[3]);
  const Transform* t[4] = {&t0, &t1, &t2, &t3};
  for (int j = 0; j < 4; ++j) {
    glm::mat4& m = world[size_t(nodes[j])];
    _mm_storeu_ps(&m[0].x, c0[j]);
    _mm_storeu_ps(&m[1].x, c1[j]);
    _mm_storeu_ps(&m[2].x, c2[j]);
    m[3] = glm::vec4(t[j]->translation, 1.0f);
  }
}

// Pass 2: world = parent · local, local read from `m` (pass 1's output) and replaced. The same
// products and sums, in the same order, as glm's scalar mat4 product (Σ_k parent[k] ·
// local[j][k], k = 0..3 left to right), minus the terms of local's last row (0, 0, 0, 1), which
// add exact zeros and ones: glm's result bit for bit (but for the sign of a zero).
inline __m128 load(const glm::vec4& v) { return _mm_loadu_ps(&v.x); }

// One load and three shuffles for the three broadcasts (rather than a load and a shuffle each).
inline __m128 column(const __m128 p[4], const glm::vec4& c) {
  const __m128 v = _mm_loadu_ps(&c.x);
  __m128 r = _mm_mul_ps(p[0], _mm_shuffle_ps(v, v, 0x00));
  r = _mm_add_ps(r, _mm_mul_ps(p[1], _mm_shuffle_ps(v, v, 0x55)));
  return _mm_add_ps(r, _mm_mul_ps(p[2], _mm_shuffle_ps(v, v, 0xAA)));
}

inline void parent_times_local(const glm::mat4& parent, glm::mat4& m) {
  const __m128 p[4] = {load(parent[0]), load(parent[1]), load(parent[2]), load(parent[3])};
  const __m128 c0 = column(p, m[0]), c1 = column(p, m[1]), c2 = column(p, m[2]);
  const __m128 c3 = _mm_add_ps(column(p, m[3]), p[3]);
  _mm_storeu_ps(&m[0].x, c0);
  _mm_storeu_ps(&m[1].x, c1);
  _mm_storeu_ps(&m[2].x, c2);
  _mm_storeu_ps(&m[3].x, c3);
}

}  // namespace

bool LocalToWorldJob::validate() const {
  if (!skeleton) return false;
  const size_t n = skeleton->size();
  if (local.size() != n || world.size() != n || skeleton->parents_first.size() != n ||
      skeleton->has_shear.size() != n || skeleton->shear.size() != n)
    return false;
  if (root < 0) return true;
  const NodeHierarchy& h = skeleton->hierarchy;
  return size_t(root) < n && h.position.size() == n && h.order.size() == n &&
         h.subtree_end.size() == n;
}

bool LocalToWorldJob::run() const {
  if (!validate()) return false;
  const Skeleton& s = *skeleton;
  const NodeHierarchy& h = s.hierarchy;
  // The whole skeleton by depth (or parents first where the hierarchy is missing), or one
  // subtree as a range of the depth-first order.
  std::span<const int> nodes = s.parents_first;
  const bool by_depth =
      root < 0 && h.by_depth.size() == s.size() && h.by_depth_parent.size() == s.size();
  if (by_depth) nodes = h.by_depth;
  if (root >= 0)
    nodes = std::span<const int>(h.order).subspan(
        h.position[size_t(root)], h.subtree_end[size_t(root)] - h.position[size_t(root)]);
  // Pass 1 over every node of the range (a short last batch repeats its first node), pass 2
  // parents first.
  for (size_t i0 = 0; i0 < nodes.size(); i0 += 4) {
    int batch[4];
    for (size_t j = 0; j < 4; ++j) batch[j] = nodes[i0 + j < nodes.size() ? i0 + j : i0];
    local_matrices4(local, world, batch);
  }
  if (by_depth) {
    const int* parents = h.by_depth_parent.data();
    for (size_t k = 0; k < nodes.size(); ++k) {
      const int p = parents[k];
      if (p >= 0) {
        parent_times_local(world[size_t(p)], world[size_t(nodes[k])]);
      } else if (p == NodeHierarchy::kShear) {
        const size_t i = size_t(nodes[k]);
        glm::mat4& w = world[i];
        w = w * s.shear[i];
        if (s.parent[i] >= 0) w = world[size_t(s.parent[i])] * w;
      }
    }
    return true;
  }
  for (const int node : nodes) {
    const size_t i = size_t(node);
    glm::mat4& w = world[i];
    const int parent = s.parent[i];
    if (s.has_shear[i]) w = w * s.shear[i];
    if (parent < 0) continue;  // a root: its local matrix
    if (s.has_shear[i])
      w = world[size_t(parent)] * w;
    else
      parent_times_local(world[size_t(parent)], w);
  }
  return true;
}

}  // namespace rig
