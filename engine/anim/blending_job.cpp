#include "anim/blending_job.h"

#include <algorithm>
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

// One override layer over `output`: blend_transforms where the node's weight is not 0, nothing
// changed where it is. Eight nodes at a time, as two independent batches whose slerp latencies
// overlap.
void blend_override(const BlendLayer& layer, float weight, std::span<Transform> output,
                    NodeList nodes) {
  if (layer.joint_weights.empty()) {
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
