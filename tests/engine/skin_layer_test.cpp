// The editable skin layer: what an edit changes, what it refuses, and the log of edited vertex
// ranges that the renderer uploads from.
#include "skin/skin_layer.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "character/character.h"

namespace rig {
namespace {

// One mesh, two primitives: a skinned one with 4 slots per vertex over 3 vertices, and a rigid
// one; one skin of two joints with distinct inverse bind matrices.
Model two_primitive_model() {
  Model m;
  m.nodes.resize(3);
  m.nodes[0].mesh = 0;
  m.nodes[0].skin = 0;
  m.nodes[1].name = "a";
  m.nodes[2].name = "b";
  m.nodes[2].parent = 1;
  m.nodes[1].children = {2};
  m.nodes[2].rest.translation = glm::vec3(0.0f, 1.0f, 0.0f);
  m.node_order = {0, 1, 2};
  m.scene_roots = {0, 1};
  Primitive skinned;
  skinned.positions = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
  skinned.normals.assign(3, glm::vec3(0.0f, 0.0f, 1.0f));
  skinned.influences = 4;
  skinned.joints = {0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  skinned.weights = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  Primitive rigid;
  rigid.positions = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
  rigid.normals.assign(3, glm::vec3(0.0f, 0.0f, 1.0f));
  Mesh mesh;
  mesh.primitives = {skinned, rigid};
  m.meshes.push_back(mesh);
  Skin skin;
  skin.joints = {1, 2};
  skin.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  skin.inverse_bind[1][3] = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
  skin.joint_parent = {-1, 0};
  skin.order = {0, 1};
  m.skins.push_back(skin);
  m.draws.push_back({0, 0, 0, 0});
  m.draws.push_back({0, 0, 1, -1});
  return m;
}

std::vector<SkinEditRange> edits_since(const SkinLayer& layer, uint64_t since, bool& answered) {
  std::vector<SkinEditRange> out;
  answered = layer.for_each_edit_since(since, [&](const SkinEditRange& r) { out.push_back(r); });
  return out;
}

TEST(SkinLayer, StartsAsTheModelsInfluencesAndInverseBindMatrices) {
  const Model m = two_primitive_model();
  const SkinLayer layer(m);
  ASSERT_EQ(layer.meshes().primitives.size(), 2u);
  EXPECT_EQ(layer.meshes().primitives[0].influences, 4u);
  EXPECT_EQ(layer.meshes().primitives[0].weights, m.meshes[0].primitives[0].weights);
  EXPECT_FALSE(layer.meshes().primitives[1].skinned());
  ASSERT_EQ(layer.skin_count(), 1u);
  EXPECT_EQ(layer.inverse_bind(0)[1], m.skins[0].inverse_bind[1]);
  EXPECT_EQ(layer.weights_revision(), 0u);
}

TEST(SkinLayer, AnEditWritesThePairsPadsTheRestAndLogsOneVertex) {
  const Model m = two_primitive_model();
  SkinLayer layer(m);
  const uint64_t start = layer.revision();
  std::string error;
  const uint16_t joints[] = {1};
  const float weights[] = {0.75f};  // stored as given: normalizing is the caller's choice
  ASSERT_TRUE(layer.set_influences(0, 0, joints, weights, error)) << error;
  const SkinMesh& mesh = layer.meshes().primitives[0];
  EXPECT_EQ(std::vector<uint16_t>(mesh.vertex_joints(0).begin(), mesh.vertex_joints(0).end()),
            (std::vector<uint16_t>{1, 0, 0, 0}));
  EXPECT_EQ(std::vector<float>(mesh.vertex_weights(0).begin(), mesh.vertex_weights(0).end()),
            (std::vector<float>{0.75f, 0, 0, 0}));
  EXPECT_EQ(mesh.vertex_weights(1)[0], 1.0f);  // the next vertex is untouched
  EXPECT_GT(layer.revision(), start);
  EXPECT_EQ(layer.weights_revision(), layer.revision());
  bool answered = false;
  const std::vector<SkinEditRange> log = edits_since(layer, start, answered);
  ASSERT_TRUE(answered);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].primitive, 0u);
  EXPECT_EQ(log[0].begin, 0u);
  EXPECT_EQ(log[0].end, 1u);
  // A consumer already at the new revision has nothing to do.
  EXPECT_TRUE(edits_since(layer, layer.revision(), answered).empty());
  EXPECT_TRUE(answered);
}

TEST(SkinLayer, FiveOrMorePairsWidenThePrimitiveToEightSlots) {
  const Model m = two_primitive_model();
  SkinLayer layer(m);
  const uint64_t start = layer.revision();
  std::string error;
  const uint16_t joints[] = {0, 1, 0, 1, 0};
  const float weights[] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
  ASSERT_TRUE(layer.set_influences(0, 2, joints, weights, error)) << error;
  const SkinMesh& mesh = layer.meshes().primitives[0];
  EXPECT_EQ(mesh.influences, 8u);
  EXPECT_EQ(mesh.weights.size(), 3u * 8u);
  // The other vertices keep their pairs in their first four slots.
  EXPECT_EQ(mesh.vertex_weights(0)[0], 0.5f);
  EXPECT_EQ(mesh.vertex_joints(0)[1], 1u);
  EXPECT_EQ(mesh.vertex_weights(0)[4], 0.0f);
  EXPECT_EQ(mesh.vertex_weights(2)[4], 0.2f);
  bool answered = false;
  const std::vector<SkinEditRange> log = edits_since(layer, start, answered);
  ASSERT_EQ(log.size(), 1u);  // every vertex moved in the buffer: the whole primitive
  EXPECT_EQ(log[0].begin, 0u);
  EXPECT_EQ(log[0].end, 3u);
}

// Undo needs the whole primitive back bit for bit, its slot count too: widened to 8 by an edit,
// restored to the 4 slots and the values copied here before the edit.
TEST(SkinLayer, RestoreInfluencesPutsAPrimitiveBackBitForBit) {
  const Model m = two_primitive_model();
  SkinLayer layer(m);
  const std::vector<uint16_t> joints = layer.meshes().primitives[0].joints;
  const std::vector<float> weights = layer.meshes().primitives[0].weights;
  ASSERT_EQ(joints.size(), 12u);
  std::string error;
  const uint16_t five[] = {0, 1, 0, 1, 0};
  const float fifths[] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
  ASSERT_TRUE(layer.set_influences(0, 1, five, fifths, error)) << error;
  ASSERT_EQ(layer.meshes().primitives[0].influences, 8u);
  const uint64_t before = layer.revision();
  ASSERT_TRUE(layer.restore_influences(0, 4, joints, weights, error)) << error;
  const SkinMesh& mesh = layer.meshes().primitives[0];
  EXPECT_EQ(mesh.influences, 4u);
  EXPECT_EQ(mesh.joints, joints);
  EXPECT_EQ(mesh.weights, weights);
  EXPECT_GT(layer.weights_revision(), before);
  bool answered = false;
  const std::vector<SkinEditRange> log = edits_since(layer, before, answered);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].end, 3u);
  // Refused: sizes that are not slots × vertices, a slot count of 3, a negative weight.
  const std::vector<uint16_t> short_joints(11, 0);
  const std::vector<float> short_weights(11, 0.0f);
  EXPECT_FALSE(layer.restore_influences(0, 4, short_joints, short_weights, error));
  const std::vector<uint16_t> nine(9, 0);
  const std::vector<float> nine_w(9, 0.1f);
  EXPECT_FALSE(layer.restore_influences(0, 3, nine, nine_w, error));
  std::vector<float> negative = weights;
  negative[0] = -0.5f;
  EXPECT_FALSE(layer.restore_influences(0, 4, joints, negative, error));
  EXPECT_FALSE(layer.restore_influences(7, 4, joints, weights, error));
  EXPECT_EQ(layer.meshes().primitives[0].weights, weights);
}

TEST(SkinLayer, RefusedEditsChangeNothing) {
  const Model m = two_primitive_model();
  SkinLayer layer(m);
  const SkinMeshes before = layer.meshes();
  const uint64_t revision = layer.revision();
  std::string error;
  const uint16_t one[] = {0};
  const float fine[] = {1.0f};
  const float negative[] = {-0.1f};
  const float nan[] = {std::numeric_limits<float>::quiet_NaN()};
  const uint16_t nine[9] = {};
  const float nine_w[9] = {};
  EXPECT_FALSE(layer.set_influences(2, 0, one, fine, error));  // no primitive 2
  EXPECT_FALSE(layer.set_influences(1, 0, one, fine, error));  // the rigid primitive
  EXPECT_FALSE(layer.set_influences(0, 3, one, fine, error));  // no vertex 3
  EXPECT_FALSE(layer.set_influences(0, 0, one, negative, error));
  EXPECT_FALSE(layer.set_influences(0, 0, one, nan, error));
  EXPECT_FALSE(layer.set_influences(0, 0, nine, nine_w, error));  // over kMaxInfluences
  EXPECT_FALSE(layer.set_influences(0, 0, one, std::span<const float>(), error));  // 1 vs 0
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(layer.set_inverse_bind(0, 2, glm::mat4(1.0f), error));
  EXPECT_FALSE(layer.set_inverse_bind(1, 0, glm::mat4(1.0f), error));
  EXPECT_EQ(layer.revision(), revision);
  EXPECT_EQ(layer.meshes().primitives[0].weights, before.primitives[0].weights);
}

// two_primitive_model with its skinned primitive widened to `n` vertices (copies of the first).
Model wide_model(uint32_t n) {
  Model m = two_primitive_model();
  Primitive& p = m.meshes[0].primitives[0];
  p.positions.assign(n, p.positions[0]);
  p.normals.assign(n, p.normals[0]);
  const std::vector<uint16_t> joints(p.joints.begin(), p.joints.begin() + 4);
  const std::vector<float> weights(p.weights.begin(), p.weights.begin() + 4);
  p.joints.clear(), p.weights.clear();
  for (uint32_t v = 0; v < n; ++v) {
    p.joints.insert(p.joints.end(), joints.begin(), joints.end());
    p.weights.insert(p.weights.end(), weights.begin(), weights.end());
  }
  return m;
}

TEST(SkinLayer, ALogThatNoLongerReachesBackAsksForEverything) {
  const Model m = wide_model(2000);
  SkinLayer layer(m);
  const uint64_t start = layer.revision();
  std::string error;
  const uint16_t joints[] = {0};
  const float weights[] = {1.0f};
  // Vertices 0 and 1000 in turn: too far apart to share a range, one entry each.
  for (int i = 0; i < 64; ++i)
    ASSERT_TRUE(layer.set_influences(0, (i % 2) * 1000, joints, weights, error));
  bool answered = false;
  EXPECT_EQ(edits_since(layer, start, answered).size(), 64u);
  EXPECT_TRUE(answered);  // 64 entries: still all kept
  const uint64_t after_first = start + 1;
  ASSERT_TRUE(layer.set_influences(0, 0, joints, weights, error));
  (void)edits_since(layer, start, answered);
  EXPECT_FALSE(answered);  // the first edit is forgotten: a consumer at `start` missed it
  EXPECT_EQ(edits_since(layer, after_first, answered).size(), 64u);
  EXPECT_TRUE(answered);
  EXPECT_FALSE(layer.for_each_edit_since(0, [](const SkinEditRange&) {}));  // never synced
}

// Edits within 256 vertices of the last one's range widen it (a brush dab's hundreds of vertices
// stay a few ranges): a consumer that synced in between gets the union, one that synced after the
// widened entry's last edit does not get it.
TEST(SkinLayer, NearbyEditsShareOneWidenedRange) {
  const Model m = wide_model(2000);
  SkinLayer layer(m);
  const uint64_t start = layer.revision();
  std::string error;
  const uint16_t joints[] = {0};
  const float weights[] = {1.0f};
  for (uint32_t v : {10u, 12u, 200u, 600u, 11u})
    ASSERT_TRUE(layer.set_influences(0, v, joints, weights, error));
  bool answered = false;
  const std::vector<SkinEditRange> all = edits_since(layer, start, answered);
  EXPECT_TRUE(answered);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].begin, 10u);  // 10, 12 and 200 (within 256 of [10, 13))
  EXPECT_EQ(all[0].end, 201u);
  EXPECT_EQ(all[1].begin, 600u);  // 387 past 201: an entry of its own
  EXPECT_EQ(all[1].end, 601u);
  EXPECT_EQ(all[2].begin, 11u);  // [600, 601) is 589 past 12: no widening to [11, 601)
  EXPECT_EQ(all[2].end, 12u);
  // Synced after the edit of vertex 10: the union [10, 201) still comes (12 and 200 came after).
  EXPECT_EQ(edits_since(layer, start + 1, answered).size(), 3u);
  // Synced after the edit of vertex 200: only 600 and 11.
  const std::vector<SkinEditRange> late = edits_since(layer, start + 3, answered);
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0].begin, 600u);
  EXPECT_EQ(late[1].begin, 11u);
}

// The character skins with the layer: an inverse bind edit moves its skinning matrices at the
// next evaluate (world × the new matrix, computed by hand).
TEST(SkinLayer, TheCharacterSkinsWithTheLayersInverseBindMatrices) {
  const Model m = two_primitive_model();
  auto layer = std::make_shared<SkinLayer>(m);
  Character character(m, layer);
  character.evaluate(PoseSelection{});
  // Joint 1 (node 2) rests at (0, 1, 0) and its matrix undoes that: the identity.
  EXPECT_EQ(character.skinning_matrices(0)[1], glm::mat4(1.0f));
  glm::mat4 ibm(1.0f);
  ibm[3] = glm::vec4(0.5f, -1.0f, 0.0f, 1.0f);
  std::string error;
  ASSERT_TRUE(layer->set_inverse_bind(0, 1, ibm, error)) << error;
  EXPECT_EQ(layer->inverse_bind_revision(), layer->revision());
  character.evaluate(PoseSelection{});
  glm::mat4 expected(1.0f);
  expected[3] = glm::vec4(0.5f, 0.0f, 0.0f, 1.0f);
  EXPECT_EQ(character.skinning_matrices(0)[1], expected);
  EXPECT_EQ(m.skins[0].inverse_bind[1][3], glm::vec4(0.0f, -1.0f, 0.0f, 1.0f));  // model intact
}

TEST(SkinLayer, CentresOfRotationAreTakenWhenTheyFitAndDroppedByAnEdit) {
  const Model m = two_primitive_model();
  SkinLayer layer(m);
  SkinMeshes computed = layer.meshes();
  computed.primitives[0].rotation_centers.assign(3, glm::vec3(0.25f));
  ASSERT_TRUE(layer.set_rotation_centers(computed));
  EXPECT_EQ(layer.rotation_centers_revision(), layer.revision());
  EXPECT_EQ(layer.meshes().primitives[0].rotation_centers.size(), 3u);
  SkinMeshes wrong = computed;
  wrong.primitives[0].rotation_centers.assign(2, glm::vec3(0.0f));
  EXPECT_FALSE(layer.set_rotation_centers(wrong));
  std::string error;
  const uint16_t joints[] = {0};
  const float weights[] = {1.0f};
  const uint64_t centres = layer.rotation_centers_revision();
  ASSERT_TRUE(layer.set_influences(0, 1, joints, weights, error));
  EXPECT_TRUE(layer.meshes().primitives[0].rotation_centers.empty());
  EXPECT_GT(layer.rotation_centers_revision(), centres);
}

}  // namespace
}  // namespace rig
