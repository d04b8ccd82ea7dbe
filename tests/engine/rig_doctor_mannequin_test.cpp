// The rig doctor's detectors one by one on the bundled mannequin (no corpus needed): the clean
// file, each simulated classic bug, and hand-made weight and matrix defects.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "character/character.h"
#include "import/gltf_import.h"

namespace {

rig::Model mannequin() {
  rig::Model model;
  std::string error;
  EXPECT_TRUE(
      rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  return model;
}

// The first skinned draw item and its primitive.
rig::Primitive& skinned_primitive(rig::Model& model, int* draw = nullptr) {
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    if (item.skin < 0) continue;
    if (draw) *draw = int(d);
    return model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
  }
  ADD_FAILURE() << "no skinned draw item";
  static rig::Primitive none;
  return none;
}

TEST(RigDoctor, CleanMannequinHasNoFindingsAboveInfo) {
  const rig::Model model = mannequin();
  const rig::RigDiagnosis d = rig::examine_rig(model);
  EXPECT_FALSE(d.has_errors());
  for (const rig::RigFinding& f : d.findings) {
    EXPECT_EQ(f.severity, rig::RigSeverity::Info) << f.warning.code << ": " << f.warning.message;
  }
  ASSERT_EQ(d.skins.size(), model.skins.size());
  EXPECT_LT(d.skins[0].bind_residual, rig::kBindResidualInfo);
  // Histogram: every skinned vertex counted once.
  uint64_t skinned = 0, counted = 0;
  for (const rig::DrawItem& item : model.draws) {
    if (item.skin >= 0)
      skinned += model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
  }
  for (uint64_t n : d.influence_histogram) counted += n;
  EXPECT_EQ(counted, skinned);
  ASSERT_EQ(d.heat.size(), model.draws.size());
  for (size_t k = 0; k < model.draws.size(); ++k) {
    if (model.draws[k].skin < 0) continue;
    const rig::DrawItem& item = model.draws[k];
    EXPECT_EQ(d.heat[k].size(),
              model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count());
  }
  // diagnose_rig is the same list as plain warnings.
  const std::vector<rig::ImportWarning> warnings = rig::diagnose_rig(model);
  ASSERT_EQ(warnings.size(), d.findings.size());
  for (size_t i = 0; i < warnings.size(); ++i)
    EXPECT_EQ(warnings[i].code, d.findings[i].warning.code);
}

TEST(RigDoctor, NoIbmIsFlaggedAsMissingWithItsSizeInDiagonals) {
  rig::Model model = mannequin();
  rig::simulate_bug(model, rig::SimulatedBug::NoIbm);
  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* f = d.find("IBM_MISSING");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Error);
  EXPECT_GT(f->value, rig::kMissingResidual);
  EXPECT_NE(f->warning.message.find("diagonals"), std::string::npos) << f->warning.message;
  EXPECT_NE(f->warning.message.find("skin 0"), std::string::npos) << f->warning.message;
  EXPECT_FALSE(f->joints.empty());
  // The heat map marks the torn vertices.
  float hottest = 0.0f;
  for (const std::vector<float>& heat : d.heat)
    for (float h : heat) hottest = std::max(hottest, h);
  EXPECT_GT(hottest, 0.5f);
}

// The mannequin's joint frames are all parallel (its generator writes translation-only joints),
// so its correct IBMs already are pure translations: the classic bug changes nothing here, and
// the doctor rightly says nothing. The corpus test shows it flagged on characters whose joints
// are rotated (CesiumMan, Fox, RiggedFigure, Knight, greenman, QuaterniusRobot).
TEST(RigDoctor, TranslationOnlyIbmIsANoOpOnTheMannequinAndIsFlaggedOnRotatedJoints) {
  const rig::Model clean = mannequin();
  rig::Model model = clean;
  rig::simulate_bug(model, rig::SimulatedBug::TranslationOnlyIbm);
  for (size_t j = 0; j < clean.skins[0].joints.size(); ++j) {
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        EXPECT_NEAR(model.skins[0].inverse_bind[j][c][r], clean.skins[0].inverse_bind[j][c][r],
                    1e-5f);
  }
  EXPECT_FALSE(rig::examine_rig(model).has_errors());

  // Rotate every non-root joint of the mannequin by 20° in its rest pose and give it the IBMs
  // that match (a rig with rotated joint frames), then the translation-only bug.
  rig::Model rotated = clean;
  const rig::Skin& skin = rotated.skins[0];
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    if (skin.joint_parent[j] < 0) continue;
    rig::Node& node = rotated.nodes[size_t(skin.joints[j])];
    node.rest.rotation = glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1));
  }
  std::vector<glm::mat4> world(rotated.nodes.size());
  for (int n : rotated.node_order) {
    const rig::Node& node = rotated.nodes[size_t(n)];
    const glm::mat4 local = rig::trs_matrix(node.rest) * node.shear;
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  for (size_t j = 0; j < skin.joints.size(); ++j)
    rotated.skins[0].inverse_bind[j] = glm::inverse(world[size_t(skin.joints[j])]);
  EXPECT_FALSE(rig::examine_rig(rotated).find("IBM_SUSPECT")) << "rotated frames, correct IBMs";
  rig::simulate_bug(rotated, rig::SimulatedBug::TranslationOnlyIbm);
  const rig::RigDiagnosis d = rig::examine_rig(rotated);
  const rig::RigFinding* f = d.find("IBM_SUSPECT");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Error);
  EXPECT_NE(f->warning.message.find("only negate"), std::string::npos) << f->warning.message;
}

TEST(RigDoctor, ReversedMultiplyIsExactlyIbmTimesWorldAndIsFlagged) {
  const rig::Model clean = mannequin();
  ASSERT_FALSE(clean.clips.empty());
  rig::Model model = clean;
  rig::simulate_bug(model, rig::SimulatedBug::ReversedMultiply);
  rig::Character original(clean), reversed(model);
  for (float t : {0.0f, 0.4f, 0.9f}) {
    const rig::PoseSelection pose{1, t};
    original.evaluate(pose);
    reversed.evaluate(pose);
    const std::span<const glm::mat4> bad = reversed.skinning_matrices(0);
    for (size_t j = 0; j < clean.skins[0].joints.size(); ++j) {
      const glm::mat4 expected =
          clean.skins[0].inverse_bind[j] * original.world()[size_t(clean.skins[0].joints[j])];
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          ASSERT_NEAR(bad[j][c][r], expected[c][r], 1e-3f * (1.0f + std::abs(expected[c][r])))
              << "joint " << j << " t " << t;
    }
  }
  // The skin's joints are copies, named as the joints they copy, in the same order: what the
  // findings and the viewer show are the file's names.
  ASSERT_EQ(model.skins[0].joints.size(), clean.skins[0].joints.size());
  for (size_t j = 0; j < clean.skins[0].joints.size(); ++j) {
    EXPECT_NE(model.skins[0].joints[j], clean.skins[0].joints[j]) << "joint " << j;
    EXPECT_EQ(model.nodes[size_t(model.skins[0].joints[j])].name,
              clean.nodes[size_t(clean.skins[0].joints[j])].name)
        << "joint " << j;
  }
  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* f = d.find("JOINT_ORDER_SUSPECT");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Error);
  EXPECT_NE(f->warning.message.find("every joint is at the same point at bind time"),
            std::string::npos)
      << f->warning.message;
}

TEST(RigDoctor, ShiftedJointsAreFlaggedAndTheShiftIsNamed) {
  rig::Model model = mannequin();
  rig::simulate_bug(model, rig::SimulatedBug::ShiftedJoints);
  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* f = d.find("JOINT_ORDER_SUSPECT");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Error);
  EXPECT_NE(f->warning.message.find("the joint indices look shifted by 1"), std::string::npos)
      << f->warning.message;
  EXPECT_FALSE(f->joints.empty());
  EXPECT_NE(rig::find_simulated_bug("shifted-joints"), std::nullopt);
  EXPECT_EQ(rig::find_simulated_bug("nonsense"), std::nullopt);
}

TEST(RigDoctor, WeightDefectsAreCountedAndMapped) {
  rig::Model model = mannequin();
  int draw = -1;
  rig::Primitive& p = skinned_primitive(model, &draw);
  ASSERT_GE(p.vertex_count(), 3u);
  const rig::Skin& skin = model.skins[0];
  // Vertex 0: a tiny second influence. Vertex 1: no weight at all.
  float* w0 = p.weights.data();
  uint16_t* j0 = p.joints.data();
  for (uint32_t i = 0; i < p.influences; ++i) w0[i] = 0.0f;
  w0[0] = 0.9995f;
  w0[1] = 0.0005f;
  j0[1] = uint16_t(j0[0] == 0 ? 1 : 0);
  for (uint32_t i = 0; i < p.influences; ++i) p.weights[p.influences + i] = 0.0f;
  // Vertex 2: a joint and its grandparent, not the parent in between.
  int child = -1;
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    const int parent = skin.joint_parent[j];
    if (parent >= 0 && skin.joint_parent[size_t(parent)] >= 0) child = int(j);
  }
  ASSERT_GE(child, 0);
  const int grandparent = skin.joint_parent[size_t(skin.joint_parent[size_t(child)])];
  float* w2 = p.weights.data() + 2 * p.influences;
  uint16_t* j2 = p.joints.data() + 2 * p.influences;
  for (uint32_t i = 0; i < p.influences; ++i) w2[i] = 0.0f;
  w2[0] = 0.5f;
  w2[1] = 0.5f;
  j2[0] = uint16_t(child);
  j2[1] = uint16_t(grandparent);

  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* tiny = d.find("WEIGHTS_TINY");
  ASSERT_NE(tiny, nullptr);
  EXPECT_EQ(tiny->severity, rig::RigSeverity::Warning);
  EXPECT_GE(tiny->warning.count, 1u);
  EXPECT_EQ(tiny->affected[size_t(draw)][0], 1.0f);
  const rig::RigFinding* none = d.find("WEIGHTS_NONE");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->warning.count, 1u);
  EXPECT_EQ(none->affected[size_t(draw)][1], 1.0f);
  EXPECT_EQ(d.heat[size_t(draw)][1], 1.0f);
  const rig::RigFinding* skip = d.find("WEIGHTS_SKIP_JOINT");
  ASSERT_NE(skip, nullptr);
  EXPECT_EQ(skip->affected[size_t(draw)][2], 1.0f);
  EXPECT_EQ(skip->joints.front(), skin.joint_parent[size_t(child)]);
  ASSERT_GT(d.influence_histogram.size(), 0u);
  EXPECT_GE(d.influence_histogram[0], 1u);  // vertex 1
}

TEST(RigDoctor, UnusedJointsAreListed) {
  rig::Model model = mannequin();
  rig::Primitive& p = skinned_primitive(model);
  // Move every influence of the last joint onto its parent.
  const rig::Skin& skin = model.skins[0];
  const int last = int(skin.joints.size()) - 1;
  const int parent = skin.joint_parent[size_t(last)];
  ASSERT_GE(parent, 0);
  for (uint16_t& j : p.joints) {
    if (j == last) j = uint16_t(parent);
  }
  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* f = d.find("JOINTS_UNUSED");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Info);
  EXPECT_NE(std::find(f->joints.begin(), f->joints.end(), last), f->joints.end());
  EXPECT_NE(f->warning.message.find(model.nodes[size_t(skin.joints[size_t(last)])].name),
            std::string::npos)
      << f->warning.message;
}

TEST(RigDoctor, SingularInverseBindMatrixIsSuspect) {
  rig::Model model = mannequin();
  model.skins[0].inverse_bind[1] = glm::mat4(0.0f);
  model.skins[0].inverse_bind[2][0][3] = 0.5f;  // not affine
  const rig::RigDiagnosis d = rig::examine_rig(model);
  const rig::RigFinding* f = d.find("IBM_SUSPECT");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, rig::RigSeverity::Error);
  EXPECT_EQ(f->warning.count, 2u);
  EXPECT_NE(f->warning.message.find("singular or not affine"), std::string::npos);
}

TEST(RigDoctor, ModelsWithoutSkinsGetNothing) {
  rig::Model model;
  const rig::RigDiagnosis d = rig::examine_rig(model);
  EXPECT_TRUE(d.findings.empty());
  EXPECT_TRUE(d.heat.empty());
}

}  // namespace
