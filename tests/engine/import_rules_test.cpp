// Import rules checked on small glTF files written here, against values worked out by hand from
// the glTF 2.0 spec (not against the importer's own output).
#include <gtest/gtest.h>

#include <cmath>

#include "import/gltf_import.h"
#include "import_test_files.h"

namespace {

using rig::test::ByteBuffer;
using rig::test::data_uri;
using rig::test::fill_in;
using rig::test::find_warning;
using rig::test::import_error;
using rig::test::import_ok;

// A triangle in the z = 0 plane, counter-clockwise seen from +Z: (0,0,0) (1,0,0) (0,1,0).
size_t put_triangle(ByteBuffer& bin) { return bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0}); }

// One skinned triangle: POSITION at 0, JOINTS_0 (u8) at 36, WEIGHTS_0 at 48 in the given
// format (`weights_length` bytes); skin over nodes 1 and 2 (node 2 is a child of node 1).
// `extra_view` / `extra_accessor` append bufferView 3 / accessor 3 when given.
std::string skinned_triangle_json(int weight_component_type, bool normalized, size_t weights_length,
                                  const std::string& skin = R"({"joints":[1,2]})",
                                  const std::string& extra_view = "",
                                  const std::string& extra_accessor = "") {
  std::string json = R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},
                   {"buffer":0,"byteOffset":36,"byteLength":12},
                   {"buffer":0,"byteOffset":48,"byteLength":{WLEN}}{VIEW}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5121,"count":3,"type":"VEC4"},
                 {"bufferView":2,"componentType":{WTYPE},"normalized":{WNORM},"count":3,"type":"VEC4"}{ACC}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}]}],
    "skins":[{SKIN}],
    "nodes":[{"mesh":0,"skin":0},{"children":[2]},{"translation":[0,1,0]}],
    "scenes":[{"nodes":[0,1]}]})";
  json = fill_in(json, "WLEN", std::to_string(weights_length));
  json = fill_in(json, "WTYPE", std::to_string(weight_component_type));
  json = fill_in(json, "WNORM", normalized ? "true" : "false");
  json = fill_in(json, "VIEW", extra_view.empty() ? "" : "," + extra_view);
  json = fill_in(json, "ACC", extra_accessor.empty() ? "" : "," + extra_accessor);
  return fill_in(json, "SKIN", skin);
}

TEST(ImportRules, MissingInverseBindMatricesAreIdentity) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
  bin.put<float>({1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0});
  const rig::Model model = import_ok("no_ibm", skinned_triangle_json(5126, false, 48), bin);
  ASSERT_EQ(model.skins.size(), 1u);
  ASSERT_EQ(model.skins[0].inverse_bind.size(), 2u);
  for (const glm::mat4& m : model.skins[0].inverse_bind) EXPECT_EQ(m, glm::mat4(1.0f));
  // Node 2 is a child of node 1: joint 1's nearest joint ancestor is joint 0.
  EXPECT_EQ(model.skins[0].joint_parent, (std::vector<int>{-1, 0}));
  EXPECT_EQ(model.skins[0].order, (std::vector<int>{0, 1}));
  ASSERT_EQ(model.draws.size(), 1u);
  EXPECT_EQ(model.draws[0].skin, 0);
}

TEST(ImportRules, InverseBindMatricesAreColumnMajor) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
  bin.put<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
  const size_t ibm = bin.put<float>({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
                                     1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1});
  const std::string json = skinned_triangle_json(
      5126, false, 48, R"({"joints":[1,2],"inverseBindMatrices":3})",
      R"({"buffer":0,"byteOffset":)" + std::to_string(ibm) + R"(,"byteLength":128})",
      R"({"bufferView":3,"componentType":5126,"count":2,"type":"MAT4"})");
  const rig::Model model = import_ok("ibm", json, bin);
  ASSERT_EQ(model.skins[0].inverse_bind.size(), 2u);
  // The 13th..15th floats are the translation column.
  EXPECT_EQ(model.skins[0].inverse_bind[0][3], glm::vec4(0, -1, 0, 1));
  EXPECT_EQ(model.skins[0].inverse_bind[1][3], glm::vec4(0, -2, 0, 1));
}

TEST(ImportRules, NormalizedUnsignedByteWeightsFollowTheSpec) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0});
  bin.put<uint8_t>({255, 0, 0, 0, 128, 127, 0, 0, 100, 50, 0, 0});
  const rig::Model model = import_ok("u8_weights", skinned_triangle_json(5121, true, 12), bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  ASSERT_EQ(p.influences, 4u);
  EXPECT_FLOAT_EQ(p.weights[0], 1.0f);  // 255 / 255
  EXPECT_FLOAT_EQ(p.weights[4], 128.0f / 255.0f);
  EXPECT_FLOAT_EQ(p.weights[5], 127.0f / 255.0f);
  // 100/255 + 50/255 = 150/255 is not 1: renormalized to 2/3, 1/3 and reported.
  EXPECT_FLOAT_EQ(p.weights[8], 2.0f / 3.0f);
  EXPECT_FLOAT_EQ(p.weights[9], 1.0f / 3.0f);
  const rig::ImportWarning* warning = find_warning(model, "WEIGHTS_NOT_NORMALIZED");
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->count, 1u);
}

TEST(ImportRules, NormalizedUnsignedShortWeightsFollowTheSpec) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0});
  bin.put<uint16_t>({65535, 0, 0, 0, 32768, 32767, 0, 0, 0, 0, 0, 0});
  const rig::Model model = import_ok("u16_weights", skinned_triangle_json(5123, true, 24), bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  EXPECT_FLOAT_EQ(p.weights[0], 1.0f);
  EXPECT_FLOAT_EQ(p.weights[4], 32768.0f / 65535.0f);
  EXPECT_FLOAT_EQ(p.weights[5], 32767.0f / 65535.0f);
  // All-zero weights stay zero and are reported; joint 1 with weight 0 is reported too.
  EXPECT_EQ(p.weights[8] + p.weights[9] + p.weights[10] + p.weights[11], 0.0f);
  ASSERT_NE(find_warning(model, "WEIGHTS_ALL_ZERO"), nullptr);
  EXPECT_EQ(find_warning(model, "WEIGHTS_ALL_ZERO")->count, 1u);
  ASSERT_NE(find_warning(model, "JOINTS_ZERO_WEIGHT"), nullptr);
  EXPECT_EQ(find_warning(model, "JOINTS_ZERO_WEIGHT")->count, 1u);
  EXPECT_EQ(find_warning(model, "WEIGHTS_NOT_NORMALIZED"), nullptr);
}

// Sums within the 1e-3 tolerance are not reported, but they are still renormalized, so that
// every consumer (CPU, GPU) sees weights summing to 1: (0.6, 0.4005) / 1.0005.
TEST(ImportRules, SlightlyOffWeightSumsAreRenormalizedWithoutAWarning) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0});
  bin.put<float>({1, 0, 0, 0, 0.6f, 0.4005f, 0, 0, 1, 0, 0, 0});
  const rig::Model model = import_ok("almost_one", skinned_triangle_json(5126, false, 48), bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  EXPECT_NEAR(p.weights[4], 0.6 / 1.0005, 1e-6);
  EXPECT_NEAR(p.weights[5], 0.4005 / 1.0005, 1e-6);
  EXPECT_EQ(find_warning(model, "WEIGHTS_NOT_NORMALIZED"), nullptr);
}

// JOINTS_1/WEIGHTS_1 fill influences 4..7 of each vertex, and the sum that is renormalized
// runs over both sets. Vertex 0: set 0 (0.25 on joint 0, 0.25 on joint 1), set 1 (0.5 on
// joint 1): sums to 1, kept. Vertex 2: 0.1 on joint 0 (set 0) and 0.3 on joint 1 (set 1, second
// slot): sum 0.4 → 0.25 and 0.75, reported once.
TEST(ImportRules, SecondInfluenceSetFillsSlotsFourToSeven) {
  ByteBuffer bin;
  put_triangle(bin);                                                // 0..36
  bin.put<uint8_t>({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});           // 36..48
  bin.put<float>({0.25f, 0.25f, 0, 0, 1, 0, 0, 0, 0.1f, 0, 0, 0});  // 48..96
  bin.put<uint8_t>({1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0});           // 96..108
  bin.put<float>({0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0.3f, 0, 0});       // 108..156
  const rig::Model model = import_ok("two_sets", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},
                   {"buffer":0,"byteOffset":36,"byteLength":12},
                   {"buffer":0,"byteOffset":48,"byteLength":48},
                   {"buffer":0,"byteOffset":96,"byteLength":12},
                   {"buffer":0,"byteOffset":108,"byteLength":48}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5121,"count":3,"type":"VEC4"},
                 {"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"},
                 {"bufferView":3,"componentType":5121,"count":3,"type":"VEC4"},
                 {"bufferView":4,"componentType":5126,"count":3,"type":"VEC4"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2,
                                            "JOINTS_1":3,"WEIGHTS_1":4}}]}],
    "skins":[{"joints":[1,2]}],
    "nodes":[{"mesh":0,"skin":0},{"children":[2]},{"translation":[0,1,0]}],
    "scenes":[{"nodes":[0,1]}]})",
                                     bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  ASSERT_EQ(p.influences, 8u);
  ASSERT_EQ(p.weights.size(), 24u);
  EXPECT_EQ(std::vector<uint16_t>(p.joints.begin(), p.joints.begin() + 8),
            (std::vector<uint16_t>{0, 1, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(std::vector<float>(p.weights.begin(), p.weights.begin() + 8),
            (std::vector<float>{0.25f, 0.25f, 0, 0, 0.5f, 0, 0, 0}));
  EXPECT_EQ(p.joints[16 + 5], 1u);
  EXPECT_NEAR(p.weights[16 + 0], 0.25f, 1e-6f);
  EXPECT_NEAR(p.weights[16 + 5], 0.75f, 1e-6f);
  const rig::ImportWarning* warning = find_warning(model, "WEIGHTS_NOT_NORMALIZED");
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->count, 1u);
}

TEST(ImportRules, NegativeWeightIsRefused) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
  bin.put<float>({1, 0, 0, 0, 1, 0, 0, 0, 1.5f, -0.5f, 0, 0});
  const std::string error =
      import_error("negative_weight", skinned_triangle_json(5126, false, 48), bin);
  EXPECT_NE(error.find("WEIGHTS_0 vertex 2"), std::string::npos) << error;
}

TEST(ImportRules, JointIndexBeyondTheSkinIsRefused) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0});
  bin.put<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
  const std::string error =
      import_error("joint_range", skinned_triangle_json(5126, false, 48), bin);
  EXPECT_EQ(error, "mesh 0 primitive 0: JOINTS_0 vertex 2 uses joint 2 but skin 0 has 2 joints");
}

TEST(ImportRules, NodeOrderPutsParentsFirst) {
  // The file lists the deepest node first: 3 → 1 → 2 → 0.
  const rig::Model model = import_ok("order", R"({
    "asset":{"version":"2.0"},
    "nodes":[{"name":"leaf"},{"children":[2]},{"children":[0]},{"name":"root","children":[1]}]})",
                                     ByteBuffer{});
  EXPECT_EQ(model.node_order, (std::vector<int>{3, 1, 2, 0}));
  EXPECT_EQ(model.nodes[0].parent, 2);
  EXPECT_EQ(model.nodes[2].parent, 1);
  EXPECT_EQ(model.nodes[1].parent, 3);
  EXPECT_EQ(model.nodes[3].parent, -1);
  EXPECT_EQ(model.nodes[0].name, "leaf");
  EXPECT_EQ(model.nodes[1].name, "");
  // No scenes: every parentless node is a root.
  EXPECT_EQ(model.scene_roots, (std::vector<int>{3}));
}

TEST(ImportRules, NodeWithTwoParentsIsRefused) {
  const std::string error = import_error("two_parents", R"({
    "asset":{"version":"2.0"},
    "nodes":[{"children":[2]},{"children":[2]},{}]})",
                                         ByteBuffer{});
  EXPECT_EQ(error, "node 2 has two parents (nodes 0 and 1)");
}

TEST(ImportRules, NodeCycleIsRefused) {
  const std::string error = import_error("cycle", R"({
    "asset":{"version":"2.0"},
    "nodes":[{"children":[1]},{"children":[0]},{}]})",
                                         ByteBuffer{});
  EXPECT_NE(error.find("cycle"), std::string::npos) << error;
}

const char* kMatrixNodeJson = R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},
                 {"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],
    "nodes":[{"matrix":[0,2,0,0, -2,0,0,0, 0,0,2,0, 1,2,3,1]}, {"children":[0]}]
    {ANIMATIONS}})";

TEST(ImportRules, MatrixNodeKeepsMatrixAndDecomposesIt) {
  ByteBuffer bin;
  bin.put<float>({0, 1, 0, 0, 0, 5, 0, 0});
  const rig::Model model = import_ok("matrix", fill_in(kMatrixNodeJson, "ANIMATIONS", ""), bin);
  const rig::Node& node = model.nodes[0];
  EXPECT_TRUE(node.from_matrix);
  // Scale 2 and a turn are plain TRS: nothing is left over as shear.
  EXPECT_FALSE(node.has_shear);
  // Columns: x → (0,2,0), y → (-2,0,0): scale 2 and a +90° turn about Z.
  EXPECT_NEAR(node.rest.translation.x, 1.0f, 1e-6f);
  EXPECT_NEAR(node.rest.translation.z, 3.0f, 1e-6f);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(node.rest.scale[i], 2.0f, 1e-6f);
  const float half = std::sqrt(0.5f);
  EXPECT_NEAR(std::abs(node.rest.rotation.w), half, 1e-5f);
  EXPECT_NEAR(node.rest.rotation.z * glm::sign(node.rest.rotation.w), half, 1e-5f);
  EXPECT_NEAR(node.rest.rotation.x, 0.0f, 1e-6f);
  EXPECT_EQ(find_warning(model, "MATRIX_NODE_ANIMATED"), nullptr);
}

TEST(ImportRules, AnimatedMatrixNodeFallsBackToTrs) {
  ByteBuffer bin;
  bin.put<float>({0, 1, 0, 0, 0, 5, 0, 0});
  const rig::Model model = import_ok("matrix_animated",
                                     fill_in(kMatrixNodeJson, "ANIMATIONS",
                                             R"(,"animations":[{"samplers":[{"input":0,"output":1}],
                              "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}])"),
                                     bin);
  EXPECT_TRUE(model.nodes[0].from_matrix);
  EXPECT_FALSE(model.nodes[0].has_shear);
  EXPECT_NE(find_warning(model, "MATRIX_NODE_ANIMATED"), nullptr);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_EQ(model.clips[0].start, 0.0f);
  EXPECT_EQ(model.clips[0].end, 1.0f);
  EXPECT_EQ(model.clips[0].interpolations, (std::vector<std::string>{"LINEAR"}));
}

TEST(ImportRules, SparseAccessorReplacesElements) {
  ByteBuffer bin;
  put_triangle(bin);                  // 0..36: base positions
  bin.put<uint16_t>({2, 0});          // 36..40: sparse index 2 (padded)
  bin.put<float>({5, 6, 7});          // 40..52: its new value
  bin.put<uint8_t>({1, 0, 0, 0});     // 52..56: target sparse index 1 (padded)
  bin.put<float>({0.5f, 0.25f, -1});  // 56..68: target delta of vertex 1
  const rig::Model model = import_ok("sparse", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":2},
                   {"buffer":0,"byteOffset":40,"byteLength":12},{"buffer":0,"byteOffset":52,"byteLength":1},
                   {"buffer":0,"byteOffset":56,"byteLength":12}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
                  "sparse":{"count":1,"indices":{"bufferView":1,"componentType":5123},
                            "values":{"bufferView":2}}},
                 {"componentType":5126,"count":3,"type":"VEC3",
                  "sparse":{"count":1,"indices":{"bufferView":3,"componentType":5121},
                            "values":{"bufferView":4}}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1}]}]}],
    "nodes":[{"mesh":0}]})",
                                     bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  ASSERT_EQ(p.positions.size(), 3u);
  EXPECT_EQ(p.positions[0], glm::vec3(0, 0, 0));
  EXPECT_EQ(p.positions[1], glm::vec3(1, 0, 0));
  EXPECT_EQ(p.positions[2], glm::vec3(5, 6, 7));
  ASSERT_EQ(p.targets.size(), 1u);
  // No bufferView: zeros, then the sparse element.
  EXPECT_EQ(p.targets[0].positions,
            (std::vector<glm::vec3>{{0, 0, 0}, {0.5f, 0.25f, -1}, {0, 0, 0}}));
  EXPECT_TRUE(p.targets[0].normals.empty());
}

TEST(ImportRules, QuantizedTexcoordsFollowTheSpec) {
  ByteBuffer bin;
  put_triangle(bin);                                            // 0..36
  bin.put<uint8_t>({0, 0, 0, 0, 255, 51, 0, 0, 0, 255, 0, 0});  // 36..48: UNSIGNED_BYTE, stride 4
  bin.put<int16_t>({0, 0, 32767, -32768, -16384, 16384});       // 48..60: SHORT
  const rig::Model model = import_ok("texcoords", R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"],
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},
                   {"buffer":0,"byteOffset":36,"byteLength":12,"byteStride":4},
                   {"buffer":0,"byteOffset":48,"byteLength":12}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5121,"normalized":true,"count":3,"type":"VEC2"},
                 {"bufferView":2,"componentType":5122,"normalized":true,"count":3,"type":"VEC2"},
                 {"bufferView":2,"componentType":5122,"count":3,"type":"VEC2"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1}},
                             {"attributes":{"POSITION":0,"TEXCOORD_0":2}},
                             {"attributes":{"POSITION":0,"TEXCOORD_0":3}}]}],
    "nodes":[{"mesh":0}]})",
                                     bin);
  const auto& primitives = model.meshes[0].primitives;
  ASSERT_EQ(primitives.size(), 3u);
  // Normalized UNSIGNED_BYTE c/255 (51/255 = 0.2); byteStride 4 skips the padding.
  EXPECT_EQ(primitives[0].texcoords0,
            (std::vector<glm::vec2>{{0, 0}, {1, 51.0f / 255.0f}, {0, 1}}));
  // Normalized SHORT max(c/32767, -1); unnormalized SHORT as it is.
  EXPECT_EQ(primitives[1].texcoords0,
            (std::vector<glm::vec2>{{0, 0}, {1, -1}, {-16384.0f / 32767.0f, 16384.0f / 32767.0f}}));
  EXPECT_EQ(primitives[2].texcoords0,
            (std::vector<glm::vec2>{{0, 0}, {32767, -32768}, {-16384, 16384}}));
}

// Normalized UNSIGNED_SHORT (KHR_mesh_quantization texcoords): c / 65535, so 65535 is exactly 1
// (weights would hide a wrong divisor: they are renormalized afterwards).
TEST(ImportRules, QuantizedUnsignedShortTexcoordsFollowTheSpec) {
  ByteBuffer bin;
  put_triangle(bin);                                      // 0..36
  bin.put<uint16_t>({0, 0, 65535, 13107, 32768, 65535});  // 36..48
  const rig::Model model = import_ok("texcoords_u16", R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"],
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},
                   {"buffer":0,"byteOffset":36,"byteLength":12}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5123,"normalized":true,"count":3,"type":"VEC2"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1}}]}],
    "nodes":[{"mesh":0}]})",
                                     bin);
  EXPECT_EQ(model.meshes[0].primitives[0].texcoords0,
            (std::vector<glm::vec2>{{0, 0}, {1, 13107.0f / 65535.0f}, {32768.0f / 65535.0f, 1}}));
}

TEST(ImportRules, MorphWeightsDefaultAndPerNode) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<float>({0, 0, 1, 0, 0, 1, 0, 0, 1});
  const rig::Model model = import_ok("morph", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1},{"NORMAL":1,"TANGENT":1}]}],
               "weights":[0.5]},
              {"primitives":[{"attributes":{"POSITION":0}}]}],
    "nodes":[{"mesh":0},{"mesh":1},{"mesh":0,"weights":[0.25,0.75]}]})",
                                     bin);
  // mesh.weights is zero-filled up to the target count.
  EXPECT_EQ(model.meshes[0].default_weights, (std::vector<float>{0.5f, 0.0f}));
  EXPECT_TRUE(model.meshes[1].default_weights.empty());
  EXPECT_EQ(model.nodes[0].morph_offset, 0u);
  EXPECT_EQ(model.nodes[0].morph_count, 2u);
  EXPECT_EQ(model.nodes[1].morph_count, 0u);
  EXPECT_EQ(model.nodes[2].morph_offset, 2u);
  EXPECT_EQ(model.nodes[2].morph_count, 2u);
  EXPECT_EQ(model.morph_weight_count, 4u);
  // Node 0 has no weights of its own (mesh default); node 2 has.
  EXPECT_EQ(model.rest_morph_weights, (std::vector<float>{0.5f, 0.0f, 0.25f, 0.75f}));
  EXPECT_TRUE(model.meshes[0].primitives[0].targets[0].normals.empty());
  EXPECT_EQ(model.meshes[0].primitives[0].targets[1].normals.size(), 3u);
  // TANGENT deltas are xyz, read like NORMAL's (the handedness does not morph).
  EXPECT_TRUE(model.meshes[0].primitives[0].targets[0].tangents.empty());
  EXPECT_EQ(model.meshes[0].primitives[0].targets[1].tangents,
            (std::vector<glm::vec3>(3, glm::vec3(0, 0, 1))));
}

TEST(ImportRules, GeneratedNormalsPointOutward) {
  ByteBuffer bin;
  put_triangle(bin);
  const rig::Model model = import_ok("triangle", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0})",
                                     bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  EXPECT_TRUE(p.normals_generated);
  ASSERT_EQ(p.normals.size(), 3u);
  // Counter-clockwise seen from +Z: the front face looks along +Z.
  for (const glm::vec3& n : p.normals) EXPECT_EQ(n, glm::vec3(0, 0, 1));
}

TEST(ImportRules, GeneratedNormalsOfAClosedTetrahedronPointAwayFromItsCentre) {
  ByteBuffer bin;
  bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  // Outward (counter-clockwise seen from outside) faces.
  bin.put<uint16_t>({0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3});
  const rig::Model model = import_ok("tetra", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":48},{"buffer":0,"byteOffset":48,"byteLength":24}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3"},
                 {"bufferView":1,"componentType":5123,"count":12,"type":"SCALAR"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
    "nodes":[{"mesh":0}]})",
                                     bin);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  const glm::vec3 centre(0.25f);
  for (uint32_t v = 0; v < 4; ++v) {
    EXPECT_GT(glm::dot(p.normals[v], p.positions[v] - centre), 0.0f) << "vertex " << v;
    EXPECT_NEAR(glm::length(p.normals[v]), 1.0f, 1e-5f);
  }
  // Vertex 0 touches three faces of equal area whose normals are -X, -Y, -Z.
  EXPECT_NEAR(p.normals[0].x, -1.0f / std::sqrt(3.0f), 1e-5f);
}

TEST(ImportRules, IndexBeyondTheVerticesIsRefused) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0, 1, 3, 0});
  const std::string error = import_error("bad_index", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":3}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                 {"bufferView":1,"componentType":5121,"count":3,"type":"SCALAR"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
    "nodes":[{"mesh":0}]})",
                                         bin);
  EXPECT_EQ(error, "mesh 0 primitive 0: index 2 is 3 but the primitive has 3 vertices");
}

const char* kRotationClipJson = R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},
                 {"bufferView":1,"componentType":{CTYPE},"normalized":true,"count":{COUNT},"type":"VEC4"}],
    "nodes":[{}],
    "animations":[{"name":"turn","samplers":[{"input":0,"output":1,"interpolation":"{MODE}"}],
                   "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}]}]})";

std::string rotation_clip(int component_type, int count, const std::string& mode, size_t length) {
  std::string json =
      fill_in(fill_in(fill_in(kRotationClipJson, "CTYPE", std::to_string(component_type)), "COUNT",
                      std::to_string(count)),
              "MODE", mode);
  const std::string marker = R"({"buffer":0,"byteOffset":8})";
  json.replace(json.find(marker), marker.size(),
               R"({"buffer":0,"byteOffset":8,"byteLength":)" + std::to_string(length) + "}");
  return json;
}

TEST(ImportRules, NormalizedByteRotationKeysFollowTheSpec) {
  ByteBuffer bin;
  bin.put<float>({0, 1});
  // (0,0,0,127) → (0,0,0,1); (-128,0,0,0) → max(-128/127,-1) = -1 → (-1,0,0,0).
  bin.put<int8_t>({0, 0, 0, 127, -128, 0, 0, 0});
  const rig::Model model = import_ok("rot_i8", rotation_clip(5120, 2, "STEP", 8), bin);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_EQ(model.clips[0].name, "turn");
  const rig::Channel& channel = model.clips[0].channels[0];
  EXPECT_EQ(channel.components, 4u);
  EXPECT_EQ(channel.interpolation, rig::Interpolation::Step);
  EXPECT_EQ(channel.values, (std::vector<float>{0, 0, 0, 1, -1, 0, 0, 0}));
  EXPECT_EQ(find_warning(model, "ROTATION_NOT_NORMALIZED"), nullptr);
}

TEST(ImportRules, NonUnitRotationKeysAreNormalizedButNotCubicTangents) {
  ByteBuffer bin;
  bin.put<float>({0, 1});
  // CUBICSPLINE: per key in-tangent, value, out-tangent. Value of key 0 has length 32767·2/32767.
  bin.put<int16_t>({1000, 0, 0, 0, 0, 0, 32767, 32767, 1000, 0, 0, 0,
                    1000, 0, 0, 0, 0, 0, 0,     32767, 1000, 0, 0, 0});
  const rig::Model model = import_ok("rot_cubic", rotation_clip(5122, 6, "CUBICSPLINE", 48), bin);
  const rig::Channel& channel = model.clips[0].channels[0];
  ASSERT_EQ(channel.values.size(), 24u);
  const float half = std::sqrt(0.5f);
  EXPECT_NEAR(channel.values[6], half, 1e-6f);  // key 0 value: (0,0,1,1)/√2
  EXPECT_NEAR(channel.values[7], half, 1e-6f);
  EXPECT_NEAR(channel.values[0], 1000.0f / 32767.0f, 1e-7f);  // tangents untouched
  EXPECT_EQ(channel.values[19], 1.0f);
  const rig::ImportWarning* warning = find_warning(model, "ROTATION_NOT_NORMALIZED");
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->count, 1u);
  EXPECT_EQ(model.clips[0].interpolations, (std::vector<std::string>{"CUBICSPLINE"}));
}

TEST(ImportRules, CubicSplineOutputMustHoldThreeElementsPerKey) {
  ByteBuffer bin;
  bin.put<float>({0, 1});
  bin.put<int16_t>({0, 0, 0, 32767, 0, 0, 0, 32767});
  const std::string error =
      import_error("cubic_short", rotation_clip(5122, 2, "CUBICSPLINE", 16), bin);
  EXPECT_EQ(
      error,
      "animation 0 sampler 0: output has 2 elements, expected 6 (2 keys x 3 for CUBICSPLINE)");
}

TEST(ImportRules, KeyTimesMustIncrease) {
  ByteBuffer bin;
  bin.put<float>({1.3f, 1.2f});
  bin.put<int16_t>({0, 0, 0, 32767, 0, 0, 0, 32767});
  const std::string error = import_error("times", rotation_clip(5122, 2, "LINEAR", 16), bin);
  EXPECT_EQ(error, "animation 0 sampler 0: key times not increasing at key 1 (1.2 after 1.3)");
}

TEST(ImportRules, WeightsChannelNeedsMorphTargets) {
  ByteBuffer bin;
  bin.put<float>({0, 1, 0, 0});
  const std::string error = import_error("weights_no_targets", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":8}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},
                 {"bufferView":1,"componentType":5126,"count":2,"type":"SCALAR"}],
    "nodes":[{}],
    "animations":[{"samplers":[{"input":0,"output":1}],
                   "channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}]})",
                                         bin);
  EXPECT_EQ(error,
            "animation 0 channel 0 animates the weights of node 0, which has no morph targets");
}

TEST(ImportRules, UnsupportedRequiredExtensionIsRefused) {
  const std::string error = import_error("draco", R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["KHR_draco_mesh_compression","KHR_mesh_quantization"],
    "extensionsRequired":["KHR_mesh_quantization","KHR_draco_mesh_compression"]})",
                                         ByteBuffer{});
  EXPECT_EQ(error,
            "the file requires extension KHR_draco_mesh_compression, which is not supported");
}

TEST(ImportRules, RequiredTextureFormatExtensionLoadsUntextured) {
  ByteBuffer bin;
  put_triangle(bin);
  // The picture exists only as KTX2 (texture.source absent, the extension names it).
  const rig::Model model = import_ok("basisu", R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["KHR_texture_basisu"],"extensionsRequired":["KHR_texture_basisu"],
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "images":[{"uri":"picture.ktx2"}],
    "textures":[{"extensions":{"KHR_texture_basisu":{"source":0}}}],
    "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
    "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                                     bin);
  ASSERT_EQ(model.draws.size(), 1u);
  ASSERT_EQ(model.materials.size(), 1u);
  EXPECT_EQ(model.materials[0].base_color.image, -1);
  // One line, naming the extension; the missing .ktx2 file is no second complaint.
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_EQ(model.warnings[0].code, "KTX2_NOT_DECODED");
  EXPECT_NE(model.warnings[0].message.find("image 0 is a KHR_texture_basisu (KTX2) picture"),
            std::string::npos)
      << model.warnings[0].message;
}

// A 1x1 RGBA PNG (only that it decodes matters here).
const char* kOnePixelPng =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQG"
    "AhKmMIQAAAABJRU5ErkJggg==";

// KHR_texture_basisu used but not required: texture 0 has a PNG fallback `source`, texture 1
// only the KTX2 picture. The file opens; texture 0 draws its PNG, texture 1 nothing; one warning
// line for the two KTX2 pictures.
TEST(ImportRules, BasisuTexturesFallBackToTheirSourceOrGoUntextured) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'});
  const rig::Model model = import_ok("basisu_fallback",
                                     fill_in(R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["KHR_texture_basisu"],
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "images":[{"uri":"{PNG}"},{"bufferView":1,"mimeType":"image/ktx2"},{"uri":"other.ktx2"}],
    "textures":[{"source":0,"extensions":{"KHR_texture_basisu":{"source":1}}},
                {"extensions":{"KHR_texture_basisu":{"source":2}}}],
    "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},
                  "emissiveTexture":{"index":1}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
    "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                                             "PNG", kOnePixelPng),
                                     bin);
  ASSERT_EQ(model.materials.size(), 1u);
  EXPECT_EQ(model.materials[0].base_color.image, 0);
  ASSERT_EQ(model.images.size(), 3u);
  EXPECT_EQ(model.images[0].width, 1);
  EXPECT_EQ(model.images[0].rgba.size(), 4u);
  EXPECT_TRUE(model.materials[0].emissive.present());
  EXPECT_EQ(model.materials[0].emissive.image, -1);
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_EQ(model.warnings[0].code, "KTX2_NOT_DECODED");
  EXPECT_EQ(model.warnings[0].count, 2u);
  EXPECT_NE(model.warnings[0].message.find("KHR_texture_basisu"), std::string::npos);
}

TEST(ImportRules, DrawsFollowTheSceneDepthFirst) {
  ByteBuffer bin;
  put_triangle(bin);
  const rig::Model model = import_ok("draws", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0},"mode":0}]}],
    "nodes":[{"mesh":0,"children":[2,1]},{"mesh":0},{"mesh":0},{"mesh":0}],
    "scenes":[{"nodes":[3]},{"nodes":[0]}],"scene":1})",
                                     bin);
  EXPECT_EQ(model.scene_roots, (std::vector<int>{0}));
  std::vector<std::pair<int, int>> order;
  for (const rig::DrawItem& d : model.draws) order.push_back({d.node, d.primitive});
  EXPECT_EQ(order,
            (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {2, 0}, {2, 1}, {1, 0}, {1, 1}}));
  EXPECT_EQ(model.meshes[0].primitives[1].mode, rig::PrimitiveMode::Points);
  for (const rig::DrawItem& d : model.draws) EXPECT_EQ(d.skin, -1);
}

}  // namespace

namespace {

// Two images stored in bufferViews: bytes that are no picture at all, and a KTX2 header.
// Neither may fail the import; each costs only its texture, with a warning.
TEST(ImportRules, UndecodableImagesAreWarningsNotErrors) {
  ByteBuffer bin;
  put_triangle(bin);
  bin.put<uint8_t>({'n', 'o', 't', ' ', 'a', ' ', 'p', 'n', 'g', '!', 0, 0});
  bin.put<uint8_t>({0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'});
  const rig::Model model = import_ok("images", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12},
                   {"buffer":0,"byteOffset":48,"byteLength":12}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "images":[{"bufferView":1,"mimeType":"image/png","name":"broken"},
              {"bufferView":2,"mimeType":"image/ktx2"}],
    "textures":[{"source":0},{"source":1}],
    "materials":[{"pbrMetallicRoughness":{"baseColorFactor":[0.5,0.25,1,1],
                                          "baseColorTexture":{"index":1,"texCoord":1}},
                  "doubleSided":true},
                 {}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
    "nodes":[{"mesh":0}]})",
                                     bin);
  ASSERT_EQ(model.images.size(), 2u);
  EXPECT_EQ(model.images[0].name, "broken");
  EXPECT_TRUE(model.images[0].rgba.empty());
  EXPECT_TRUE(model.images[1].rgba.empty());
  EXPECT_NE(find_warning(model, "IMAGE_DECODE_FAILED"), nullptr);
  EXPECT_NE(find_warning(model, "KTX2_NOT_DECODED"), nullptr);
  ASSERT_EQ(model.materials.size(), 2u);
  EXPECT_EQ(model.materials[0].base_color_factor, glm::vec4(0.5f, 0.25f, 1, 1));
  EXPECT_EQ(model.materials[0].base_color.image, 1);  // texture 1 → its source, image 1
  EXPECT_EQ(model.materials[0].base_color.texcoord, 1);
  EXPECT_TRUE(model.materials[0].double_sided);
  EXPECT_EQ(model.materials[1].base_color_factor, glm::vec4(1.0f));  // spec default
  EXPECT_EQ(model.materials[1].base_color.image, -1);
  EXPECT_FALSE(model.materials[1].double_sided);
  EXPECT_EQ(model.meshes[0].primitives[0].material, 0);
}

}  // namespace
