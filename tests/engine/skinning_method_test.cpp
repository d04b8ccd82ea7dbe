// The skinning-method table and the prepared skin mesh: every row is complete and reachable by
// name, every kernel agrees with the single-vertex reference, and truncation to kMaxInfluences
// keeps the largest weights as worked out by hand.
#include "skin/skinning_method.h"

#include <gtest/gtest.h>

#include <array>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <set>
#include <string>

#include "skin/cpu_skinning.h"
#include "skin/skin_mesh.h"

namespace rig {
namespace {

TEST(SkinningMethodTable, RowsAreCompleteUniqueAndFoundByName) {
  ASSERT_EQ(skinning_methods().size(), kSkinningMethodCount);
  std::set<std::string> names, shaders;
  for (size_t i = 0; i < skinning_methods().size(); ++i) {
    const SkinningMethodInfo& m = skinning_methods()[i];
    EXPECT_EQ(static_cast<size_t>(m.method), i);
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_TRUE(shaders.insert(m.shader).second) << m.shader;
    EXPECT_GT(std::string(m.label).size(), 0u);
    EXPECT_NE(m.write_palette, nullptr);
    EXPECT_NE(m.skin, nullptr);
    EXPECT_EQ(find_skinning_method(m.name), &m);
    EXPECT_EQ(&method_info(m.method), &m);
  }
  EXPECT_EQ(method_info(SkinningMethod::Linear).palette_rows, 4u);          // a mat4's columns
  EXPECT_EQ(method_info(SkinningMethod::DualQuaternion).palette_rows, 5u);  // real, dual, S
  EXPECT_EQ(find_skinning_method("LBS"), nullptr);  // names are the lower-case CLI spelling
  EXPECT_EQ(find_skinning_method(""), nullptr);
  EXPECT_EQ(method_info(SkinningMethod::CentersOfRotation).palette_rows, 5u);  // as DQS
  EXPECT_EQ(method_info(SkinningMethod::Mix).palette_rows, 10u);  // LBS 4, DQS 5, amount
  EXPECT_NE(method_info(SkinningMethod::Mix).write_joint_amounts, nullptr);
  EXPECT_EQ(skinning_method_names(), "lbs|dqs|cor|mix");
  EXPECT_EQ(skinning_method_names(", "), "lbs, dqs, cor, mix");
  EXPECT_EQ(joint_amount_method_names(), "mix");  // the only row with per-joint amounts
}

TEST(SkinningMethodTable, AllMethodsListsEveryRowInTableOrder) {
  constexpr auto all = all_skinning_methods();  // usable at compile time
  static_assert(all.size() == kSkinningMethodCount);
  const std::array<SkinningMethod, 4> expected = {
      SkinningMethod::Linear, SkinningMethod::DualQuaternion, SkinningMethod::CentersOfRotation,
      SkinningMethod::Mix};
  ASSERT_EQ(all.size(), expected.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i], expected[i]) << i;
    EXPECT_EQ(all[i], skinning_methods()[i].method) << i;
  }
}

// Random rigid and scaled joints, random 4-influence weights: each kernel against the
// single-vertex reference (cpu_skinning.h), which the hand-worked seed tests pin down.
TEST(SkinningMethodTable, KernelsMatchTheSingleVertexReference) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int joints = 6;
  std::vector<glm::mat4> matrices;
  for (int j = 0; j < joints; ++j) {
    glm::mat4 m =
        glm::translate(glm::mat4(1.0f), {u(rng), u(rng), u(rng)}) *
        glm::mat4_cast(glm::angleAxis(3.0f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), 1))));
    if (j == 5) m = glm::scale(m, {1.5f, 0.5f, 1.0f});  // a non-rigid joint (DQS's polar split)
    matrices.push_back(m);
  }
  std::vector<JointDualQuat> dqs(joints);
  compute_joint_dual_quats(matrices, dqs);
  Primitive prim;
  const uint32_t n = 200;
  prim.influences = 4;
  for (uint32_t v = 0; v < n; ++v) {
    prim.positions.push_back({u(rng), u(rng), u(rng)});
    prim.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), 2.0f)));
    for (int i = 0; i < 4; ++i) {
      prim.joints.push_back(static_cast<uint16_t>((v + uint32_t(i) * 2) % joints));
      prim.weights.push_back(i == 3 && v % 3 == 0 ? 0.0f : std::abs(u(rng)) + 0.05f);
    }
  }
  for (const SkinningMethodInfo& m : skinning_methods()) {
    std::vector<glm::vec3> pos(n), nrm(n);
    skin_primitive(m.method, prim, matrices, prim.positions, prim.normals, pos, nrm);
    for (uint32_t v = 0; v < n; ++v) {
      const uint16_t* j = &prim.joints[v * 4];
      const float* w = &prim.weights[v * 4];
      glm::vec3 want(0.0f);
      switch (m.method) {
        case SkinningMethod::Linear:
          want = skin_point_linear(matrices, j, w, 4, prim.positions[v]);
          break;
        case SkinningMethod::DualQuaternion:
          want = skin_point_dual_quat(dqs, j, w, 4, prim.positions[v]);
          break;
        case SkinningMethod::CentersOfRotation:
          // Without centres (skin_primitive computes none) CoR rotates each vertex about
          // itself: the LBS position (cor_skinning_test.cpp checks it with centres).
          want = skin_point_linear(matrices, j, w, 4, prim.positions[v]);
          break;
        case SkinningMethod::Mix:
          // skin_primitive has no per-joint amounts: every m is 0, the mix is LBS
          // (mix_skinning_test.cpp checks other amounts).
          want = skin_point_linear(matrices, j, w, 4, prim.positions[v]);
          break;
      }
      EXPECT_NEAR(glm::length(pos[v] - want), 0.0f, 1e-5f) << m.name << " vertex " << v;
      EXPECT_NEAR(glm::length(nrm[v]), 1.0f, 1e-5f);
    }
  }
}

TEST(SkinMesh, AtMostEightInfluencesAreKeptAsTheFileHasThem) {
  Primitive prim;
  prim.positions.resize(1);
  prim.influences = 8;
  prim.joints = {0, 1, 2, 3, 4, 5, 6, 7};
  prim.weights = {0.3f, 0.2f, 0.1f, 0.1f, 0.1f, 0.1f, 0.05f, 0.05f};
  const SkinMesh mesh = prepare_skin_mesh(prim);
  EXPECT_EQ(mesh.influences, 8u);
  EXPECT_EQ(mesh.joints, prim.joints);
  EXPECT_EQ(mesh.weights, prim.weights);
  EXPECT_TRUE(mesh.rotation_centers.empty());
}

TEST(SkinMesh, MoreInfluencesKeepTheLargestInFileOrderRenormalized) {
  Primitive prim;
  prim.positions.resize(1);
  prim.influences = 12;
  //              joint:  0     1     2     3     4     5     6     7     8     9    10    11
  prim.joints = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21};
  prim.weights = {0.02f, 0.20f, 0.04f, 0.10f, 0.10f, 0.08f,
                  0.02f, 0.14f, 0.06f, 0.12f, 0.07f, 0.05f};
  // The 8 largest: 0.20 0.14 0.12 0.10 0.10 0.08 0.07 0.06 (sum 0.87); dropped 0.02 0.04 0.02
  // 0.05. Kept in file order and divided by 0.87.
  const SkinMesh mesh = prepare_skin_mesh(prim);
  ASSERT_EQ(mesh.influences, kMaxInfluences);
  EXPECT_EQ(mesh.joints, (std::vector<uint16_t>{11, 13, 14, 15, 17, 18, 19, 20}));
  const float kept[] = {0.20f, 0.10f, 0.10f, 0.08f, 0.14f, 0.06f, 0.12f, 0.07f};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(mesh.weights[size_t(i)], kept[i] / 0.87f, 1e-6f);
}

TEST(SkinMesh, APrimitiveWithoutJointsIsRigid) {
  Primitive prim;
  prim.positions.resize(3);
  const SkinMesh mesh = prepare_skin_mesh(prim);
  EXPECT_FALSE(mesh.skinned());
  EXPECT_EQ(mesh.vertex_count, 3u);
}

}  // namespace
}  // namespace rig
