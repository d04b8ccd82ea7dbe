// What the importer does to poses: rotation keys come out unit length, and nodes given as a
// matrix become TRS (plus any shear) so a pose edit on them is never ignored. The corpus check
// compares SimpleSkin with a float64 implementation of the glTF spec written here.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>

#include "character/character.h"
#include "import/gltf_import.h"
#include "import_test_gltf.h"
#include "test_support.h"

namespace rig {
namespace {

using test::ByteBuffer;

Model import_json_ok(const std::string& name, std::string json, const ByteBuffer& bin) {
  json = test::fill_in(json, "URI", test::data_uri(bin.data));
  json = test::fill_in(json, "LEN", std::to_string(bin.size()));
  const auto path = test::temp_folder("pose_rules") / (name + ".gltf");
  test::write_file(path, json);
  Model model;
  std::string error;
  EXPECT_TRUE(import_gltf(path.string(), model, error)) << error;
  return model;
}

bool has_warning(const Model& model, const std::string& code) {
  for (const ImportWarning& w : model.warnings)
    if (w.code == code) return true;
  return false;
}

TEST(ImportPose, NearUnitRotationKeysAreNormalizedWithoutAWarning) {
  ByteBuffer bin;
  bin.put<float>({0, 1});
  // Lengths 1.0006 and ~1.00056: inside the 1e-3 tolerance, so no repair is reported, but the
  // keys are still made unit length (slerp of non-unit keys turns at the wrong rate).
  bin.put<float>({0, 0, 0, 1.0006f, 0, 0, 0.7075f, 0.7075f});
  const Model model = import_json_ok("near_unit", R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                 {"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],
    "nodes":[{}],
    "animations":[{"samplers":[{"input":0,"output":1}],
                   "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}]}]})",
                                     bin);
  ASSERT_EQ(model.clips.size(), 1u);
  const std::vector<float>& v = model.clips[0].channels[0].values;
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[3], 1.0f);
  EXPECT_NEAR(v[6], std::sqrt(0.5f), 1e-7f);
  EXPECT_NEAR(v[7], std::sqrt(0.5f), 1e-7f);
  EXPECT_FALSE(has_warning(model, "ROTATION_NOT_NORMALIZED"));
}

const char* kMatrixNodeJson = R"({
    "asset":{"version":"2.0"},
    "nodes":[{"matrix":{MATRIX}}]})";

// Edits node 0's pose after blending (what IK will do): a new translation, and a turn applied
// on top of its current rotation.
class EditPose : public PoseConstraint {
 public:
  EditPose(glm::vec3 translation, glm::quat turn) : translation_(translation), turn_(turn) {}
  void apply(const ConstraintContext& c) override {
    c.local[0].translation = translation_;
    c.local[0].rotation = turn_ * c.local[0].rotation;
    c.update_world(0);
  }

 private:
  glm::vec3 translation_;
  glm::quat turn_;
};

const glm::quat kQuarterTurnZ = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));

TEST(ImportPose, APoseEditOnAMatrixNodeIsApplied) {
  // Scale 2, +90° about Z, translation (1,2,3): plain TRS, so no shear is left.
  const Model model = import_json_ok(
      "matrix_edit",
      test::fill_in(kMatrixNodeJson, "MATRIX", "[0,2,0,0, -2,0,0,0, 0,0,2,0, 1,2,3,1]"), {});
  ASSERT_EQ(model.nodes.size(), 1u);
  EXPECT_TRUE(model.nodes[0].from_matrix);
  EXPECT_FALSE(model.nodes[0].has_shear);
  Character character(model);
  character.evaluate(PoseSelection{});
  EXPECT_NEAR(glm::length(glm::vec3(character.world()[0][3]) - glm::vec3(1, 2, 3)), 0.0f, 1e-6f);
  EditPose edit({5, 0, 0}, kQuarterTurnZ);
  PoseConstraint* constraints[] = {&edit};
  character.set_constraints(constraints);
  character.evaluate(PoseSelection{});
  // (1,0,0): scale 2 → (2,0,0), the file's 90° → (0,2,0), the edit's 90° → (−2,0,0), + (5,0,0).
  const glm::mat4 w = character.world()[0];
  EXPECT_NEAR(glm::length(glm::vec3(w * glm::vec4(1, 0, 0, 1)) - glm::vec3(3, 0, 0)), 0.0f, 1e-5f);
}

TEST(ImportPose, AShearedMatrixKeepsItsShearUnderThePose) {
  // y axis → (0.5, 1, 0): a shear TRS cannot hold.
  const Model model = import_json_ok(
      "matrix_shear",
      test::fill_in(kMatrixNodeJson, "MATRIX", "[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 1,2,3,1]"), {});
  ASSERT_EQ(model.nodes.size(), 1u);
  EXPECT_TRUE(model.nodes[0].has_shear);
  Character character(model);
  character.evaluate(PoseSelection{});
  // The rest pose reproduces the file's matrix: (0,2,0) → (1,2,0) + (1,2,3).
  const glm::vec3 p(character.world()[0] * glm::vec4(0, 2, 0, 1));
  EXPECT_NEAR(glm::length(p - glm::vec3(2, 4, 3)), 0.0f, 1e-5f);
  EditPose edit({0, 0, 0}, kQuarterTurnZ);
  PoseConstraint* constraints[] = {&edit};
  character.set_constraints(constraints);
  character.evaluate(PoseSelection{});
  // The file's matrix takes (0,2,0) to (1,2,0) before its translation; the edit drops the
  // translation and turns that 90° about Z: (−2,1,0).
  const glm::vec3 q(character.world()[0] * glm::vec4(0, 2, 0, 1));
  EXPECT_NEAR(glm::length(q - glm::vec3(-2, 1, 0)), 0.0f, 1e-5f);
}

// ---- A float64 glTF spec implementation, just enough for SimpleSkin (LINEAR TRS channels,
// float accessors, unsigned joints, one skin). Written from the spec, not from the engine.

std::vector<double> read_floats(const tinygltf::Model& g, int accessor_index) {
  const tinygltf::Accessor& a = g.accessors[size_t(accessor_index)];
  const tinygltf::BufferView& view = g.bufferViews[size_t(a.bufferView)];
  const std::vector<unsigned char>& data = g.buffers[size_t(view.buffer)].data;
  const int components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
  const int size = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
  const size_t stride = view.byteStride ? view.byteStride : size_t(components * size);
  std::vector<double> out;
  for (size_t e = 0; e < a.count; ++e)
    for (int c = 0; c < components; ++c) {
      const unsigned char* p =
          data.data() + view.byteOffset + a.byteOffset + e * stride + size_t(c * size);
      if (a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) {
        float f;
        std::memcpy(&f, p, 4);
        out.push_back(f);
      } else if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        uint16_t s;
        std::memcpy(&s, p, 2);
        out.push_back(s);
      } else {
        out.push_back(*p);
      }
    }
  return out;
}

glm::dquat dslerp(glm::dquat a, glm::dquat b, double t) {
  double d = glm::dot(a, b);
  if (d < 0) {
    b = -b;
    d = -d;
  }
  if (d > 1.0 - 1e-15) return glm::normalize(a * (1 - t) + b * t);
  const double theta = std::acos(d);
  return (a * std::sin((1 - t) * theta) + b * std::sin(t * theta)) / std::sin(theta);
}

TEST(ImportPoseCorpus, SimpleSkinMatchesAFloat64SpecImplementation) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::string path = (corpus / "SimpleSkin" / "SimpleSkin.gltf").string();
  tinygltf::TinyGLTF loader;
  tinygltf::Model g;
  std::string err, warn;
  ASSERT_TRUE(loader.LoadASCIIFromFile(&g, &err, &warn, path)) << err;
  Model model;
  ASSERT_TRUE(import_gltf(path, model, err)) << err;
  Character character(model);

  const tinygltf::Primitive& prim = g.meshes[0].primitives[0];
  const std::vector<double> pos = read_floats(g, prim.attributes.at("POSITION"));
  const std::vector<double> joints = read_floats(g, prim.attributes.at("JOINTS_0"));
  const std::vector<double> weights = read_floats(g, prim.attributes.at("WEIGHTS_0"));
  const std::vector<double> ibm = read_floats(g, g.skins[0].inverseBindMatrices);
  const std::vector<double> times = read_floats(g, g.animations[0].samplers[0].input);
  const std::vector<double> keys = read_floats(g, g.animations[0].samplers[0].output);
  const size_t vertices = pos.size() / 3;

  for (double t : {0.3, 1.65, 2.2, 4.1}) {
    // Sample the one rotation channel (node 2), keys normalized as unit quaternions must be.
    size_t k = 0;
    while (k + 2 < times.size() && times[k + 1] <= t) ++k;
    const double u = (t - times[k]) / (times[k + 1] - times[k]);
    auto key = [&](size_t i) {
      return glm::normalize(
          glm::dquat(keys[4 * i + 3], keys[4 * i], keys[4 * i + 1], keys[4 * i + 2]));
    };
    const glm::dquat q = dslerp(key(k), key(k + 1), u);
    // Node 1 is the identity root; node 2 sits at (0,1,0) under it with the sampled rotation.
    const glm::dmat4 world1(1.0);
    const glm::dmat4 world2 =
        glm::translate(glm::dmat4(1.0), glm::dvec3(0, 1, 0)) * glm::mat4_cast(q);
    glm::dmat4 skinning[2];
    for (int j = 0; j < 2; ++j) {
      glm::dmat4 inv;
      for (int e = 0; e < 16; ++e) inv[e / 4][e % 4] = ibm[size_t(16 * j + e)];
      skinning[j] = (j == 0 ? world1 : world2) * inv;
    }
    character.evaluate(PoseSelection{0, float(t)});
    std::vector<glm::vec3> got(vertices), normals(vertices);
    character.skin_draw_item(model.draws[0], SkinningMethod::Linear, got, normals);
    glm::dvec3 lo(1e30), hi(-1e30);
    std::vector<glm::dvec3> want(vertices);
    for (size_t v = 0; v < vertices; ++v) {
      glm::dmat4 m(0.0);
      for (int i = 0; i < 4; ++i)
        m += skinning[size_t(joints[4 * v + size_t(i)])] * weights[4 * v + size_t(i)];
      want[v] = glm::dvec3(m * glm::dvec4(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2], 1.0));
      lo = glm::min(lo, want[v]);
      hi = glm::max(hi, want[v]);
    }
    const double diagonal = glm::length(hi - lo);
    double worst = 0.0;
    for (size_t v = 0; v < vertices; ++v)
      worst = std::max(worst, glm::length(glm::dvec3(got[v]) - want[v]) / diagonal);
    // Float rounding alone is ~1e-7; slerping the file's unnormalized keys was 2.9e-5 at 1.65 s.
    EXPECT_LT(worst, 2e-6) << "t = " << t;
  }
}

}  // namespace
}  // namespace rig
