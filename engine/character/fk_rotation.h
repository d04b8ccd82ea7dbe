// Joint rotations given as angles about the joint's own local axes, as a rig workbench turns a
// joint: q_A(θ) = (cos(θ/2), sin(θ/2)·A) for the local axis A, and the product
// q_X(rx)·q_Y(ry)·q_Z(rz) that --pose-joint applies as a Delta FK edit (character/fk_edit.h:
// the local rotation becomes q_clip·q_X·q_Y·q_Z). The range-of-motion sweep turns a joint through
// the same function, so a sweep step and a --pose-joint of the same angle are the same bits.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <numbers>

namespace rig {

// q_X(degrees.x)·q_Y(degrees.y)·q_Z(degrees.z), computed in double and rounded once to float.
inline glm::quat local_xyz_rotation(glm::vec3 degrees) {
  glm::dquat product(1.0, 0.0, 0.0, 0.0);
  for (int axis = 0; axis < 3; ++axis) {
    const double half = double(degrees[axis]) * std::numbers::pi / 360.0;
    glm::dvec3 v(0.0);
    v[axis] = std::sin(half);
    product = product * glm::dquat(std::cos(half), v.x, v.y, v.z);
  }
  return glm::quat(product);
}

// q_A(degrees) about local axis `axis` (0 x, 1 y, 2 z): the one-axis form of the above.
inline glm::quat local_axis_rotation(int axis, float degrees) {
  glm::vec3 angles(0.0f);
  angles[axis] = degrees;
  return local_xyz_rotation(angles);
}

}  // namespace rig
