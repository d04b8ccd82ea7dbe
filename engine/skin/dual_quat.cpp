#include "skin/dual_quat.h"

#include <cmath>

namespace rig {

DualQuat dual_quat_from_rotation_translation(glm::quat r, glm::vec3 t) {
  DualQuat dq;
  dq.real = r;
  dq.dual = glm::quat(0.0f, t.x, t.y, t.z) * r * 0.5f;
  return dq;
}

glm::vec3 dual_quat_translation(const DualQuat& dq) {
  // t = 2 * dual * conj(real), vector part; written out (Kavan et al. 2007, eq. for t).
  const glm::quat& r = dq.real;
  const glm::quat& d = dq.dual;
  glm::vec3 rv(r.x, r.y, r.z), dv(d.x, d.y, d.z);
  return 2.0f * (r.w * dv - d.w * rv + glm::cross(rv, dv));
}

glm::vec3 dual_quat_transform_point(const DualQuat& dq, glm::vec3 p) {
  return dq.real * p + dual_quat_translation(dq);
}

namespace {

using dmat3 = glm::dmat3;

double frobenius(const dmat3& m) {
  double s = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) s += m[c][r] * m[c][r];
  return std::sqrt(s);
}

}  // namespace

bool polar_decompose(const glm::mat3& m3, glm::mat3& rotation, glm::mat3& stretch) {
  const dmat3 m(m3);
  const double det = glm::determinant(m);
  const double scale = frobenius(m);
  if (!std::isfinite(det) || !std::isfinite(scale) || scale == 0.0 ||
      std::abs(det) <= 1e-12 * scale * scale * scale) {
    rotation = glm::mat3(1.0f);
    stretch = m3;
    return false;
  }
  // Scaled Newton iteration Q <- (g Q + (g Q)^-T) / 2 converges to the orthogonal polar factor
  // (Higham 1986); a handful of steps reach double precision for any well-conditioned matrix.
  dmat3 q = m;
  for (int it = 0; it < 100; ++it) {
    dmat3 qinv_t = glm::transpose(glm::inverse(q));
    double g = std::sqrt(frobenius(qinv_t) / frobenius(q));
    dmat3 next = 0.5 * (g * q + qinv_t / g);
    double diff = frobenius(next - q);
    q = next;
    if (diff <= 1e-14) break;
  }
  // A mirror (det < 0) leaves Q improper; put the sign in S so that R is a proper rotation.
  if (det < 0.0) q = -q;
  dmat3 s = glm::transpose(q) * m;
  s = 0.5 * (s + glm::transpose(s));
  rotation = glm::mat3(q);
  stretch = glm::mat3(s);
  return true;
}

JointDualQuat joint_dual_quat_from_matrix(const glm::mat4& m) {
  JointDualQuat j;
  const glm::mat3 m3(m);
  glm::mat3 r(1.0f);
  // Rigid matrices (the common case) skip the iteration: R = M, S = I exactly.
  const glm::mat3 rtr = glm::transpose(m3) * m3;
  bool rigid = glm::determinant(m3) > 0.0f;
  for (int c = 0; c < 3 && rigid; ++c)
    for (int k = 0; k < 3; ++k)
      if (std::abs(rtr[c][k] - (c == k ? 1.0f : 0.0f)) > 1e-5f) rigid = false;
  if (rigid) {
    r = m3;
    j.stretch = glm::mat3(1.0f);
  } else {
    polar_decompose(m3, r, j.stretch);
  }
  const glm::quat q(glm::normalize(glm::quat_cast(glm::dmat3(r))));
  j.rigid = dual_quat_from_rotation_translation(q, glm::vec3(m[3]));
  return j;
}

void compute_joint_dual_quats(std::span<const glm::mat4> skinning_matrices,
                              std::span<JointDualQuat> out) {
  for (size_t i = 0; i < skinning_matrices.size(); ++i)
    out[i] = joint_dual_quat_from_matrix(skinning_matrices[i]);
}

}  // namespace rig
