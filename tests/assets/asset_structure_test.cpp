// The bundled assets have the skeleton, mesh, weights, material and clips the issue asks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "asset_fixture.h"

namespace rig::test {
namespace {

TEST(MannequinStructure, ImportsWithoutRepairs) {
  const Model& model = bundled_asset("mannequin.glb");
  for (const ImportWarning& w : model.warnings)
    ADD_FAILURE() << "import warning " << w.code << ": " << w.message;
  ASSERT_EQ(model.skins.size(), 1u);
  ASSERT_EQ(model.draws.size(), 1u);
  EXPECT_EQ(model.draws[0].skin, 0);
}

TEST(MannequinStructure, HumanoidSkeletonWithExpectedNames) {
  const Model& model = bundled_asset("mannequin.glb");
  ASSERT_EQ(model.skins.size(), 1u);
  const Skin& skin = model.skins[0];
  EXPECT_EQ(skin.joints.size(), 24u);  // skins[0].joints in the file
  const std::vector<std::string> expected = {
      "Hips",          "Spine",        "Spine1",           "Spine2",           "Neck",
      "Head",          "LeftShoulder", "LeftArm",          "LeftForeArm",      "LeftHand",
      "RightShoulder", "RightArm",     "RightForeArm",     "RightHand",        "LeftUpLeg",
      "LeftLeg",       "LeftFoot",     "RightUpLeg",       "RightLeg",         "RightFoot",
      "LeftToeBase",   "RightToeBase", "LeftForeArmTwist", "RightForeArmTwist"};
  for (const std::string& name : expected) {
    const int node = node_named(model, name);
    ASSERT_GE(node, 0) << "no joint named " << name;
    EXPECT_NE(std::find(skin.joints.begin(), skin.joints.end(), node), skin.joints.end())
        << name << " is not a joint of the skin";
  }
  EXPECT_EQ(model.nodes[node_named(model, "Hips")].parent, -1) << "Hips must be the root";
  // A few parent links that make it a humanoid chain rather than a bag of names.
  auto parent_name = [&](const char* child) {
    const int p = model.nodes[node_named(model, child)].parent;
    return p >= 0 ? model.nodes[p].name : std::string();
  };
  EXPECT_EQ(parent_name("Spine"), "Hips");
  EXPECT_EQ(parent_name("Spine1"), "Spine");
  EXPECT_EQ(parent_name("Spine2"), "Spine1");
  EXPECT_EQ(parent_name("Neck"), "Spine2");
  EXPECT_EQ(parent_name("Head"), "Neck");
  EXPECT_EQ(parent_name("LeftArm"), "LeftShoulder");
  EXPECT_EQ(parent_name("LeftForeArm"), "LeftArm");
  EXPECT_EQ(parent_name("LeftUpLeg"), "Hips");
  EXPECT_EQ(parent_name("LeftLeg"), "LeftUpLeg");
  EXPECT_EQ(parent_name("LeftFoot"), "LeftLeg");
}

TEST(MannequinStructure, StandsOnTheFloorFacingPlusZ) {
  const Model& model = bundled_asset("mannequin.glb");
  Character character(model);
  const std::vector<glm::vec3> rest =
      skinned_positions(character, PoseSelection{}, SkinningMethod::Linear);
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : rest) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_NEAR(lo.y, 0.0f, 1e-3f) << "the feet rest on y = 0";
  EXPECT_GT(hi.y, 1.7f);
  EXPECT_LT(hi.y, 1.9f);
  // glTF: the front faces +Z, so the character's left is +X and its toes point to +Z.
  const auto world = character.world();
  EXPECT_GT(origin_of(world[node_named(model, "LeftHand")]).x, 0.5f);
  EXPECT_LT(origin_of(world[node_named(model, "RightHand")]).x, -0.5f);
  EXPECT_GT(origin_of(world[node_named(model, "LeftToeBase")]).z,
            origin_of(world[node_named(model, "LeftFoot")]).z + 0.05f);
  EXPECT_GT(origin_of(world[node_named(model, "Head")]).y, 1.5f);
}

TEST(MannequinStructure, VertexCountAndInfluences) {
  const Model& model = bundled_asset("mannequin.glb");
  const Primitive& prim = only_primitive(model);
  EXPECT_EQ(prim.vertex_count(), 17332u);  // the POSITION accessor's count in the file
  ASSERT_EQ(prim.influences, 4u) << "one JOINTS_0/WEIGHTS_0 set: at most 4 influences";
  ASSERT_EQ(prim.weights.size(), size_t(prim.vertex_count()) * 4);
  const size_t joint_count = model.skins[0].joints.size();
  size_t multi_influence = 0;
  for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
    float sum = 0.0f;
    int used = 0;
    for (int k = 0; k < 4; ++k) {
      const float w = prim.weights[v * 4 + k];
      EXPECT_GE(w, 0.0f);
      EXPECT_LT(prim.joints[v * 4 + k], joint_count);
      sum += w;
      used += w > 0.0f;
    }
    ASSERT_NEAR(sum, 1.0f, 1e-5f) << "vertex " << v;
    multi_influence += used > 1;
  }
  // Smooth falloff across joints: 7932 of the file's WEIGHTS_0 rows have two or more non-zero
  // weights (counted from the accessor's floats; import must not drop or add influences).
  EXPECT_EQ(multi_influence, 7932u);
}

// Face winding agrees with the vertex normals, and the winding encloses positive volume
// (divergence theorem), so the normals point out of the body.
void expect_outward_surface(const Primitive& prim) {
  ASSERT_FALSE(prim.normals_generated) << "the file carries its own normals";
  ASSERT_FALSE(prim.indices.empty());
  double volume = 0.0;
  size_t disagreeing = 0;
  for (size_t i = 0; i + 2 < prim.indices.size(); i += 3) {
    const uint32_t a = prim.indices[i], b = prim.indices[i + 1], c = prim.indices[i + 2];
    const glm::dvec3 pa(prim.positions[a]), pb(prim.positions[b]), pc(prim.positions[c]);
    const glm::dvec3 face = glm::cross(pb - pa, pc - pa);
    const glm::dvec3 vertex_normals =
        glm::dvec3(prim.normals[a]) + glm::dvec3(prim.normals[b]) + glm::dvec3(prim.normals[c]);
    if (glm::dot(face, vertex_normals) <= 0.0) ++disagreeing;
    volume += glm::dot(pa, glm::cross(pb, pc)) / 6.0;
  }
  EXPECT_EQ(disagreeing, 0u) << "triangles whose winding contradicts their vertex normals";
  EXPECT_GT(volume, 0.0) << "inside-out surface";
  for (const glm::vec3& n : prim.normals) ASSERT_NEAR(glm::length(n), 1.0f, 1e-4f);
}

TEST(MannequinStructure, OutwardNormalsAndPlausibleVolume) {
  const Primitive& prim = only_primitive(bundled_asset("mannequin.glb"));
  expect_outward_surface(prim);
  double volume = 0.0;
  for (size_t i = 0; i + 2 < prim.indices.size(); i += 3) {
    const glm::dvec3 pa(prim.positions[prim.indices[i]]), pb(prim.positions[prim.indices[i + 1]]),
        pc(prim.positions[prim.indices[i + 2]]);
    volume += glm::dot(pa, glm::cross(pb, pc)) / 6.0;
  }
  // An adult body is about 0.07 m^3; the parts overlap a little at the joints.
  EXPECT_GT(volume, 0.04);
  EXPECT_LT(volume, 0.12);
}

TEST(MannequinStructure, TexturedMaterialAndUvs) {
  const Model& model = bundled_asset("mannequin.glb");
  const Primitive& prim = only_primitive(model);
  ASSERT_EQ(prim.texcoords0.size(), prim.vertex_count());
  ASSERT_GE(prim.material, 0);
  const Material& material = model.materials[prim.material];
  ASSERT_GE(material.base_color.image, 0);
  const Image& image = model.images[material.base_color.image];
  EXPECT_EQ(image.width, 256);  // the PNG's IHDR
  EXPECT_EQ(image.height, 256);
  EXPECT_EQ(image.rgba.size(), size_t(image.width) * image.height * 4) << "PNG decodes";
  // The texture is striped: both a strongly red and a strongly blue texel exist.
  bool red = false, blue = false;
  for (size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const int r = image.rgba[i], g = image.rgba[i + 1], b = image.rgba[i + 2];
    red |= r > 150 && g < 80 && b < 80;
    blue |= b > 150 && r < 80 && g < 100;
  }
  EXPECT_TRUE(red);
  EXPECT_TRUE(blue);
}

TEST(MannequinStructure, HasAllClipsSampledDensely) {
  const Model& model = bundled_asset("mannequin.glb");
  for (const char* name : {"Idle", "Walk", "Run", "Wave", "Twist", "Bend"}) {
    const int c = clip_named(model, name);
    ASSERT_GE(c, 0) << "missing clip " << name;
    const Clip& clip = model.clips[c];
    EXPECT_GT(clip.end - clip.start, 0.3f) << name;
    for (const Channel& ch : clip.channels) {
      EXPECT_EQ(ch.interpolation, Interpolation::Linear) << name;
      // At least 24 keys per second, so LINEAR reproduces the motion.
      EXPECT_GE(float(ch.times.size() - 1) / (ch.times.back() - ch.times.front()), 24.0f) << name;
      if (ch.path != TargetPath::Rotation) continue;
      for (size_t k = 0; k < ch.times.size(); ++k) {
        const float* q = &ch.values[k * 4];
        EXPECT_NEAR(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), 1.0f, 1e-5f);
        if (k == 0) continue;
        const float* p = &ch.values[(k - 1) * 4];
        EXPECT_GE(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3], 0.0f)
            << name << ": consecutive keys in opposite hemispheres at key " << k;
      }
    }
  }
}

TEST(TwistArmStructure, StripedCylinderAlongXWithTwoJoints) {
  const Model& model = bundled_asset("twist_arm.glb");
  for (const ImportWarning& w : model.warnings)
    ADD_FAILURE() << "import warning " << w.code << ": " << w.message;
  ASSERT_EQ(model.skins.size(), 1u);
  EXPECT_EQ(model.skins[0].joints.size(), 2u);
  const Primitive& prim = only_primitive(model);
  expect_outward_surface(prim);
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : prim.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_GT(hi.x - lo.x, 4.0f * (hi.y - lo.y)) << "a long cylinder along X";
  // Dense (65 body rings, one at the joint): the file's POSITION accessor holds 2541 vertices.
  EXPECT_EQ(prim.vertex_count(), 2541u);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_EQ(model.clips[0].name, "Twist");
  ASSERT_GE(prim.material, 0);
  EXPECT_GE(model.materials[prim.material].base_color.image, 0);
}

// The raw-weights example: the rigging chapter's 0.7 and 0.5 on every vertex its two joints
// share, so the importer's kept sums are exactly 0.7f + 0.5f there and 1 elsewhere, and it warns
// about the renormalization (the only warning).
TEST(RawWeightsExampleStructure, SharedVerticesWeighSevenTenthsAndAHalf) {
  const Model& model = bundled_asset("raw_weights_example.glb");
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_EQ(model.warnings[0].code, "WEIGHTS_NOT_NORMALIZED");
  ASSERT_EQ(model.skins.size(), 1u);
  EXPECT_EQ(model.skins[0].joints.size(), 2u);
  const Primitive& prim = only_primitive(model);
  expect_outward_surface(prim);
  ASSERT_EQ(prim.weight_sums.size(), prim.vertex_count());
  size_t shared = 0;
  for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
    const float s = prim.weight_sums[v];
    EXPECT_TRUE(s == 0.7f + 0.5f || s == 1.0f) << v << ": " << s;
    if (s != 1.0f) ++shared;
  }
  EXPECT_GT(shared, 100u);
  ASSERT_EQ(model.clips.size(), 1u);
  EXPECT_EQ(model.clips[0].name, "Bend");
}

}  // namespace
}  // namespace rig::test
