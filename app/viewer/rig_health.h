// What the Rig health panel shows, made once per diagnosis (a model opened, a simulated bug
// turned on or off), never per frame: the panel's draw code only reads these strings and
// numbers. No ImGui here, so the app tests can check it in-process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/rig_doctor.h"
#include "analysis/scalar_field.h"
#include "analysis/simulated_bugs.h"
#include "model/model.h"

namespace rigview {

struct RigHealthRow {
  rig::RigSeverity severity = rig::RigSeverity::Info;
  std::string headline;     // "IBM_MISSING x 21" (code and count)
  std::string message;      // the finding's one-line message
  std::string joints_text;  // "joints: Hips, Spine, ..." (empty when it names none)
  int skin = -1;
  std::vector<int> joints;       // skin joint indices, most involved first (for framing)
  std::vector<int> joint_nodes;  // their nodes, same order (for selecting)
};

struct RigHealth {
  rig::RigDiagnosis diagnosis;
  std::vector<RigHealthRow> rows;  // one per finding, errors first (the diagnosis' order)
  // The header's summary light: the worst severity over the findings (Info when there are none:
  // green either way).
  rig::RigSeverity worst = rig::RigSeverity::Info;
  unsigned errors = 0, warnings = 0, infos = 0;
  std::string summary;  // "2 errors, 0 warnings, 1 note" or "no findings"
  // "Show affected vertices": the heat map of one finding (field_finding) or of every error and
  // warning (-1). Refilled by show_finding only.
  rig::analysis::ScalarField field;
  int field_finding = -1;
};

// The rows of `diagnosis` for `model` (joint names from its nodes), the summary, and the field
// of every error and warning.
RigHealth make_rig_health(const rig::Model& model, rig::RigDiagnosis diagnosis);

// The field shows finding `finding` (-1 or out of range: every error and warning). Allocates:
// call on a click, not per frame.
void show_finding(RigHealth& health, int finding);

// The panel's content as text, for the self-test hook RIGVIEW_VIEWER_RIG_HEALTH: first
// "summary <worst|none> <errors> <warnings> <infos>", then one line per finding
// "finding <severity> <code> <count> | <joint names, comma-separated> | <message>".
std::string rig_health_report(const RigHealth& health);

// The Teaching aids choice: -1 for none, else the index in rig::kSimulatedBugs.
std::optional<rig::SimulatedBug> simulated_bug_at(int index);
int simulated_bug_index(std::optional<rig::SimulatedBug> bug);
// "none" or a --simulate-bug spelling → the index above; false when unknown.
bool parse_simulated_bug_choice(const std::string& name, int& index);

}  // namespace rigview
