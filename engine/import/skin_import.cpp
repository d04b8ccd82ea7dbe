// Skins: joints, inverse bind matrices (identity when absent, as the spec says), each joint's
// nearest joint ancestor and a parents-first joint order; then the check that no skinned vertex
// indexes past its skin's joint list (which would read outside the joint matrix palette).
#include <algorithm>
#include <cmath>

#include "import/import_context.h"

namespace rig::import {

bool import_skins(ImportContext& context, std::string& error) {
  const auto& skins = context.document.skins;
  const size_t node_count = context.model.nodes.size();
  context.model.skins.resize(skins.size());
  std::vector<int> node_to_joint(node_count, -1);
  for (size_t s = 0; s < skins.size(); ++s) {
    const tinygltf::Skin& source = skins[s];
    Skin& skin = context.model.skins[s];
    const std::string at = "skin " + std::to_string(s);
    skin.name = source.name;
    skin.joints = source.joints;
    std::fill(node_to_joint.begin(), node_to_joint.end(), -1);
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const int node = skin.joints[j];
      if (node < 0 || static_cast<size_t>(node) >= node_count) {
        error = at + " joint " + std::to_string(j) + " is node " + std::to_string(node) +
                does_not_exist(node_count, " nodes");
        return false;
      }
      if (node_to_joint[static_cast<size_t>(node)] >= 0) {
        error = at + " lists node " + std::to_string(node) + " twice (joints " +
                std::to_string(node_to_joint[static_cast<size_t>(node)]) + " and " +
                std::to_string(j) + ")";
        return false;
      }
      node_to_joint[static_cast<size_t>(node)] = static_cast<int>(j);
    }

    skin.inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));
    if (source.inverseBindMatrices >= 0) {
      std::vector<float> matrices;
      if (!context.reader.read_floats(source.inverseBindMatrices, ElementType::Mat4, kFloat,
                                      matrices, error)) {
        error = at + " inverseBindMatrices: " + error;
        return false;
      }
      if (matrices.size() / 16 < skin.joints.size()) {
        error = at + " has " + std::to_string(skin.joints.size()) + " joints but only " +
                std::to_string(matrices.size() / 16) + " inverse bind matrices";
        return false;
      }
      for (size_t j = 0; j < skin.joints.size(); ++j) {
        for (int k = 0; k < 16; ++k) {
          const float value = matrices[j * 16 + static_cast<size_t>(k)];
          if (!std::isfinite(value)) {
            error = at + " inverse bind matrix " + std::to_string(j) + " is not finite";
            return false;
          }
          skin.inverse_bind[j][k / 4][k % 4] = value;  // glTF matrices are column-major
        }
      }
    }

    skin.joint_parent.assign(skin.joints.size(), -1);
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      // The hierarchy is already known to be a forest, so this walk ends.
      for (int n = context.model.nodes[static_cast<size_t>(skin.joints[j])].parent; n >= 0;
           n = context.model.nodes[static_cast<size_t>(n)].parent) {
        if (node_to_joint[static_cast<size_t>(n)] >= 0) {
          skin.joint_parent[j] = node_to_joint[static_cast<size_t>(n)];
          break;
        }
      }
    }
    // node_order lists parents first, so its restriction to this skin's joints does too.
    skin.order.clear();
    for (int node : context.model.node_order) {
      if (node_to_joint[static_cast<size_t>(node)] >= 0) {
        skin.order.push_back(node_to_joint[static_cast<size_t>(node)]);
      }
    }
  }
  return true;
}

bool check_skinned_joint_ranges(ImportContext& context, std::string& error) {
  const Model& model = context.model;
  // Highest joint index per primitive, computed once: many nodes may share a mesh.
  std::vector<std::vector<int>> highest(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    for (const Primitive& primitive : model.meshes[m].primitives) {
      int top = -1;
      for (uint16_t joint : primitive.joints) top = std::max(top, static_cast<int>(joint));
      highest[m].push_back(top);
    }
  }
  for (const Node& node : model.nodes) {
    if (node.mesh < 0 || node.skin < 0) continue;
    const size_t joint_count = model.skins[static_cast<size_t>(node.skin)].joints.size();
    const Mesh& mesh = model.meshes[static_cast<size_t>(node.mesh)];
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& primitive = mesh.primitives[p];
      if (!primitive.skinned() ||
          highest[static_cast<size_t>(node.mesh)][p] < static_cast<int>(joint_count)) {
        continue;
      }
      for (size_t i = 0; i < primitive.joints.size(); ++i) {
        if (primitive.joints[i] < joint_count) continue;
        const size_t set = (i % primitive.influences) / 4;
        error = "mesh " + std::to_string(node.mesh) + " primitive " + std::to_string(p) +
                ": JOINTS_" + std::to_string(set) + " vertex " +
                std::to_string(i / primitive.influences) + " uses joint " +
                std::to_string(primitive.joints[i]) + " but skin " + std::to_string(node.skin) +
                " has " + std::to_string(joint_count) + " joints";
        return false;
      }
    }
  }
  return true;
}

}  // namespace rig::import
