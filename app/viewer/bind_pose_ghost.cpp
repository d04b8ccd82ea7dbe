#include "viewer/bind_pose_ghost.h"

#include <algorithm>
#include <cmath>

#include "render/camera.h"

namespace rigview {

namespace {

// The rotation part of an affine matrix: its 3×3 with each column normalized (scale removed).
glm::mat3 rotation_part(const glm::mat4& m) {
  glm::mat3 r(m);
  for (int c = 0; c < 3; ++c) {
    const float len = glm::length(r[c]);
    if (len > 0.0f) r[c] /= len;
  }
  return r;
}

// The angle (degrees) of the rotation taking a's axes to b's: acos((trace(aᵀ b) − 1) / 2).
float angle_between(const glm::mat3& a, const glm::mat3& b) {
  const glm::mat3 d = glm::transpose(a) * b;
  const float c = std::clamp((d[0][0] + d[1][1] + d[2][2] - 1.0f) * 0.5f, -1.0f, 1.0f);
  return glm::degrees(std::acos(c));
}

}  // namespace

std::vector<BindPoseJoint> bind_pose_joints(const rig::Model& model, const rig::SkinLayer& layer) {
  std::vector<BindPoseJoint> out;
  const std::vector<glm::mat4> rest = rig::render::rest_world_matrices(model);
  for (size_t s = 0; s < model.skins.size() && s < layer.skin_count(); ++s) {
    const rig::Skin& skin = model.skins[s];
    const std::span<const glm::mat4> ibm = layer.inverse_bind(s);
    for (size_t j = 0; j < skin.joints.size() && j < ibm.size(); ++j) {
      const int node = skin.joints[j];
      if (node < 0 || size_t(node) >= rest.size()) continue;
      BindPoseJoint b;
      b.skin = int(s), b.joint = int(j), b.node = node;
      b.parent_joint = j < skin.joint_parent.size() ? skin.joint_parent[j] : -1;
      const glm::mat4 bind = glm::inverse(ibm[j]);
      b.bind = glm::vec3(bind[3]);
      b.rest = glm::vec3(rest[size_t(node)][3]);
      b.distance = glm::length(b.bind - b.rest);
      b.angle_deg = angle_between(rotation_part(rest[size_t(node)]), rotation_part(bind));
      out.push_back(b);
    }
  }
  return out;
}

}  // namespace rigview
