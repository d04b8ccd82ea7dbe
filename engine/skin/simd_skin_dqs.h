// Dual-quaternion skinning of a batch: a part of the batch skinning kernels' body, included by
// simd_skin_impl.h only (inside its namespace, once per instruction set; no include guard on
// purpose, as there).

// ---- DQS -------------------------------------------------------------------------------------

// skin_math::pivot_influence without branches (weights are data: a branch per comparison
// mispredicts): the first slot holding the largest weight.
template <int K>
inline uint32_t pivot(const float* w) {
  __m128 m = _mm_loadu_ps(w);
  int mask;
  if constexpr (K == 8) {
    const __m128 hi = _mm_loadu_ps(w + 4);
    __m128 x = _mm_max_ps(m, hi);
    x = _mm_max_ps(x, RIG_SHUF(x, x, 2, 3, 0, 1));
    x = _mm_max_ps(x, RIG_SHUF(x, x, 1, 0, 3, 2));
    mask = _mm_movemask_ps(_mm_cmpeq_ps(m, x)) | (_mm_movemask_ps(_mm_cmpeq_ps(hi, x)) << 4);
  } else {
    __m128 x = _mm_max_ps(m, RIG_SHUF(m, m, 2, 3, 0, 1));
    x = _mm_max_ps(x, RIG_SHUF(x, x, 1, 0, 3, 2));
    mask = _mm_movemask_ps(_mm_cmpeq_ps(m, x));
  }
  const uint32_t ref = uint32_t(__builtin_ctz(uint32_t(mask) | (1u << K)));
  return ref < uint32_t(K) ? ref : 0u;  // no slot equals the maximum only with NaN weights
}

// The rigid dual-quaternion map of a batch: the blended real parts R (rv, rw) and dual parts D
// (dv, dw), unnormalized; `k` = 2/|R|². Rotation by the unnormalized R:
// v + k (R_w (R×v) + R×(R×v)); translation of the normalized dual quaternion:
// k (R_w D − D_w R + R×D).
template <class F>
struct RigidBlend {
  V3<F> rv, dv;
  F rw, dw, k;
  V3<F> rotate(const V3<F>& v) const {
    const V3<F> u = cross(rv, v);
    return madd(madd(u, rw, cross(rv, u)), k, v);
  }
  V3<F> translation() const { return scale(add(msub(dv, rw, scale(rv, dw)), cross(rv, dv)), k); }
  // rotate(v) + translation() in one: v + k (R_w (u + D) + R×(u + D) − D_w R), u = R×v (one
  // cross product fewer).
  V3<F> transform(const V3<F>& v) const {
    const V3<F> ud = add(cross(rv, v), dv);
    const V3<F> m = madd(ud, rw, cross(rv, ud));
    return madd(msub(rv, dw, m), sub(splat(F{}, 0.0f), k), v);  // −k (D_w R − m) + v
  }
};

// Four vertices of dual-quaternion skinning, any stretch (palette: 5 rows per joint).
// `signs` (may be null): bit j of row p set when dot(real_j, real_p) < 0, computed as the
// per-influence test below computes it (skin/simd_skin.cpp); it replaces that test.
template <int K>
inline void dqs4(const float* palette, size_t joint_count, const uint64_t (*signs)[kSignWords],
                 const uint16_t* joints, const float* weights, const float* pos, const float* nrm,
                 float* out_p, float* out_n) {
  using F = __m128;
  alignas(16) float sums[4];
  alignas(16) uint32_t pivot_ok[4];
  __m128 row[5][4];  // [palette row][vertex]
  const __m128 sign_bit = _mm_set1_ps(-0.0f);
  for (int q = 0; q < 4; ++q) {
    const uint16_t* vj = joints + q * K;
    const float* vw = weights + q * K;
    uint32_t idx[K];
    float w[K];
    sums[q] = vertex_slots<K, true>(vj, vw, joint_count, idx, w);
    const uint32_t ref = pivot<K>(vw);
    pivot_ok[q] = vj[ref] < joint_count ? ~0u : 0u;
    const __m128 pivot = _mm_loadu_ps(palette + size_t(idx[ref]) * 20);
    __m128 real = _mm_setzero_ps(), dual = real, s0 = real, s1 = real, s2 = real;
    if (signs) {
      const uint64_t* row_signs = signs[idx[ref]];
#pragma GCC unroll 8
      for (int i = 0; i < K; ++i) {
        const float* r = palette + size_t(idx[i]) * 20;
        // The sign bit moved into the weight's sign: no branch (the signs are data, a branch
        // on them mispredicts half the time).
        const uint32_t flip = uint32_t(row_signs[idx[i] >> 6] >> (idx[i] & 63)) << 31;
        const __m128 wi = _mm_set1_ps(w[i]);
        const __m128 sw = _mm_xor_ps(wi, _mm_castsi128_ps(_mm_set1_epi32(int(flip))));
        real = RIG_MADD(_mm_loadu_ps(r), sw, real);
        dual = RIG_MADD(_mm_loadu_ps(r + 4), sw, dual);
        s0 = RIG_MADD(_mm_loadu_ps(r + 8), wi, s0);
        s1 = RIG_MADD(_mm_loadu_ps(r + 12), wi, s1);
        s2 = RIG_MADD(_mm_loadu_ps(r + 16), wi, s2);
      }
      row[0][q] = real, row[1][q] = dual, row[2][q] = s0, row[3][q] = s1, row[4][q] = s2;
      continue;
    }
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) {
      const float* r = palette + size_t(idx[i]) * 20;
      const __m128 jr = _mm_loadu_ps(r);
      // dot(jr, pivot) summed as glm sums a quaternion dot: (w + x) + (y + z).
      const __m128 prod = _mm_mul_ps(jr, pivot);
      __m128 d = _mm_add_ps(prod, RIG_SHUF(prod, prod, 3, 2, 1, 0));
      d = _mm_add_ps(d, RIG_SHUF(d, d, 1, 0, 3, 2));
      const __m128 wi = _mm_set1_ps(w[i]);
      const __m128 sw = _mm_xor_ps(wi, _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), sign_bit));
      real = RIG_MADD(jr, sw, real);
      dual = RIG_MADD(_mm_loadu_ps(r + 4), sw, dual);
      s0 = RIG_MADD(_mm_loadu_ps(r + 8), wi, s0);
      s1 = RIG_MADD(_mm_loadu_ps(r + 12), wi, s1);
      s2 = RIG_MADD(_mm_loadu_ps(r + 16), wi, s2);
    }
    row[0][q] = real, row[1][q] = dual, row[2][q] = s0, row[3][q] = s1, row[4][q] = s2;
  }
  V3<F> v[5];
  F w[2];
  for (int k = 0; k < 5; ++k) {
    __m128 r0 = row[k][0], r1 = row[k][1], r2 = row[k][2], r3 = row[k][3];
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    v[k] = {r0, r1, r2};
    if (k < 2) w[k] = r3;
  }
  const V3<F>&s0 = v[2], &s1 = v[3], &s2 = v[4];
  const F zero = _mm_setzero_ps();
  const F sum = _mm_load_ps(sums);
  RigidBlend<F> b{v[0], v[1], w[0], w[1], zero};
  const F norm2 = madd(b.rw, b.rw, dot(b.rv, b.rv));
  const F valid =
      and_(and_(gt(sum, zero), gt(norm2, zero)),
           _mm_castsi128_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(pivot_ok))));
  b.k = div(splat(F{}, 2.0f), norm2);
  const V3<F> p = load_xyz(F{}, pos);
  // Stretch first: S p with S = Σ w_i S_i / sum.
  const V3<F> sp = scale(madd(s2, p.z, madd(s1, p.y, scale(s0, p.x))), div(splat(F{}, 1.0f), sum));
  store_xyz(out_p, select(valid, add(b.rotate(sp), b.translation()), p));
  if (!nrm) return;
  const V3<F> n = load_xyz(F{}, nrm);
  const V3<F> k0 = cross(s1, s2), k1 = cross(s2, s0), k2 = cross(s0, s1);
  const V3<F> r = madd(k2, n.z, madd(k1, n.y, scale(k0, n.x)));
  const V3<F> signed_r = negate_where(lt(dot(s0, k0), zero), r);
  store_xyz(out_n, fast_normalize(select(valid, b.rotate(signed_r), n), n));
}

// A batch of DQS when every joint of the palette is rigid (stretch exactly I, as
// joint_dual_quat_from_matrix writes it for rigid matrices): Σ w_i S_i / sum is then I up to
// the rounding of the weights' sum, so the stretch is neither blended nor applied, and the
// normal is only rotated. `rows`: per joint 16 floats, 64-byte aligned: real, dual, −real,
// −dual; `flip`: per pivot joint, per joint, 8 where dot(real_j, real_pivot) < 0 (the
// reference's hemisphere test, see dqs4), else 0, so that row j + flip[j] is the aligned part
// without a branch. Every joint below the palette's count (joints_below).
template <int K>
inline void dqs_rigid_batch(const float* rows, const uint8_t (*flip)[kSignJoints],
                            const int32_t* pivots, const uint16_t* joints, const float* weights,
                            const float* pos, const float* nrm, float* out_p, float* out_n) {
#if RIG_SIMD_AVX2
  using F = __m256;
  constexpr int W = 8;
  __m256 acc[W];  // per vertex: real | dual
#else
  using F = __m128;
  constexpr int W = 4;
  __m128 acc[2][W];  // [real, dual][vertex]
#endif
  const F sums = weight_stats<K>(weights);
#pragma GCC unroll 8
  for (int q = 0; q < W; ++q) {
    const uint16_t* vj = joints + q * K;
    const float* vw = weights + q * K;
    const uint8_t* vflip = flip[vj[pivots[q]]];
#if RIG_SIMD_AVX2
    __m256 a = _mm256_setzero_ps();
#else
    __m128 a = _mm_setzero_ps(), d = a;
#endif
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) {
      const float* r = rows + size_t(vj[i]) * 16 + vflip[vj[i]];
#if RIG_SIMD_AVX2
      a = _mm256_fmadd_ps(_mm256_load_ps(r), _mm256_set1_ps(vw[i]), a);
#else
      const __m128 wi = _mm_set1_ps(vw[i]);
      a = RIG_MADD(_mm_load_ps(r), wi, a);
      d = RIG_MADD(_mm_load_ps(r + 4), wi, d);
#endif
    }
#if RIG_SIMD_AVX2
    acc[q] = a;
#else
    acc[0][q] = a, acc[1][q] = d;
#endif
  }
  RigidBlend<F> b;
#if RIG_SIMD_AVX2
  __m256 e[8];
  transpose8<0xFF>(acc, e);
  b.rv = {e[0], e[1], e[2]}, b.rw = e[3], b.dv = {e[4], e[5], e[6]}, b.dw = e[7];
#else
  for (int k = 0; k < 2; ++k) {
    __m128 r0 = acc[k][0], r1 = acc[k][1], r2 = acc[k][2], r3 = acc[k][3];
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    (k == 0 ? b.rv : b.dv) = {r0, r1, r2};
    (k == 0 ? b.rw : b.dw) = r3;
  }
#endif
  const F zero = splat(F{}, 0.0f);
  const F norm2 = madd(b.rw, b.rw, dot(b.rv, b.rv));
  const F valid = and_(gt(sums, zero), gt(norm2, zero));
  b.k = div(splat(F{}, 2.0f), norm2);
  const V3<F> p = load_xyz(F{}, pos);
  store_xyz(out_p, select(valid, b.transform(p), p));
  if (!nrm) return;
  const V3<F> n = load_xyz(F{}, nrm);
  store_xyz(out_n, fast_normalize(select(valid, b.rotate(n), n), n));
}
