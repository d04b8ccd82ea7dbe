// The body of the batch skinning kernels (skin/simd_skin.h). No include guard on purpose:
// simd_skin.cpp includes it twice, once plain (SSE2) and once under
// `#pragma GCC target("avx2,fma")` with RIG_SIMD_AVX2 = 1, each time inside its own namespace.
//
// Layout: per vertex the palette rows are blended as whole rows (AoS, one register per row),
// then four vertices' blends are transposed so that the rest (transforming the point, the
// cofactor of the normal, normalizing) runs one component per register over four vertices
// (SoA). Positions and normals are read and written as packed xyz triples, three registers per
// four vertices.

// a·b + c: fused on the AVX2 path, a multiply and an add otherwise.
#if RIG_SIMD_AVX2
#define RIG_MADD(a, b, c) _mm_fmadd_ps(a, b, c)
#else
#define RIG_MADD(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)
#endif
// _mm_shuffle_ps lanes in reading order: result = (a[i0], a[i1], b[i2], b[i3]).
#define RIG_SHUF(a, b, i0, i1, i2, i3) _mm_shuffle_ps(a, b, _MM_SHUFFLE(i3, i2, i1, i0))

namespace {

struct V3 {  // four vertices' vectors, one component per register
  __m128 x, y, z;
};

inline __m128 mul(__m128 a, __m128 b) { return _mm_mul_ps(a, b); }
inline __m128 add(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
inline __m128 sub(__m128 a, __m128 b) { return _mm_sub_ps(a, b); }
inline __m128 select(__m128 mask, __m128 a, __m128 b) {  // mask ? a : b
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

inline V3 cross(const V3& a, const V3& b) {
  return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)),
          sub(mul(a.x, b.y), mul(a.y, b.x))};
}
inline __m128 dot(const V3& a, const V3& b) {
  return RIG_MADD(a.z, b.z, RIG_MADD(a.y, b.y, mul(a.x, b.x)));
}
// a·s + b
inline V3 madd(const V3& a, __m128 s, const V3& b) {
  return {RIG_MADD(a.x, s, b.x), RIG_MADD(a.y, s, b.y), RIG_MADD(a.z, s, b.z)};
}
inline V3 scale(const V3& a, __m128 s) { return {mul(a.x, s), mul(a.y, s), mul(a.z, s)}; }
inline V3 add(const V3& a, const V3& b) { return {add(a.x, b.x), add(a.y, b.y), add(a.z, b.z)}; }
inline V3 sub(const V3& a, const V3& b) { return {sub(a.x, b.x), sub(a.y, b.y), sub(a.z, b.z)}; }
inline V3 select(__m128 mask, const V3& a, const V3& b) {
  return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}
// Negates the lanes where `mask` is set.
inline V3 negate_where(__m128 mask, const V3& a) {
  const __m128 s = _mm_and_ps(mask, _mm_set1_ps(-0.0f));
  return {_mm_xor_ps(a.x, s), _mm_xor_ps(a.y, s), _mm_xor_ps(a.z, s)};
}

// Four packed xyz triples (12 floats) → SoA.
inline V3 load_xyz4(const float* p) {
  const __m128 a = _mm_loadu_ps(p);      // x0 y0 z0 x1
  const __m128 b = _mm_loadu_ps(p + 4);  // y1 z1 x2 y2
  const __m128 c = _mm_loadu_ps(p + 8);  // z2 x3 y3 z3
  const __m128 x = RIG_SHUF(a, RIG_SHUF(b, c, 2, 2, 1, 1), 0, 3, 0, 2);
  const __m128 y = RIG_SHUF(RIG_SHUF(a, b, 1, 1, 0, 0), RIG_SHUF(b, c, 3, 3, 2, 2), 0, 2, 0, 2);
  const __m128 z = RIG_SHUF(RIG_SHUF(a, b, 2, 2, 1, 1), c, 0, 2, 0, 3);
  return {x, y, z};
}

// SoA → four packed xyz triples.
inline void store_xyz4(float* p, const V3& v) {
  const __m128 a = RIG_SHUF(_mm_unpacklo_ps(v.x, v.y), RIG_SHUF(v.z, v.x, 0, 0, 1, 1), 0, 1, 0, 2);
  const __m128 b =
      RIG_SHUF(RIG_SHUF(v.y, v.z, 1, 1, 1, 1), RIG_SHUF(v.x, v.y, 2, 2, 2, 2), 0, 2, 0, 2);
  const __m128 c =
      RIG_SHUF(RIG_SHUF(v.z, v.x, 2, 2, 3, 3), RIG_SHUF(v.y, v.z, 3, 3, 3, 3), 0, 2, 0, 2);
  _mm_storeu_ps(p, a);
  _mm_storeu_ps(p + 4, b);
  _mm_storeu_ps(p + 8, c);
}

// Rows r[0..3] (one per vertex, xyzw) → SoA xyz.
inline V3 transpose_xyz(__m128 r0, __m128 r1, __m128 r2, __m128 r3) {
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  return {r0, r1, r2};
}
// The same keeping w too.
inline V3 transpose_xyzw(__m128 r0, __m128 r1, __m128 r2, __m128 r3, __m128& w) {
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  w = r3;
  return {r0, r1, r2};
}

// Normalizes where the length is positive and finite; `fallback` elsewhere (safe_normalize).
inline V3 safe_normalize(const V3& v, const V3& fallback) {
  const __m128 len = _mm_sqrt_ps(dot(v, v));
  const __m128 ok =
      _mm_and_ps(_mm_cmpgt_ps(len, _mm_setzero_ps()), _mm_cmplt_ps(len, _mm_set1_ps(INFINITY)));
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), len);
  return select(ok, scale(v, inv), fallback);
}

// The influence slots of one vertex with joints past the palette turned into weight 0 on
// joint 0 (so every slot can be blended without a branch).
template <int K>
inline float vertex_slots(const uint16_t* joints, const float* weights, size_t joint_count,
                          uint32_t* idx, float* w) {
  float sum = 0.0f;
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) {
    sum += weights[i];  // the reference's order (skin_math::weight_sum)
    const bool in = joints[i] < joint_count;
    idx[i] = in ? joints[i] : 0u;
    w[i] = in ? weights[i] : 0.0f;
  }
  return sum;
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

// Four vertices: positions (and normals when `nrm` is not null).
template <int K>
inline void lbs4(const float* palette, size_t joint_count, const uint16_t* joints,
                 const float* weights, const float* pos, const float* nrm, float* out_p,
                 float* out_n) {
  alignas(16) float sums[4];
  __m128 col[4][4];  // [vertex][column]
  for (int q = 0; q < 4; ++q) {
    uint32_t idx[K];
    float w[K];
    sums[q] = vertex_slots<K>(joints + q * K, weights + q * K, joint_count, idx, w);
    blend_lbs<K>(palette, idx, w, col[q]);
  }
  const V3 c0 = transpose_xyz(col[0][0], col[1][0], col[2][0], col[3][0]);
  const V3 c1 = transpose_xyz(col[0][1], col[1][1], col[2][1], col[3][1]);
  const V3 c2 = transpose_xyz(col[0][2], col[1][2], col[2][2], col[3][2]);
  const V3 c3 = transpose_xyz(col[0][3], col[1][3], col[2][3], col[3][3]);
  const __m128 sum = _mm_load_ps(sums);
  const __m128 valid = _mm_cmpgt_ps(sum, _mm_setzero_ps());
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), sum);
  const V3 p = load_xyz4(pos);
  const V3 n = nrm ? load_xyz4(nrm) : V3{};
  // p' = (c0·px + c1·py + c2·pz + c3) / sum
  const V3 moved = scale(madd(c2, p.z, madd(c1, p.y, madd(c0, p.x, c3))), inv);
  store_xyz4(out_p, select(valid, moved, p));
  if (!nrm) return;
  // n' = cofactor(M) n, sign of det(M): the inverse transpose up to a positive scale.
  const V3 k0 = cross(c1, c2), k1 = cross(c2, c0), k2 = cross(c0, c1);
  const V3 r = madd(k2, n.z, madd(k1, n.y, scale(k0, n.x)));
  const __m128 det = dot(c0, k0);
  const V3 signed_r = negate_where(_mm_cmplt_ps(det, _mm_setzero_ps()), r);
  store_xyz4(out_n, safe_normalize(select(valid, signed_r, n), n));
}

// One vertex, positions only (AoS: no transpose needed).
template <int K>
inline void lbs1_position(const float* palette, size_t joint_count, const uint16_t* joints,
                          const float* weights, const float* pos, float* out_p) {
  uint32_t idx[K];
  float w[K];
  const float sum = vertex_slots<K>(joints, weights, joint_count, idx, w);
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

// Four vertices of dual-quaternion skinning (palette: 5 rows per joint).
// `signs` (may be null): bit j of row p set when dot(real_j, real_p) < 0, computed as the
// per-influence test below computes it (skin/simd_skin.cpp); it replaces that test.
template <int K>
inline void dqs4(const float* palette, size_t joint_count, const uint64_t (*signs)[kSignWords],
                 const uint16_t* joints, const float* weights, const float* pos, const float* nrm,
                 float* out_p, float* out_n) {
  alignas(16) float sums[4];
  alignas(16) uint32_t pivot_ok[4];
  __m128 row[5][4];  // [palette row][vertex]
  const __m128 sign_bit = _mm_set1_ps(-0.0f);
  for (int q = 0; q < 4; ++q) {
    const uint16_t* vj = joints + q * K;
    const float* vw = weights + q * K;
    uint32_t idx[K];
    float w[K];
    sums[q] = vertex_slots<K>(vj, vw, joint_count, idx, w);
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
  __m128 rw, dw;
  const V3 rv = transpose_xyzw(row[0][0], row[0][1], row[0][2], row[0][3], rw);
  const V3 dv = transpose_xyzw(row[1][0], row[1][1], row[1][2], row[1][3], dw);
  const V3 s0 = transpose_xyz(row[2][0], row[2][1], row[2][2], row[2][3]);
  const V3 s1 = transpose_xyz(row[3][0], row[3][1], row[3][2], row[3][3]);
  const V3 s2 = transpose_xyz(row[4][0], row[4][1], row[4][2], row[4][3]);
  const __m128 zero = _mm_setzero_ps();
  const __m128 sum = _mm_load_ps(sums);
  const __m128 norm2 = RIG_MADD(rw, rw, dot(rv, rv));
  const __m128 valid =
      _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(sum, zero), _mm_cmpgt_ps(norm2, zero)),
                 _mm_castsi128_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(pivot_ok))));
  const __m128 k = _mm_div_ps(_mm_set1_ps(2.0f), norm2);  // 2 / |real|²
  const V3 p = load_xyz4(pos);
  // Stretch first: S p with S = Σ w_i S_i / sum.
  const V3 sp =
      scale(madd(s2, p.z, madd(s1, p.y, scale(s0, p.x))), _mm_div_ps(_mm_set1_ps(1.0f), sum));
  // Rotation by the unnormalized real part R: v + (2/|R|²)(R_w (R×v) + R×(R×v)).
  const auto rotate = [&](const V3& v) {
    const V3 u = cross(rv, v);
    return madd(madd(u, rw, cross(rv, u)), k, v);
  };
  // Translation of the normalized dual quaternion: (2/|R|²)(R_w D − D_w R + R×D).
  const V3 t = scale(add(sub(scale(dv, rw), scale(rv, dw)), cross(rv, dv)), k);
  store_xyz4(out_p, select(valid, add(rotate(sp), t), p));
  if (!nrm) return;
  const V3 n = load_xyz4(nrm);
  const V3 k0 = cross(s1, s2), k1 = cross(s2, s0), k2 = cross(s0, s1);
  const V3 r = madd(k2, n.z, madd(k1, n.y, scale(k0, n.x)));
  const V3 signed_r = negate_where(_mm_cmplt_ps(dot(s0, k0), zero), r);
  store_xyz4(out_n, safe_normalize(select(valid, rotate(signed_r), n), n));
}

// ---- whole meshes ----------------------------------------------------------------------------

// Runs `batch` (four vertices) over the mesh; the last vertex_count % 4 go through a padded
// copy on the stack. Padding vertices have weight 0 and are thrown away.
template <int K, typename Batch>
inline void for_each_batch(const SkinMesh& mesh, const float* pos, const float* nrm, float* out_p,
                           float* out_n, Batch batch) {
  const uint32_t n = mesh.vertex_count;
  const uint32_t full = n & ~3u;
  const uint16_t* joints = mesh.joints.data();
  const float* weights = mesh.weights.data();
  for (uint32_t v = 0; v < full; v += 4)
    batch(joints + size_t(v) * K, weights + size_t(v) * K, pos + size_t(v) * 3,
          nrm ? nrm + size_t(v) * 3 : nullptr, out_p + size_t(v) * 3,
          out_n ? out_n + size_t(v) * 3 : nullptr);
  const uint32_t rest = n - full;
  if (rest == 0) return;
  uint16_t tj[4 * K] = {};
  float tw[4 * K] = {}, tp[12] = {}, tn[12] = {}, op[12], on[12];
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

template <int K>
void skin_linear_k(const SkinMesh& mesh, const float* palette, size_t joint_count, const float* pos,
                   const float* nrm, float* out_p, float* out_n) {
  if (!nrm) {
    const uint16_t* joints = mesh.joints.data();
    const float* weights = mesh.weights.data();
    for (uint32_t v = 0; v < mesh.vertex_count; ++v)
      lbs1_position<K>(palette, joint_count, joints + size_t(v) * K, weights + size_t(v) * K,
                       pos + size_t(v) * 3, out_p + size_t(v) * 3);
    return;
  }
  for_each_batch<K>(
      mesh, pos, nrm, out_p, out_n,
      [&](const uint16_t* j, const float* w, const float* p, const float* nn, float* op,
          float* on) { lbs4<K>(palette, joint_count, j, w, p, nn, op, on); });
}

template <int K>
void skin_dual_quat_k(const SkinMesh& mesh, const float* palette, size_t joint_count,
                      const uint64_t (*signs)[kSignWords], const float* pos, const float* nrm,
                      float* out_p, float* out_n) {
  for_each_batch<K>(
      mesh, pos, nrm, out_p, out_n,
      [&](const uint16_t* j, const float* w, const float* p, const float* nn, float* op,
          float* on) { dqs4<K>(palette, joint_count, signs, j, w, p, nn, op, on); });
}

}  // namespace

#undef RIG_MADD
#undef RIG_SHUF
