// The Rig health panel's content (app/viewer/rig_health.h), in-process: made from the same load
// path as the viewer (load_model.h), checked against the rig doctor's own findings and against
// which code each simulated bug must produce on the bundled mannequin.
#include "viewer/rig_health.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "load_model.h"
#include "options.h"

namespace {

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

struct Loaded {
  rig::Model model;
  rigview::RigHealth health;
};

Loaded load(std::optional<rig::SimulatedBug> bug) {
  Loaded l;
  std::string error;
  EXPECT_TRUE(rigview::import_model(kMannequin, rigview::Options{}, l.model, error)) << error;
  l.health = rigview::make_rig_health(l.model, rigview::simulate_and_diagnose(l.model, bug));
  return l;
}

const rigview::RigHealthRow* row_with(const rigview::RigHealth& h, const std::string& code) {
  for (size_t i = 0; i < h.rows.size(); ++i)
    if (h.diagnosis.findings[i].warning.code == code) return &h.rows[i];
  return nullptr;
}

TEST(RigHealth, TheCleanMannequinShowsNoErrorOrWarning) {
  const Loaded l = load(std::nullopt);
  EXPECT_EQ(l.health.errors, 0u);
  EXPECT_EQ(l.health.warnings, 0u);
  EXPECT_EQ(l.health.worst, rig::RigSeverity::Info);
  EXPECT_EQ(l.health.rows.size(), l.health.diagnosis.findings.size());
  // The findings reach the model's warnings too (the File panel, --info).
  for (const rig::RigFinding& f : l.health.diagnosis.findings) {
    bool listed = false;
    for (const rig::ImportWarning& w : l.model.warnings) listed |= w.code == f.warning.code;
    EXPECT_TRUE(listed) << f.warning.code;
  }
  // Nothing affected: the field is all zeros (grey).
  for (const std::vector<float>& item : l.health.field.values)
    for (float v : item) ASSERT_EQ(v, 0.0f);
}

TEST(RigHealth, EachSimulatedBugIsNamedAsAnErrorWithItsJoints) {
  // The codes the rig doctor's tests establish for the mannequin (tests/engine/
  // rig_doctor_mannequin_test.cpp); translation-only-ibm changes nothing on its parallel frames.
  const std::pair<rig::SimulatedBug, const char*> bugs[] = {
      {rig::SimulatedBug::NoIbm, "IBM_MISSING"},
      {rig::SimulatedBug::ReversedMultiply, "JOINT_ORDER_SUSPECT"},
      {rig::SimulatedBug::ShiftedJoints, "JOINT_ORDER_SUSPECT"}};
  for (const auto& [bug, code] : bugs) {
    const Loaded l = load(bug);
    const char* name = rig::simulated_bug_name(bug);
    EXPECT_EQ(l.health.worst, rig::RigSeverity::Error) << name;
    EXPECT_GE(l.health.errors, 1u) << name;
    const rigview::RigHealthRow* row = row_with(l.health, code);
    ASSERT_NE(row, nullptr) << name << ": " << rigview::rig_health_report(l.health);
    EXPECT_EQ(row->severity, rig::RigSeverity::Error) << name;
    EXPECT_EQ(row->headline.rfind(code, 0), 0u) << row->headline;
    // Its joints: the finding's skin joint indices, and their nodes, in the same order.
    const size_t index = size_t(row - l.health.rows.data());
    const rig::RigFinding& f = l.health.diagnosis.findings[index];
    ASSERT_EQ(row->joints, f.joints) << name;
    ASSERT_FALSE(row->joints.empty()) << name;
    for (size_t k = 0; k < row->joints.size(); ++k)
      EXPECT_EQ(row->joint_nodes[k], l.model.skins[size_t(f.skin)].joints[size_t(row->joints[k])])
          << name;
    const std::string first = l.model.nodes[size_t(row->joint_nodes.front())].name;
    EXPECT_EQ(row->joints_text.rfind("joints: " + first, 0), 0u) << row->joints_text;
    // The report line the viewer's self-test writes.
    const std::string report = rigview::rig_health_report(l.health);
    EXPECT_EQ(report.rfind("summary error ", 0), 0u) << report;
    EXPECT_NE(report.find(std::string("finding error ") + code + " "), std::string::npos) << report;
  }
  const Loaded translation_only = load(rig::SimulatedBug::TranslationOnlyIbm);
  EXPECT_EQ(translation_only.health.errors, 0u);
}

TEST(RigHealth, ShowingOneFindingColoursOnlyItsVertices) {
  Loaded l = load(rig::SimulatedBug::NoIbm);
  const rigview::RigHealthRow* row = row_with(l.health, "IBM_MISSING");
  ASSERT_NE(row, nullptr);
  const int index = int(row - l.health.rows.data());
  rigview::show_finding(l.health, index);
  EXPECT_EQ(l.health.field_finding, index);
  const rig::RigFinding& f = l.health.diagnosis.findings[size_t(index)];
  for (size_t d = 0; d < l.health.field.values.size(); ++d) {
    if (d < f.affected.size() && !f.affected[d].empty()) {
      EXPECT_EQ(l.health.field.values[d], f.affected[d]) << "item " << d;
    } else {
      for (float v : l.health.field.values[d]) ASSERT_EQ(v, 0.0f) << "item " << d;
    }
  }
  rigview::show_finding(l.health, -1);
  EXPECT_EQ(l.health.field.values, l.health.diagnosis.heat);
}

TEST(RigHealth, TeachingAidChoicesRoundTrip) {
  int index = 7;
  EXPECT_TRUE(rigview::parse_simulated_bug_choice("none", index));
  EXPECT_EQ(index, -1);
  EXPECT_EQ(rigview::simulated_bug_at(-1), std::nullopt);
  for (rig::SimulatedBug bug : rig::kSimulatedBugs) {
    ASSERT_TRUE(rigview::parse_simulated_bug_choice(rig::simulated_bug_name(bug), index));
    EXPECT_EQ(rigview::simulated_bug_at(index), bug);
    EXPECT_EQ(rigview::simulated_bug_index(bug), index);
  }
  EXPECT_FALSE(rigview::parse_simulated_bug_choice("sideways", index));
  EXPECT_EQ(rigview::simulated_bug_at(int(std::size(rig::kSimulatedBugs))), std::nullopt);
}

}  // namespace
