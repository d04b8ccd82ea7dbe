// A hand edit of one joint's local transform (forward kinematics): what a rig workbench sets by
// dragging a joint, applied by the pose builder after the layers and before the root-motion
// placement and the constraints (character/pose_builder.h has the whole order).
//
//   Override  the joint's local transform becomes `transform` (translation, rotation, scale).
//   Delta     `transform` is added in the joint's own frame: t + Δt, r · Δr (renormalized),
//             s ⊙ Δs (per component), so the identity transform changes nothing.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "model/model.h"

namespace rig {

enum class FkEditMode : uint8_t { Override, Delta };

struct FkEdit {
  int node = -1;  // glTF node index
  FkEditMode mode = FkEditMode::Delta;
  Transform transform;  // identity by default
};

inline Transform apply_fk_edit(const FkEdit& edit, const Transform& local) {
  if (edit.mode == FkEditMode::Override) return edit.transform;
  Transform out;
  out.translation = local.translation + edit.transform.translation;
  out.rotation = glm::normalize(local.rotation * edit.transform.rotation);
  out.scale = local.scale * edit.transform.scale;
  return out;
}

}  // namespace rig
