#include "learn_pose.h"

#include <glm/gtc/quaternion.hpp>

#include "anim/joint_mask.h"
#include "skin/pitfalls.h"
#include "skin/skin_mesh.h"

namespace rigview {

bool find_twist_arm(const rig::Model& model, const char* flag, TwistArmJoints& out,
                    std::string& error) {
  out.root = rig::find_node(model, "ArmRoot");
  out.twist = rig::find_node(model, "ArmTwist");
  if (out.root < 0 || out.twist < 0 || model.nodes[size_t(out.twist)].parent != out.root)
    return error = std::string(flag) +
                   " needs the twist arm's joints ArmRoot and ArmTwist (assets/twist_arm.glb)",
           false;
  return true;
}

glm::quat twist_arm_rotation(const glm::quat& rest, float twist_radians, float bend_radians) {
  return glm::normalize(rest * glm::angleAxis(bend_radians, glm::vec3(0.0f, 0.0f, 1.0f)) *
                        glm::angleAxis(twist_radians, glm::vec3(1.0f, 0.0f, 0.0f)));
}

bool learn_fk_edits(const Options& options, const rig::Model& model, std::vector<rig::FkEdit>& out,
                    std::string& error) {
  if (!options.twist_demo && !options.bend_demo) return true;
  TwistArmJoints arm;
  if (!find_twist_arm(model, options.twist_demo ? "--twist-demo" : "--bend-demo", arm, error))
    return false;
  const float twist = glm::radians(options.twist_demo.value_or(0.0f));
  const float bend = glm::radians(options.bend_demo.value_or(0.0f));
  rig::FkEdit edit;
  edit.node = arm.twist;
  edit.mode = rig::FkEditMode::Override;
  edit.transform = model.nodes[size_t(arm.twist)].rest;
  edit.transform.rotation = twist_arm_rotation(edit.transform.rotation, twist, bend);
  out.push_back(edit);
  return true;
}

std::shared_ptr<rig::SkinLayer> pitfall_skin_layer(const Options& options,
                                                   const rig::Model& model) {
  if (!options.pitfalls.has(rig::Pitfall::RawWeights) &&
      !options.pitfalls.has(rig::Pitfall::FourInfluences))
    return nullptr;
  return pitfall_skin_layer(options.pitfalls, model, rig::prepare_skin_meshes(model));
}

std::shared_ptr<rig::SkinLayer> pitfall_skin_layer(rig::Pitfalls pitfalls, const rig::Model& model,
                                                   rig::SkinMeshes meshes) {
  const bool raw = pitfalls.has(rig::Pitfall::RawWeights);
  const bool four = pitfalls.has(rig::Pitfall::FourInfluences);
  size_t index = 0;
  for (const rig::Mesh& mesh : model.meshes)
    for (const rig::Primitive& prim : mesh.primitives) {
      rig::SkinMesh& skin = meshes.primitives[index++];
      if (!skin.skinned()) continue;
      if (raw && prim.weight_sums.size() == skin.vertex_count)
        skin.raw_weight_sums = prim.weight_sums;
      if (four)
        for (uint32_t v = 0; v < skin.vertex_count; ++v)
          rig::keep_largest_weights(
              std::span<float>(skin.weights.data() + size_t(v) * skin.influences, skin.influences),
              4);
    }
  return std::make_shared<rig::SkinLayer>(model, std::move(meshes));
}

}  // namespace rigview
