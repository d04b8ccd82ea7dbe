// The rig doctor's bind-skeleton readings on a hand-made chain of unequal bones whose joints are
// turned about z (so translation-only IBMs are wrong): the bind matrices are composed here, the
// broken forms built by hand (joint lists and their parents included), and the permutation the
// doctor must report is the one written here.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <string>

#include "analysis/joint_order_fix.h"
#include "analysis/rig_doctor.h"
#include "test_models.h"

namespace rig {
namespace {

// Joint k of the chain: local translation kLocal[k] along its parent's x axis, turned by
// kAngle[k] degrees about z; its bind (= rest) world matrix composed here with glm.
const glm::vec3 kLocal[4] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0.5f, 0, 0}};
const float kAngle[4] = {90.0f, 30.0f, -60.0f, 45.0f};

glm::mat4 bind_matrix(int k) {
  glm::mat4 world(1.0f);
  for (int i = 0; i <= k; ++i) {
    world =
        glm::rotate(glm::translate(world, kLocal[i]), glm::radians(kAngle[i]), glm::vec3(0, 0, 1));
  }
  return world;
}

glm::vec3 position(int k) { return glm::vec3(bind_matrix(k)[3]); }

// The chain under an "Armature" node scaled by `scale`, with correct IBMs (the mesh in the
// armature's space) and a mesh of 5 vertices along each bone weighted to its joint.
Model chain(float scale = 1.0f) {
  Model m;
  const int armature = test::add_node(m, "Armature", -1, {0, 0, 0});
  m.nodes[size_t(armature)].rest.scale = glm::vec3(scale);
  int parent = armature;
  Skin skin;
  for (int k = 0; k < 4; ++k) {
    parent = test::add_node(m, "j" + std::to_string(k), parent, kLocal[k],
                            test::axis_angle({0, 0, 1}, kAngle[k]));
    skin.joints.push_back(parent);
    skin.inverse_bind.push_back(glm::inverse(bind_matrix(k)));
    skin.joint_parent.push_back(k - 1);
    skin.order.push_back(k);
  }
  m.skins.push_back(skin);
  Mesh mesh;
  Primitive p;
  p.influences = 4;
  for (int k = 0; k < 4; ++k) {
    // Along j_k's bone, towards its child (the last one along its own x axis).
    const glm::vec3 to =
        k < 3 ? position(k + 1) : glm::vec3(bind_matrix(k) * glm::vec4(1, 0, 0, 1));
    for (int i = 0; i < 5; ++i) {
      p.positions.push_back(position(k) + (to - position(k)) * (0.1f + 0.2f * float(i)));
      p.joints.insert(p.joints.end(), {uint16_t(k), 0, 0, 0});
      p.weights.insert(p.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
    }
  }
  p.normals.assign(p.positions.size(), glm::vec3(0, 0, 1));
  mesh.primitives.push_back(p);
  m.meshes.push_back(mesh);
  const int body = test::add_node(m, "body", armature, {0, 0, 0});
  m.nodes[size_t(body)].mesh = 0;
  m.nodes[size_t(body)].skin = 0;
  m.draws.push_back({body, 0, 0, 0});
  return m;
}

std::string error_codes(const RigDiagnosis& d) {
  std::string out;
  for (const RigFinding& f : d.findings)
    if (f.severity == RigSeverity::Error) out += (out.empty() ? "" : " ") + f.warning.code;
  return out.empty() ? "-" : out;
}

TEST(RigDoctorBindSkeleton, TheCleanChainFitsWithAndWithoutAnArmatureScale) {
  for (float scale : {1.0f, 0.01f}) {
    const RigDiagnosis d = examine_rig(chain(scale));
    EXPECT_EQ(error_codes(d), "-") << scale;
    EXPECT_EQ(d.skins[0].bones_measured, 3u);
    EXPECT_EQ(d.skins[0].bone_misfit_fraction, 0.0);
  }
}

TEST(RigDoctorBindSkeleton, AReversedJointListIsNamedWithItsPermutationAndReorderedBack) {
  for (float scale : {1.0f, 0.01f}) {
    Model m = chain(scale);
    Skin& skin = m.skins[0];
    const std::vector<int> nodes = skin.joints;
    skin.joints = {nodes[3], nodes[2], nodes[1], nodes[0]};
    skin.joint_parent = {1, 2, 3, -1};  // list 0 is j3, whose parent j2 is list 1, ...
    skin.order = {3, 2, 1, 0};
    const RigDiagnosis d = examine_rig(m);
    EXPECT_EQ(error_codes(d), "JOINT_ORDER_SUSPECT");
    const RigFinding* f = d.find("JOINT_ORDER_SUSPECT");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->warning.message.find("the joint list is reversed"), std::string::npos)
        << f->warning.message;
    EXPECT_EQ(f->joint_order, (std::vector<int>{3, 2, 1, 0}));
    std::string error;
    ASSERT_TRUE(apply_joint_order(m, 0, f->joint_order, error)) << error;
    EXPECT_EQ(skin.joints, nodes);
    EXPECT_EQ(skin.joint_parent, (std::vector<int>{-1, 0, 1, 2}));
    EXPECT_EQ(skin.order, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(error_codes(examine_rig(m)), "-");
  }
}

TEST(RigDoctorBindSkeleton, AShiftedJointListIsNamedWithItsShift) {
  Model m = chain();
  Skin& skin = m.skins[0];
  const std::vector<int> nodes = skin.joints;
  // IBM a belongs to list index a + 1 (mod 4).
  skin.joints = {nodes[3], nodes[0], nodes[1], nodes[2]};
  skin.joint_parent = {3, -1, 1, 2};
  skin.order = {1, 2, 3, 0};
  const RigDiagnosis d = examine_rig(m);
  const RigFinding* f = d.find("JOINT_ORDER_SUSPECT");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->warning.message.find("shifted by 1"), std::string::npos) << f->warning.message;
  EXPECT_EQ(f->joint_order, (std::vector<int>{1, 2, 3, 0}));
}

TEST(RigDoctorBindSkeleton, TranslationOnlyAndNegatedTranslationIbmsAreNamed) {
  for (float scale : {1.0f, 0.01f}) {
    Model only = chain(scale), negated = chain(scale);
    for (int k = 0; k < 4; ++k) {
      only.skins[0].inverse_bind[size_t(k)] = glm::translate(glm::mat4(1.0f), -position(k));
      glm::mat4 b = bind_matrix(k);
      b[3] = glm::vec4(-position(k), 1.0f);
      negated.skins[0].inverse_bind[size_t(k)] = b;
    }
    const RigDiagnosis a = examine_rig(only), b = examine_rig(negated);
    EXPECT_EQ(error_codes(a), "IBM_SUSPECT");
    EXPECT_EQ(error_codes(b), "IBM_SUSPECT");
    ASSERT_NE(a.find("IBM_SUSPECT"), nullptr);
    ASSERT_NE(b.find("IBM_SUSPECT"), nullptr);
    EXPECT_NE(a.find("IBM_SUSPECT")->warning.message.find("translation-only"), std::string::npos)
        << a.find("IBM_SUSPECT")->warning.message;
    EXPECT_NE(b.find("IBM_SUSPECT")->warning.message.find("negated-translation"), std::string::npos)
        << b.find("IBM_SUSPECT")->warning.message;
    // Every bone is read in a turned parent frame: 3 of 3 misfit.
    EXPECT_EQ(a.skins[0].bone_misfit_fraction, 1.0);
  }
}

TEST(RigDoctorBindSkeleton, ApplyJointOrderRefusesWhatIsNotAPermutation) {
  Model m = chain();
  std::string error;
  EXPECT_FALSE(apply_joint_order(m, 0, std::vector<int>{0, 1, 2}, error));
  EXPECT_FALSE(apply_joint_order(m, 0, std::vector<int>{0, 1, 1, 2}, error));
  EXPECT_FALSE(apply_joint_order(m, 1, std::vector<int>{0, 1, 2, 3}, error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(m.skins[0].joints, chain().skins[0].joints);
}

}  // namespace
}  // namespace rig
