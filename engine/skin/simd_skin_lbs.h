// Linear blend skinning of a batch: a part of the batch skinning kernels' body, included by
// simd_skin_impl.h only (inside its namespace, once per instruction set; no include guard on
// purpose, as there).

// ---- LBS -------------------------------------------------------------------------------------

// Σ w_i · palette rows of joint i (unnormalized weights): the four columns of the blend.
template <int K>
inline void blend_lbs(const float* palette, const uint32_t* idx, const float* w, __m128* col) {
#if RIG_SIMD_AVX2
  __m256 c01 = _mm256_setzero_ps(), c23 = _mm256_setzero_ps();
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) {
    const float* r = palette + size_t(idx[i]) * 16;
    const __m256 wi = _mm256_set1_ps(w[i]);
    c01 = _mm256_fmadd_ps(_mm256_loadu_ps(r), wi, c01);
    c23 = _mm256_fmadd_ps(_mm256_loadu_ps(r + 8), wi, c23);
  }
  col[0] = _mm256_castps256_ps128(c01);
  col[1] = _mm256_extractf128_ps(c01, 1);
  col[2] = _mm256_castps256_ps128(c23);
  col[3] = _mm256_extractf128_ps(c23, 1);
#else
  __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) {
    const float* r = palette + size_t(idx[i]) * 16;
    const __m128 wi = _mm_set1_ps(w[i]);
    c0 = RIG_MADD(_mm_loadu_ps(r), wi, c0);
    c1 = RIG_MADD(_mm_loadu_ps(r + 4), wi, c1);
    c2 = RIG_MADD(_mm_loadu_ps(r + 8), wi, c2);
    c3 = RIG_MADD(_mm_loadu_ps(r + 12), wi, c3);
  }
  col[0] = c0, col[1] = c1, col[2] = c2, col[3] = c3;
#endif
}

// A batch's blended columns in SoA (c[3]: the translation) and weight sums → positions, and
// normals when `nrm` is not null.
template <class F>
inline void lbs_apply(const V3<F>* c, F sum, const float* pos, const float* nrm, float* out_p,
                      float* out_n) {
  const F zero = splat(F{}, 0.0f);
  const F valid = gt(sum, zero);
  const V3<F> p = load_xyz(F{}, pos);
  // p' = (c0·px + c1·py + c2·pz + c3) / sum
  const V3<F> moved =
      scale(madd(c[2], p.z, madd(c[1], p.y, madd(c[0], p.x, c[3]))), div(splat(F{}, 1.0f), sum));
  store_xyz(out_p, select(valid, moved, p));
  if (!nrm) return;
  const V3<F> n = load_xyz(F{}, nrm);
  // n' = cofactor(M) n, sign of det(M): the inverse transpose up to a positive scale.
  // cofactor(M) n = nx (c1×c2) + ny (c2×c0) + nz (c0×c1) = c1×(nx c2 − nz c0) + ny (c2×c0):
  // two cross products instead of three; det(M) = c1·(c2×c0) reuses one.
  const V3<F> k1 = cross(c[2], c[0]);
  const V3<F> r = madd(k1, n.y, cross(c[1], msub(c[2], n.x, scale(c[0], n.z))));
  const V3<F> signed_r = negate_where(lt(dot(c[1], k1), zero), r);
  store_xyz(out_n, fast_normalize(select(valid, signed_r, n), n));
}

// One batch of LBS (4 vertices on SSE2, 8 on AVX2).
template <int K, bool Checked>
inline void lbs_batch(const float* palette, size_t joint_count, const uint16_t* joints,
                      const float* weights, const float* pos, const float* nrm, float* out_p,
                      float* out_n) {
#if RIG_SIMD_AVX2
  using F = __m256;
  constexpr int W = 8;
  __m256 lo[W], hi[W];  // per vertex: columns 0 | 1, columns 2 | 3
#pragma GCC unroll 8
  for (int q = 0; q < W; ++q) {
    uint32_t idx[K];
    float w[K];
    vertex_slots<K, Checked>(joints + q * K, weights + q * K, joint_count, idx, w);
    const float* r = palette + size_t(idx[0]) * 16;
    const __m256 w0 = _mm256_set1_ps(w[0]);
    __m256 a = _mm256_mul_ps(_mm256_loadu_ps(r), w0), b = _mm256_mul_ps(_mm256_loadu_ps(r + 8), w0);
#pragma GCC unroll 8
    for (int i = 1; i < K; ++i) {
      r = palette + size_t(idx[i]) * 16;
      const __m256 wi = _mm256_set1_ps(w[i]);
      a = _mm256_fmadd_ps(_mm256_loadu_ps(r), wi, a);
      b = _mm256_fmadd_ps(_mm256_loadu_ps(r + 8), wi, b);
    }
    lo[q] = a, hi[q] = b;
  }
  __m256 e[8];
  V3<F> c[4];
  transpose8<0x77>(lo, e);  // element 3 and 7: the columns' w, unused
  c[0] = {e[0], e[1], e[2]}, c[1] = {e[4], e[5], e[6]};
  transpose8<0x77>(hi, e);
  c[2] = {e[0], e[1], e[2]}, c[3] = {e[4], e[5], e[6]};
#else
  using F = __m128;
  constexpr int W = 4;
  __m128 col[W][4];  // [vertex][column]
  for (int q = 0; q < W; ++q) {
    uint32_t idx[K];
    float w[K];
    vertex_slots<K, Checked>(joints + q * K, weights + q * K, joint_count, idx, w);
    blend_lbs<K>(palette, idx, w, col[q]);
  }
  V3<F> c[4];
  for (int k = 0; k < 4; ++k) {
    __m128 r0 = col[0][k], r1 = col[1][k], r2 = col[2][k], r3 = col[3][k];
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    c[k] = {r0, r1, r2};
  }
#endif
  lbs_apply(c, F(weight_stats<K>(weights)), pos, nrm, out_p, out_n);
}

// One vertex, positions only (AoS: no transpose needed).
template <int K>
inline void lbs1_position(const float* palette, size_t joint_count, const uint16_t* joints,
                          const float* weights, const float* pos, float* out_p) {
  uint32_t idx[K];
  float w[K];
  const float sum = vertex_slots<K, true>(joints, weights, joint_count, idx, w);
  const float px = pos[0], py = pos[1], pz = pos[2];
  if (!(sum > 0.0f)) {
    out_p[0] = px, out_p[1] = py, out_p[2] = pz;
    return;
  }
  __m128 col[4];
  blend_lbs<K>(palette, idx, w, col);
  __m128 r = RIG_MADD(col[0], _mm_set1_ps(px), col[3]);
  r = RIG_MADD(col[1], _mm_set1_ps(py), r);
  r = RIG_MADD(col[2], _mm_set1_ps(pz), r);
  r = _mm_mul_ps(r, _mm_set1_ps(1.0f / sum));
  _mm_storel_pi(reinterpret_cast<__m64*>(out_p), r);
  _mm_store_ss(out_p + 2, _mm_movehl_ps(r, r));
}
