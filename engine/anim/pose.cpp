#include "anim/pose.h"

#include <emmintrin.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"

namespace rig {

void init_rest_pose(const Model& model, Pose& pose) {
  pose.local.resize(model.nodes.size());
  pose.morph_weights.resize(model.morph_weight_count);
  reset_to_rest(model, pose);
}

void reset_to_rest(const Model& model, Pose& pose) {
  for (size_t i = 0; i < model.nodes.size(); ++i) pose.local[i] = model.nodes[i].rest;
  std::copy(model.rest_morph_weights.begin(), model.rest_morph_weights.end(),
            pose.morph_weights.begin());
}

void sample_clip(const Model& model, const Clip& clip, float time, Pose& pose) {
  reset_to_rest(model, pose);
  // The readable form: a one-off sample, where RawClipSource's prepared layout (allocated)
  // would not pay off.
  sample_clip_channels(model, clip, time, {}, pose.local, pose.morph_weights);
}

void compute_world_matrices(const Model& model, const Pose& pose, std::span<glm::mat4> world) {
  // A one-off: the skeleton is built for this call (allocates).
  const Skeleton skeleton = Skeleton::build(model);
  LocalToWorldJob job;
  job.skeleton = &skeleton;
  job.local = pose.local;
  job.world = world;
  job.run();
}

void compute_skinning_matrices(std::span<const int> joints, std::span<const glm::mat4> inverse_bind,
                               std::span<const glm::mat4> world, std::span<glm::mat4> out) {
  // glm's product, four rows at a time (SSE2): column c = Σ_k world[k] · ibm[c][k], summed
  // k = 0..3 left to right as glm does. Where the inverse bind matrix is affine (last row
  // 0 0 0 1, as files write them), its terms k = 3 add exact zeros and multiply by exactly one
  // and are left out. So the result is glm's bit for bit, but for the sign of a zero (tested).
  for (size_t j = 0; j < joints.size(); ++j) {
    const glm::mat4& a = world[size_t(joints[j])];
    const glm::mat4& b = inverse_bind[j];
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
      _mm_storeu_ps(&out[j][c].x, r);
    }
  }
}

}  // namespace rig
