// The rig doctor: what is wrong with a skin, in findings shaped like import warnings (a stable
// code, a count and a one-line message naming the skin, the joints and the size of the effect),
// plus what a viewer needs to show them: a severity, the skin joints involved (to select and
// frame them) and, per draw item, a float per vertex saying how strongly the finding affects it
// (a heat map).
//
// Notation (per skin s; every length is a fraction of D, "diagonals"):
//   D         bounding-box diagonal of the bind positions (base POSITION, no morph targets, no
//             transforms) of every primitive drawn with s;
//   G_j       world matrix of joint j's node in the node rest pose (Node::rest, shear kept);
//   IBM_j     the file's inverse bind matrix (identity when the file has none);
//   S_j       G_j · IBM_j, the rest-pose skinning matrix; v′ = Σ w_k S_k v the skinned rest
//             position of bind position v;
//   a_j, b_j  joint j's bone segment at bind time, as in skinning_artefacts.h (a_j = translation
//             of IBM_j⁻¹, b_j = mean of a_c over j's skin children);
//   d(v)      the dominant joint of v (largest weight; ties → smallest index).
//
// Detectors (code — severity — rule; thresholds chosen on the corpus, see rig_doctor.cpp):
//   BIND_POSE_DIFFERS  — info  — the rest pose does not reproduce the bind pose. The raw
//       displacement max |v′ − v| cannot tell good from broken files (a global armature
//       transform moves clean models by many diagonals), so the best single affine map A from
//       bind to rest (least squares over the vertices) is removed first: residual
//       ρ = max |v′ − A v| / D. Reported when ρ > kBindResidualInfo; joints listed by how far
//       S_j moves their dominant vertices from A.
//   IBM_MISSING        — error — every IBM is the identity while the joints are not at the
//       origin, and the rest pose tears the mesh (ρ > kMissingResidual): the character explodes
//       by ρ diagonals (the message gives it, and the raw displacement). Also when every IBM is
//       the identity while the skin has bones of some length (the bind-skeleton check below:
//       an armature's 0.01 scale shrinks the torn mesh with it, below kMissingResidual). The
//       message says the file may mean it (the glTF sample Animation_Skin_04 has no IBMs).
//   Bind skeleton (rig_doctor_bind_skeleton.cpp): per skin bone (joint j, skin parent p) the rest
//       offset r_j = translation of G_p⁻¹ G_j against o_j = translation of B_p⁻¹ B_j, B_a = IBM_a⁻¹
//       (one global transform, an armature's scale included, cancels; a pose rotates joints
//       without moving offsets). A bone misfits when |o − r| > kBoneMisfit · max(|o|, |r|) (bones
//       shorter than 1e-3 of the longest are not read). When more than kBoneBrokenFraction of the
//       bones misfit, the first reading of the same matrices that explains them names the bug,
//       in this order, and the vertex-to-bone checks below are skipped for that skin:
//         IBM_MISSING: every IBM is the identity (above);
//         IBM_SUSPECT "negated-translation": B_a = IBM_a with its translation negated fits (at
//             most kBoneFitFraction misfit);
//         JOINT_ORDER_SUSPECT "the joint list is reversed / shifted by k": IBM a (and JOINTS
//             index a) read as belonging to list index π(a), π(a) = (a or n−1−a) + k mod n,
//             fits, or has every bone length right and at most half the file order's mean
//             bone error (a file whose bind offsets turn on purpose); RigFinding::joint_order
//             holds π (the fix: apply_joint_order, joint_order_fix.h);
//         IBM_SUSPECT "translation-only": every IBM's 3×3 part is the identity, and the bone
//             lengths fit up to one uniform scale (the directions do not);
//         nothing when the bone lengths fit but not their directions: a bind pose whose offsets
//             turn in their parents' frames (AssetGenerator Animation_Skin_07 and _09 mean it);
//         IBM_SUSPECT "does not match the joint hierarchy" otherwise.
//       Every message names the bug, the joints whose bones misfit, and the fix.
//   IBM_SUSPECT        — error — IBMs that disagree with the joint hierarchy at bind time:
//       the bind-skeleton readings above; one that is singular or not affine (last row ≠ 0 0 0 1);
//       or IBMs that only negate a
//       translation: every IBM is a pure translation T(−a_j), the joints' rest positions are
//       their bind positions a_j up to one global affine map (so each IBM is exactly the
//       negated translation), yet at least 2 joints are rotated (> 5°) relative to their skin
//       parents in the rest pose: the rotation part of those IBMs is not the inverse of their
//       joint's bind rotation. (A skeleton whose frames are all parallel, like the bundled
//       mannequin's, legitimately has pure-translation IBMs, and is not reported.)
//   JOINT_ORDER_SUSPECT — error — weights and skeleton disagree at bind time. Per weighted
//       vertex e = (dist(v, segment of d(v)) − min_j dist(v, segment j)) / D, how much farther
//       the bone it follows is than the nearest bone; reported when the mean e exceeds
//       kMeanExcess, with the fraction of vertices whose e > kMisplacedExcess and the joints
//       they follow. Shifts of the joint indices by ±1, ±2 are tried too; when one brings the
//       mean below a quarter of the file's, the message says "the joint indices look shifted
//       by k". Also reported for an animated skin whose bind skeleton is collapsed to one point
//       (all a_j within kCollapsedSpread) while half its vertices are farther than
//       kMedianBoneDistance from it: its parts will turn about that point, not their joints
//       (identity IBMs on joints at the origin, or IBM · world in place of world · IBM).
//   WEIGHTS_TINY       — warning — influences with 0 < w < 1e-3 (after normalization).
//   WEIGHTS_NONE       — warning — skinned vertices without a usable weight (they stay glued
//       at their bind position).
//   WEIGHTS_SKIP_JOINT — warning — vertices weighted to a joint and to its skin grandchild (or
//       deeper) but not to the joint in between.
//   JOINTS_UNUSED      — info — skin joints that no vertex is weighted to.
// The influence-count histogram comes with the diagnosis (RigDiagnosis::influence_histogram).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"

namespace rig {

enum class RigSeverity : uint8_t { Info, Warning, Error };
const char* severity_name(RigSeverity severity);  // "info", "warning", "error"

// Thresholds (fractions of D unless said otherwise); why these values: rig_doctor.cpp.
inline constexpr double kBindResidualInfo = 1e-4;
inline constexpr double kMissingResidual = 0.05;
inline constexpr double kMisplacedExcess = 0.1;
inline constexpr double kMedianBoneDistance = 0.15;
inline constexpr double kCollapsedSpread = 1e-3;
inline constexpr double kMeanExcess = 0.04;
inline constexpr float kTinyWeight = 1e-3f;
inline constexpr double kBoneMisfit = 0.05;         // relative offset error of one bone
inline constexpr double kBoneBrokenFraction = 0.5;  // misfit bones: the file's reading is wrong
inline constexpr double kBoneFitFraction = 0.1;     // misfit bones: another reading explains it

// How IBM_MISSING and IBM_SUSPECT read a skin's inverse bind matrices: what a repair can recover
// from them (inverse_bind_recovery.h).
enum class IbmReading : uint8_t {
  None,                // not an IBM finding, or no reading explains the matrices
  Missing,             // identity: nothing to recover
  NegatedTranslation,  // each IBM is the bind matrix with its translation negated
  TranslationOnly,     // each IBM is T(−t_j): the bind positions survive, not the rotations
};

struct RigFinding {
  ImportWarning warning;  // code, one-line message, count (vertices, joints or influences)
  RigSeverity severity = RigSeverity::Info;
  int skin = -1;            // Model::skins index, -1 when model-wide
  std::vector<int> joints;  // skin joint indices involved, most involved first (at most 16)
  double value = 0.0;       // the size of the effect, in the unit the message gives
  // Per Model::draws entry: empty when the finding does not touch that item, else one float
  // per vertex in [0, 1] (0 unaffected, 1 fully).
  std::vector<std::vector<float>> affected;
  // JOINT_ORDER_SUSPECT from the bind skeleton: per IBM (and JOINTS index) a, the joint list
  // index whose joint it belongs to; empty otherwise.
  std::vector<int> joint_order;
  IbmReading ibm_reading = IbmReading::None;  // IBM_MISSING / IBM_SUSPECT: the reading found
};

// The raw measures behind the findings, per skin (what the thresholds are compared with).
struct RigSkinMeasures {
  double diagonal = 0.0;              // D
  double bind_displacement = 0.0;     // max |v′ − v| / D
  double bind_residual = 0.0;         // ρ, after removing the best affine map
  double joint_offset = 0.0;          // max |G_j translation| / D
  double misplaced_fraction = 0.0;    // JOINT_ORDER_SUSPECT's fraction of misplaced vertices
  double mean_excess = 0.0;           // its mean e
  double median_bone_distance = 0.0;  // median dist(v, segment of d(v)) / D
  double bind_joint_spread = 0.0;     // largest distance between two bind joint positions / D
  double bone_misfit_fraction = 0.0;  // bind skeleton: misfit bones / bones read (file's reading)
  size_t bones_measured = 0;          // bones the bind-skeleton check read
};

struct RigDiagnosis {
  std::vector<RigSkinMeasures> skins;  // per Model::skins entry
  std::vector<RigFinding> findings;    // errors first, then warnings, then info
  // influence_histogram[k]: skinned vertices (over every draw item) with k non-zero weights.
  std::vector<uint64_t> influence_histogram;
  // Per Model::draws entry, per vertex: the largest `affected` over the error and warning
  // findings (empty for rigid items): the "what is wrong where" heat map.
  std::vector<std::vector<float>> heat;

  bool has_errors() const;
  // The findings as import-style warnings (code, message, count), same order.
  std::vector<ImportWarning> warnings() const;
  const RigFinding* find(const std::string& code) const;  // the first with `code`, or null
};

// Runs every detector on every skin, in the node rest pose (no clip is sampled). Allocates;
// about 0.5 s for the whole corpus together, so it can run on load.
RigDiagnosis examine_rig(const Model& model);
// The same for the influences and inverse bind matrices of `skin`, a layer over `model`: what is
// skinned (at most 8 influences per vertex), edits included; the viewer's Rig health panel. The
// one-argument form examines the file's own influences, all of them (--info).
RigDiagnosis examine_rig(const Model& model, const SkinLayer& skin);

// The findings only, as warnings: what --info and the warnings list show.
std::vector<ImportWarning> diagnose_rig(const Model& model);

}  // namespace rig
