// The rig doctor's inverse-bind-matrix checks: the bind pose against the rest pose, missing and
// suspect IBMs (thresholds: rig_doctor.h, chosen as rig_doctor.cpp says).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <numeric>

#include "analysis/rig_doctor_internal.h"
#include "analysis/skinning_artefacts.h"

namespace rig::rig_doctor_detail {

// BIND_POSE_DIFFERS (info) and IBM_MISSING (error).
void Doctor::bind_pose(SkinWork& work) {
  const Skin& skin = model_.skins[size_t(work.s)];
  const double D = work.diagonal;
  const glm::dvec3 center = 0.5 * (work.bind_min + work.bind_max);
  // Least squares A = B M⁻¹ on centred, scaled coordinates x = (v − c) / D.
  glm::dmat4 M(0.0);
  glm::dmat4 B(0.0);  // columns: Σ v′ xᵀ (rows 0..2 used)
  double raw = 0.0;
  uint64_t count = 0;
  for (size_t k = 0; k < work.draws.size(); ++k) {
    const DoctorPrimitive p = primitive(work.draws[k]);
    for (uint32_t v = 0; v < p.vertex_count(); ++v) {
      const glm::dvec4 x((glm::dvec3(p.positions[v]) - center) / D, 1.0);
      const glm::dvec3& r = work.rest[k][v];
      M += glm::outerProduct(x, x);
      B += glm::outerProduct(glm::dvec4(r, 0.0), x);
      raw = std::max(raw, glm::length(r - glm::dvec3(p.positions[v])));
      ++count;
    }
  }
  if (count == 0) return;
  // A tiny ridge keeps flat (planar) meshes solvable; it does not move the fit of their points.
  const double ridge = 1e-9 * double(count);
  for (int i = 0; i < 3; ++i) M[i][i] += ridge;
  const glm::dmat4 A = B * glm::inverse(M);
  double residual = 0.0;
  std::vector<double> joint_residual(work.joint_count, 0.0);
  std::vector<std::vector<float>> map(model_.draws.size());
  std::vector<std::vector<double>> per_vertex(work.draws.size());
  for (size_t k = 0; k < work.draws.size(); ++k) {
    const DoctorPrimitive p = primitive(work.draws[k]);
    per_vertex[k].resize(p.vertex_count());
    for (uint32_t v = 0; v < p.vertex_count(); ++v) {
      const glm::dvec4 x((glm::dvec3(p.positions[v]) - center) / D, 1.0);
      const glm::dvec3 fit = glm::dvec3(A * x);
      const double r = glm::length(work.rest[k][v] - fit) / D;
      per_vertex[k][v] = r;
      residual = std::max(residual, r);
      const int slot = dominant_slot(p, v);
      if (slot < 0) continue;
      const uint16_t j = p.joints[size_t(v) * p.influences + size_t(slot)];
      if (j >= work.joint_count) continue;
      const glm::dvec3 moved =
          glm::dvec3(work.skinning[j] * glm::dvec4(glm::dvec3(p.positions[v]), 1.0));
      joint_residual[j] = std::max(joint_residual[j], glm::length(moved - fit) / D);
    }
  }
  if (!std::isfinite(residual)) residual = std::numeric_limits<double>::max();
  for (size_t k = 0; k < work.draws.size(); ++k) {
    std::vector<float>& m = map[size_t(work.draws[k])];
    m.resize(per_vertex[k].size());
    for (size_t v = 0; v < m.size(); ++v) {
      m[v] = residual > 0.0 ? float(std::clamp(per_vertex[k][v] / residual, 0.0, 1.0)) : 0.0f;
    }
  }
  work_residual_ = residual;
  out_.skins[size_t(work.s)].diagonal = D;
  out_.skins[size_t(work.s)].bind_displacement = raw / D;
  out_.skins[size_t(work.s)].bind_residual = residual;
  const std::vector<int> joints = ranked(joint_residual, kBindResidualInfo);

  bool all_identity = true;
  double joint_offset = 0.0;
  for (size_t j = 0; j < work.joint_count; ++j) {
    if (inverse_bind(work.s, j) != glm::mat4(1.0f)) all_identity = false;
    joint_offset =
        std::max(joint_offset, glm::length(glm::dvec3(world_[size_t(skin.joints[j])][3])) / D);
  }
  out_.skins[size_t(work.s)].joint_offset = joint_offset;
  if (all_identity && joint_offset > 1e-3 && residual > kMissingResidual) {
    RigFinding& f = add(
        work, "IBM_MISSING", RigSeverity::Error, work.joint_count,
        "no inverse bind matrices (all identity) but the joints are up to " + fmt(joint_offset) +
            " diagonals from the origin: the character explodes, vertices torn apart by " +
            fmt(residual) + " diagonals (moved by up to " + fmt(raw / D) + "); worst joints " +
            joint_list(model_, work.s, joints) + ". " + kMissingFix,
        residual, joints);
    f.affected = map;
    f.ibm_reading = IbmReading::Missing;
    work.ibm_missing = true;
    return;
  }
  if (residual > kBindResidualInfo) {
    RigFinding& f =
        add(work, "BIND_POSE_DIFFERS", RigSeverity::Info, joints.size(),
            "the rest pose differs from the bind pose by " + fmt(residual) +
                " diagonals beyond one global transform (raw displacement " + fmt(raw / D) +
                "); joints farthest from the bind pose: " + joint_list(model_, work.s, joints),
            residual, joints);
    f.affected = std::move(map);
  }
}

// IBM_SUSPECT: singular or non-affine matrices. True when it reported some.
bool Doctor::singular_ibms(SkinWork& work) {
  std::vector<int> bad;
  for (size_t j = 0; j < work.joint_count; ++j) {
    const glm::dmat4 ibm(inverse_bind(work.s, j));
    const double det = glm::determinant(glm::dmat3(ibm));
    double scale = 0.0;
    for (int c = 0; c < 3; ++c) scale = std::max(scale, glm::length(glm::dvec3(ibm[c])));
    const bool affine = std::abs(ibm[0][3]) < 1e-5 && std::abs(ibm[1][3]) < 1e-5 &&
                        std::abs(ibm[2][3]) < 1e-5 && std::abs(ibm[3][3] - 1.0) < 1e-5;
    if (!affine || !(std::abs(det) > 1e-9 * scale * scale * scale) || scale == 0.0) {
      bad.push_back(int(j));
    }
  }
  if (!bad.empty()) {
    std::vector<int> joints = bad;
    if (joints.size() > kMaxListedJoints) joints.resize(kMaxListedJoints);
    RigFinding& f =
        add(work, "IBM_SUSPECT", RigSeverity::Error, bad.size(),
            std::to_string(bad.size()) + " inverse bind matrices are singular or not affine (" +
                joint_list(model_, work.s, bad) + ")",
            double(bad.size()), joints);
    mark_dominant(work, f, bad);
    return true;
  }
  return false;
}

// IBM_SUSPECT for matrices that only negate a translation, where the rest pose is the bind pose
// (the bind-skeleton check names most of these first; this one needs no bone).
void Doctor::translation_only(SkinWork& work) {
  const Skin& skin = model_.skins[size_t(work.s)];
  const double D = work.diagonal;
  bool all_translation = true;
  for (size_t j = 0; j < work.joint_count; ++j) {
    const glm::dmat4 ibm(inverse_bind(work.s, j));
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k)
        all_translation = all_translation && std::abs(ibm[c][k] - (c == k ? 1.0 : 0.0)) < 1e-4;
  }
  // Translation-only IBMs: every IBM is a pure translation T(−a_j), the rest-pose joint
  // positions are the bind positions a_j up to one global affine map (so each IBM negates its
  // joint's translation), yet joints are rotated relative to their skin parents in the rest
  // pose. Then the bind pose the IBMs describe has every joint frame parallel while the
  // skeleton's are not: the rotation part of each IBM is not the inverse of its joint's.
  if (!all_translation || work.joint_count < 3) return;
  glm::dmat4 M(0.0), B(0.0);
  for (size_t j = 0; j < work.joint_count; ++j) {
    const glm::dvec4 x(glm::dvec3(work.seg_a[j]) / D, 1.0);
    const glm::dvec3 rest(world_[size_t(skin.joints[j])][3]);
    M += glm::outerProduct(x, x);
    B += glm::outerProduct(glm::dvec4(rest, 0.0), x);
  }
  for (int i = 0; i < 3; ++i) M[i][i] += 1e-9 * double(work.joint_count);
  const glm::dmat4 A = B * glm::inverse(M);
  double position_misfit = 0.0, rest_scale = 0.0;
  for (size_t j = 0; j < work.joint_count; ++j) {
    const glm::dvec4 x(glm::dvec3(work.seg_a[j]) / D, 1.0);
    position_misfit =
        std::max(position_misfit,
                 glm::length(glm::dvec3(A * x) - glm::dvec3(world_[size_t(skin.joints[j])][3])));
  }
  for (int c = 0; c < 3; ++c) rest_scale = std::max(rest_scale, glm::length(glm::dvec3(A[c])));
  if (!(position_misfit <= 1e-3 * std::max(rest_scale, 1e-12))) return;
  std::vector<int> rotated;
  for (size_t j = 0; j < work.joint_count; ++j) {
    const int parent = skin.joint_parent[j];
    if (parent < 0) continue;
    auto rotation = [&](int joint) {
      glm::dmat3 r(world_[size_t(skin.joints[size_t(joint)])]);
      for (int c = 0; c < 3; ++c) {
        const double length = glm::length(r[c]);
        if (length > 0.0) r[c] /= length;
      }
      return glm::normalize(glm::quat_cast(glm::mat3(r)));
    };
    const glm::quat relative = glm::inverse(rotation(parent)) * rotation(int(j));
    const double angle = glm::degrees(2.0 * std::acos(std::min(1.0, double(std::abs(relative.w)))));
    if (std::isfinite(angle) && angle > kRotatedDegrees) rotated.push_back(int(j));
  }
  if (rotated.size() < 2) return;
  std::vector<int> joints = rotated;
  if (joints.size() > kMaxListedJoints) joints.resize(kMaxListedJoints);
  RigFinding& f = add(
      work, "IBM_SUSPECT", RigSeverity::Error, rotated.size(),
      "the inverse bind matrices only negate each joint's translation: they carry no "
      "rotation while " +
          std::to_string(rotated.size()) + " of " + std::to_string(work.joint_count) +
          " joints are rotated relative to their parents (" + joint_list(model_, work.s, rotated) +
          "); the rest pose is torn by " + fmt(work_residual_) + " diagonals",
      double(rotated.size()), joints);
  f.ibm_reading = IbmReading::TranslationOnly;
  mark_dominant(work, f, rotated);
}

}  // namespace rig::rig_doctor_detail
