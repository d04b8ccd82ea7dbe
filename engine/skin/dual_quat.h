// Unit dual quaternions for dual-quaternion skinning (Kavan et al. 2007), plus the polar split
// that lets DQS handle joints whose skinning matrix carries scale, shear or a mirror.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>

namespace rig {

struct DualQuat {
  glm::quat real{1.0f, 0.0f, 0.0f, 0.0f};  // rotation
  glm::quat dual{0.0f, 0.0f, 0.0f, 0.0f};  // 0.5 * t * real
};

// A skinning matrix M (affine) split as M = [R|t] * [S|0]: R a proper rotation, S symmetric
// (negative determinant when M mirrors). `rigid` is [R|t] as a unit dual quaternion.
struct JointDualQuat {
  DualQuat rigid;
  glm::mat3 stretch{1.0f};  // S
};

DualQuat dual_quat_from_rotation_translation(glm::quat r, glm::vec3 t);
glm::vec3 dual_quat_translation(const DualQuat& dq);
glm::vec3 dual_quat_transform_point(const DualQuat& dq, glm::vec3 p);  // dq must be unit

// Polar decomposition of the 3x3 part of m: m3 = R * S. Returns false (and R = I, S = m3) when
// m3 is singular or not finite.
bool polar_decompose(const glm::mat3& m3, glm::mat3& rotation, glm::mat3& stretch);

JointDualQuat joint_dual_quat_from_matrix(const glm::mat4& skinning_matrix);
void compute_joint_dual_quats(std::span<const glm::mat4> skinning_matrices,
                              std::span<JointDualQuat> out);

}  // namespace rig
