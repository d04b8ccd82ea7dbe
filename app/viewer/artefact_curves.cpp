#include "viewer/artefact_curves.h"

#include <algorithm>
#include <cmath>

namespace rigview {

// Equal within float rounding: the mix blends its LBS and DQS results, which may round apart
// from LBS's own by an ulp where β = 0 still multiplies.
constexpr float kSame = 1e-6f;

int first_equal_curve(const rig::ClipScan& scan, size_t m) {
  if (m >= scan.methods.size()) return -1;
  const std::vector<float>& curve = scan.methods[m].rms;
  for (size_t other = 0; other < m; ++other) {
    const std::vector<float>& earlier = scan.methods[other].rms;
    if (earlier.size() != curve.size()) continue;
    bool equal = true;
    for (size_t k = 0; k < curve.size() && equal; ++k)
      equal = std::abs(curve[k] - earlier[k]) <= kSame * std::max(1.0f, std::abs(curve[k])) ||
              (std::isnan(curve[k]) && std::isnan(earlier[k]));
    if (equal) return static_cast<int>(other);
  }
  return -1;
}

}  // namespace rigview
