// The rig doctor's "show affected vertices" view as a scalar field (analysis/scalar_field.h): per
// vertex how strongly a finding affects it (RigFinding::affected), or the largest over every
// error and warning (RigDiagnosis::heat). Heat map over [0, 1], so an unaffected vertex (0) is
// the map's neutral grey and any affected one is coloured.
#pragma once

#include "analysis/rig_doctor.h"
#include "analysis/scalar_field.h"

namespace rig::analysis {

// finding < 0 (or out of range): diagnosis.heat. Otherwise diagnosis.findings[finding].affected,
// where an item the finding does not touch is all 0 when the diagnosis has heat for it (a skinned
// item: shown unaffected) and empty otherwise (a rigid item keeps its shading). Allocates (on a
// new diagnosis or a click, not per frame); bumps out.revision.
void fill_rig_findings_field(const RigDiagnosis& diagnosis, int finding, ScalarField& out);

}  // namespace rig::analysis
