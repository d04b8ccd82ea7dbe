// The rig doctor's "show affected vertices" field (analysis/rig_doctor_field.h): a hand-made
// diagnosis gives exactly its numbers, and on the mannequin with a simulated bug the field is
// coloured exactly where a second, independent reduction of the findings says a vertex is
// affected.
#include "analysis/rig_doctor_field.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/color_map.h"
#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "import/gltf_import.h"

namespace {

using rig::analysis::ScalarField;

bool coloured(const ScalarField& f, float v) {
  return rig::analysis::color_map_color(f.map, v, f.min, f.max) != rig::analysis::kZeroColor;
}

// Two draw items (a skinned one with 3 vertices, a rigid one), two findings.
rig::RigDiagnosis hand_made() {
  rig::RigDiagnosis d;
  d.heat = {{0.0f, 0.25f, 1.0f}, {}};
  rig::RigFinding error;
  error.warning.code = "IBM_MISSING";
  error.severity = rig::RigSeverity::Error;
  error.affected = {{0.0f, 0.0f, 1.0f}, {}};
  rig::RigFinding info;
  info.warning.code = "JOINTS_UNUSED";
  info.severity = rig::RigSeverity::Info;  // touches nothing
  d.findings = {error, info};
  return d;
}

TEST(RigFindingsField, AllFindingsIsTheHeatAndOneFindingIsItsAffectedVertices) {
  const rig::RigDiagnosis d = hand_made();
  ScalarField f;
  rig::analysis::fill_rig_findings_field(d, -1, f);
  ASSERT_EQ(f.values.size(), 2u);
  EXPECT_EQ(f.values[0], (std::vector<float>{0.0f, 0.25f, 1.0f}));
  EXPECT_TRUE(f.values[1].empty());  // the rigid item keeps its shading
  EXPECT_EQ(f.min, 0.0f);
  EXPECT_EQ(f.max, 1.0f);
  EXPECT_EQ(f.map, rig::analysis::ColorMap::Heat);
  // Unaffected is the neutral grey; any affected vertex is coloured.
  EXPECT_FALSE(coloured(f, f.values[0][0]));
  EXPECT_TRUE(coloured(f, f.values[0][1]));
  const uint64_t revision = f.revision;

  rig::analysis::fill_rig_findings_field(d, 0, f);
  EXPECT_EQ(f.values[0], (std::vector<float>{0.0f, 0.0f, 1.0f}));
  EXPECT_NE(f.title.find("IBM_MISSING"), std::string::npos) << f.title;
  EXPECT_GT(f.revision, revision);
  // A finding without affected vertices shows the skinned item all unaffected.
  rig::analysis::fill_rig_findings_field(d, 1, f);
  EXPECT_EQ(f.values[0], (std::vector<float>{0.0f, 0.0f, 0.0f}));
  EXPECT_TRUE(f.values[1].empty());
  // Out of range: the whole heat map again.
  rig::analysis::fill_rig_findings_field(d, 9, f);
  EXPECT_EQ(f.values[0], (std::vector<float>{0.0f, 0.25f, 1.0f}));
}

TEST(RigFindingsField, ShiftedJointsOnTheMannequinColourExactlyTheAffectedVertices) {
  rig::Model model;
  std::string error;
  ASSERT_TRUE(
      rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  rig::simulate_bug(model, rig::SimulatedBug::ShiftedJoints);
  const rig::RigDiagnosis d = rig::examine_rig(model);
  ASSERT_TRUE(d.has_errors());
  ScalarField f;
  rig::analysis::fill_rig_findings_field(d, -1, f);
  ASSERT_EQ(f.values.size(), model.draws.size());
  size_t affected = 0, unaffected = 0;
  for (size_t item = 0; item < model.draws.size(); ++item) {
    const rig::DrawItem& draw = model.draws[item];
    const size_t vertices =
        model.meshes[size_t(draw.mesh)].primitives[size_t(draw.primitive)].vertex_count();
    if (draw.skin < 0) {
      EXPECT_TRUE(f.values[item].empty());
      continue;
    }
    ASSERT_EQ(f.values[item].size(), vertices);
    for (size_t v = 0; v < vertices; ++v) {
      // Independent reduction: the largest affected value over error and warning findings.
      float expected = 0.0f;
      for (const rig::RigFinding& finding : d.findings)
        if (finding.severity != rig::RigSeverity::Info && item < finding.affected.size() &&
            !finding.affected[item].empty())
          expected = std::max(expected, finding.affected[item][v]);
      ASSERT_EQ(f.values[item][v], expected) << "item " << item << " vertex " << v;
      ASSERT_EQ(coloured(f, f.values[item][v]), expected > 0.0f) << "item " << item << " v " << v;
      ++(expected > 0.0f ? affected : unaffected);
    }
  }
  EXPECT_GT(affected, 0u);  // the bug shows somewhere
}

}  // namespace
