// Palette storage: uniform block sized from the limit, texture-buffer fallback beyond it, and
// both giving the same skinned vertices.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "character/character.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

// A chain of `joints` joints along +Y, each bent 10° about Z; one vertex per joint, each
// weighted to two neighbouring joints (joint j 0.75, joint j+1 0.25).
Model bent_chain(int joints) {
  std::vector<ChainJoint> chain(static_cast<size_t>(joints));
  for (int j = 0; j < joints; ++j) {
    chain[j].translation = j == 0 ? glm::vec3(0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    chain[j].rotation = glm::angleAxis(glm::radians(10.0f), glm::vec3(0, 0, 1));
  }
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  for (int j = 0; j < joints; ++j) {
    pos.push_back(glm::vec3(0.3f, 0.0f, 0.1f));
    nrm.push_back(glm::vec3(1.0f, 0.0f, 0.0f));
    const uint16_t next = static_cast<uint16_t>(j + 1 < joints ? j + 1 : j);
    ids.insert(ids.end(), {static_cast<uint16_t>(j), next, 0, 0});
    w.insert(w.end(), {0.75f, 0.25f, 0.0f, 0.0f});
  }
  return test::chain_model(chain, pos, nrm, 4, ids, w, {});
}

TEST(Palette, LimitComesFromGlCappedAt64KiBAndIsOverridable) {
  RIG_REQUIRE_GL();
  GLint max_block = 0;
  glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &max_block);
  ASSERT_GE(max_block, 16384);  // GL 3.3's minimum
  std::string error;
  Renderer full;
  ASSERT_TRUE(full.init(error)) << error;
  // The driver's limit, but never above 64 KiB (some drivers report 2 GiB).
  EXPECT_EQ(full.palette_uniform_limit_bytes(), std::min<uint32_t>(uint32_t(max_block), 65536u));
  Renderer small(RendererConfig{1024});
  ASSERT_TRUE(small.init(error)) << error;
  EXPECT_EQ(small.palette_uniform_limit_bytes(), 1024u);
  // LBS: a mat4 (64 bytes) per joint; DQS: 2 quaternions + 3 stretch columns (80 bytes).
  EXPECT_EQ(small.max_uniform_joints(SkinningMethod::Linear), 16u);
  EXPECT_EQ(small.max_uniform_joints(SkinningMethod::DualQuaternion), 12u);
}

TEST(Palette, SkinsBeyondTheLimitUseATextureBuffer) {
  RIG_REQUIRE_GL();
  std::string error;
  Renderer renderer(RendererConfig{1024});
  ASSERT_TRUE(renderer.init(error)) << error;
  // 14 joints: LBS 896 bytes fits, DQS 1120 bytes does not.
  const Model fourteen = bent_chain(14);
  ASSERT_TRUE(renderer.set_model(fourteen, error)) << error;
  EXPECT_FALSE(renderer.skin_uses_texture_buffer(0, SkinningMethod::Linear));
  EXPECT_TRUE(renderer.skin_uses_texture_buffer(0, SkinningMethod::DualQuaternion));
  const Model twelve = bent_chain(12);
  ASSERT_TRUE(renderer.set_model(twelve, error)) << error;
  EXPECT_FALSE(renderer.skin_uses_texture_buffer(0, SkinningMethod::DualQuaternion));
  const Model seventeen = bent_chain(17);
  ASSERT_TRUE(renderer.set_model(seventeen, error)) << error;
  EXPECT_TRUE(renderer.skin_uses_texture_buffer(0, SkinningMethod::Linear));
}

TEST(Palette, TextureBufferAndUniformBlockGiveTheSameVertices) {
  RIG_REQUIRE_GL();
  const Model model = bent_chain(40);
  Character character(model);
  character.evaluate(PoseSelection{});
  std::string error;
  Renderer ubo, tbo(RendererConfig{256});
  ASSERT_TRUE(ubo.init(error)) << error;
  ASSERT_TRUE(tbo.init(error)) << error;
  ASSERT_TRUE(ubo.set_model(model, error)) << error;
  ASSERT_TRUE(tbo.set_model(model, error)) << error;
  ubo.update(character);
  tbo.update(character);
  for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    ASSERT_FALSE(ubo.skin_uses_texture_buffer(0, method));
    ASSERT_TRUE(tbo.skin_uses_texture_buffer(0, method));
    const size_t n = model.meshes[0].primitives[0].vertex_count();
    std::vector<glm::vec3> pu(n), nu(n), pt(n), nt(n);
    ASSERT_TRUE(ubo.read_back_skinned(0, method, pu, nu, error)) << error;
    ASSERT_TRUE(tbo.read_back_skinned(0, method, pt, nt, error)) << error;
    for (size_t v = 0; v < n; ++v) {
      EXPECT_EQ(pu[v], pt[v]) << "vertex " << v;
      EXPECT_EQ(nu[v], nt[v]) << "vertex " << v;
    }
    // And not trivially: the chain curls (40 x 10 degrees), the last vertex lands ~3 units
    // from where it started.
    EXPECT_GT(glm::length(pt[n - 1] - model.meshes[0].primitives[0].positions[n - 1]), 2.0f);
  }
}

}  // namespace
}  // namespace rig::render

namespace rig::render {
namespace {

TEST(Palette, ASkeletonBeyondTheUniformLimitStillSkinsLikeTheCpu) {
  RIG_REQUIRE_GL();
  // 1500 joints: 96 KB of LBS matrices, beyond any uniform block this GL offers (64 KB here).
  const Model model = bent_chain(1500);
  std::string error;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, error)) << error;
  ASSERT_LT(renderer.max_uniform_joints(SkinningMethod::Linear), 1500u);
  Character character(model);
  character.evaluate(PoseSelection{});
  renderer.update(character);
  const size_t n = model.meshes[0].primitives[0].vertex_count();
  for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    EXPECT_TRUE(renderer.skin_uses_texture_buffer(0, method));
    std::vector<glm::vec3> gp(n), gn(n), cp(n), cn(n);
    ASSERT_TRUE(renderer.read_back_skinned(0, method, gp, gn, error)) << error;
    character.skin_draw_item(model.draws[0], method, cp, cn);
    // The chain curls into a circle of radius 1 / (2 sin 5°) ≈ 5.74: diagonal ≈ 11.5.
    for (size_t v = 0; v < n; ++v) EXPECT_LE(glm::length(gp[v] - cp[v]), 1e-4f) << v;
  }
}

}  // namespace
}  // namespace rig::render
