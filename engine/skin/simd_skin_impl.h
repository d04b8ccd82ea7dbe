// The body of the batch skinning kernels (skin/simd_skin.h). No include guard on purpose:
// simd_skin.cpp includes it twice, once plain (SSE2, batches of 4 vertices) and once under
// `#pragma GCC target("avx2,fma")` with RIG_SIMD_AVX2 = 1 (batches of 8), each time inside its
// own namespace.
//
// Layout: per vertex the palette rows are blended as whole rows (AoS: one register per row or
// pair of rows), then a batch's blends are transposed so that the rest (transforming the point,
// the cofactor of the normal, normalizing) runs one component per register over the batch
// (SoA). Gathering the palette per component instead would cost a transpose per influence; this
// way there is one per vertex. Positions and normals are read and written as packed xyz triples.

// a·b + c: fused on the AVX2 path, a multiply and an add otherwise.
#if RIG_SIMD_AVX2
#define RIG_MADD(a, b, c) _mm_fmadd_ps(a, b, c)
#else
#define RIG_MADD(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)
#endif
// _mm_shuffle_ps lanes in reading order: result = (a[i0], a[i1], b[i2], b[i3]).
#define RIG_SHUF(a, b, i0, i1, i2, i3) _mm_shuffle_ps(a, b, _MM_SHUFFLE(i3, i2, i1, i0))
#define RIG_SHUF8(a, b, i0, i1, i2, i3) _mm256_shuffle_ps(a, b, _MM_SHUFFLE(i3, i2, i1, i0))

namespace {

// The parts, in this order (each uses the ones before it).
// clang-format off
#include "skin/simd_skin_lanes.h"
#include "skin/simd_skin_lbs.h"
#include "skin/simd_skin_dqs.h"
// clang-format on

// ---- whole meshes ----------------------------------------------------------------------------

#if RIG_SIMD_AVX2
constexpr uint32_t kBatch = 8;
#else
constexpr uint32_t kBatch = 4;
#endif

// Runs `batch` on the last vertex_count % kBatch vertices (from `full`) through a padded copy
// on the stack. Padding vertices have weight 0 on joint 0 and are thrown away.
template <int K, typename Batch>
inline void tail_batch(const SkinMesh& mesh, uint32_t full, const float* pos, const float* nrm,
                       float* out_p, float* out_n, Batch batch) {
  const uint32_t rest = mesh.vertex_count - full;
  if (rest == 0) return;
  const uint16_t* joints = mesh.joints.data();
  const float* weights = mesh.weights.data();
  uint16_t tj[kBatch * K] = {};
  float tw[kBatch * K] = {}, tp[kBatch * 3] = {}, tn[kBatch * 3] = {}, op[kBatch * 3],
                    on[kBatch * 3];
  for (uint32_t i = 0; i < rest * K; ++i) {
    tj[i] = joints[size_t(full) * K + i];
    tw[i] = weights[size_t(full) * K + i];
  }
  for (uint32_t i = 0; i < rest * 3; ++i) {
    tp[i] = pos[size_t(full) * 3 + i];
    if (nrm) tn[i] = nrm[size_t(full) * 3 + i];
  }
  batch(tj, tw, tp, nrm ? tn : nullptr, op, out_n ? on : nullptr);
  for (uint32_t i = 0; i < rest * 3; ++i) {
    out_p[size_t(full) * 3 + i] = op[i];
    if (out_n) out_n[size_t(full) * 3 + i] = on[i];
  }
}

// Runs `batch` (kBatch vertices) over the mesh, the tail through tail_batch.
template <int K, typename Batch>
inline void for_each_batch(const SkinMesh& mesh, const float* pos, const float* nrm, float* out_p,
                           float* out_n, Batch batch) {
  const uint32_t full = mesh.vertex_count - mesh.vertex_count % kBatch;
  const uint16_t* joints = mesh.joints.data();
  const float* weights = mesh.weights.data();
  for (uint32_t v = 0; v < full; v += kBatch)
    batch(joints + size_t(v) * K, weights + size_t(v) * K, pos + size_t(v) * 3,
          nrm ? nrm + size_t(v) * 3 : nullptr, out_p + size_t(v) * 3,
          out_n ? out_n + size_t(v) * 3 : nullptr);
  tail_batch<K>(mesh, full, pos, nrm, out_p, out_n, batch);
}

template <int K>
void skin_linear_k(const SkinMesh& mesh, const float* palette, size_t joint_count, const float* pos,
                   const float* nrm, float* out_p, float* out_n) {
  // Positions only: with AVX2, 4 influences go through the batches too (measured a quarter
  // faster than one vertex at a time: no per-vertex division or broadcasts); otherwise one
  // vertex at a time, AoS, no transpose (measured faster with 8 influences, and on SSE2).
  if (!nrm && (K == 8 || !RIG_SIMD_AVX2)) {
    const uint16_t* joints = mesh.joints.data();
    const float* weights = mesh.weights.data();
    for (uint32_t v = 0; v < mesh.vertex_count; ++v)
      lbs1_position<K>(palette, joint_count, joints + size_t(v) * K, weights + size_t(v) * K,
                       pos + size_t(v) * 3, out_p + size_t(v) * 3);
    return;
  }
  for_each_batch<K>(mesh, pos, nrm, out_p, out_n,
                    [&](const uint16_t* j, const float* w, const float* p, const float* nn,
                        float* op, float* on) {
                      if (joints_below<K * kBatch>(j, joint_count))
                        lbs_batch<K, false>(palette, joint_count, j, w, p, nn, op, on);
                      else
                        lbs_batch<K, true>(palette, joint_count, j, w, p, nn, op, on);
                    });
}

// `rigid_rows` (may be null): the rows of dqs_rigid_batch when every joint is rigid; then
// `flip` is not null either.
template <int K>
void skin_dual_quat_k(const SkinMesh& mesh, const float* palette, size_t joint_count,
                      const uint64_t (*signs)[kSignWords], const float* rigid_rows,
                      const uint8_t (*flip)[kSignJoints], const float* pos, const float* nrm,
                      float* out_p, float* out_n) {
  const auto general = [&](const uint16_t* j, const float* w, const float* p, const float* nn,
                           float* op, float* on) {
    for (uint32_t q = 0; q < kBatch; q += 4)
      dqs4<K>(palette, joint_count, signs, j + q * K, w + q * K, p + q * 3,
              nn ? nn + q * 3 : nullptr, op + q * 3, on ? on + q * 3 : nullptr);
  };
  if (!rigid_rows) {
    for_each_batch<K>(mesh, pos, nrm, out_p, out_n, general);
    return;
  }
  const auto rigid = [&](const uint16_t* j, const float* w, const float* p, const float* nn,
                         float* op, float* on, const int32_t* pivots) {
    if (joints_below<K * kBatch>(j, joint_count))
      dqs_rigid_batch<K>(rigid_rows, flip, pivots, j, w, p, nn, op, on);
    else
      general(j, w, p, nn, op, on);
  };
  // The pivot slots are found a chunk ahead: found by each batch right before their use, they
  // would head its chain of dependent loads (pivot → its joint → that joint's sign row → the
  // palette rows), which measured a third slower.
  constexpr uint32_t kChunk = 64 * kBatch;
  alignas(32) int32_t pivots[kChunk];
  const uint32_t full = mesh.vertex_count - mesh.vertex_count % kBatch;
  const uint16_t* joints = mesh.joints.data();
  const float* weights = mesh.weights.data();
  for (uint32_t c = 0; c < full; c += kChunk) {
    const uint32_t m = std::min(kChunk, full - c);
    for (uint32_t v = 0; v < m; v += kBatch)
      weight_stats<K>(weights + size_t(c + v) * K, pivots + v);
    for (uint32_t v = 0; v < m; v += kBatch) {
      const size_t at = c + v;
      rigid(joints + at * K, weights + at * K, pos + at * 3, nrm ? nrm + at * 3 : nullptr,
            out_p + at * 3, out_n ? out_n + at * 3 : nullptr, pivots + v);
    }
  }
  tail_batch<K>(mesh, full, pos, nrm, out_p, out_n,
                [&](const uint16_t* j, const float* w, const float* p, const float* nn, float* op,
                    float* on) {
                  alignas(32) int32_t tail_pivots[kBatch];
                  weight_stats<K>(w, tail_pivots);
                  rigid(j, w, p, nn, op, on, tail_pivots);
                });
}

}  // namespace

#undef RIG_MADD
#undef RIG_SHUF
#undef RIG_SHUF8