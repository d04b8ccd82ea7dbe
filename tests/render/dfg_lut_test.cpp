// The split-sum DFG table of the reference shading (render/dfg_lut.h) against what the integral
// must give: a mirror-smooth lobe seen head on reflects everything (A = 1, B = 0, since
// Fc = (1 − V·H)^5 = 0 there), and rougher lobes lose energy to the single-scattering model.
#include "render/dfg_lut.h"

#include <gtest/gtest.h>

namespace {

TEST(DfgTable, SmoothLobeSeenHeadOnReflectsEverything) {
  const glm::vec2 ab = rig::render::integrate_dfg(1.0f, 0.05f, 1024);
  EXPECT_NEAR(ab.x, 1.0f, 0.01f);
  EXPECT_NEAR(ab.y, 0.0f, 0.01f);
}

TEST(DfgTable, AlbedoFallsWithRoughnessAndTheTableHoldsTexelCentres) {
  float last = 2.0f;
  for (float r : {0.1f, 0.4f, 0.7f, 1.0f}) {
    const glm::vec2 ab = rig::render::integrate_dfg(1.0f, r, 1024);
    EXPECT_GT(ab.x, 0.0f);
    EXPECT_GE(ab.y, 0.0f);
    EXPECT_LE(ab.x + ab.y, 1.0001f);
    EXPECT_LT(ab.x + ab.y, last) << r;
    last = ab.x + ab.y;
  }
  const std::vector<float> table = rig::render::dfg_table(4, 256);
  ASSERT_EQ(table.size(), 4u * 4u * 2u);
  // Row 1 (N·V = 1.5/4), column 2 (roughness 2.5/4).
  const glm::vec2 texel = rig::render::integrate_dfg(1.5f / 4, 2.5f / 4, 256);
  EXPECT_FLOAT_EQ(table[(1 * 4 + 2) * 2], texel.x);
  EXPECT_FLOAT_EQ(table[(1 * 4 + 2) * 2 + 1], texel.y);
}

}  // namespace
