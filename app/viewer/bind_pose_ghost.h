// The bind-pose ghost: the skeleton the inverse bind matrices imply (B_j = IBM_j⁻¹, where each
// joint stood when the mesh was bound) beside the node rest pose, and the joints where the two
// differ. A correct file whose rest pose is its bind pose shows one skeleton; the classic bugs
// the rig doctor names (no IBMs, translation-only IBMs, IBMs of another joint order) show a
// ghost that stands elsewhere. No ImGui: the Joint tab draws it (viewer/joint_panel.cpp).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"

namespace rigview {

struct BindPoseJoint {
  int skin = 0, joint = 0, node = 0;
  int parent_joint = -1;  // the skin's joint_parent: the ghost's bone goes there
  glm::vec3 bind{0.0f};   // B_j's origin (world)
  glm::vec3 rest{0.0f};   // the node's rest-pose world origin
  float distance = 0.0f;  // |bind − rest|, world units
  float angle_deg =
      0.0f;  // rotation between B_j's and the rest world matrix's axes (scale removed)
};

// Every joint of every skin, with its inverse bind matrix from `layer` (the edited ones).
std::vector<BindPoseJoint> bind_pose_joints(const rig::Model& model, const rig::SkinLayer& layer);

// Whether a joint's bind and rest differ: more than `distance_tolerance` (world units) apart or
// turned more than `angle_tolerance_deg`.
inline bool bind_differs(const BindPoseJoint& j, float distance_tolerance,
                         float angle_tolerance_deg) {
  return j.distance > distance_tolerance || j.angle_deg > angle_tolerance_deg;
}

// The joints, cached per skin layer and its inverse-bind revision (recomputed only when either
// changes, so the Joint tab allocates nothing per frame).
struct BindPoseGhost {
  const rig::SkinLayer* layer = nullptr;
  uint64_t revision = 0;
  std::vector<BindPoseJoint> joints;
  void refresh(const rig::Model& model, const rig::SkinLayer& l) {
    if (&l == layer && l.inverse_bind_revision() == revision && !joints.empty()) return;
    layer = &l;
    revision = l.inverse_bind_revision();
    joints = bind_pose_joints(model, l);
  }
};

}  // namespace rigview
