// Saving a skin layer (analysis/skin_layer_edits.h → write/edit_job.h): what is edited becomes
// document edits, nothing else; float weights come back from the file bit for bit, normalized
// integer weights sum to exactly 255 or 65535 per vertex across both influence sets; the
// expectations are hand-computed (largest remainder by hand) or the edited layer itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "analysis/skin_layer_edits.h"
#include "import/gltf_import.h"
#include "skin/skin_layer.h"
#include "write/gltf_document.h"
#include "write/weight_encoding.h"
#include "write_test_support.h"

namespace rig {
namespace {

using test::accessor_bytes;
using test::read_document;
using test::scratch_file;

const std::string kArm = RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb";  // 2 joints, FLOAT weights
const std::string kMannequin = RIGVIEW_SOURCE_DIR "/assets/mannequin.glb";

Model import_file(const std::string& path) {
  Model model;
  std::string error;
  EXPECT_TRUE(import_gltf(path, model, error)) << path << ": " << error;
  return model;
}

// The weights, per vertex over both sets, of our hand case: exact binary fractions summing to
// exactly 1 over six influences (so set 1 is needed), half of it in each set.
const std::array<float, 8> kSix{0.125f, 0.125f, 0.125f, 0.125f, 0.25f, 0.25f, 0, 0};
const std::array<uint16_t, 8> kSixJoints{1, 2, 3, 4, 5, 6, 0, 0};

// The importer's normalization, written out: each weight divided by the double sum of all.
bool importer_keeps(std::span<const float> w) {
  double sum = 0.0;
  for (float x : w) sum += x;
  if (sum == 0.0) return true;
  for (float x : w)
    if (float(x / sum) != x) return false;
  return true;
}

TEST(SkinLayerSave, NormalizedIntegersSumExactlyAcrossBothSets) {
  // ×255: 31.875 (4×) and 63.75 (2×) → floors 31 31 31 31 63 63 = 250; the 5 units left go to
  // the largest remainders: .875 (slots 0–3), then .75 (slot 4, the earlier tie).
  std::array<uint32_t, 8> units{};
  write::normalized_integer_weights(kSix, 255, units);
  EXPECT_EQ(units, (std::array<uint32_t, 8>{32, 32, 32, 32, 64, 63, 0, 0}));
  // Each set rounded on its own: 127.5 and 127.5, each rounded up, make 256.
  const auto alone = [](std::span<const float> set, uint32_t max) {
    const std::array<uint32_t, 4> u = write::normalized_integer_weights(
        std::array<float, 4>{set[0], set[1], set[2], set[3]}, max);
    return u[0] + u[1] + u[2] + u[3];
  };
  EXPECT_EQ(alone(std::span(kSix).first(4), 255) + alone(std::span(kSix).subspan(4), 255), 256u);
  // ×65535: 8191.875 (4×), 16383.75 (2×) → floors 65530, 5 units the same way.
  write::normalized_integer_weights(kSix, 65535, units);
  EXPECT_EQ(units, (std::array<uint32_t, 8>{8192, 8192, 8192, 8192, 16384, 16383, 0, 0}));
}

TEST(SkinLayerSave, NormalizedFloatsReadBackUnchanged) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  size_t moved = 0;
  for (int i = 0; i < 20000; ++i) {
    std::array<float, 8> w{}, out{};
    for (size_t k = 0; k < 1 + size_t(i) % 8; ++k) w[k] = u(rng);
    write::normalized_weights(w, out);
    ASSERT_TRUE(importer_keeps(out)) << i;
    double sum = 0.0;
    for (float x : w) sum += x;
    // Every weight is the plain quotient but the largest, at most two units in the last place
    // from its own.
    const size_t largest = size_t(std::max_element(out.begin(), out.end()) - out.begin());
    for (size_t k = 0; k < 8; ++k) {
      const float plain = float(w[k] / sum);
      if (k != largest) {
        ASSERT_EQ(out[k], plain) << i;
        continue;
      }
      const float ulp = std::nextafter(plain, 2.0f) - plain;
      ASSERT_LE(std::abs(out[k] - plain), 2.0f * ulp) << i;
      moved += out[k] != plain;
    }
  }
  // The plain quotients alone would not always survive the importer: the search matters.
  EXPECT_GT(moved, 0u);
}

TEST(SkinLayerSave, ALayerWithoutEditsGivesNoEdits) {
  for (const std::string& path : {kArm, kMannequin}) {
    const Model model = import_file(path);
    const SkinLayer layer(model);
    SkinLayerEdits edits;
    std::string error;
    ASSERT_TRUE(skin_layer_edits(model, layer, {}, edits, error)) << error;
    EXPECT_TRUE(edits.edits.empty()) << path;
    // Asked for every skinned primitive: one set per primitive, the file's own influences.
    ASSERT_TRUE(skin_layer_edits(model, layer, {true}, edits, error)) << error;
    EXPECT_EQ(edits.primitives, 1u);
    EXPECT_EQ(edits.skins, 0u);
    ASSERT_EQ(edits.edits.size(), 1u);
    const auto& w = std::get<write::SetSkinWeights>(edits.edits[0]);
    EXPECT_EQ(w.set, 0);
    EXPECT_EQ(w.weights.size(), model.meshes[0].primitives[0].vertex_count());
  }
}

// With RIGVIEW_SAVE_OUTPUT_DIR set (tests/assets' save_validator), a copy of a saved file goes
// there for the Khronos validator.
void keep_for_validator(const std::string& path) {
  const char* dir = std::getenv("RIGVIEW_SAVE_OUTPUT_DIR");
  if (!dir || !*dir) return;
  const std::filesystem::path to =
      std::filesystem::path(dir) / std::filesystem::path(path).filename();
  std::filesystem::copy_file(path, to, std::filesystem::copy_options::overwrite_existing);
}

// Edits vertex 0 of `source` (the mannequin: distinct joints for six influences) to kSix and
// vertex 1 to random weights normalized for saving, and saves the layer.
struct Saved {
  Model model;
  SkinLayer layer;
  std::string path;
};
Saved edit_and_save(const std::string& source, const std::string& name) {
  Saved s{import_file(source), {}, scratch_file(name)};
  s.layer = SkinLayer(s.model);
  std::string error;
  EXPECT_TRUE(s.layer.set_influences(0, 0, std::span(kSixJoints.data(), 6),
                                     std::span(kSix.data(), 6), error))
      << error;
  std::array<float, 3> random{0.1f, 0.7f, 0.3f}, normalized{};
  write::normalized_weights(random, normalized);
  const std::array<uint16_t, 3> joints{0, 1, 2};
  EXPECT_TRUE(s.layer.set_influences(0, 1, joints, normalized, error)) << error;
  SkinLayerEdits edits;
  EXPECT_TRUE(skin_layer_edits(s.model, s.layer, {}, edits, error)) << error;
  EXPECT_EQ(edits.primitives, 1u);
  EXPECT_EQ(edits.skins, 0u);
  EXPECT_EQ(edits.edits.size(), 2u);  // sets 0 and 1: vertex 0 has six influences
  EXPECT_TRUE(write::write_document(source, edits.edits, s.path, error)) << error;
  keep_for_validator(s.path);
  return s;
}

TEST(SkinLayerSave, FloatWeightsComeBackBitForBit) {
  const Saved s = edit_and_save(kMannequin, "float_weights.glb");
  const Model again = import_file(s.path);
  const SkinLayer reopened(again);
  const SkinMesh& before = s.layer.get(0, 0);
  const SkinMesh& after = reopened.get(0, 0);
  ASSERT_EQ(after.influences, 8u);
  ASSERT_EQ(after.vertex_count, before.vertex_count);
  EXPECT_EQ(after.joints, before.joints);
  for (size_t k = 0; k < before.weights.size(); ++k)
    ASSERT_EQ(std::bit_cast<uint32_t>(after.weights[k]), std::bit_cast<uint32_t>(before.weights[k]))
        << "slot " << k;
  // FLOAT as the file had it, set 1 too; nothing else was touched.
  const tinygltf::Model doc = read_document(s.path), original = read_document(kMannequin);
  const auto& attributes = doc.meshes[0].primitives[0].attributes;
  for (const char* set : {"WEIGHTS_0", "WEIGHTS_1"})
    EXPECT_EQ(doc.accessors[size_t(attributes.at(set))].componentType,
              TINYGLTF_COMPONENT_TYPE_FLOAT);
  EXPECT_EQ(attributes.at("POSITION"), original.meshes[0].primitives[0].attributes.at("POSITION"));
  EXPECT_EQ(doc.skins[0].inverseBindMatrices, original.skins[0].inverseBindMatrices);
  // Saving the reopened file again without edits writes no weights: it is what was saved.
  SkinLayerEdits none;
  std::string error;
  ASSERT_TRUE(skin_layer_edits(again, reopened, {}, none, error)) << error;
  EXPECT_TRUE(none.edits.empty());
}

// The per-vertex integers of the two weight sets of mesh 0 primitive 0.
std::vector<std::array<uint32_t, 8>> stored_units(const tinygltf::Model& doc, int mesh = 0) {
  const auto& attributes = doc.meshes[size_t(mesh)].primitives[0].attributes;
  std::vector<std::array<uint32_t, 8>> out;
  for (int set = 0; set < 2; ++set) {
    const int index = attributes.at("WEIGHTS_" + std::to_string(set));
    const tinygltf::Accessor& a = doc.accessors[size_t(index)];
    const std::vector<uint8_t> bytes = accessor_bytes(doc, index);
    const size_t size = a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ? 2 : 1;
    out.resize(a.count);
    for (size_t v = 0; v < a.count; ++v)
      for (size_t k = 0; k < 4; ++k) {
        const size_t at = (v * 4 + k) * size;
        out[v][size_t(set) * 4 + k] = size == 2 ? bytes[at] | (bytes[at + 1] << 8) : bytes[at];
      }
  }
  return out;
}

TEST(SkinLayerSave, QuantizedWeightsKeepTheirTypeAndSumExactly) {
  struct Case {
    write::WeightEncoding encoding;
    int type;
    uint32_t max;
    std::array<uint32_t, 8> first;  // vertex 0 (kSix), by hand above
  };
  for (const Case c : {Case{write::WeightEncoding::UnsignedByte,
                            TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                            255,
                            {32, 32, 32, 32, 64, 63, 0, 0}},
                       Case{write::WeightEncoding::UnsignedShort,
                            TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                            65535,
                            {8192, 8192, 8192, 8192, 16384, 16383, 0, 0}}}) {
    // The mannequin with quantized weights first (the file's own type is what saving keeps).
    const std::string quantized = scratch_file("quantized_" + std::to_string(c.max) + ".glb");
    const Model file = import_file(kMannequin);
    SkinLayerEdits all;
    std::string error;
    ASSERT_TRUE(skin_layer_edits(file, SkinLayer(file), {true}, all, error)) << error;
    std::get<write::SetSkinWeights>(all.edits[0]).encoding = c.encoding;
    ASSERT_TRUE(write::write_document(kMannequin, all.edits, quantized, error)) << error;
    keep_for_validator(quantized);

    const Saved s = edit_and_save(quantized, "saved_" + std::to_string(c.max) + ".glb");
    const tinygltf::Model doc = read_document(s.path);
    const auto& attributes = doc.meshes[0].primitives[0].attributes;
    for (const char* set : {"WEIGHTS_0", "WEIGHTS_1"}) {
      EXPECT_EQ(doc.accessors[size_t(attributes.at(set))].componentType, c.type) << set;
      EXPECT_TRUE(doc.accessors[size_t(attributes.at(set))].normalized) << set;
    }
    const std::vector<std::array<uint32_t, 8>> units = stored_units(doc);
    ASSERT_EQ(units.size(), s.model.meshes[0].primitives[0].vertex_count());
    EXPECT_EQ(units[0], c.first);
    for (size_t v = 0; v < units.size(); ++v) {
      uint32_t sum = 0;
      for (uint32_t u : units[v]) sum += u;
      ASSERT_EQ(sum, c.max) << "vertex " << v;
    }
    // Each stored integer is within one unit of the edited weight × max.
    const SkinMesh& edited = s.layer.get(0, 0);
    for (size_t v = 0; v < units.size(); ++v)
      for (size_t k = 0; k < edited.influences; ++k)
        ASSERT_LE(std::abs(double(units[v][k]) - double(edited.weights[v * 8 + k]) * c.max), 1.0)
            << "vertex " << v << " slot " << k;
    // Saving again without an edit keeps the integers exactly.
    const Model again = import_file(s.path);
    SkinLayerEdits every;
    ASSERT_TRUE(skin_layer_edits(again, SkinLayer(again), {true}, every, error)) << error;
    const std::string twice = scratch_file("twice_" + std::to_string(c.max) + ".glb");
    ASSERT_TRUE(write::write_document(s.path, every.edits, twice, error)) << error;
    EXPECT_EQ(stored_units(read_document(twice)), units);
  }
}

TEST(SkinLayerSave, ChangedInverseBindMatricesAreWrittenAndOnlyThose) {
  const Model model = import_file(kArm);
  SkinLayer layer(model);
  glm::mat4 moved = model.skins[0].inverse_bind[1];
  moved[3][0] += 0.5f;
  std::string error;
  ASSERT_TRUE(layer.set_inverse_bind(0, 1, moved, error)) << error;
  SkinLayerEdits edits;
  ASSERT_TRUE(skin_layer_edits(model, layer, {}, edits, error)) << error;
  ASSERT_EQ(edits.edits.size(), 1u);
  EXPECT_EQ(edits.skins, 1u);
  const auto& ibm = std::get<write::SetInverseBindMatrices>(edits.edits[0]);
  EXPECT_EQ(ibm.skin, 0);
  ASSERT_EQ(ibm.matrices.size(), 2u);
  EXPECT_EQ(ibm.matrices[0], model.skins[0].inverse_bind[0]);
  EXPECT_EQ(ibm.matrices[1], moved);
  // A layer of another model is refused.
  const Model other = import_file(kMannequin);
  EXPECT_FALSE(skin_layer_edits(other, layer, {}, edits, error));
  EXPECT_NE(error.find("does not belong"), std::string::npos) << error;
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

// Corpus files with several influence sets: quad_skin.glb has three FLOAT sets (12 influences,
// skinned with the 8 largest), mixed_skin_joints.gltf two normalized UNSIGNED_SHORT sets. One
// vertex edited; the saved file has every set the file had (a third set of zeros), reopens with
// the edited influences bit for bit (float) and sums to exactly 65535 across the sets (short).
TEST(SkinLayerSaveCorpus, FilesWithSeveralSetsKeepThemAll) {
  RIG_REQUIRE_CORPUS(root);
  for (const char* name :
       {"assimp_skin_edge_cases/quad_skin.glb", "assimp_skin_edge_cases/mixed_skin_joints.gltf"}) {
    const std::string path = (root / name).string();
    const Model model = import_file(path);
    int mesh = -1;
    for (size_t m = 0; m < model.meshes.size() && mesh < 0; ++m)
      if (!model.meshes[m].primitives.empty() && model.meshes[m].primitives[0].skinned())
        mesh = int(m);
    ASSERT_GE(mesh, 0) << name;
    const int file_sets = int(model.meshes[size_t(mesh)].primitives[0].influences / 4);
    SkinLayer layer(model);
    const uint32_t primitive = layer.meshes().first_of_mesh[size_t(mesh)];
    const std::array<uint16_t, 2> joints{0, 1};
    const std::array<float, 2> weights{0.75f, 0.25f};
    std::string error;
    ASSERT_TRUE(layer.set_influences(primitive, 0, joints, weights, error)) << error;
    SkinLayerEdits edits;
    ASSERT_TRUE(skin_layer_edits(model, layer, {}, edits, error)) << error;
    ASSERT_EQ(edits.edits.size(), size_t(file_sets)) << name;
    const std::string out =
        scratch_file(std::string("several_") + std::to_string(file_sets) + ".glb");
    ASSERT_TRUE(write::write_document(path, edits.edits, out, error)) << error;
    const tinygltf::Model doc = read_document(out);
    const auto& attributes = doc.meshes[size_t(mesh)].primitives[0].attributes;
    for (int s = 0; s < file_sets; ++s)
      ASSERT_TRUE(attributes.count("WEIGHTS_" + std::to_string(s))) << name << " set " << s;
    const Model again = import_file(out);
    const SkinLayer reopened(again);
    const SkinMesh& before = layer.get(mesh, 0);
    const SkinMesh& after = reopened.get(mesh, 0);
    ASSERT_EQ(after.vertex_count, before.vertex_count);
    const int type = doc.accessors[size_t(attributes.at("WEIGHTS_0"))].componentType;
    if (type == TINYGLTF_COMPONENT_TYPE_FLOAT) {
      EXPECT_EQ(after.joints, before.joints) << name;
      EXPECT_EQ(after.weights, before.weights) << name;
      // The third set holds nothing.
      for (float w : test::accessor_floats(doc, attributes.at("WEIGHTS_2"))) ASSERT_EQ(w, 0.0f);
    } else {
      ASSERT_EQ(type, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) << name;
      const std::vector<std::array<uint32_t, 8>> units = stored_units(doc, mesh);
      EXPECT_EQ(units[0], (std::array<uint32_t, 8>{49151, 16384, 0, 0, 0, 0, 0, 0}));
      for (const auto& vertex : units) {
        uint32_t sum = 0;
        for (uint32_t u : vertex) sum += u;
        ASSERT_EQ(sum, 65535u) << name;
      }
    }
  }
}

}  // namespace
}  // namespace rig
