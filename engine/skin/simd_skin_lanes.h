// Register operations, batch vectors, packed xyz triples and influences: a part of the batch
// skinning kernels' body, included by simd_skin_impl.h only (inside its namespace, once per
// instruction set; no include guard on purpose, as there).

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
