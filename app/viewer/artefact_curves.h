// Which artefact curves of a clip scan lie on one another. The mix with no DQS joint ticked is
// LBS exactly, so its curve hides LBS's; the plot draws such a curve dashed and says which it
// equals. Pure (no ImGui).
#pragma once

#include <cstddef>

#include "analysis/skinning_artefacts.h"

namespace rigview {

// The index of the first method before `m` in scan.methods whose RMS curve equals m's at every
// sample (within 1e-6 relative; NaN equal to NaN), or -1 when none does.
int first_equal_curve(const rig::ClipScan& scan, size_t m);

}  // namespace rigview
