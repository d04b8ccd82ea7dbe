// world × inverse bind for one joint, SSE2: compute_skinning_matrices' kernel, shared with the
// local → world job's fused form (SkinningTargets). Internal to engine/anim.
#pragma once

#include <emmintrin.h>

#include <glm/glm.hpp>

namespace rig::detail {

// glm's product, four rows at a time: column c = Σ_k world[k] · ibm[c][k], summed k = 0..3 left
// to right as glm does. Where the inverse bind matrix is affine (last row 0 0 0 1, as files
// write them), its terms k = 3 add exact zeros and multiply by exactly one and are left out. So
// the result is glm's bit for bit, but for the sign of a zero (tested).
inline void world_times_inverse_bind(const glm::mat4& a, const glm::mat4& b, glm::mat4& out) {
  const __m128 a0 = _mm_loadu_ps(&a[0].x), a1 = _mm_loadu_ps(&a[1].x), a2 = _mm_loadu_ps(&a[2].x),
               a3 = _mm_loadu_ps(&a[3].x);
  const bool affine = b[0].w == 0.0f && b[1].w == 0.0f && b[2].w == 0.0f && b[3].w == 1.0f;
  for (int c = 0; c < 4; ++c) {
    const __m128 v = _mm_loadu_ps(&b[c].x);  // broadcast by shuffles, one load per column
    __m128 r = _mm_mul_ps(a0, _mm_shuffle_ps(v, v, 0x00));
    r = _mm_add_ps(r, _mm_mul_ps(a1, _mm_shuffle_ps(v, v, 0x55)));
    r = _mm_add_ps(r, _mm_mul_ps(a2, _mm_shuffle_ps(v, v, 0xAA)));
    if (!affine)
      r = _mm_add_ps(r, _mm_mul_ps(a3, _mm_shuffle_ps(v, v, 0xFF)));
    else if (c == 3)
      r = _mm_add_ps(r, a3);
    _mm_storeu_ps(&out[c].x, r);
  }
}

}  // namespace rig::detail
