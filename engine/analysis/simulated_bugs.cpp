#include "analysis/simulated_bugs.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rig {
namespace {

// TRS plus the shear that TRS cannot hold, as import does for a node `matrix`.
void set_rest_matrix(Node& node, const glm::mat4& matrix) {
  Transform t;
  t.translation = glm::vec3(matrix[3]);
  glm::vec3 columns[3] = {glm::vec3(matrix[0]), glm::vec3(matrix[1]), glm::vec3(matrix[2])};
  glm::vec3 scale(glm::length(columns[0]), glm::length(columns[1]), glm::length(columns[2]));
  if (glm::determinant(glm::mat3(matrix)) < 0.0f) scale.x = -scale.x;
  t.scale = scale;
  if (scale.x != 0.0f && scale.y != 0.0f && scale.z != 0.0f) {
    t.rotation = glm::normalize(glm::quat_cast(
        glm::mat3(columns[0] / scale.x, columns[1] / scale.y, columns[2] / scale.z)));
  }
  node.rest = t;
  node.from_matrix = true;
  node.shear = glm::inverse(trs_matrix(t)) * matrix;
  node.has_shear = true;
}

void reversed_multiply(Model& model) {
  // Channels per original node, to duplicate onto its copies.
  std::vector<std::vector<std::pair<size_t, size_t>>> channels(model.nodes.size());
  for (size_t c = 0; c < model.clips.size(); ++c) {
    for (size_t k = 0; k < model.clips[c].channels.size(); ++k) {
      const Channel& channel = model.clips[c].channels[k];
      if (channel.path == TargetPath::Weights) continue;
      if (channel.node >= 0 && size_t(channel.node) < channels.size())
        channels[size_t(channel.node)].push_back({c, k});
    }
  }
  const size_t original_nodes = model.nodes.size();
  for (Skin& skin : model.skins) {
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      std::vector<int> chain;  // root first, the joint's node last
      for (int n = skin.joints[j]; n >= 0; n = model.nodes[size_t(n)].parent) chain.push_back(n);
      std::reverse(chain.begin(), chain.end());
      const int root = int(model.nodes.size());
      Node holder;
      holder.name = "ibm_of_" + model.nodes[size_t(skin.joints[j])].name;
      set_rest_matrix(holder, skin.inverse_bind[j]);
      model.nodes.push_back(holder);
      model.scene_roots.push_back(root);
      int parent = root;
      for (int original : chain) {
        // The copy keeps the joint's own name: the rig doctor's findings and the viewer name
        // the joints the user knows (a lookup by name still finds the original first).
        Node copy = model.nodes[size_t(original)];
        copy.parent = parent;
        copy.children.clear();
        copy.mesh = -1;
        copy.skin = -1;
        copy.morph_offset = 0;
        copy.morph_count = 0;
        const int index = int(model.nodes.size());
        model.nodes.push_back(copy);
        model.nodes[size_t(parent)].children.push_back(index);
        for (const auto& [c, k] : channels[size_t(original)]) {
          Channel duplicate = model.clips[c].channels[k];
          duplicate.node = index;
          model.clips[c].channels.push_back(std::move(duplicate));
        }
        parent = index;
      }
      skin.joints[j] = parent;
      skin.inverse_bind[j] = glm::mat4(1.0f);
    }
  }
  // New nodes were appended parents first.
  for (size_t n = original_nodes; n < model.nodes.size(); ++n) model.node_order.push_back(int(n));
  // Each joint now sits in its own chain: no joint has a joint ancestor.
  for (Skin& skin : model.skins) {
    skin.joint_parent.assign(skin.joints.size(), -1);
    skin.order.resize(skin.joints.size());
    for (size_t j = 0; j < skin.joints.size(); ++j) skin.order[j] = int(j);
  }
}

void shifted_joints(Model& model) {
  std::vector<std::vector<bool>> done(model.meshes.size());
  for (size_t m = 0; m < model.meshes.size(); ++m)
    done[m].assign(model.meshes[m].primitives.size(), false);
  for (const DrawItem& item : model.draws) {
    if (item.skin < 0) continue;
    if (done[size_t(item.mesh)][size_t(item.primitive)]) continue;
    done[size_t(item.mesh)][size_t(item.primitive)] = true;
    const size_t n = model.skins[size_t(item.skin)].joints.size();
    if (n == 0) continue;
    Primitive& p = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    for (uint16_t& joint : p.joints) joint = uint16_t((size_t(joint) + 1) % n);
  }
}

}  // namespace

const char* simulated_bug_name(SimulatedBug bug) {
  switch (bug) {
    case SimulatedBug::NoIbm:
      return "no-ibm";
    case SimulatedBug::TranslationOnlyIbm:
      return "translation-only-ibm";
    case SimulatedBug::ReversedMultiply:
      return "reversed-multiply";
    case SimulatedBug::ShiftedJoints:
      return "shifted-joints";
  }
  return "";
}

std::optional<SimulatedBug> find_simulated_bug(std::string_view name) {
  for (SimulatedBug bug : kSimulatedBugs) {
    if (name == simulated_bug_name(bug)) return bug;
  }
  return std::nullopt;
}

void simulate_bug(Model& model, SimulatedBug bug) {
  switch (bug) {
    case SimulatedBug::NoIbm:
      for (Skin& skin : model.skins) {
        std::fill(skin.inverse_bind.begin(), skin.inverse_bind.end(), glm::mat4(1.0f));
      }
      break;
    case SimulatedBug::TranslationOnlyIbm:
      for (Skin& skin : model.skins) {
        for (glm::mat4& ibm : skin.inverse_bind) {
          const glm::vec3 t(glm::inverse(ibm)[3]);
          ibm = glm::mat4(1.0f);
          ibm[3] = glm::vec4(-t, 1.0f);
        }
      }
      break;
    case SimulatedBug::ReversedMultiply:
      reversed_multiply(model);
      break;
    case SimulatedBug::ShiftedJoints:
      shifted_joints(model);
      break;
  }
  model.warnings.push_back({"SIMULATED_BUG",
                            std::string("simulated bug '") + simulated_bug_name(bug) +
                                "' applied to every skin (teaching aid, not the file)",
                            model.skins.size()});
}

}  // namespace rig
