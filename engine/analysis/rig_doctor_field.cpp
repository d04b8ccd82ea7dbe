#include "analysis/rig_doctor_field.h"

namespace rig::analysis {

void fill_rig_findings_field(const RigDiagnosis& diagnosis, int finding, ScalarField& out) {
  const bool one = finding >= 0 && size_t(finding) < diagnosis.findings.size();
  const RigFinding* f = one ? &diagnosis.findings[size_t(finding)] : nullptr;
  // diagnosis.heat has one entry per draw item, sized for every skinned one: the field's shape.
  out.values.resize(diagnosis.heat.size());
  for (size_t d = 0; d < diagnosis.heat.size(); ++d) {
    const std::vector<float>& heat = diagnosis.heat[d];
    std::vector<float>& values = out.values[d];
    if (!f) {
      values = heat;
      continue;
    }
    const bool touched = d < f->affected.size() && f->affected[d].size() == heat.size();
    if (touched)
      values = f->affected[d];
    else
      values.assign(heat.size(), 0.0f);
  }
  out.min = 0.0f;
  out.max = 1.0f;
  out.map = ColorMap::Heat;
  out.title = f ? "rig doctor: vertices " + f->warning.code + " affects"
                : std::string("rig doctor: vertices affected by any error or warning");
  out.ticks = {{0.0f, "unaffected"}, {0.5f, "0.5"}, {1.0f, "fully"}};
  out.undefined_color = kUndefinedColor;
  ++out.revision;
}

}  // namespace rig::analysis
