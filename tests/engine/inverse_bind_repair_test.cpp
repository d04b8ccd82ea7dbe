// Repairing inverse bind matrices from the rest pose (analysis/inverse_bind_repair.h) on the
// broken variants of correct rigs (analysis/simulated_bugs.h): afterwards the rig doctor no longer
// flags IBM_MISSING or IBM_SUSPECT, and the matrices are the correct file's own (its bind pose is
// its rest pose), or the inverse world matrices computed here with glm in float.
#include "analysis/inverse_bind_repair.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

Model import_file(const std::string& path) {
  Model model;
  std::string error;
  EXPECT_TRUE(import_gltf(path, model, error)) << path << ": " << error;
  return model;
}

Model mannequin() { return import_file(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb"); }

bool flags_ibm(const RigDiagnosis& d) {
  return d.find("IBM_MISSING") != nullptr || d.find("IBM_SUSPECT") != nullptr;
}

// Largest |a − b| over the elements, relative to the largest element of `b` (at least 1).
double largest_difference(std::span<const glm::mat4> a, std::span<const glm::mat4> b) {
  double diff = 0.0, size = 1.0;
  for (size_t j = 0; j < a.size(); ++j)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        diff = std::max(diff, double(std::abs(a[j][c][r] - b[j][c][r])));
        size = std::max(size, double(std::abs(b[j][c][r])));
      }
  return diff / size;
}

TEST(InverseBindRepair, MissingMatricesOfTheMannequinAreItsOwn) {
  const Model clean = mannequin();
  Model broken = clean;
  simulate_bug(broken, SimulatedBug::NoIbm);
  SkinLayer layer(broken);
  ASSERT_NE(examine_rig(broken, layer).find("IBM_MISSING"), nullptr);
  const std::vector<InverseBindRepair> done =
      repair_inverse_binds(broken, layer, InverseBindRepairScope::Flagged);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].skin, 0);
  EXPECT_EQ(done[0].reason, "IBM_MISSING");
  EXPECT_TRUE(done[0].repaired) << done[0].problem;
  EXPECT_GT(done[0].largest_change, 0.1);
  EXPECT_FALSE(flags_ibm(examine_rig(broken, layer)));
  EXPECT_LT(largest_difference(layer.inverse_bind(0), clean.skins[0].inverse_bind), 1e-5);
  // The last row is exactly 0 0 0 1.
  for (const glm::mat4& m : layer.inverse_bind(0))
    EXPECT_EQ(glm::vec4(m[0][3], m[1][3], m[2][3], m[3][3]), glm::vec4(0, 0, 0, 1));
}

// The mannequin's joint frames are parallel, so a translation-only IBM is right for it; rotate
// every non-root joint by 20° with the IBMs that match (as the rig doctor's test does), then
// break them.
TEST(InverseBindRepair, TranslationOnlyMatricesOfRotatedJointsAreInverted) {
  Model rotated = mannequin();
  const Skin& skin = rotated.skins[0];
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    if (skin.joint_parent[j] < 0) continue;
    rotated.nodes[size_t(skin.joints[j])].rest.rotation =
        glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1));
  }
  std::vector<glm::mat4> world(rotated.nodes.size());
  for (int n : rotated.node_order) {
    const Node& node = rotated.nodes[size_t(n)];
    const glm::mat4 local = trs_matrix(node.rest) * node.shear;
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  std::vector<glm::mat4> expected(skin.joints.size());
  for (size_t j = 0; j < skin.joints.size(); ++j)
    expected[j] = glm::inverse(world[size_t(skin.joints[j])]);
  rotated.skins[0].inverse_bind = expected;
  simulate_bug(rotated, SimulatedBug::TranslationOnlyIbm);
  SkinLayer layer(rotated);
  ASSERT_NE(examine_rig(rotated, layer).find("IBM_SUSPECT"), nullptr);
  const std::vector<InverseBindRepair> done =
      repair_inverse_binds(rotated, layer, InverseBindRepairScope::Flagged);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].reason, "IBM_SUSPECT");
  EXPECT_TRUE(done[0].repaired);
  EXPECT_FALSE(flags_ibm(examine_rig(rotated, layer)));
  EXPECT_LT(largest_difference(layer.inverse_bind(0), expected), 1e-5);
}

TEST(InverseBindRepair, FlaggedLeavesACleanRigAloneAndAllRecomputesIt) {
  const Model clean = mannequin();
  SkinLayer layer(clean);
  const uint64_t revision = layer.revision();
  EXPECT_TRUE(repair_inverse_binds(clean, layer, InverseBindRepairScope::Flagged).empty());
  EXPECT_EQ(layer.revision(), revision);
  const std::vector<InverseBindRepair> done =
      repair_inverse_binds(clean, layer, InverseBindRepairScope::All);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].reason, "all");
  EXPECT_GT(layer.revision(), revision);
  EXPECT_LT(done[0].largest_change, 1e-5);
  EXPECT_LT(largest_difference(layer.inverse_bind(0), clean.skins[0].inverse_bind), 1e-5);
}

TEST(InverseBindRepair, ASingularJointIsNamedAndItsSkinLeftAlone) {
  Model model = mannequin();
  const int node = model.skins[0].joints[3];
  model.nodes[size_t(node)].rest.scale = glm::vec3(1.0f, 0.0f, 1.0f);
  SkinLayer layer(model);
  const std::vector<glm::mat4> before(layer.inverse_bind(0).begin(), layer.inverse_bind(0).end());
  const std::vector<InverseBindRepair> done =
      repair_inverse_binds(model, layer, InverseBindRepairScope::All);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_FALSE(done[0].repaired);
  EXPECT_NE(done[0].problem.find("joint 3"), std::string::npos) << done[0].problem;
  EXPECT_NE(done[0].problem.find("singular"), std::string::npos) << done[0].problem;
  EXPECT_EQ(std::vector<glm::mat4>(layer.inverse_bind(0).begin(), layer.inverse_bind(0).end()),
            before);
}

// Node world matrices in the rest pose, in float, as the rig doctor's test computes them.
std::vector<glm::mat4> rest_world(const Model& model) {
  std::vector<glm::mat4> world(model.nodes.size());
  for (int n : model.node_order) {
    const Node& node = model.nodes[size_t(n)];
    const glm::mat4 local = trs_matrix(node.rest) * node.shear;
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  return world;
}

// A file posed in its rest pose (rest ≠ bind) whose IBMs were then broken: the rest-pose repair
// would make the posed rest the bind pose; the recovery keeps the bind pose the IBMs were made
// for. The bind pose is the mannequin with every non-root joint turned 20° about z (IBMs: their
// inverse world matrices, in float); the rest pose then bends each joint with exactly one child
// by 35° about an axis perpendicular to that child's offset (a swing, which translation-only
// IBMs keep: the bind positions say where each bone points) and turns joints with several
// children freely (their children's bind positions fix all three axes).
TEST(InverseBindRepair, RecoverKeepsThePosedFilesBindPose) {
  Model bound = mannequin();
  const Skin& skin = bound.skins[0];
  for (size_t j = 0; j < skin.joints.size(); ++j)
    if (skin.joint_parent[j] >= 0)
      bound.nodes[size_t(skin.joints[j])].rest.rotation =
          glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1));
  std::vector<glm::mat4> world = rest_world(bound), expected(skin.joints.size());
  for (size_t j = 0; j < skin.joints.size(); ++j)
    expected[j] = glm::inverse(world[size_t(skin.joints[j])]);
  bound.skins[0].inverse_bind = expected;
  Model posed = bound;
  size_t bent = 0, turned = 0;
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    std::vector<size_t> children;
    for (size_t c = 0; c < skin.joints.size(); ++c)
      if (skin.joint_parent[c] == int(j)) children.push_back(c);
    Transform& rest = posed.nodes[size_t(skin.joints[j])].rest;
    if (children.size() == 1) {
      const glm::vec3 offset = bound.nodes[size_t(skin.joints[children[0]])].rest.translation;
      glm::vec3 axis = glm::cross(offset, glm::vec3(0.3f, 0.5f, 0.8f));
      if (glm::length(offset) < 1e-6f || glm::length(axis) < 1e-6f) continue;
      rest.rotation = rest.rotation * glm::angleAxis(glm::radians(35.0f), glm::normalize(axis));
      ++bent;
    } else if (children.size() >= 2) {
      rest.rotation =
          rest.rotation * glm::angleAxis(glm::radians(25.0f), glm::normalize(glm::vec3(1, 2, 3)));
      ++turned;
    }
  }
  ASSERT_GE(bent, 5u);
  ASSERT_GE(turned, 1u);
  for (const bool translation_only : {true, false}) {
    const char* form = translation_only ? "translation-only" : "negated translation";
    Model broken = posed;
    // The broken forms of the bind matrices B_j = IBM_j⁻¹, written here.
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const glm::mat4 b = glm::inverse(expected[j]);
      glm::mat4 ibm = translation_only ? glm::mat4(1.0f) : b;
      ibm[3] = glm::vec4(-glm::vec3(b[3]), 1.0f);
      broken.skins[0].inverse_bind[j] = ibm;
    }
    SkinLayer layer(broken);
    const RigDiagnosis before = examine_rig(broken, layer);
    const RigFinding* finding = before.find("IBM_SUSPECT");
    ASSERT_NE(finding, nullptr) << form;
    EXPECT_EQ(finding->ibm_reading,
              translation_only ? IbmReading::TranslationOnly : IbmReading::NegatedTranslation);
    SkinLayer rest_repaired = layer;
    repair_inverse_binds(broken, rest_repaired, InverseBindRepairScope::Flagged);
    EXPECT_GT(largest_difference(rest_repaired.inverse_bind(0), expected), 1e-2)
        << "the rest-pose repair cannot know the bind pose";
    const std::vector<InverseBindRepair> done =
        repair_inverse_binds(broken, layer, InverseBindRepairScope::Recover);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_TRUE(done[0].repaired) << done[0].problem;
    EXPECT_EQ(done[0].method, translation_only ? "rotations rebuilt from bind positions"
                                               : "negated translation undone");
    EXPECT_LT(largest_difference(layer.inverse_bind(0), expected), 1e-5) << form;
    EXPECT_FALSE(flags_ibm(examine_rig(broken, layer))) << form;
  }
}

// Corpus characters whose joints are rotated (where translation-only IBMs are wrong): both
// variants repaired, to G_j⁻¹ · W (glm in float here; W the world matrix of the node drawing the
// skin). Where the file's rest pose is its bind pose (every G_j · IBM_j equal to W: CesiumMan and
// RiggedFigure are bound under an armature transform their mesh node shares) those are the
// file's own matrices.
TEST(InverseBindRepairCorpus, BrokenVariantsOfCorpusCharactersAreRepaired) {
  RIG_REQUIRE_CORPUS(root);
  size_t own = 0;
  for (const char* name :
       {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb", "RiggedFigure/RiggedFigure.glb",
        "KayKit_Knight/Knight.glb", "greenman/greenman.glb", "QuaterniusRobot/robot.glb"}) {
    const Model clean = import_file((root / name).string());
    const std::vector<glm::mat4> world = rest_world(clean);
    for (SimulatedBug bug : {SimulatedBug::NoIbm, SimulatedBug::TranslationOnlyIbm}) {
      Model broken = clean;
      simulate_bug(broken, bug);
      SkinLayer layer(broken);
      ASSERT_TRUE(flags_ibm(examine_rig(broken, layer))) << name << " " << simulated_bug_name(bug);
      for (const InverseBindRepair& r :
           repair_inverse_binds(broken, layer, InverseBindRepairScope::Flagged))
        EXPECT_TRUE(r.repaired) << name << ": " << r.problem;
      EXPECT_FALSE(flags_ibm(examine_rig(broken, layer))) << name << " " << simulated_bug_name(bug);
      for (size_t s = 0; s < clean.skins.size(); ++s) {
        const Skin& skin = clean.skins[s];
        glm::mat4 space(1.0f);
        for (const DrawItem& d : clean.draws)
          if (d.skin == int(s)) {
            space = world[size_t(d.node)];
            break;
          }
        std::vector<glm::mat4> expected(skin.joints.size()), rest_skinning(skin.joints.size());
        std::vector<glm::mat4> spaces(skin.joints.size(), space);
        for (size_t j = 0; j < skin.joints.size(); ++j) {
          expected[j] = glm::inverse(world[size_t(skin.joints[j])]) * space;
          rest_skinning[j] = world[size_t(skin.joints[j])] * skin.inverse_bind[j];
        }
        EXPECT_LT(largest_difference(layer.inverse_bind(s), expected), 1e-4) << name << " " << s;
        if (largest_difference(rest_skinning, spaces) < 1e-4) {
          EXPECT_LT(largest_difference(layer.inverse_bind(s), skin.inverse_bind), 1e-4)
              << name << " skin " << s;
          ++own;
        }
      }
    }
  }
  EXPECT_GE(own, 10u) << "the files bound in their rest pose, both variants";
}

}  // namespace
}  // namespace rig
