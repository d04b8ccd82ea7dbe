// The error metric of a lossy clip against the file's keys, implemented literally:
//
//   G_j(t)   world matrix of joint j (the one skinning uses), in the file's units (metres);
//   p_a      = (d / ‖column a of G_j^raw(t)‖) · e_a for a ∈ {x, y, z}, d = 0.03 m: points 3 cm
//              from the joint in world space, whatever the armature's scale (a zero column,
//              norm < 1e-12, takes d · e_a);
//   e_j(t)   = max_a ‖G_j^raw(t) · p_a − G_j^lossy(t) · p_a‖  (p_a a point, w = 1).
//
// Joints counted: the union of the joints of every skin the clip drives, each node once. A skin
// is driven when the clip has a translation, rotation or scale channel on one of its joints or on
// an ancestor of one of them (morph weights move no joint). A model without skins, or a clip
// that drives none, counts every node the clip animates (any channel).
//
// Sample times t_k = t_start + k / f, the last clamped to t_end, N = ceil((t_end − t_start)·f −
// 1e-6) + 1, with f the clip's native key rate when every key lies on one grid (±1e-4 s), else
// 60 Hz (analysis/skinning_artefacts.h: clip_sample_rate, clip_sample_times).
//
// Both clips are evaluated by the Character pipeline (sampling job, local → world), in float as
// at runtime; the distances are taken in double.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "anim/clip_source.h"
#include "model/model.h"

namespace rig {

inline constexpr double kShellDistance = 0.03;  // d, metres
inline constexpr float kFallbackRateHz = 60.0f;

struct ClipErrorReport {
  float rate_hz = 0.0f;
  std::vector<float> times;             // the N sample times
  std::vector<int> joints;              // the J counted nodes, ascending
  double e_max = 0.0;                   // metres
  double e_p99 = 0.0;                   // nearest-rank 99th percentile of the J·N values, metres
  double fraction_within_0_01cm = 1.0;  // share of the J·N values ≤ 1e-4 m
  float e_max_time = 0.0f;
  int e_max_node = -1;
  // Largest distance between a raw and a lossy LBS-skinned vertex over the samples (every
  // skinned draw item, morph targets applied), metres; 0 when not measured.
  double max_vertex_displacement = 0.0;
  bool vertices_measured = false;
  double morph_max = 0.0;  // largest |raw − lossy| morph weight over the samples
};

// The nodes counted for `clip` (rule above), ascending.
std::vector<int> counted_joints(const Model& model, const Clip& clip);

// e_j for one joint and one time.
double joint_error(const glm::mat4& raw, const glm::mat4& lossy, double d = kShellDistance);

// Measures `lossy` against clip `clip`'s raw keys. rate_hz 0 picks the rate by the rule above.
// `vertices`: also skin every skinned draw item with LBS per sample (the slow part).
ClipErrorReport measure_clip_error(const Model& model, int clip, const ClipSource& lossy,
                                   float rate_hz = 0.0f, bool vertices = true);
// The same against any clip's raw keys (channels targeting `model`'s nodes).
ClipErrorReport measure_clip_error(const Model& model, const Clip& clip, const ClipSource& lossy,
                                   float rate_hz = 0.0f, bool vertices = true);

// Nearest-rank percentile p ∈ (0, 100] of `values` (sorted in place).
double nearest_rank_percentile(std::vector<double>& values, double p);

}  // namespace rig
