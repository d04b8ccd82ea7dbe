#include "anim/blending_job.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>

#include "anim/quat_simd.h"
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

using namespace quat4;

// The nodes a job blends: every node (list null) or BlendingJob::nodes.
struct NodeList {
  const int* list;
  size_t count;
  size_t operator[](size_t k) const { return list ? size_t(list[k]) : k; }
};

// Four nodes' override blend from node i0 on (count of them real; spare lanes repeat node i0
// with its weight): rotations gathered straight from the transforms, one batch slerp, lanes of
// weight 0 given back their own bits.
struct Batch {
  const float* a[4];
  const float* b[4];
  float* out[4];
  alignas(16) float w[4];
};

inline bool prepare(const BlendLayer& layer, float weight, std::span<Transform> output,
                    NodeList nodes, size_t i0, size_t count, Batch& batch) {
  bool any = false;
  for (size_t j = 0; j < 4; ++j) {
    const size_t i = nodes[i0 + (j < count ? j : 0)];
    batch.w[j] = layer.joint_weights.empty()
                     ? weight
                     : weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f);
    batch.a[j] = &output[i].rotation.x;
    batch.b[j] = &layer.local[i].rotation.x;
    batch.out[j] = &output[i].rotation.x;
    any = any || batch.w[j] != 0.0f;
  }
  return any;
}

inline Quat4 slerp_batch(const Batch& batch) {
  const Quat4 a = gather_quats(batch.a[0], batch.a[1], batch.a[2], batch.a[3]);
  const __m128 w = _mm_load_ps(batch.w);
  const Quat4 q =
      slerp_shortest4(a, gather_quats(batch.b[0], batch.b[1], batch.b[2], batch.b[3]), w);
  const __m128 keep = _mm_cmpeq_ps(w, _mm_setzero_ps());
  return {select(keep, a.x, q.x), select(keep, a.y, q.y), select(keep, a.z, q.z),
          select(keep, a.w, q.w)};
}

inline void lerp_vectors(const BlendLayer& layer, std::span<Transform> output, NodeList nodes,
                         size_t i0, size_t count, const Batch& batch) {
  for (size_t j = 0; j < count; ++j) {
    const float w = batch.w[j];
    if (w == 0.0f) continue;
    Transform& o = output[nodes[i0 + j]];
    const Transform& b = layer.local[nodes[i0 + j]];
    o.translation = o.translation + (b.translation - o.translation) * w;
    o.scale = o.scale + (b.scale - o.scale) * w;
  }
}

// Four nodes of a layer without a mask (one weight w for all): rotations gathered first, then
// translation and scale lerped as two 4-float rows each, [tx ty tz qx] and [qw sx sy sz] (the
// rotation lanes come out wrong and are overwritten), then the slerped rotations stored. The
// operations of blend_transforms, lane by lane.
struct Uniform4 {
  Transform* out[4];
  const Transform* b[4];
  Quat4 qa, qb;
};

inline void load_uniform4(std::span<Transform> output, std::span<const Transform> layer,
                          NodeList nodes, size_t i0, size_t count, Uniform4& u) {
  for (size_t j = 0; j < 4; ++j) {
    const size_t i = nodes[i0 + (j < count ? j : 0)];
    u.out[j] = &output[i];
    u.b[j] = &layer[i];
  }
  u.qa = gather_quats(&u.out[0]->rotation.x, &u.out[1]->rotation.x, &u.out[2]->rotation.x,
                      &u.out[3]->rotation.x);
  u.qb = gather_quats(&u.b[0]->rotation.x, &u.b[1]->rotation.x, &u.b[2]->rotation.x,
                      &u.b[3]->rotation.x);
}

// A short batch's repeated lanes would lerp their node twice (the lerp is not idempotent): only
// the `count` real ones.
inline void lerp_rows(const Uniform4& u, size_t count, __m128 w) {
  for (size_t j = 0; j < count; ++j) {
    float* o = &u.out[j]->translation.x;
    const float* b = &u.b[j]->translation.x;
    const __m128 t = _mm_loadu_ps(o), s = _mm_loadu_ps(o + 6);
    _mm_storeu_ps(o, add(t, mul(sub(_mm_loadu_ps(b), t), w)));
    _mm_storeu_ps(o + 6, add(s, mul(sub(_mm_loadu_ps(b + 6), s), w)));
  }
}

void blend_override_uniform(const BlendLayer& layer, float weight, std::span<Transform> output,
                            NodeList nodes) {
  static_assert(sizeof(Transform) == 40 && offsetof(Transform, rotation) == 12 &&
                    offsetof(Transform, scale) == 28,
                "the row loads assume Transform's layout");
  const size_t n = nodes.count;
  const __m128 w = _mm_set1_ps(weight);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    Uniform4 u0, u1;
    const bool second = i0 + 4 < n;
    load_uniform4(output, layer.local, nodes, i0, std::min<size_t>(4, n - i0), u0);
    if (second)
      load_uniform4(output, layer.local, nodes, i0 + 4, std::min<size_t>(4, n - i0 - 4), u1);
    // Rows after the rotations are read, before they are written.
    lerp_rows(u0, std::min<size_t>(4, n - i0), w);
    if (second) {
      lerp_rows(u1, std::min<size_t>(4, n - i0 - 4), w);
      const Quat4 q1 = slerp_shortest4(u1.qa, u1.qb, w);
      scatter_quats(q1, &u1.out[0]->rotation.x, &u1.out[1]->rotation.x, &u1.out[2]->rotation.x,
                    &u1.out[3]->rotation.x);
    }
    const Quat4 q0 = slerp_shortest4(u0.qa, u0.qb, w);
    scatter_quats(q0, &u0.out[0]->rotation.x, &u0.out[1]->rotation.x, &u0.out[2]->rotation.x,
                  &u0.out[3]->rotation.x);
  }
}

// The unmasked override blend with AVX: eight nodes a batch, so that each batch's long slerp
// latency chain is shared by twice the nodes (the chains, not the arithmetic, bound this loop:
// a batch's dependent operations fill the processor's floating-point scheduler before the next
// batch's can start). AVX without FMA rounds every lane as SSE2 does, and the operations and
// their order are slerp_shortest4's: blend_override_uniform's result bit for bit. Compiled for
// AVX whatever the build's flags; called only where the processor has it (blend_kernel).
#define RIG_AVX __attribute__((target("avx")))

RIG_AVX inline __m256 k8(float v) { return _mm256_set1_ps(v); }
RIG_AVX inline __m256 mul8(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
RIG_AVX inline __m256 add8(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
RIG_AVX inline __m256 sub8(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
RIG_AVX inline __m256 select8(__m256 mask, __m256 a, __m256 b) {
  return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}

struct Quat8 {
  __m256 x, y, z, w;
};

RIG_AVX inline __m256 join(__m128 lo, __m128 hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

RIG_AVX inline Quat8 join(const Quat4& lo, const Quat4& hi) {
  return {join(lo.x, hi.x), join(lo.y, hi.y), join(lo.z, hi.z), join(lo.w, hi.w)};
}

RIG_AVX inline __m256 acos01_8(__m256 x) {  // acos01_4
  const __m256 x2 = mul8(x, x), x4 = mul8(x2, x2);
  const __m256 p01 = sub8(k8(1.5707963050f), mul8(k8(0.2145988016f), x));
  const __m256 p23 = sub8(k8(0.0889789874f), mul8(k8(0.0501743046f), x));
  const __m256 p45 = sub8(k8(0.0308918810f), mul8(k8(0.0170881256f), x));
  const __m256 p67 = sub8(k8(0.0066700901f), mul8(k8(0.0012624911f), x));
  const __m256 p = add8(add8(p01, mul8(p23, x2)), mul8(add8(p45, mul8(p67, x2)), x4));
  return mul8(_mm256_sqrt_ps(sub8(k8(1.0f), x)), p);
}

RIG_AVX inline __m256 sin_half_pi_8(__m256 x) {  // sin_half_pi_4
  const __m256 x2 = mul8(x, x), x4 = mul8(x2, x2);
  const __m256 q01 = add8(k8(-1.0f / 6.0f), mul8(k8(1.0f / 120.0f), x2));
  const __m256 q23 = add8(k8(-1.0f / 5040.0f), mul8(k8(1.0f / 362880.0f), x2));
  const __m256 q = add8(q01, mul8(sub8(q23, mul8(k8(1.0f / 39916800.0f), x4)), x4));
  return add8(x, mul8(mul8(x, x2), q));
}

RIG_AVX inline Quat8 slerp_shortest8(const Quat8& a, Quat8 b, __m256 t) {  // slerp_shortest4
  const __m256 zero = _mm256_setzero_ps();
  __m256 d = add8(add8(add8(mul8(a.x, b.x), mul8(a.y, b.y)), mul8(a.z, b.z)), mul8(a.w, b.w));
  const __m256 flip = _mm256_and_ps(_mm256_cmp_ps(d, zero, _CMP_LT_OS), k8(-0.0f));
  b = {_mm256_xor_ps(b.x, flip), _mm256_xor_ps(b.y, flip), _mm256_xor_ps(b.z, flip),
       _mm256_xor_ps(b.w, flip)};
  d = _mm256_xor_ps(d, flip);
  __m256 s0 = sub8(k8(1.0f), t), s1 = t;
  const __m256 near = _mm256_cmp_ps(d, k8(0.9995f), _CMP_GT_OS);
  const __m256 theta = acos01_8(d);
  s0 = select8(near, s0, sin_half_pi_8(mul8(s0, theta)));
  s1 = select8(near, s1, sin_half_pi_8(mul8(s1, theta)));
  const __m256 x = add8(mul8(s0, a.x), mul8(s1, b.x)), y = add8(mul8(s0, a.y), mul8(s1, b.y)),
               z = add8(mul8(s0, a.z), mul8(s1, b.z)), w = add8(mul8(s0, a.w), mul8(s1, b.w));
  const __m256 len2 = add8(add8(add8(mul8(x, x), mul8(y, y)), mul8(z, z)), mul8(w, w));
  // normalize_or_a
  const __m256 inv = _mm256_div_ps(k8(1.0f), _mm256_sqrt_ps(len2));
  const Quat8 r{mul8(x, inv), mul8(y, inv), mul8(z, inv), mul8(w, inv)};
  const __m256 ok = _mm256_cmp_ps(len2, zero, _CMP_GT_OS);
  if (_mm256_movemask_ps(ok) == 0xFF) return r;
  return {select8(ok, r.x, a.x), select8(ok, r.y, a.y), select8(ok, r.z, a.z),
          select8(ok, r.w, a.w)};
}

RIG_AVX void blend_override_uniform_avx(const BlendLayer& layer, float weight,
                                        std::span<Transform> output, NodeList nodes) {
  const size_t n = nodes.count;
  const __m128 w = _mm_set1_ps(weight);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const size_t count = std::min<size_t>(8, n - i0);
    Transform* out[8];
    const Transform* b[8];
    for (size_t j = 0; j < 8; ++j) {  // a short batch repeats its first node
      const size_t i = nodes[i0 + (j < count ? j : 0)];
      out[j] = &output[i];
      b[j] = &layer.local[i];
    }
    const Quat8 qa = join(gather_quats(&out[0]->rotation.x, &out[1]->rotation.x,
                                       &out[2]->rotation.x, &out[3]->rotation.x),
                          gather_quats(&out[4]->rotation.x, &out[5]->rotation.x,
                                       &out[6]->rotation.x, &out[7]->rotation.x));
    const Quat8 qb = join(
        gather_quats(&b[0]->rotation.x, &b[1]->rotation.x, &b[2]->rotation.x, &b[3]->rotation.x),
        gather_quats(&b[4]->rotation.x, &b[5]->rotation.x, &b[6]->rotation.x, &b[7]->rotation.x));
    // Rows after the rotations are read, before they are written; only the real nodes (the lerp
    // is not idempotent).
    for (size_t j = 0; j < count; ++j) {
      float* o = &out[j]->translation.x;
      const float* v = &b[j]->translation.x;
      const __m128 t = _mm_loadu_ps(o), s = _mm_loadu_ps(o + 6);
      _mm_storeu_ps(o, add(t, mul(sub(_mm_loadu_ps(v), t), w)));
      _mm_storeu_ps(o + 6, add(s, mul(sub(_mm_loadu_ps(v + 6), s), w)));
    }
    const Quat8 q = slerp_shortest8(qa, qb, _mm256_set1_ps(weight));
    const Quat4 lo{_mm256_castps256_ps128(q.x), _mm256_castps256_ps128(q.y),
                   _mm256_castps256_ps128(q.z), _mm256_castps256_ps128(q.w)};
    const Quat4 hi{_mm256_extractf128_ps(q.x, 1), _mm256_extractf128_ps(q.y, 1),
                   _mm256_extractf128_ps(q.z, 1), _mm256_extractf128_ps(q.w, 1)};
    scatter_quats(lo, &out[0]->rotation.x, &out[1]->rotation.x, &out[2]->rotation.x,
                  &out[3]->rotation.x);
    scatter_quats(hi, &out[4]->rotation.x, &out[5]->rotation.x, &out[6]->rotation.x,
                  &out[7]->rotation.x);
  }
}

#undef RIG_AVX

std::atomic<BlendKernel> g_kernel{BlendKernel::Auto};

bool use_avx() {
  // __builtin_cpu_supports("avx") also checks that the OS saves the YMM registers.
  static const bool avx = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
  switch (g_kernel.load(std::memory_order_relaxed)) {
    case BlendKernel::Sse2:
      return false;
    case BlendKernel::Avx:
    case BlendKernel::Auto:
      break;
  }
  return avx;
}

// One override layer over `output`: blend_transforms where the node's weight is not 0, nothing
// changed where it is. Eight nodes at a time, as two independent batches whose slerp latencies
// overlap.
void blend_override(const BlendLayer& layer, float weight, std::span<Transform> output,
                    NodeList nodes) {
  if (layer.joint_weights.empty()) {
    if (use_avx())
      blend_override_uniform_avx(layer, weight, output, nodes);
    else
      blend_override_uniform(layer, weight, output, nodes);
    return;
  }
  const size_t n = nodes.count;
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    Batch b0, b1;
    const size_t c0 = std::min<size_t>(4, n - i0);
    const size_t c1 = i0 + 4 < n ? std::min<size_t>(4, n - i0 - 4) : 0;
    const bool any0 = prepare(layer, weight, output, nodes, i0, c0, b0);
    const bool any1 = c1 > 0 && prepare(layer, weight, output, nodes, i0 + 4, c1, b1);
    // Both batches read before either writes (they never share a node).
    if (any0 && any1) {
      const Quat4 q0 = slerp_batch(b0), q1 = slerp_batch(b1);
      scatter_quats(q0, b0.out[0], b0.out[1], b0.out[2], b0.out[3]);
      scatter_quats(q1, b1.out[0], b1.out[1], b1.out[2], b1.out[3]);
    } else if (any0) {
      scatter_quats(slerp_batch(b0), b0.out[0], b0.out[1], b0.out[2], b0.out[3]);
    } else if (any1) {
      scatter_quats(slerp_batch(b1), b1.out[0], b1.out[1], b1.out[2], b1.out[3]);
    }
    if (any0) lerp_vectors(layer, output, nodes, i0, c0, b0);
    if (any1) lerp_vectors(layer, output, nodes, i0 + 4, c1, b1);
  }
}

}  // namespace

void set_blend_kernel(BlendKernel kernel) { g_kernel.store(kernel, std::memory_order_relaxed); }

bool blend_kernel_available(BlendKernel kernel) {
  if (kernel != BlendKernel::Avx) return true;
  static const bool avx = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
  return avx;
}

bool BlendingJob::validate() const {
  if (layers.empty()) return false;
  for (const int i : nodes)
    if (i < 0 || size_t(i) >= output.size()) return false;
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
  const NodeList list =
      nodes.empty() ? NodeList{nullptr, output.size()} : NodeList{nodes.data(), nodes.size()};
  for (size_t l = 1; l < layers.size(); ++l) {
    const BlendLayer& layer = layers[l];
    const float weight = std::clamp(layer.weight, 0.0f, 1.0f);
    if (weight == 0.0f) continue;
    const bool per_joint = !layer.joint_weights.empty();
    const bool additive = layer.mode == BlendMode::Additive;
    if (additive) {
      for (size_t k = 0; k < list.count; ++k) {
        const size_t i = list[k];
        const float w =
            per_joint ? weight * std::clamp(layer.joint_weights[i], 0.0f, 1.0f) : weight;
        if (w == 0.0f) continue;
        output[i] = add_transform_difference(output[i], layer.local[i], layer.reference[i], w);
      }
    } else {
      blend_override(layer, weight, output, list);  // blend_transforms, four nodes at a time
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
