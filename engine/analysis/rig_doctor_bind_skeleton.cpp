// The rig doctor's bind-skeleton check: the skeleton the inverse bind matrices imply
// (B_a = IBM_a⁻¹) read against the node hierarchy, bone by bone. For a joint j with skin parent p
// the rest offset r_j = translation of G_p⁻¹ G_j (j's position in p's frame) is what the bind
// skeleton must reproduce: o_j = translation of B_p⁻¹ B_j. Any one transform M with G = M · B
// (an armature's scale or rotation, a mesh authored elsewhere) cancels in both, and posing a
// joint rotates it without moving its offset, so a posed rest pose fits too. When the file's
// reading does not fit, other readings of the same matrices name the bug:
//   - B_a = the IBM with its translation negated (an IBM written as "the bind matrix, negated");
//   - IBMs whose 3×3 parts are all the identity and whose bones have the right lengths but not
//     the right directions: translation-only IBMs that ignore each joint's rotation;
//   - IBM a belonging to list index π(a) for π reversed, shifted by k, or both: a joint list
//     reordered against its IBMs and JOINTS indices.
// Thresholds: rig_doctor.h (kBoneMisfit, kBoneFitFraction, kBoneBrokenFraction).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "analysis/rig_doctor_internal.h"

namespace rig::rig_doctor_detail {

const char* const kMissingFix =
    "Fix: write the inverse bind matrices, recomputed from the rest pose (Repair); a file may "
    "leave them out on purpose, its mesh authored where the joints are (as the glTF sample "
    "Animation_Skin_04 does), then this is intended";

namespace {

struct Bone {
  int joint = -1, parent = -1;  // skin joint indices (list order)
  glm::dvec3 rest{0.0};         // r_j
};

// One reading of the skin's matrices: bind[a] (B_a) and its inverse, per IBM index a.
struct Reading {
  std::vector<glm::dvec3> position;  // translation of B_a
  std::vector<glm::dmat4> to_local;  // B_a⁻¹
};

struct Fit {
  size_t measured = 0, misfit = 0;
  std::vector<double> error;  // per bone (0 where not measured)
  double sum = 0.0;           // of the errors
  double fraction() const { return measured > 0 ? double(misfit) / double(measured) : 0.0; }
  double mean() const { return measured > 0 ? sum / double(measured) : 0.0; }
};

// ibm_of(j): the IBM index read for list index j.
template <typename IbmOf>
Fit fit_bones(const std::vector<Bone>& bones, const Reading& reading, IbmOf ibm_of,
              bool lengths_only, double lambda = 1.0) {
  Fit fit;
  fit.error.assign(bones.size(), 0.0);
  for (size_t b = 0; b < bones.size(); ++b) {
    const Bone& bone = bones[b];
    const size_t aj = size_t(ibm_of(bone.joint)), ap = size_t(ibm_of(bone.parent));
    const glm::dvec3 o = glm::dvec3(reading.to_local[ap] * glm::dvec4(reading.position[aj], 1.0));
    const double r = glm::length(bone.rest);
    double e = lengths_only ? std::abs(lambda * glm::length(o) - r) / r
                            : glm::length(o - bone.rest) / std::max(r, glm::length(o));
    if (!std::isfinite(e)) e = std::numeric_limits<double>::max();
    fit.error[b] = e;
    fit.sum += std::min(e, 2.0);  // two bone lengths: the most a direction can be off
    ++fit.measured;
    if (e > kBoneMisfit) ++fit.misfit;
  }
  return fit;
}

Reading read_as(const std::vector<glm::dmat4>& bind) {
  Reading r;
  r.position.resize(bind.size());
  r.to_local.resize(bind.size());
  for (size_t a = 0; a < bind.size(); ++a) {
    r.position[a] = glm::dvec3(bind[a][3]);
    r.to_local[a] = glm::inverse(bind[a]);
  }
  return r;
}

// The permutations tried, as "IBM a (and JOINTS index a) belongs to list index map(a)".
struct Permutation {
  bool reversed = false;
  int shift = 0;
  int map(int a, int n) const { return ((reversed ? n - 1 - a : a) + shift % n + n) % n; }
  std::string describe() const {
    std::string text = reversed ? "reversed" : "";
    if (shift != 0) {
      text += std::string(reversed ? " and " : "") + "shifted by " + std::to_string(shift);
    }
    return text;
  }
};

}  // namespace

bool Doctor::bind_skeleton(SkinWork& work) {
  const Skin& skin = model_.skins[size_t(work.s)];
  const int n = int(work.joint_count);
  std::vector<Bone> bones;
  double longest = 0.0;
  for (int j = 0; j < n; ++j) {
    const int p = skin.joint_parent[size_t(j)];
    if (p < 0) continue;
    const glm::dmat4 local = glm::inverse(world_[size_t(skin.joints[size_t(p)])]) *
                             world_[size_t(skin.joints[size_t(j)])];
    bones.push_back({j, p, glm::dvec3(local[3])});
    longest = std::max(longest, glm::length(bones.back().rest));
  }
  // A bone of (almost) no length has no direction to compare.
  std::erase_if(bones, [&](const Bone& b) {
    const double r = glm::length(b.rest);
    return !std::isfinite(r) || !(r > 1e-3 * longest);
  });
  if (bones.empty()) return false;

  std::vector<glm::dmat4> bind(static_cast<size_t>(n)), negated(static_cast<size_t>(n));
  bool identity_rotations = true, all_identity = true;
  for (int a = 0; a < n; ++a) {
    const glm::dmat4 ibm(inverse_bind(work.s, size_t(a)));
    all_identity = all_identity && inverse_bind(work.s, size_t(a)) == glm::mat4(1.0f);
    bind[size_t(a)] = glm::inverse(ibm);
    negated[size_t(a)] = ibm;
    negated[size_t(a)][3] = glm::dvec4(-glm::dvec3(ibm[3]), 1.0);
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k)
        identity_rotations = identity_rotations && std::abs(ibm[c][k] - (c == k)) < 1e-4;
  }
  auto same = [](int j) { return j; };
  const Reading file = read_as(bind);
  const Fit file_fit = fit_bones(bones, file, same, false);
  RigSkinMeasures& measures = out_.skins[size_t(work.s)];
  measures.bone_misfit_fraction = file_fit.fraction();
  measures.bones_measured = file_fit.measured;
  if (!(file_fit.fraction() > kBoneBrokenFraction)) return false;

  // The joints whose bones do not fit in the file's reading, each bone named by its child
  // joint, worst first.
  std::vector<double> score(size_t(n), 0.0);
  for (size_t b = 0; b < bones.size(); ++b) {
    if (file_fit.error[b] <= kBoneMisfit) continue;
    score[size_t(bones[b].joint)] = std::max(score[size_t(bones[b].joint)], file_fit.error[b]);
  }
  const std::vector<int> joints = ranked(score, 0.0);
  const std::string bones_text =
      std::to_string(file_fit.misfit) + " of " + std::to_string(file_fit.measured) + " bones";
  auto finish = [&](RigFinding& f) { mark_dominant(work, f, joints); };

  // Every bind matrix at the origin while the bones have lengths: the file has no IBMs (the
  // bind-pose test above misses this where an armature's scale shrinks the torn mesh with it).
  if (all_identity) {
    RigFinding& f = add(work, "IBM_MISSING", RigSeverity::Error, work.joint_count,
                        "no inverse bind matrices (all identity): the bind skeleton they imply is "
                        "one point while " +
                            bones_text + " have a length in the joint hierarchy (worst at " +
                            joint_list(model_, work.s, joints) + "). " + kMissingFix,
                        file_fit.fraction(), joints);
    f.ibm_reading = IbmReading::Missing;
    finish(f);
    work.ibm_missing = true;
    return true;
  }

  const Fit negated_fit = fit_bones(bones, read_as(negated), same, false);
  if (negated_fit.fraction() <= kBoneFitFraction) {
    RigFinding& f = add(
        work, "IBM_SUSPECT", RigSeverity::Error, file_fit.misfit,
        "negated-translation inverse bind matrices: each IBM is the joint's bind matrix with only "
        "its translation negated, not its inverse (read that way they fit the joint hierarchy, " +
            std::to_string(negated_fit.measured - negated_fit.misfit) + " of " +
            std::to_string(negated_fit.measured) + " bones; as inverses " + bones_text +
            " do not, worst at " + joint_list(model_, work.s, joints) +
            "). Fix: recompute the IBMs from the rest pose (Repair), or invert each bind matrix",
        file_fit.fraction(), joints);
    f.ibm_reading = IbmReading::NegatedTranslation;
    finish(f);
    return true;
  }

  // IBM a (and JOINTS index a) read as belonging to list index π(a): ibm_of = π⁻¹.
  Permutation best;
  Fit best_fit;
  bool found = false;
  std::vector<int> ibm_of(static_cast<size_t>(n));
  // A reading explains the file when its bones fit; or, for a file whose bind offsets turn in
  // their parents' frames on purpose (as above), when every bone length fits and the mean error
  // is at most half the file order's. Reversed first: for two joints it is also a shift by one.
  auto read_permuted = [&](int j) { return ibm_of[size_t(j)]; };
  for (int reversed = 1; reversed >= 0; --reversed) {
    for (int shift = 0; shift < n; ++shift) {
      const Permutation candidate{reversed != 0, shift};
      if (!candidate.reversed && shift == 0) continue;
      for (int a = 0; a < n; ++a) ibm_of[size_t(candidate.map(a, n))] = a;
      const Fit fit = fit_bones(bones, file, read_permuted, false);
      if (found && !(fit.mean() < best_fit.mean())) continue;
      const bool explains =
          fit.fraction() <= kBoneFitFraction ||
          (fit.mean() <= 0.5 * file_fit.mean() &&
           fit_bones(bones, file, read_permuted, true).fraction() <= kBoneFitFraction);
      if (!explains) continue;
      best = candidate;
      best_fit = fit;
      found = true;
    }
  }
  if (found) {
    // Report shifts as the smaller of k and k − n.
    Permutation shown = best;
    if (shown.shift > n / 2) shown.shift -= n;
    RigFinding& f =
        add(work, "JOINT_ORDER_SUSPECT", RigSeverity::Error, file_fit.misfit,
            "the joint list is " + shown.describe() +
                " relative to the inverse bind matrices and the JOINTS indices: IBM k belongs to "
                "the joint listed at " +
                (best.reversed ? std::string("n-1-k") : std::string("k")) +
                (shown.shift != 0
                     ? (shown.shift > 0 ? " + " : " - ") + std::to_string(std::abs(shown.shift))
                     : std::string()) +
                (shown.shift != 0 ? " (mod n)" : "") + ", n = " + std::to_string(n) +
                " (read so, the bind skeleton fits the joint hierarchy, mean bone error " +
                fmt(best_fit.mean()) + "; in the file's order " + fmt(file_fit.mean()) + ", " +
                bones_text + " do not, worst at " + joint_list(model_, work.s, joints) +
                "). Fix: reorder the joint list (joint k := the joint listed at that index)",
            file_fit.fraction(), joints);
    f.joint_order.resize(size_t(n));
    for (int a = 0; a < n; ++a) f.joint_order[size_t(a)] = best.map(a, n);
    finish(f);
    return true;
  }

  if (identity_rotations) {
    // Lengths up to one uniform scale (the median ratio), directions ignored.
    std::vector<double> ratios;
    for (const Bone& b : bones) {
      const double o = glm::length(glm::dvec3(file.to_local[size_t(b.parent)] *
                                              glm::dvec4(file.position[size_t(b.joint)], 1.0)));
      if (o > 0.0 && std::isfinite(o)) ratios.push_back(glm::length(b.rest) / o);
    }
    if (!ratios.empty()) {
      std::nth_element(ratios.begin(), ratios.begin() + std::ptrdiff_t(ratios.size() / 2),
                       ratios.end());
      const double lambda = ratios[ratios.size() / 2];
      const Fit lengths = fit_bones(bones, file, same, true, lambda);
      if (lengths.fraction() <= kBoneFitFraction) {
        RigFinding& f = add(
            work, "IBM_SUSPECT", RigSeverity::Error, file_fit.misfit,
            "translation-only inverse bind matrices: every IBM is a pure translation (they only "
            "negate each joint's translation) and ignores its joint's rotation (and scale); the "
            "bones have the right lengths but " +
                bones_text + " point the wrong way, worst at " +
                joint_list(model_, work.s, joints) +
                ". Fix: recompute the IBMs from the rest pose (Repair)",
            file_fit.fraction(), joints);
        f.ibm_reading = IbmReading::TranslationOnly;
        finish(f);
        return true;
      }
    }
  }

  // Bones of the right lengths turned in their parents' frames: a bind pose whose offsets differ
  // in direction from the rest pose's (the glTF samples Animation_Skin_07 and _09 bend a chain
  // that way on purpose); nothing tells that apart from intent.
  if (fit_bones(bones, file, same, true).fraction() <= kBoneFitFraction) return false;

  RigFinding& f =
      add(work, "IBM_SUSPECT", RigSeverity::Error, file_fit.misfit,
          "the bind skeleton the inverse bind matrices imply does not match the joint hierarchy: " +
              bones_text + " differ in length or direction from the rest offsets, worst at " +
              joint_list(model_, work.s, joints) +
              " (no reversal or shift of the joint list explains it). Fix: recompute the IBMs from "
              "the rest pose (Repair) if the rest pose is the bind pose",
          file_fit.fraction(), joints);
  finish(f);
  return true;
}

}  // namespace rig::rig_doctor_detail
