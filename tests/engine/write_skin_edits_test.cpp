// The document writer's skin edits (write/document_edit.h: SetSkinWeights,
// SetInverseBindMatrices) and the weight encoding glTF requires (write/weight_encoding.h),
// checked against hand-computed values, read back with tinygltf and the importer.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "import/gltf_import.h"
#include "write/gltf_document.h"
#include "write/weight_encoding.h"
#include "write_test_support.h"

namespace rig {
namespace {

using test::accessor_bytes;
using test::accessor_floats;
using test::read_document;
using test::scratch_file;

const std::string kArm = RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb";  // 2 joints, 2541 vertices

// 0.5, 0.25, 0.25 of 255 are 127.5, 63.75, 63.75: rounded one by one they make 128 + 64 + 64 =
// 256, not the 255 glTF requires. Largest remainder: floors 127 + 63 + 63 = 253, the two units
// left go to the largest remainders (0.75, 0.75).
TEST(WeightEncoding, NormalizedIntegersSumToExactlyTheTypesMaximum) {
  const std::array<float, 4> w{0.5f, 0.25f, 0.25f, 0.0f};
  EXPECT_EQ(write::normalized_integer_weights(w, 255), (std::array<uint32_t, 4>{127, 64, 64, 0}));
  // 32767.5, 16383.75, 16383.75: floors 65533, two units to the 0.75s.
  EXPECT_EQ(write::normalized_integer_weights(w, 65535),
            (std::array<uint32_t, 4>{32767, 16384, 16384, 0}));
  // A third each: 85 exactly (255 / 3).
  const float third = 1.0f / 3.0f;
  EXPECT_EQ(write::normalized_integer_weights({third, third, third, 0.0f}, 255),
            (std::array<uint32_t, 4>{85, 85, 85, 0}));
  // Weights that do not sum to 1 are divided by their sum first where the set is the only one.
  EXPECT_EQ(write::normalized_weights({2.0f, 1.0f, 1.0f, 0.0f}),
            (std::array<float, 4>{0.5f, 0.25f, 0.25f, 0.0f}));
  EXPECT_EQ(write::normalized_weights({0.0f, 0.0f, 0.0f, 0.0f}),
            (std::array<float, 4>{0.0f, 0.0f, 0.0f, 0.0f}));
}

TEST(WeightEncoding, EveryRandomSetSumsExactly) {
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24);
  };
  for (int i = 0; i < 10000; ++i) {
    const std::array<float, 4> w = write::normalized_weights({next(), next(), next(), next()});
    for (uint32_t max : {255u, 65535u}) {
      const std::array<uint32_t, 4> c = write::normalized_integer_weights(w, max);
      EXPECT_EQ(c[0] + c[1] + c[2] + c[3], max);
      for (size_t k = 0; k < 4; ++k) EXPECT_LE(std::abs(double(c[k]) - w[k] * double(max)), 1.0);
    }
  }
}

TEST(WriteSkinEdits, InverseBindMatricesReadBackExactly) {
  // Known matrices with exactly representable entries: a translation and a scaled rotation.
  const glm::mat4 a = glm::translate(glm::mat4(1.0f), glm::vec3(1.0f, -2.0f, 0.5f));
  glm::mat4 b(0.0f);
  b[0] = {0.0f, 2.0f, 0.0f, 0.0f};  // column 0: x → 2y
  b[1] = {-2.0f, 0.0f, 0.0f, 0.0f};
  b[2] = {0.0f, 0.0f, 2.0f, 0.0f};
  b[3] = {0.25f, 0.0f, -3.0f, 1.0f};
  const std::string out = scratch_file("ibm.glb");
  std::string error;
  const std::vector<write::DocumentEdit> edits{write::SetInverseBindMatrices{0, {a, b}}};
  ASSERT_TRUE(write::write_document(kArm, edits, out, error)) << error;

  const tinygltf::Model before = read_document(kArm), after = read_document(out);
  const int ibm = after.skins[0].inverseBindMatrices;
  EXPECT_NE(ibm, before.skins[0].inverseBindMatrices);
  EXPECT_EQ(after.accessors[size_t(ibm)].type, TINYGLTF_TYPE_MAT4);
  EXPECT_EQ(after.accessors[size_t(ibm)].componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  // Column-major, as glTF stores matrices: the translation of `a` at elements 12..14.
  const std::vector<float> expected{1, 0, 0, 0, 0,  1, 0, 0, 0, 0, 1, 0, 1,     -2, 0.5f, 1,
                                    0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0.25f, 0,  -3,   1};
  EXPECT_EQ(accessor_floats(after, ibm), expected);
  // The old accessor keeps its index without data; nothing else moved.
  EXPECT_EQ(after.accessors[size_t(before.skins[0].inverseBindMatrices)].bufferView, -1);
  EXPECT_EQ(after.meshes[0].primitives[0].attributes, before.meshes[0].primitives[0].attributes);
  for (const auto& [name, index] : before.meshes[0].primitives[0].attributes)
    EXPECT_EQ(accessor_bytes(after, index), accessor_bytes(before, index)) << name;
  // The importer reads the same matrices.
  Model model;
  ASSERT_TRUE(import_gltf(out, model, error)) << error;
  EXPECT_EQ(model.skins[0].inverse_bind[0], a);
  EXPECT_EQ(model.skins[0].inverse_bind[1], b);
}

// Weights for the first vertices, hand-computed; the rest one joint, full weight.
struct WeightCase {
  std::vector<std::array<uint16_t, 4>> joints;
  std::vector<std::array<float, 4>> weights;
};
WeightCase arm_weights(size_t vertices) {
  WeightCase c;
  c.joints.assign(vertices, {0, 0, 0, 0});
  c.weights.assign(vertices, {1.0f, 0.0f, 0.0f, 0.0f});
  c.joints[0] = {1, 0, 1, 0};
  c.weights[0] = {0.5f, 0.25f, 0.25f, 0.0f};
  c.joints[1] = {0, 1, 0, 0};
  c.weights[1] = {2.0f, 1.0f, 1.0f, 0.0f};  // not normalized: the only set, so divided by 4
  c.joints[2] = {1, 0, 0, 0};
  c.weights[2] = {0.0f, 0.0f, 0.0f, 0.0f};
  return c;
}

TEST(WriteSkinEdits, WeightsReadBackNormalizedAsGltfRequires) {
  const tinygltf::Model before = read_document(kArm);
  const size_t vertices = before.accessors[0].count;
  const WeightCase c = arm_weights(vertices);
  struct Expect {
    write::WeightEncoding encoding;
    int type;
  };
  for (const Expect e : {Expect{write::WeightEncoding::UnsignedByte, 5121},
                         Expect{write::WeightEncoding::UnsignedShort, 5123},
                         Expect{write::WeightEncoding::Keep, 5126}}) {
    const std::string out = scratch_file("weights_" + std::to_string(e.type) + ".glb");
    std::string error;
    const std::vector<write::DocumentEdit> edits{
        write::SetSkinWeights{0, 0, 0, c.joints, c.weights, e.encoding}};
    ASSERT_TRUE(write::write_document(kArm, edits, out, error)) << error;
    const tinygltf::Model after = read_document(out);
    const auto& attributes = after.meshes[0].primitives[0].attributes;
    const tinygltf::Accessor& joints = after.accessors[size_t(attributes.at("JOINTS_0"))];
    const tinygltf::Accessor& weights = after.accessors[size_t(attributes.at("WEIGHTS_0"))];
    // The file's joints are UNSIGNED_BYTE and every index fits: kept.
    EXPECT_EQ(joints.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
    EXPECT_EQ(weights.componentType, e.type);
    EXPECT_EQ(weights.normalized, e.type != TINYGLTF_COMPONENT_TYPE_FLOAT);
    const std::vector<uint8_t> j = accessor_bytes(after, attributes.at("JOINTS_0"));
    ASSERT_EQ(j.size(), vertices * 4);
    EXPECT_EQ(std::vector<uint8_t>(j.begin(), j.begin() + 12),
              (std::vector<uint8_t>{1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0}));
    const std::vector<uint8_t> w = accessor_bytes(after, attributes.at("WEIGHTS_0"));
    if (e.type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
      // 127.5, 63.75, 63.75 → 127, 64, 64 (sum 255); the unnormalized vertex the same; all-zero 0.
      EXPECT_EQ(std::vector<uint8_t>(w.begin(), w.begin() + 16),
                (std::vector<uint8_t>{127, 64, 64, 0, 127, 64, 64, 0, 0, 0, 0, 0, 255, 0, 0, 0}));
    } else if (e.type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
      std::vector<uint16_t> s(w.size() / 2);
      std::memcpy(s.data(), w.data(), w.size());
      EXPECT_EQ(std::vector<uint16_t>(s.begin(), s.begin() + 8),
                (std::vector<uint16_t>{32767, 16384, 16384, 0, 32767, 16384, 16384, 0}));
      EXPECT_EQ(s[12], 65535);
    } else {
      const std::vector<float> f = accessor_floats(after, attributes.at("WEIGHTS_0"));
      EXPECT_EQ(std::vector<float>(f.begin(), f.begin() + 12),
                (std::vector<float>{0.5f, 0.25f, 0.25f, 0, 0.5f, 0.25f, 0.25f, 0, 0, 0, 0, 0}));
    }
    // The file imports, and the importer reads the weights the spec's way (c / 255).
    Model model;
    ASSERT_TRUE(import_gltf(out, model, error)) << error;
  }
}

// A second set: the vertex's weights are spread over both, so the set is stored as given
// (0.25 + 0.25 of 255 → 64 + 64, the total 127.5 rounded), not divided by its own sum.
TEST(WriteSkinEdits, ASecondSetKeepsItsOwnSum) {
  const tinygltf::Model before = read_document(kArm);
  const size_t vertices = before.accessors[0].count;
  WeightCase c;
  c.joints.assign(vertices, {1, 0, 0, 0});
  c.weights.assign(vertices, {0.25f, 0.25f, 0.0f, 0.0f});
  const std::string out = scratch_file("second_set.glb");
  std::string error;
  const std::vector<write::DocumentEdit> edits{
      write::SetSkinWeights{0, 0, 1, c.joints, c.weights, write::WeightEncoding::UnsignedByte}};
  ASSERT_TRUE(write::write_document(kArm, edits, out, error)) << error;
  const tinygltf::Model after = read_document(out);
  const auto& attributes = after.meshes[0].primitives[0].attributes;
  ASSERT_TRUE(attributes.count("JOINTS_1") && attributes.count("WEIGHTS_1"));
  EXPECT_EQ(attributes.at("WEIGHTS_0"), before.meshes[0].primitives[0].attributes.at("WEIGHTS_0"));
  const std::vector<uint8_t> w = accessor_bytes(after, attributes.at("WEIGHTS_1"));
  ASSERT_EQ(w.size(), vertices * 4);
  EXPECT_EQ(std::vector<uint8_t>(w.begin(), w.begin() + 4), (std::vector<uint8_t>{64, 64, 0, 0}));
  // A third set without the second is refused.
  const std::vector<write::DocumentEdit> gap{write::SetSkinWeights{0, 0, 2, c.joints, c.weights}};
  EXPECT_FALSE(write::write_document(kArm, gap, out, error));
  EXPECT_NE(error.find("influence set 2"), std::string::npos) << error;
}

TEST(WriteSkinEdits, RefusesJointsBeyondTheSkinAndWrongCounts) {
  const size_t vertices = read_document(kArm).accessors[0].count;
  WeightCase c = arm_weights(vertices);
  c.joints[5] = {2, 0, 0, 0};  // the skin has joints 0 and 1
  const std::string out = scratch_file("refused.glb");
  std::string error;
  std::vector<write::DocumentEdit> edits{write::SetSkinWeights{0, 0, 0, c.joints, c.weights}};
  EXPECT_FALSE(write::write_document(kArm, edits, out, error));
  EXPECT_NE(error.find("joint index 2"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(out));
  c = arm_weights(vertices - 1);
  edits = {write::SetSkinWeights{0, 0, 0, c.joints, c.weights}};
  EXPECT_FALSE(write::write_document(kArm, edits, out, error));
  EXPECT_NE(error.find("vertices"), std::string::npos) << error;
  c = arm_weights(vertices);
  c.weights[3] = {-0.5f, 1.5f, 0.0f, 0.0f};
  edits = {write::SetSkinWeights{0, 0, 0, c.joints, c.weights}};
  EXPECT_FALSE(write::write_document(kArm, edits, out, error));
  EXPECT_NE(error.find("vertex 3"), std::string::npos) << error;
  edits = {write::SetInverseBindMatrices{0, {glm::mat4(1.0f)}}};
  EXPECT_FALSE(write::write_document(kArm, edits, out, error));
  EXPECT_NE(error.find("1 matrices for 2 joints"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace rig
