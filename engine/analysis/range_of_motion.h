// The range-of-motion sweep, the rigging check that turns each joint through its range and
// watches the skin: every listed joint is turned about each of its own local axes (x, y, z) from
// −D to +D degrees in N steps, on top of a base pose, and each step is measured with the
// skinning artefact measures of analysis/skinning_artefacts.h for each method.
//
// Step k of N turns the joint by a_k = −D + 2D·k/(N − 1) degrees about one axis: the base
// settings plus one FK edit {joint, Delta, q_A(a_k)} (character/fk_rotation.h), posed by the
// PoseBuilder, so a step is exactly the pose `--pose-joint JOINT=a_k,0,0` (y and z alike) asks
// for on the same base, and its measures are what analyze_frame gives that pose:
//   score   the joint's per-joint score (ArtefactFrame::joint_scores); a node that is a joint
//           of several skins takes the largest of its scores; NaN when no area is left;
//   worst   ArtefactFrame::max_abs_h, the vertex of the whole model with the largest |h|;
//   volume  ArtefactFrame::volume_change_percent (against the node rest pose).
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "analysis/skinning_artefacts.h"
#include "character/pose_builder.h"
#include "character/pose_settings.h"

namespace rig {

inline constexpr int kRangeOfMotionMaxSteps = 1000;
inline constexpr float kRangeOfMotionMaxDegrees = 180.0f;

struct RangeOfMotionSample {
  float score = std::numeric_limits<float>::quiet_NaN();
  ArtefactFrame::Worst worst;
  double volume_change_percent = std::numeric_limits<double>::quiet_NaN();
};

struct RangeOfMotionJob {
  // The measures' per-model constants, built for `character`'s model and skin layer.
  const ArtefactSetup* setup = nullptr;
  // The builder that poses `character` (the command line's PosedCharacter has both).
  PoseBuilder* builder = nullptr;
  const Character* character = nullptr;
  // The pose every step starts from; the sweep appends its FK edit after the settings' own.
  const PoseSettings* base = nullptr;
  std::span<const int> joints;  // glTF node indices, each a joint of some skin
  std::span<const SkinningMethod> methods;
  float degrees = 120.0f;  // D, in (0, 180]
  int steps = 25;          // N, in [2, kRangeOfMotionMaxSteps]
  // sample_count() samples, at index(joint, axis, step, method).
  std::span<RangeOfMotionSample> out;

  size_t sample_count() const { return joints.size() * 3 * size_t(steps) * methods.size(); }
  size_t index(size_t joint, int axis, int step, size_t method) const {
    return ((joint * 3 + size_t(axis)) * size_t(steps) + size_t(step)) * methods.size() + method;
  }
  // a_k in degrees.
  float angle(int step) const {
    return float(-double(degrees) + 2.0 * double(degrees) * double(step) / double(steps - 1));
  }

  // false + one-line error when an input is missing or out of range.
  bool validate(std::string& error) const;
  // Sweeps, then poses the character as `base` says again. `progress` (may be null) gets the
  // fraction done after each step; returning false cancels (run then returns false). Allocates
  // one ArtefactFrame per method.
  bool run(ScanProgress progress = nullptr, void* user = nullptr) const;
};

}  // namespace rig
