// Small double-precision helpers the generator needs on its own: axis-angle rotations,
// forward kinematics of a rest-translation skeleton, and reference LBS/DQS used to keep the
// feet of the gaits on the floor. Independent of the engine on purpose.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>
#include <vector>

#include "asset.h"

namespace rig::gen {

inline constexpr double kPi = 3.14159265358979323846;

double radians(double degrees);
// x rounded to the nearest float. Through a volatile store, because GCC's C++ default
// -fexcess-precision=fast lets the vectorizer drop a plain double(float(x)) round trip.
double round_to_float(double x);
glm::dquat rot_x(double degrees);
glm::dquat rot_y(double degrees);
glm::dquat rot_z(double degrees);
// Shortest-path spherical interpolation; t in [0, 1].
glm::dquat slerp_shortest(const glm::dquat& a, const glm::dquat& b, double t);
// 0 at x <= 0, 1 at x >= 1, C1 in between.
double smoothstep01(double x);

// Local pose of every joint: rotation and translation (rest translation when not animated).
struct JointPose {
  std::vector<glm::dquat> rotation;
  std::vector<glm::dvec3> translation;
};

JointPose rest_joint_pose(std::span<const JointDef> joints);

// Skinning matrices (world * inverse bind) for `pose`. Parents precede children in `joints`.
void skinning_matrices(std::span<const JointDef> joints, const JointPose& pose,
                       std::vector<glm::dmat4>& out);

// Lowest skinned y over the vertices `candidates`, taking the minimum of LBS and DQS.
double lowest_skinned_y(const SkinnedMesh& mesh, std::span<const uint32_t> candidates,
                        std::span<const glm::dmat4> skinning);

glm::dvec3 skin_point_lbs(std::span<const glm::dmat4> skinning, const Influences& inf,
                          const glm::dvec3& p);
glm::dvec3 skin_point_dqs(std::span<const glm::dmat4> skinning, const Influences& inf,
                          const glm::dvec3& p);

}  // namespace rig::gen
