// Four quaternions at a time in SSE2 registers, one component per register: the batch form of
// slerp_shortest (anim/sampling.h) shared by the blending job and the raw clip sampler. Internal
// to engine/anim.
#pragma once

#include <emmintrin.h>

#include <glm/gtc/quaternion.hpp>

namespace rig::quat4 {

// slerp_shortest (anim/sampling.h) on four quaternion pairs at once, one component per SSE
// lane group: the same operations in the same order, both of its branches computed and
// selected, so each lane is bit for bit what the scalar function returns. A crossfade's
// rotations take the polynomial branch for most joints; four at a time hides its latency.
struct Quat4 {
  __m128 x, y, z, w;
};

inline Quat4 load_quats(const glm::quat* q) {
  __m128 r0 = _mm_loadu_ps(&q[0].x), r1 = _mm_loadu_ps(&q[1].x), r2 = _mm_loadu_ps(&q[2].x),
         r3 = _mm_loadu_ps(&q[3].x);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  return {r0, r1, r2, r3};
}

inline void store_quats(Quat4 v, glm::quat* q) {
  _MM_TRANSPOSE4_PS(v.x, v.y, v.z, v.w);
  _mm_storeu_ps(&q[0].x, v.x);
  _mm_storeu_ps(&q[1].x, v.y);
  _mm_storeu_ps(&q[2].x, v.z);
  _mm_storeu_ps(&q[3].x, v.w);
}

// Four quaternions (x, y, z, w floats each) from four addresses, transposed.
inline Quat4 gather_quats(const float* q0, const float* q1, const float* q2, const float* q3) {
  __m128 r0 = _mm_loadu_ps(q0), r1 = _mm_loadu_ps(q1), r2 = _mm_loadu_ps(q2), r3 = _mm_loadu_ps(q3);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  return {r0, r1, r2, r3};
}

// The four quaternions of v to four addresses (any of which may be the same).
inline void scatter_quats(Quat4 v, float* q0, float* q1, float* q2, float* q3) {
  _MM_TRANSPOSE4_PS(v.x, v.y, v.z, v.w);
  _mm_storeu_ps(q0, v.x);
  _mm_storeu_ps(q1, v.y);
  _mm_storeu_ps(q2, v.z);
  _mm_storeu_ps(q3, v.w);
}

inline __m128 mul(__m128 a, __m128 b) { return _mm_mul_ps(a, b); }
inline __m128 add(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
inline __m128 sub(__m128 a, __m128 b) { return _mm_sub_ps(a, b); }
inline __m128 k(float v) { return _mm_set1_ps(v); }
inline __m128 select(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

// (x, y, z, w) / sqrt(len2), or a where len2 is not positive (slerp_shortest's guard). The
// guard's selects only run when a lane needs them: with unit inputs none ever does.
inline Quat4 normalize_or_a(const Quat4& a, __m128 x, __m128 y, __m128 z, __m128 w, __m128 len2) {
  const __m128 inv = _mm_div_ps(k(1.0f), _mm_sqrt_ps(len2));
  const Quat4 r{mul(x, inv), mul(y, inv), mul(z, inv), mul(w, inv)};
  const __m128 ok = _mm_cmpgt_ps(len2, _mm_setzero_ps());
  if (_mm_movemask_ps(ok) == 0xF) return r;
  return {select(ok, r.x, a.x), select(ok, r.y, a.y), select(ok, r.z, a.z), select(ok, r.w, a.w)};
}

inline __m128 acos01_4(__m128 x) {  // slerp_detail::acos01
  const __m128 x2 = mul(x, x), x4 = mul(x2, x2);
  const __m128 p01 = sub(k(1.5707963050f), mul(k(0.2145988016f), x));
  const __m128 p23 = sub(k(0.0889789874f), mul(k(0.0501743046f), x));
  const __m128 p45 = sub(k(0.0308918810f), mul(k(0.0170881256f), x));
  const __m128 p67 = sub(k(0.0066700901f), mul(k(0.0012624911f), x));
  const __m128 p = add(add(p01, mul(p23, x2)), mul(add(p45, mul(p67, x2)), x4));
  return mul(_mm_sqrt_ps(sub(k(1.0f), x)), p);
}

inline __m128 sin_half_pi_4(__m128 x) {  // slerp_detail::sin_half_pi
  const __m128 x2 = mul(x, x), x4 = mul(x2, x2);
  const __m128 q01 = add(k(-1.0f / 6.0f), mul(k(1.0f / 120.0f), x2));
  const __m128 q23 = add(k(-1.0f / 5040.0f), mul(k(1.0f / 362880.0f), x2));
  const __m128 q = add(q01, mul(sub(q23, mul(k(1.0f / 39916800.0f), x4)), x4));
  return add(x, mul(mul(x, x2), q));
}

inline Quat4 slerp_shortest4(const Quat4& a, Quat4 b, __m128 t) {
  __m128 d = add(add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z)), mul(a.w, b.w));
  const __m128 flip = _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), k(-0.0f));
  b = {_mm_xor_ps(b.x, flip), _mm_xor_ps(b.y, flip), _mm_xor_ps(b.z, flip), _mm_xor_ps(b.w, flip)};
  d = _mm_xor_ps(d, flip);
  __m128 s0 = sub(k(1.0f), t), s1 = t;
  const __m128 near = _mm_cmpgt_ps(d, k(0.9995f));
  const __m128 theta = acos01_4(d);
  s0 = select(near, s0, sin_half_pi_4(mul(s0, theta)));
  s1 = select(near, s1, sin_half_pi_4(mul(s1, theta)));
  const __m128 x = add(mul(s0, a.x), mul(s1, b.x)), y = add(mul(s0, a.y), mul(s1, b.y)),
               z = add(mul(s0, a.z), mul(s1, b.z)), w = add(mul(s0, a.w), mul(s1, b.w));
  const __m128 len2 = add(add(add(mul(x, x), mul(y, y)), mul(z, z)), mul(w, w));
  return normalize_or_a(a, x, y, z, w, len2);
}

// slerp_shortest4 from the point where its inputs depend on t alone: b already on a's side,
// theta = acos01(|dot|), or negative where the pair takes the normalized-lerp branch (see
// RawClipSource's prepared rotation segments). The remaining operations are slerp_shortest4's,
// in its order: the same bits.
inline Quat4 slerp_prepared4(const Quat4& a, const Quat4& b, __m128 theta, __m128 t) {
  __m128 s0 = sub(k(1.0f), t), s1 = t;
  const __m128 near = _mm_cmplt_ps(theta, _mm_setzero_ps());
  if (_mm_movemask_ps(near) != 0xF) {
    s0 = select(near, s0, sin_half_pi_4(mul(s0, theta)));
    s1 = select(near, s1, sin_half_pi_4(mul(s1, theta)));
  }
  const __m128 x = add(mul(s0, a.x), mul(s1, b.x)), y = add(mul(s0, a.y), mul(s1, b.y)),
               z = add(mul(s0, a.z), mul(s1, b.z)), w = add(mul(s0, a.w), mul(s1, b.w));
  const __m128 len2 = add(add(add(mul(x, x), mul(y, y)), mul(z, z)), mul(w, w));
  return normalize_or_a(a, x, y, z, w, len2);
}

}  // namespace rig::quat4
