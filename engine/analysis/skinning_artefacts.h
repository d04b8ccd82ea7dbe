// Skinning artefact measures: where, when and how much a skinning method deflates or bulges the
// character. Every measure takes the method as an input (a row of skin/skinning_method.h), so a
// new method is measured without a line changed here.
//
// Per vertex i of a skinned primitive, for the current pose:
//   d      = the skin joint with the largest weight (weights of repeated slots summed; ties → the
//            smallest joint index in skin.joints);
//   a_j    = translation of inverse(IBM_j) (joint j at bind time); b_j = the mean of a_c over
//            j's skin children c (its nearest descendants that are joints of the same skin,
//            through any non-joint nodes); the segment of j runs from a_j to b_j, or is the
//            point a_j when j has no skin children;
//   r_rest = distance from the vertex's bind position (morph targets applied, as skinned) to
//            d's segment; r_pose = distance from M_d⁻¹ · v′_i to it (M_d: d's skinning matrix,
//            v′_i: the posed vertex);
//   h_i    = log2(max(r_pose / r_rest, 2⁻¹⁰)): < 0 collapses towards the bone (LBS's candy
//            wrapper), > 0 swells (DQS's bulge), 0 moves rigidly with the bone. Undefined (NaN)
//            when r_rest < 1e-3 · D_bind, without a usable influence, or when M_d is singular.
//   D_bind = bounding-box diagonal of the base POSITION of every primitive of the mesh nodes that
//            use the skin (no morph targets, no transforms).
// Method difference ‖v′_i(A) − v′_i(B)‖ / D_rest, with D_rest the bounding-box diagonal of the
// whole world-space model in the node rest pose (LBS, default morph weights); 0 on rigid items.
// Per-joint score sqrt(Σ a_i h_i² / Σ a_i) over the vertices whose dominant joint is j, per skin
// (every mesh node using it pooled), a_i = one third of the areas of the triangles that use
// vertex i (base POSITION, no morph targets); undefined h skipped; joints with no area left out.
// Volume change ΔV% = 100 · (V_pose − V_rest) / |V_rest|, signed volumes of every triangle of
// the model in world space; V_rest in the node rest pose (LBS, default morph weights). Seam
// duplicates are welded by bind position (≤ 1e-6 × the mesh's diagonal) to decide whether the
// surface is closed (every edge shared by exactly two oppositely wound triangles); when it is
// not, ΔV depends on the origin and is reported as approximate (`closed` false).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "model/model.h"
#include "skin/skin_layer.h"

namespace rig {

inline constexpr float kDeflationFloor = -10.0f;     // log2 of the 2⁻¹⁰ clamp
inline constexpr float kDeflationMinRadius = 1e-3f;  // × D_bind: below, h is undefined
inline constexpr float kWeldTolerance = 1e-6f;       // × the mesh's diagonal

// Per-model constants of the measures. Built once per model (allocates).
struct ArtefactSetup {
  struct SkinSetup {
    std::vector<glm::vec3> segment_a, segment_b;  // per joint, bind space
    float bind_diagonal = 0.0f;                   // D_bind
  };
  struct DrawSetup {
    std::vector<int32_t> dominant;  // per vertex: skin joint index, −1 (rigid, or no usable weight)
    std::vector<float> area;        // per vertex: a_i
  };
  std::vector<SkinSetup> skins;
  std::vector<DrawSetup> draws;  // per Model::draws entry
  // Every triangle of every draw item: (draw, i0, i1, i2), flattened.
  std::vector<uint32_t> triangles;
  bool closed = false;         // the welded surface is closed and consistently wound
  double rest_volume = 0.0;    // V_rest
  float rest_diagonal = 0.0f;  // D_rest

  static ArtefactSetup build(const Model& model, const SkinLayer& skin);
};

// The measures of one pose and one method. Sized once by make(); analyze() fills it without
// allocating.
struct ArtefactFrame {
  std::vector<std::vector<glm::vec3>> positions, normals;  // per draw item, posed, world space
  std::vector<std::vector<float>> deflation;               // per draw item, h (NaN: undefined)
  std::vector<std::vector<float>> joint_scores;            // per skin, per joint (NaN: no area)
  float rms = std::numeric_limits<float>::quiet_NaN();     // area-weighted RMS of h, whole model
  struct Worst {
    float value = std::numeric_limits<float>::quiet_NaN();  // h with the largest |h|
    int draw = -1, vertex = -1, joint = -1;                 // joint: skin joint index
  } max_abs_h;
  double volume_change_percent = 0.0;
  // Scratch: per skin, per joint (Σ a h², Σ a) of the current frame, and the inverse skinning
  // matrices (float64; an all-zero matrix marks a singular joint).
  std::vector<std::vector<glm::dvec2>> score_sums;
  std::vector<std::vector<glm::dmat4>> inverse_skinning;

  static ArtefactFrame make(const Model& model);
};

// Skins every draw item with `method` under the character's current pose and fills `out`.
void analyze_frame(const ArtefactSetup& setup, const Character& character, SkinningMethod method,
                   ArtefactFrame& out);

// Per-vertex method difference ‖v′(A) − v′(B)‖ / D_rest of two analysed frames, per draw item
// (0 on rigid items). Returns the largest value. `out` sized like positions; no allocation.
float method_difference(const ArtefactSetup& setup, const Model& model, const ArtefactFrame& a,
                        const ArtefactFrame& b, std::vector<std::vector<float>>& out);

// Distance from p to the segment [a, b] (a point when a == b).
double distance_to_segment(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b);
inline float distance_to_segment(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
  return float(distance_to_segment(glm::dvec3(p), glm::dvec3(a), glm::dvec3(b)));
}

// ---- Over a clip.

// The scan rate: the clip's native key rate when every key time of every channel lies on one
// grid t_start + k / f (±1e-4 s), else `fallback_hz`. Returns the rate in Hz.
float clip_sample_rate(const Clip& clip, float fallback_hz);

struct ClipScanOptions {
  int clip = 0;
  std::vector<SkinningMethod> methods;  // each scanned
  float fallback_hz = 30.0f;            // keys not on one grid
  SkinningMethod difference_a = SkinningMethod::Linear;
  SkinningMethod difference_b = SkinningMethod::DualQuaternion;
  // The skin layer to scan (with centres of rotation when a method needs them); nullptr: made
  // from the model by scan_clip, without centres.
  std::shared_ptr<const SkinLayer> skin_layer;
  // The mix's DQS amount per node (Character::set_dqs_amounts); empty: every amount 0.
  std::vector<float> dqs_amounts;
  // Learn mode's mistakes the scanned character makes (Character::set_pitfalls).
  Pitfalls pitfalls;
};

struct JointScoreOverClip {
  int skin = 0, joint = 0;  // skin joint index
  float score = 0.0f;       // worst score over the samples
  float worst_time = 0.0f;
};

struct MethodScan {
  SkinningMethod method = SkinningMethod::Linear;
  bool closed = false;
  std::vector<JointScoreOverClip> joints;  // sorted by score, worst first
  std::vector<float> rms;                  // per sample
  std::vector<double> volume_change_percent;
  ArtefactFrame::Worst max_abs_h;
  float max_abs_h_time = 0.0f;
  // Per sample, per skin, per joint (flattened per sample): the scores at every sample.
  std::vector<std::vector<float>> scores;
};

struct ClipScan {
  int clip = 0;
  float rate_hz = 30.0f;
  std::vector<float> times;
  float max_method_difference = 0.0f;  // difference_a vs difference_b, over samples and vertices
  std::vector<MethodScan> methods;
};

// Samples times t_k = start + k/f (the last one clamped to end), N = ceil((end − start)·f − 1e-6)
// + 1.
std::vector<float> clip_sample_times(const Clip& clip, float rate_hz);

// Scans a clip. `progress` (may be null) is called with a fraction in [0, 1] after each sample;
// returning false cancels (the scan then returns false). Allocates; run it off the UI thread.
using ScanProgress = bool (*)(void* user, float fraction);
bool scan_clip(const Model& model, const ArtefactSetup& setup, const ClipScanOptions& options,
               ClipScan& out, ScanProgress progress = nullptr, void* user = nullptr);

}  // namespace rig
