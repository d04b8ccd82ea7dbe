// Per-frame evaluation of a model: pose selection → world matrices → per-skin palettes
// (matrices and dual quaternions) → CPU-skinned world-space geometry on request.
// All buffers are sized once in `Animator(model)`; evaluate() allocates nothing.
#pragma once

#include <span>
#include <vector>

#include "anim/dual_quat.h"
#include "anim/pose.h"
#include "model/model.h"
#include "skin/cpu_skinning.h"

namespace rig {

// Which pose to show. clip < 0 (or a model without clips) is the rest pose.
struct PoseSelection {
  int clip = -1;
  float time = 0.0f;    // seconds on the file's timeline (clamped by sampling)
  int blend_clip = -1;  // crossfade target, -1 for none
  float blend_time = 0.0f;
  float blend_weight = 0.0f;  // 0 = clip, 1 = blend_clip
};

class Animator {
 public:
  explicit Animator(const Model& model);

  // Sample, blend, local→world, skinning matrices and dual quaternions for every skin.
  void evaluate(const PoseSelection& selection);

  const Model& model() const { return *model_; }
  const Pose& pose() const { return pose_; }
  std::span<const glm::mat4> world() const { return world_; }
  // Skinning matrices (world × inverse bind) of skin `s`, in the skin's joint order.
  std::span<const glm::mat4> skinning_matrices(int s) const;
  std::span<const JointDualQuat> joint_dual_quats(int s) const;
  // Morph weights of node `node` under the current pose (empty without targets).
  std::span<const float> morph_weights(int node) const;

  // World-space positions and normals of one draw item under the current pose, skinned on the
  // CPU with `method` (rigid items use their node's world matrix). out spans sized
  // prim.vertex_count(). Normals come back unit length.
  void skin_draw_item(const DrawItem& item, SkinningMethod method,
                      std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) const;

 private:
  const Model* model_;
  Pose pose_, blend_pose_;
  std::vector<glm::mat4> world_;
  std::vector<glm::mat4> palette_;         // all skins, flat
  std::vector<JointDualQuat> dual_quats_;  // all skins, flat
  std::vector<uint32_t> skin_offset_;      // first palette entry of each skin
};

}  // namespace rig
