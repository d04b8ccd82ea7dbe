#include "pose_math.h"

#include <algorithm>
#include <cmath>

namespace rig::gen {

double radians(double degrees) { return degrees * (kPi / 180.0); }

double round_to_float(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}

static glm::dquat axis_angle(const glm::dvec3& axis, double degrees) {
  const double half = 0.5 * radians(degrees);
  const double s = std::sin(half);
  return glm::dquat(std::cos(half), axis.x * s, axis.y * s, axis.z * s);
}

glm::dquat rot_x(double degrees) { return axis_angle({1.0, 0.0, 0.0}, degrees); }
glm::dquat rot_y(double degrees) { return axis_angle({0.0, 1.0, 0.0}, degrees); }
glm::dquat rot_z(double degrees) { return axis_angle({0.0, 0.0, 1.0}, degrees); }

glm::dquat slerp_shortest(const glm::dquat& a, glm::dquat const& b_in, double t) {
  glm::dquat b = b_in;
  double d = glm::dot(a, b);
  if (d < 0.0) {
    b = -b;
    d = -d;
  }
  if (d > 0.9999995) return glm::normalize(a * (1.0 - t) + b * t);
  const double angle = std::acos(std::min(d, 1.0));
  const double s = std::sin(angle);
  return glm::normalize(a * (std::sin((1.0 - t) * angle) / s) + b * (std::sin(t * angle) / s));
}

double smoothstep01(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

JointPose rest_joint_pose(std::span<const JointDef> joints) {
  JointPose pose;
  pose.rotation.assign(joints.size(), glm::dquat(1.0, 0.0, 0.0, 0.0));
  pose.translation.resize(joints.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    const int parent = joints[j].parent;
    pose.translation[j] =
        joints[j].rest_world - (parent >= 0 ? joints[parent].rest_world : glm::dvec3(0.0));
  }
  return pose;
}

void skinning_matrices(std::span<const JointDef> joints, const JointPose& pose,
                       std::vector<glm::dmat4>& out) {
  std::vector<glm::dmat4> world(joints.size());
  out.resize(joints.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    glm::dmat4 local = glm::mat4_cast(pose.rotation[j]);
    local[3] = glm::dvec4(pose.translation[j], 1.0);
    world[j] = joints[j].parent >= 0 ? world[joints[j].parent] * local : local;
    // The rest pose is translation only, so the inverse bind matrix is a translation.
    glm::dmat4 inverse_bind(1.0);
    inverse_bind[3] = glm::dvec4(-joints[j].rest_world, 1.0);
    out[j] = world[j] * inverse_bind;
  }
}

glm::dvec3 skin_point_lbs(std::span<const glm::dmat4> skinning, const Influences& inf,
                          const glm::dvec3& p) {
  glm::dvec3 sum(0.0);
  for (int i = 0; i < 4; ++i) {
    if (inf.weights[i] == 0.0f) continue;
    sum += double(inf.weights[i]) * glm::dvec3(skinning[inf.joints[i]] * glm::dvec4(p, 1.0));
  }
  return sum;
}

glm::dvec3 skin_point_dqs(std::span<const glm::dmat4> skinning, const Influences& inf,
                          const glm::dvec3& p) {
  // Kavan et al.: blend unit dual quaternions, aligned to the first (largest) influence.
  glm::dquat real_sum(0.0, 0.0, 0.0, 0.0), dual_sum(0.0, 0.0, 0.0, 0.0);
  glm::dquat pivot(1.0, 0.0, 0.0, 0.0);
  bool first = true;
  for (int i = 0; i < 4; ++i) {
    if (inf.weights[i] == 0.0f) continue;
    const glm::dmat4& m = skinning[inf.joints[i]];
    glm::dquat r = glm::normalize(glm::quat_cast(glm::dmat3(m)));
    const glm::dvec3 t(m[3]);
    if (first) {
      pivot = r;
      first = false;
    } else if (glm::dot(pivot, r) < 0.0) {
      r = -r;
    }
    const glm::dquat d = glm::dquat(0.0, t.x, t.y, t.z) * r * 0.5;
    real_sum += r * double(inf.weights[i]);
    dual_sum += d * double(inf.weights[i]);
  }
  const double len = glm::length(real_sum);
  real_sum = real_sum / len;
  dual_sum = dual_sum / len;
  const glm::dquat t_quat = dual_sum * glm::conjugate(real_sum) * 2.0;
  return real_sum * p + glm::dvec3(t_quat.x, t_quat.y, t_quat.z);
}

double lowest_skinned_y(const SkinnedMesh& mesh, std::span<const uint32_t> candidates,
                        std::span<const glm::dmat4> skinning) {
  double lowest = 1e30;
  for (uint32_t v : candidates) {
    const glm::dvec3& p = mesh.positions[v];
    lowest = std::min(lowest, skin_point_lbs(skinning, mesh.influences[v], p).y);
    lowest = std::min(lowest, skin_point_dqs(skinning, mesh.influences[v], p).y);
  }
  return lowest;
}

}  // namespace rig::gen
