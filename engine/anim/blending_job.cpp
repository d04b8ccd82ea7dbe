#include "anim/blending_job.h"

#include <emmintrin.h>

#include <algorithm>
#include <cmath>

#include "anim/sampling.h"

namespace rig {

Transform blend_transforms(const Transform& a, const Transform& b, float w) {
  Transform out;
  out.translation = a.translation + (b.translation - a.translation) * w;
  out.scale = a.scale + (b.scale - a.scale) * w;
  out.rotation = slerp_shortest(a.rotation, b.rotation, w);
  return out;
}

namespace {

float scale_ratio_power(float value, float reference, float w) {
  if (reference == 0.0f) return 1.0f;
  const float ratio = value / reference;
  if (ratio == 1.0f) return 1.0f;
  if (!(ratio > 0.0f)) return 1.0f + (ratio - 1.0f) * w;
  return w == 1.0f ? ratio : std::pow(ratio, w);
}

}  // namespace

Transform add_transform_difference(const Transform& base, const Transform& value,
                                   const Transform& reference, float w) {
  Transform out;
  out.translation = base.translation + (value.translation - reference.translation) * w;
  out.scale = base.scale * glm::vec3(scale_ratio_power(value.scale.x, reference.scale.x, w),
                                     scale_ratio_power(value.scale.y, reference.scale.y, w),
                                     scale_ratio_power(value.scale.z, reference.scale.z, w));
  glm::quat delta = glm::conjugate(reference.rotation) * value.rotation;
  if (delta.w < 0.0f) delta = -delta;  // the short way round
  if (w != 1.0f) delta = slerp_shortest(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), delta, w);
  out.rotation = glm::normalize(base.rotation * delta);
  return out;
}

namespace {

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

inline __m128 mul(__m128 a, __m128 b) { return _mm_mul_ps(a, b); }
inline __m128 add(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
inline __m128 sub(__m128 a, __m128 b) { return _mm_sub_ps(a, b); }
inline __m128 k(float v) { return _mm_set1_ps(v); }
inline __m128 select(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
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
  const __m128 ok = _mm_cmpgt_ps(len2, _mm_setzero_ps());
  const __m128 inv = _mm_div_ps(k(1.0f), _mm_sqrt_ps(len2));
  return {select(ok, mul(x, inv), a.x), select(ok, mul(y, inv), a.y), select(ok, mul(z, inv), a.z),
          select(ok, mul(w, inv), a.w)};
}

// One override layer over `output`, four nodes at a time: blend_transforms where the node's
// weight is not 0, nothing written where it is.
void blend_override(const BlendLayer& layer, float weight, std::span<Transform> output) {
  const bool per_joint = !layer.joint_weights.empty();
  const size_t n = output.size();
  for (size_t i0 = 0; i0 < n; i0 += 4) {
    const size_t count = std::min<size_t>(4, n - i0);
    alignas(16) float w[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    glm::quat qa[4], qb[4], q[4];
    bool any = false;
    for (size_t j = 0; j < count; ++j) {
      const size_t i = i0 + j;
      w[j] = per_joint ? weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f) : weight;
      qa[j] = output[i].rotation;
      qb[j] = layer.local[i].rotation;
      any = any || w[j] != 0.0f;
    }
    if (!any) continue;
    store_quats(slerp_shortest4(load_quats(qa), load_quats(qb), _mm_load_ps(w)), q);
    for (size_t j = 0; j < count; ++j) {
      if (w[j] == 0.0f) continue;
      Transform& o = output[i0 + j];
      const Transform& b = layer.local[i0 + j];
      o.translation = o.translation + (b.translation - o.translation) * w[j];
      o.scale = o.scale + (b.scale - o.scale) * w[j];
      o.rotation = q[j];
    }
  }
}

}  // namespace

bool BlendingJob::validate() const {
  if (layers.empty()) return false;
  for (size_t l = 0; l < layers.size(); ++l) {
    const BlendLayer& layer = layers[l];
    if (layer.local.size() != output.size() ||
        layer.morph_weights.size() != output_morph_weights.size())
      return false;
    if (!layer.joint_weights.empty() && layer.joint_weights.size() != output.size()) return false;
    if (l > 0 && layer.mode == BlendMode::Additive) {
      if (layer.reference.size() != output.size()) return false;
      if (!layer.reference_morph_weights.empty() &&
          layer.reference_morph_weights.size() != output_morph_weights.size())
        return false;
    }
  }
  return true;
}

bool BlendingJob::run() const {
  if (!validate()) return false;
  const BlendLayer& base = layers[0];
  if (base.local.data() != output.data())
    std::copy(base.local.begin(), base.local.end(), output.begin());
  if (base.morph_weights.data() != output_morph_weights.data())
    std::copy(base.morph_weights.begin(), base.morph_weights.end(), output_morph_weights.begin());
  for (size_t l = 1; l < layers.size(); ++l) {
    const BlendLayer& layer = layers[l];
    const float weight = std::clamp(layer.weight, 0.0f, 1.0f);
    if (weight == 0.0f) continue;
    const bool per_joint = !layer.joint_weights.empty();
    const bool additive = layer.mode == BlendMode::Additive;
    if (additive) {
      for (size_t i = 0; i < output.size(); ++i) {
        const float w =
            per_joint ? weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f) : weight;
        if (w == 0.0f) continue;
        output[i] = add_transform_difference(output[i], layer.local[i], layer.reference[i], w);
      }
    } else {
      blend_override(layer, weight, output);  // blend_transforms, four nodes at a time
    }
    // Morph weights belong to mesh nodes, not joints: they follow the layer weight alone.
    for (size_t i = 0; i < output_morph_weights.size(); ++i) {
      const float a = output_morph_weights[i];
      if (additive) {
        const float ref =
            layer.reference_morph_weights.empty() ? 0.0f : layer.reference_morph_weights[i];
        output_morph_weights[i] = a + (layer.morph_weights[i] - ref) * weight;
      } else {
        output_morph_weights[i] = a + (layer.morph_weights[i] - a) * weight;
      }
    }
  }
  return true;
}

}  // namespace rig
