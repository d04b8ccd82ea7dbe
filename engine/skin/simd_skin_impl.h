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

// ---- one register of lanes: the same operations on 4 (SSE2) or 8 (AVX2) floats ---------------

inline __m128 mul(__m128 a, __m128 b) { return _mm_mul_ps(a, b); }
inline __m128 add(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
inline __m128 sub(__m128 a, __m128 b) { return _mm_sub_ps(a, b); }
inline __m128 div(__m128 a, __m128 b) { return _mm_div_ps(a, b); }
inline __m128 madd(__m128 a, __m128 b, __m128 c) { return RIG_MADD(a, b, c); }  // a·b + c
#if RIG_SIMD_AVX2
inline __m128 msub(__m128 a, __m128 b, __m128 c) { return _mm_fmsub_ps(a, b, c); }    // a·b − c
inline __m128 nmadd(__m128 a, __m128 b, __m128 c) { return _mm_fnmadd_ps(a, b, c); }  // c − a·b
inline __m128 select(__m128 mask, __m128 a, __m128 b) { return _mm_blendv_ps(b, a, mask); }
#else
inline __m128 msub(__m128 a, __m128 b, __m128 c) { return _mm_sub_ps(_mm_mul_ps(a, b), c); }
inline __m128 nmadd(__m128 a, __m128 b, __m128 c) { return _mm_sub_ps(c, _mm_mul_ps(a, b)); }
inline __m128 select(__m128 mask, __m128 a, __m128 b) {  // mask ? a : b
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
#endif
inline __m128 and_(__m128 a, __m128 b) { return _mm_and_ps(a, b); }
inline __m128 xor_(__m128 a, __m128 b) { return _mm_xor_ps(a, b); }
inline __m128 lt(__m128 a, __m128 b) { return _mm_cmplt_ps(a, b); }
inline __m128 ge(__m128 a, __m128 b) { return _mm_cmpge_ps(a, b); }
inline __m128 gt(__m128 a, __m128 b) { return _mm_cmpgt_ps(a, b); }
inline __m128 sqrt_(__m128 a) { return _mm_sqrt_ps(a); }
inline __m128 rsqrt(__m128 a) { return _mm_rsqrt_ps(a); }
inline int any(__m128 mask) { return _mm_movemask_ps(mask); }
inline __m128 splat(__m128, float v) { return _mm_set1_ps(v); }  // the first argument: the type
inline __m128 load(__m128, const float* p) { return _mm_load_ps(p); }

#if RIG_SIMD_AVX2
inline __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
inline __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
inline __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
inline __m256 div(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
inline __m256 madd(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
inline __m256 msub(__m256 a, __m256 b, __m256 c) { return _mm256_fmsub_ps(a, b, c); }
inline __m256 nmadd(__m256 a, __m256 b, __m256 c) { return _mm256_fnmadd_ps(a, b, c); }
inline __m256 select(__m256 mask, __m256 a, __m256 b) { return _mm256_blendv_ps(b, a, mask); }
inline __m256 and_(__m256 a, __m256 b) { return _mm256_and_ps(a, b); }
inline __m256 xor_(__m256 a, __m256 b) { return _mm256_xor_ps(a, b); }
inline __m256 lt(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
inline __m256 ge(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
inline __m256 gt(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
inline __m256 sqrt_(__m256 a) { return _mm256_sqrt_ps(a); }
inline __m256 rsqrt(__m256 a) { return _mm256_rsqrt_ps(a); }
inline int any(__m256 mask) { return _mm256_movemask_ps(mask); }
inline __m256 splat(__m256, float v) { return _mm256_set1_ps(v); }
inline __m256 load(__m256, const float* p) { return _mm256_load_ps(p); }
#endif

template <class F>
struct V3 {  // a batch's vectors, one component per register
  F x, y, z;
};

template <class F>
inline V3<F> cross(const V3<F>& a, const V3<F>& b) {
  return {msub(a.y, b.z, mul(a.z, b.y)), msub(a.z, b.x, mul(a.x, b.z)),
          msub(a.x, b.y, mul(a.y, b.x))};
}
template <class F>
inline F dot(const V3<F>& a, const V3<F>& b) {
  return madd(a.z, b.z, madd(a.y, b.y, mul(a.x, b.x)));
}
// a·s + b
template <class F>
inline V3<F> madd(const V3<F>& a, F s, const V3<F>& b) {
  return {madd(a.x, s, b.x), madd(a.y, s, b.y), madd(a.z, s, b.z)};
}
// a·s − b
template <class F>
inline V3<F> msub(const V3<F>& a, F s, const V3<F>& b) {
  return {msub(a.x, s, b.x), msub(a.y, s, b.y), msub(a.z, s, b.z)};
}
template <class F>
inline V3<F> scale(const V3<F>& a, F s) {
  return {mul(a.x, s), mul(a.y, s), mul(a.z, s)};
}
template <class F>
inline V3<F> add(const V3<F>& a, const V3<F>& b) {
  return {add(a.x, b.x), add(a.y, b.y), add(a.z, b.z)};
}
template <class F>
inline V3<F> sub(const V3<F>& a, const V3<F>& b) {
  return {sub(a.x, b.x), sub(a.y, b.y), sub(a.z, b.z)};
}
template <class F>
inline V3<F> select(F mask, const V3<F>& a, const V3<F>& b) {
  return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}
// Negates the lanes where `mask` is set.
template <class F>
inline V3<F> negate_where(F mask, const V3<F>& a) {
  const F s = and_(mask, splat(F{}, -0.0f));
  return {xor_(a.x, s), xor_(a.y, s), xor_(a.z, s)};
}

// Normalizes where the length is positive and finite; `fallback` elsewhere (safe_normalize).
// The exact form: a square root and a division.
template <class F>
inline V3<F> safe_normalize(const V3<F>& v, const V3<F>& fallback) {
  const F len = sqrt_(dot(v, v));
  const F ok = and_(gt(len, splat(F{}, 0.0f)), lt(len, splat(F{}, INFINITY)));
  return select(ok, scale(v, div(splat(F{}, 1.0f), len)), fallback);
}

// The same through the reciprocal square root estimate and one Newton step,
// y = y0 (1.5 − ½ x y0²): the estimate's relative error (≤ 1.5·2⁻¹² on x86) becomes
// ≤ 1.5 e² + rounding, about 2e-7 + a few ulp (tests/engine/skinning_simd_test.cpp bounds the
// unit normals within 1e-6 of the double-precision normalization). The estimate flushes
// subnormal squared lengths (|v| < 1.1e-19) to zero: a batch holding one takes the exact form.
template <class F>
inline V3<F> fast_normalize(const V3<F>& v, const V3<F>& fallback) {
  const F x = dot(v, v);
  const F tiny = splat(F{}, 1.17549435e-38f);  // FLT_MIN, the smallest normal float
  if (any(and_(gt(x, splat(F{}, 0.0f)), lt(x, tiny)))) [[unlikely]]
    return safe_normalize(v, fallback);
  const F ok = and_(ge(x, tiny), lt(x, splat(F{}, INFINITY)));
  const F y0 = rsqrt(x);
  const F y = mul(y0, nmadd(mul(mul(x, splat(F{}, 0.5f)), y0), y0, splat(F{}, 1.5f)));
  return select(ok, scale(v, y), fallback);
}

// ---- packed xyz triples <-> SoA --------------------------------------------------------------

// Four packed xyz triples (12 floats) → SoA.
inline V3<__m128> load_xyz(__m128, const float* p) {
  const __m128 a = _mm_loadu_ps(p);      // x0 y0 z0 x1
  const __m128 b = _mm_loadu_ps(p + 4);  // y1 z1 x2 y2
  const __m128 c = _mm_loadu_ps(p + 8);  // z2 x3 y3 z3
  const __m128 x = RIG_SHUF(a, RIG_SHUF(b, c, 2, 2, 1, 1), 0, 3, 0, 2);
  const __m128 y = RIG_SHUF(RIG_SHUF(a, b, 1, 1, 0, 0), RIG_SHUF(b, c, 3, 3, 2, 2), 0, 2, 0, 2);
  const __m128 z = RIG_SHUF(RIG_SHUF(a, b, 2, 2, 1, 1), c, 0, 2, 0, 3);
  return {x, y, z};
}

// SoA → four packed xyz triples.
inline void store_xyz(float* p, const V3<__m128>& v) {
  const __m128 a = RIG_SHUF(_mm_unpacklo_ps(v.x, v.y), RIG_SHUF(v.z, v.x, 0, 0, 1, 1), 0, 1, 0, 2);
  const __m128 b =
      RIG_SHUF(RIG_SHUF(v.y, v.z, 1, 1, 1, 1), RIG_SHUF(v.x, v.y, 2, 2, 2, 2), 0, 2, 0, 2);
  const __m128 c =
      RIG_SHUF(RIG_SHUF(v.z, v.x, 2, 2, 3, 3), RIG_SHUF(v.y, v.z, 3, 3, 3, 3), 0, 2, 0, 2);
  _mm_storeu_ps(p, a);
  _mm_storeu_ps(p + 4, b);
  _mm_storeu_ps(p + 8, c);
}

#if RIG_SIMD_AVX2
// Eight packed triples: vertices 0–3 in the low lanes, 4–7 in the high lanes, then the
// four-vertex shuffles above, which never cross lanes.
inline V3<__m256> load_xyz(__m256, const float* p) {
  const __m256 a = _mm256_loadu2_m128(p + 12, p);
  const __m256 b = _mm256_loadu2_m128(p + 16, p + 4);
  const __m256 c = _mm256_loadu2_m128(p + 20, p + 8);
  const __m256 x = RIG_SHUF8(a, RIG_SHUF8(b, c, 2, 2, 1, 1), 0, 3, 0, 2);
  const __m256 y = RIG_SHUF8(RIG_SHUF8(a, b, 1, 1, 0, 0), RIG_SHUF8(b, c, 3, 3, 2, 2), 0, 2, 0, 2);
  const __m256 z = RIG_SHUF8(RIG_SHUF8(a, b, 2, 2, 1, 1), c, 0, 2, 0, 3);
  return {x, y, z};
}

inline void store_xyz(float* p, const V3<__m256>& v) {
  const __m256 a =
      RIG_SHUF8(_mm256_unpacklo_ps(v.x, v.y), RIG_SHUF8(v.z, v.x, 0, 0, 1, 1), 0, 1, 0, 2);
  const __m256 b =
      RIG_SHUF8(RIG_SHUF8(v.y, v.z, 1, 1, 1, 1), RIG_SHUF8(v.x, v.y, 2, 2, 2, 2), 0, 2, 0, 2);
  const __m256 c =
      RIG_SHUF8(RIG_SHUF8(v.z, v.x, 2, 2, 3, 3), RIG_SHUF8(v.y, v.z, 3, 3, 3, 3), 0, 2, 0, 2);
  _mm256_storeu2_m128(p + 12, p, a);
  _mm256_storeu2_m128(p + 16, p + 4, b);
  _mm256_storeu2_m128(p + 20, p + 8, c);
}

// Eight rows r0..r7 (one per vertex) → their elements 0..7 across the vertices. `Need` selects
// which elements are wanted (bit e): the transpose skips the others' last shuffles. The rows are
// values, not an array: GCC copied an array of loaded rows through the stack in 16-byte halves
// and read them back whole, a store-forwarding stall per row (a quarter of the 8-influence
// time).
template <unsigned Need>
inline void transpose8(__m256 r0, __m256 r1, __m256 r2, __m256 r3, __m256 r4, __m256 r5, __m256 r6,
                       __m256 r7, __m256* out) {
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);  // e0 e0' e1 e1'
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);  // | e4 .. e6 ..
  const __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  const __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  const __m256 u[8] = {
      RIG_SHUF8(t0, t2, 0, 1, 0, 1), RIG_SHUF8(t0, t2, 2, 3, 2, 3),  // e0 | e4, e1 | e5 of rows 0–3
      RIG_SHUF8(t1, t3, 0, 1, 0, 1), RIG_SHUF8(t1, t3, 2, 3, 2, 3),  // e2 | e6, e3 | e7
      RIG_SHUF8(t4, t6, 0, 1, 0, 1), RIG_SHUF8(t4, t6, 2, 3, 2, 3),  // the same, rows 4–7
      RIG_SHUF8(t5, t7, 0, 1, 0, 1), RIG_SHUF8(t5, t7, 2, 3, 2, 3)};
  for (int e = 0; e < 4; ++e) {
    if (Need & (1u << e)) out[e] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x20);
    if (Need & (1u << (e + 4))) out[e + 4] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x31);
  }
}
template <unsigned Need>
inline void transpose8(const __m256* r, __m256* out) {
  transpose8<Need>(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], out);
}
// Eight rows of 8 floats, `stride` floats apart, transposed.
template <unsigned Need>
inline void load_transpose8(const float* p, size_t stride, __m256* out) {
  transpose8<Need>(_mm256_loadu_ps(p), _mm256_loadu_ps(p + stride), _mm256_loadu_ps(p + 2 * stride),
                   _mm256_loadu_ps(p + 3 * stride), _mm256_loadu_ps(p + 4 * stride),
                   _mm256_loadu_ps(p + 5 * stride), _mm256_loadu_ps(p + 6 * stride),
                   _mm256_loadu_ps(p + 7 * stride), out);
}
#endif

// ---- influences ------------------------------------------------------------------------------

// Whether every joint index of a batch is below `joint_count` (then its slots are used as they
// are; otherwise vertex_slots below). SSE2 has only signed 16-bit maxima: the sign bit flipped
// turns the unsigned order into the signed one.
template <int N>
inline bool joints_below(const uint16_t* joints, size_t joint_count) {
  static_assert(N % 8 == 0);
  if (joint_count > 0xFFFF) return true;
  const __m128i flip = _mm_set1_epi16(int16_t(0x8000));
  __m128i m = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints)), flip);
#pragma GCC unroll 8
  for (int i = 8; i < N; i += 8)
    m = _mm_max_epi16(
        m, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i)), flip));
  const __m128i last = _mm_xor_si128(_mm_set1_epi16(int16_t(joint_count - 1)), flip);
  return _mm_movemask_epi8(_mm_cmpgt_epi16(m, last)) == 0;
}

// The influence slots of one vertex. Checked: joints past the palette turned into weight 0 on
// joint 0 (so every slot can be blended without a branch); unchecked (joints_below held): the
// slots as they are. Returns the weight sum, in the reference's order (skin_math::weight_sum).
template <int K, bool Checked>
inline float vertex_slots(const uint16_t* joints, const float* weights, size_t joint_count,
                          uint32_t* idx, float* w) {
  float sum = 0.0f;
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) {
    sum += weights[i];
    const bool in = !Checked || joints[i] < joint_count;
    idx[i] = in ? joints[i] : 0u;
    w[i] = in ? weights[i] : 0.0f;
  }
  return sum;
}

// A batch's weight sums, one lane per vertex, each in the reference's order ((w0 + w1) + w2)...
// (skin_math::weight_sum): the weights transposed, then added slot by slot. With `pivots`, each
// vertex's pivot slot too (skin_math::pivot_influence: the first largest weight, found by the
// reference's own comparisons), for the whole batch at once: found vertex by vertex it sits at
// the head of a chain of dependent loads (pivot → its joint → that joint's sign row).
template <int K>
inline auto weight_stats(const float* w, int32_t* pivots = nullptr) {
#if RIG_SIMD_AVX2
  __m256 s[K];
  if constexpr (K == 4) {
    const __m256 a = _mm256_loadu_ps(w), b = _mm256_loadu_ps(w + 8), c = _mm256_loadu_ps(w + 16),
                 d = _mm256_loadu_ps(w + 24);  // two vertices each
    const __m256 t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpackhi_ps(a, b);
    const __m256 t2 = _mm256_unpacklo_ps(c, d), t3 = _mm256_unpackhi_ps(c, d);
    // Slot i of vertices 0 2 4 6 | 1 3 5 7 (put back in order at the end).
    s[0] = RIG_SHUF8(t0, t2, 0, 1, 0, 1), s[1] = RIG_SHUF8(t0, t2, 2, 3, 2, 3);
    s[2] = RIG_SHUF8(t1, t3, 0, 1, 0, 1), s[3] = RIG_SHUF8(t1, t3, 2, 3, 2, 3);
  } else {
    load_transpose8<0xFF>(w, 8, s);
  }
  __m256 sum = s[0], best = s[0];
  __m256i slot = _mm256_setzero_si256();
  for (int i = 1; i < K; ++i) {
    sum = add(sum, s[i]);
    const __m256 greater = gt(s[i], best);  // the reference's `w[i] > w[ref]`
    best = select(greater, s[i], best);
    slot = _mm256_blendv_epi8(slot, _mm256_set1_epi32(i), _mm256_castps_si256(greater));
  }
  if constexpr (K == 4) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    sum = _mm256_permutevar8x32_ps(sum, order);
    slot = _mm256_permutevar8x32_epi32(slot, order);
  }
  if (pivots) _mm256_store_si256(reinterpret_cast<__m256i*>(pivots), slot);
  return sum;
#else
  __m128 s[K];
  for (int h = 0; h < K; h += 4) {
    __m128 r0 = _mm_loadu_ps(w + h), r1 = _mm_loadu_ps(w + K + h), r2 = _mm_loadu_ps(w + 2 * K + h),
           r3 = _mm_loadu_ps(w + 3 * K + h);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    s[h] = r0, s[h + 1] = r1, s[h + 2] = r2, s[h + 3] = r3;
  }
  __m128 sum = s[0], best = s[0];
  __m128i slot = _mm_setzero_si128();
  for (int i = 1; i < K; ++i) {
    sum = add(sum, s[i]);
    const __m128 greater = gt(s[i], best);
    best = select(greater, s[i], best);
    const __m128i g = _mm_castps_si128(greater);
    slot = _mm_or_si128(_mm_and_si128(g, _mm_set1_epi32(i)), _mm_andnot_si128(g, slot));
  }
  if (pivots) _mm_store_si128(reinterpret_cast<__m128i*>(pivots), slot);
  return sum;
#endif
}

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
