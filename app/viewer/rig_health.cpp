#include "viewer/rig_health.h"

#include <iterator>

#include "analysis/rig_doctor_field.h"

namespace rigview {

RigHealth make_rig_health(const rig::Model& model, rig::RigDiagnosis diagnosis) {
  RigHealth h;
  h.diagnosis = std::move(diagnosis);
  for (const rig::RigFinding& f : h.diagnosis.findings) {
    RigHealthRow row;
    row.severity = f.severity;
    row.headline = f.warning.code + " x " + std::to_string(f.warning.count);
    row.message = f.warning.message;
    row.skin = f.skin;
    const bool skin_ok = f.skin >= 0 && size_t(f.skin) < model.skins.size();
    for (const int j : f.joints) {
      if (!skin_ok || j < 0 || size_t(j) >= model.skins[size_t(f.skin)].joints.size()) continue;
      const int node = model.skins[size_t(f.skin)].joints[size_t(j)];
      if (node < 0 || size_t(node) >= model.nodes.size()) continue;
      row.joints.push_back(j);
      row.joint_nodes.push_back(node);
      const std::string& name = model.nodes[size_t(node)].name;
      row.joints_text += (row.joints_text.empty() ? "joints: " : ", ") +
                         (name.empty() ? "node " + std::to_string(node) : name);
    }
    switch (f.severity) {
      case rig::RigSeverity::Error:
        ++h.errors;
        break;
      case rig::RigSeverity::Warning:
        ++h.warnings;
        break;
      case rig::RigSeverity::Info:
        ++h.infos;
        break;
    }
    if (int(f.severity) > int(h.worst)) h.worst = f.severity;
    h.rows.push_back(std::move(row));
  }
  h.summary = h.rows.empty()
                  ? std::string("no findings")
                  : std::to_string(h.errors) + (h.errors == 1 ? " error, " : " errors, ") +
                        std::to_string(h.warnings) +
                        (h.warnings == 1 ? " warning, " : " warnings, ") + std::to_string(h.infos) +
                        (h.infos == 1 ? " note" : " notes");
  show_finding(h, -1);
  return h;
}

void show_finding(RigHealth& health, int finding) {
  health.field_finding =
      finding >= 0 && size_t(finding) < health.diagnosis.findings.size() ? finding : -1;
  rig::analysis::fill_rig_findings_field(health.diagnosis, health.field_finding, health.field);
}

std::string rig_health_report(const RigHealth& health) {
  std::string out = "summary ";
  out += health.rows.empty() ? "none" : rig::severity_name(health.worst);
  out += " " + std::to_string(health.errors) + " " + std::to_string(health.warnings) + " " +
         std::to_string(health.infos) + "\n";
  for (size_t i = 0; i < health.rows.size(); ++i) {
    const rig::RigFinding& f = health.diagnosis.findings[i];
    out += std::string("finding ") + rig::severity_name(f.severity) + " " + f.warning.code + " " +
           std::to_string(f.warning.count) + " | ";
    const std::string& joints = health.rows[i].joints_text;
    out += joints.empty() ? joints : joints.substr(8);  // without "joints: "
    out += " | " + f.warning.message + "\n";
  }
  return out;
}

std::optional<rig::SimulatedBug> simulated_bug_at(int index) {
  if (index < 0 || size_t(index) >= std::size(rig::kSimulatedBugs)) return std::nullopt;
  return rig::kSimulatedBugs[size_t(index)];
}

int simulated_bug_index(std::optional<rig::SimulatedBug> bug) {
  for (size_t i = 0; bug && i < std::size(rig::kSimulatedBugs); ++i)
    if (rig::kSimulatedBugs[i] == *bug) return int(i);
  return -1;
}

bool parse_simulated_bug_choice(const std::string& name, int& index) {
  if (name == "none") {
    index = -1;
    return true;
  }
  const std::optional<rig::SimulatedBug> bug = rig::find_simulated_bug(name);
  if (!bug) return false;
  index = simulated_bug_index(bug);
  return true;
}

}  // namespace rigview
