// Small models for the weight-editing tests: one skinned mesh (one primitive, given positions,
// triangles and per-vertex influences) drawn with one skin over named root-or-child joints.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/model.h"

namespace rig::test {

struct TestJoint {
  std::string name;
  int parent = -1;  // index in the joint list, -1: a root
  glm::vec3 translation{0.0f};
};

using TestInfluences = std::vector<std::pair<uint16_t, float>>;

// Node 0 draws mesh 0 with skin 0; joint j is node j + 1. Inverse bind matrices: the inverse of
// each joint's rest world matrix (translations only). `slots`: influences per vertex (4 or 8).
inline Model weight_test_model(const std::vector<glm::vec3>& positions,
                               const std::vector<uint32_t>& indices,
                               const std::vector<TestInfluences>& influences,
                               const std::vector<TestJoint>& joints, uint32_t slots = 4) {
  Model m;
  m.nodes.resize(joints.size() + 1);
  m.nodes[0].name = "Body";
  m.nodes[0].mesh = 0;
  m.nodes[0].skin = 0;
  m.scene_roots = {0};
  Skin skin;
  std::vector<glm::vec3> world(joints.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    Node& n = m.nodes[j + 1];
    n.name = joints[j].name;
    n.rest.translation = joints[j].translation;
    world[j] = joints[j].translation;
    if (joints[j].parent >= 0) {
      n.parent = joints[j].parent + 1;
      m.nodes[size_t(n.parent)].children.push_back(int(j + 1));
      world[j] += world[size_t(joints[j].parent)];
    } else {
      m.scene_roots.push_back(int(j + 1));
    }
    skin.joints.push_back(int(j + 1));
    glm::mat4 ibm(1.0f);
    ibm[3] = glm::vec4(-world[j], 1.0f);
    skin.inverse_bind.push_back(ibm);
    skin.joint_parent.push_back(joints[j].parent);
  }
  // Parents come first in the joint list of every test.
  for (size_t n = 0; n < m.nodes.size(); ++n) m.node_order.push_back(int(n));
  for (size_t j = 0; j < joints.size(); ++j) skin.order.push_back(int(j));
  m.skins.push_back(skin);
  Primitive p;
  p.positions = positions;
  p.normals.assign(positions.size(), glm::vec3(0.0f, 0.0f, 1.0f));
  p.indices = indices;
  p.influences = slots;
  p.joints.assign(positions.size() * slots, 0);
  p.weights.assign(positions.size() * slots, 0.0f);
  for (size_t v = 0; v < influences.size() && v < positions.size(); ++v)
    for (size_t k = 0; k < influences[v].size() && k < slots; ++k) {
      p.joints[v * slots + k] = influences[v][k].first;
      p.weights[v * slots + k] = influences[v][k].second;
    }
  Mesh mesh;
  mesh.name = "Body";
  mesh.primitives.push_back(p);
  m.meshes.push_back(mesh);
  m.draws.push_back({0, 0, 0, 0});
  return m;
}

// Vertex v's (joint, weight) slots with a non-zero weight, as the layer holds them.
inline TestInfluences layer_influences(const SkinMesh& mesh, uint32_t v) {
  TestInfluences out;
  for (uint32_t s = 0; s < mesh.influences; ++s)
    if (mesh.weights[v * mesh.influences + s] != 0.0f)
      out.emplace_back(mesh.joints[v * mesh.influences + s], mesh.weights[v * mesh.influences + s]);
  return out;
}

}  // namespace rig::test
