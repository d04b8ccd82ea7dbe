// The blending job's kernels for an override layer without a mask (BlendKernel: SSE2, four
// nodes at a time, and AVX, eight) against blend_transforms node by node, bit for bit: every
// node-list length around the batch sizes, weights from near 0 to 1, and rotation pairs far
// apart, on opposite hemispheres and nearly parallel (slerp_shortest's normalized-lerp branch).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "anim/blending_job.h"

namespace rig {
namespace {

glm::quat random_unit_quat(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

struct KernelGuard {  // the default again after each test, whatever it asserted
  ~KernelGuard() { set_blend_kernel(BlendKernel::Auto); }
};

TEST(BlendKernel, UnmaskedOverrideIsBlendTransformsBitForBit) {
  KernelGuard guard;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (const BlendKernel kernel : {BlendKernel::Sse2, BlendKernel::Avx, BlendKernel::Auto}) {
    if (!blend_kernel_available(kernel)) {
      std::printf("BlendKernel %d not available on this processor: its case is skipped\n",
                  int(kernel));
      continue;
    }
    set_blend_kernel(kernel);
    for (size_t n = 1; n <= 27; ++n)
      for (const float w : {1e-3f, 0.3f, 0.5f, 0.77f, 1.0f}) {
        std::vector<Transform> a(n + 3), b(n + 3);
        for (size_t i = 0; i < a.size(); ++i) {
          a[i] = {{u(rng), u(rng), u(rng)}, random_unit_quat(rng), {u(rng), u(rng), u(rng)}};
          b[i] = {{u(rng), u(rng), u(rng)}, random_unit_quat(rng), {u(rng), u(rng), u(rng)}};
          if (i % 3 == 1) b[i].rotation = -a[i].rotation;  // opposite hemisphere, same rotation
          if (i % 5 == 2)  // nearly parallel: the normalized-lerp branch
            b[i].rotation = glm::normalize(a[i].rotation + glm::quat(1e-3f, 2e-3f, 0.0f, 0.0f));
        }
        // Every node but a few at the front (a node list), and the whole pose (no list).
        std::vector<int> nodes(n);
        std::iota(nodes.begin(), nodes.end(), 3);
        for (const bool listed : {true, false}) {
          std::vector<Transform> out = a;
          std::vector<float> morph;
          const BlendLayer layers[2] = {{a, morph, 1.0f, {}}, {b, morph, w, {}}};
          BlendingJob job{layers, out, morph, {}};
          if (listed) job.nodes = nodes;
          ASSERT_TRUE(job.run());
          for (size_t i = 0; i < a.size(); ++i) {
            const bool blended = !listed || i >= 3;
            const Transform want = blended ? blend_transforms(a[i], b[i], w) : a[i];
            ASSERT_EQ(std::memcmp(&out[i], &want, sizeof(Transform)), 0)
                << "kernel " << int(kernel) << " n " << n << " w " << w << " node " << i
                << (listed ? " listed" : "");
          }
        }
      }
  }
}

}  // namespace
}  // namespace rig
