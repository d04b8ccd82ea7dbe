// The whole glTF material and the TANGENT / COLOR_0 / TEXCOORD_1 attributes, read from small
// files written here. Every expected value is the hand-written one in the JSON or the buffer
// (or the glTF 2.0 spec's default), never the importer's own output.
#include <gtest/gtest.h>

#include "import/gltf_import.h"
#include "import_test_files.h"

namespace {

using rig::test::ByteBuffer;
using rig::test::data_uri;
using rig::test::fill_in;
using rig::test::find_warning;
using rig::test::import_error;
using rig::test::import_ok;
using rig::test::triangle_and_picture;

const char* kMaterialFile = R"({
  "asset":{"version":"2.0"},
  "extensionsUsed":["KHR_texture_transform","KHR_materials_unlit","KHR_materials_emissive_strength"],
  "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
  "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12}],
  "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
  "images":[{"bufferView":1,"mimeType":"image/png"},{"bufferView":1,"mimeType":"image/png"}],
  "samplers":[{"magFilter":9728,"minFilter":9986,"wrapS":33071,"wrapT":33648},{}],
  "textures":[{"source":1,"sampler":0},{"source":0},{"source":1,"sampler":1}],
  "materials":[
    {"name":"everything",
     "pbrMetallicRoughness":{
       "baseColorFactor":[0.1,0.2,0.3,0.4],
       "baseColorTexture":{"index":0,"texCoord":1,
         "extensions":{"KHR_texture_transform":{"offset":[0.5,-0.25],"rotation":1.5,
                                                "scale":[2,3],"texCoord":0}}},
       "metallicFactor":0.25,"roughnessFactor":0.75,
       "metallicRoughnessTexture":{"index":1}},
     "normalTexture":{"index":2,"texCoord":1,"scale":0.5},
     "occlusionTexture":{"index":1,"strength":0.3},
     "emissiveTexture":{"index":2,
       "extensions":{"KHR_texture_transform":{"rotation":-0.5}}},
     "emissiveFactor":[1,0.5,0.25],
     "alphaMode":"MASK","alphaCutoff":0.3,"doubleSided":true,
     "extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":4}}},
    {"alphaMode":"BLEND","extensions":{"KHR_materials_unlit":{}}},
    {}],
  "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
  "nodes":[{"mesh":0}]})";

TEST(ImportMaterial, EveryFieldReadsBackTheFilesValue) {
  const rig::Model model = import_ok("everything", kMaterialFile, triangle_and_picture());
  ASSERT_EQ(model.materials.size(), 3u);
  const rig::Material& m = model.materials[0];
  EXPECT_EQ(m.name, "everything");
  EXPECT_EQ(m.base_color_factor, glm::vec4(0.1f, 0.2f, 0.3f, 0.4f));
  EXPECT_EQ(m.base_color.texture, 0);
  EXPECT_EQ(m.base_color.image, 1);  // texture 0's source
  EXPECT_EQ(m.base_color.texcoord, 1);
  EXPECT_EQ(m.base_color.sampler.mag_filter, 9728);
  EXPECT_EQ(m.base_color.sampler.min_filter, 9986);
  EXPECT_EQ(m.base_color.sampler.wrap_s, rig::kWrapClampToEdge);
  EXPECT_EQ(m.base_color.sampler.wrap_t, rig::kWrapMirroredRepeat);
  ASSERT_TRUE(m.base_color.has_transform);
  EXPECT_EQ(m.base_color.transform.offset, glm::vec2(0.5f, -0.25f));
  EXPECT_EQ(m.base_color.transform.rotation, 1.5f);
  EXPECT_EQ(m.base_color.transform.scale, glm::vec2(2.0f, 3.0f));
  EXPECT_EQ(m.base_color.transform.texcoord, 0);
  EXPECT_EQ(m.base_color.effective_texcoord(), 0);  // the extension's override wins

  EXPECT_EQ(m.metallic_factor, 0.25f);
  EXPECT_EQ(m.roughness_factor, 0.75f);
  EXPECT_EQ(m.metallic_roughness.texture, 1);
  EXPECT_EQ(m.metallic_roughness.image, 0);
  EXPECT_EQ(m.metallic_roughness.texcoord, 0);
  EXPECT_FALSE(m.metallic_roughness.has_transform);
  // Texture 1 has no sampler: repeat, filters left to the renderer.
  EXPECT_EQ(m.metallic_roughness.sampler.wrap_s, rig::kWrapRepeat);
  EXPECT_EQ(m.metallic_roughness.sampler.wrap_t, rig::kWrapRepeat);
  EXPECT_EQ(m.metallic_roughness.sampler.mag_filter, -1);
  EXPECT_EQ(m.metallic_roughness.sampler.min_filter, -1);

  EXPECT_EQ(m.normal.texture, 2);
  EXPECT_EQ(m.normal.image, 1);
  EXPECT_EQ(m.normal.texcoord, 1);
  EXPECT_EQ(m.normal.effective_texcoord(), 1);
  EXPECT_EQ(m.normal_scale, 0.5f);
  // Sampler 1 is {}: the spec's defaults.
  EXPECT_EQ(m.normal.sampler.wrap_s, rig::kWrapRepeat);
  EXPECT_EQ(m.normal.sampler.mag_filter, -1);
  EXPECT_EQ(m.occlusion.texture, 1);
  EXPECT_EQ(m.occlusion_strength, 0.3f);
  EXPECT_EQ(m.emissive.texture, 2);
  ASSERT_TRUE(m.emissive.has_transform);
  EXPECT_EQ(m.emissive.transform.rotation, -0.5f);
  EXPECT_EQ(m.emissive.transform.offset, glm::vec2(0.0f));  // the extension's defaults
  EXPECT_EQ(m.emissive.transform.scale, glm::vec2(1.0f));
  EXPECT_EQ(m.emissive.transform.texcoord, -1);
  EXPECT_EQ(m.emissive_factor, glm::vec3(1.0f, 0.5f, 0.25f));
  EXPECT_EQ(m.emissive_strength, 4.0f);
  EXPECT_EQ(m.alpha_mode, rig::AlphaMode::Mask);
  EXPECT_EQ(m.alpha_cutoff, 0.3f);
  EXPECT_TRUE(m.double_sided);
  EXPECT_FALSE(m.unlit);

  EXPECT_EQ(model.materials[1].alpha_mode, rig::AlphaMode::Blend);
  EXPECT_TRUE(model.materials[1].unlit);
}

TEST(ImportMaterial, AbsentFieldsTakeTheSpecDefaults) {
  const rig::Model model = import_ok("defaults", kMaterialFile, triangle_and_picture());
  ASSERT_EQ(model.materials.size(), 3u);
  const rig::Material& m = model.materials[2];
  EXPECT_EQ(m.base_color_factor, glm::vec4(1.0f));
  EXPECT_EQ(m.metallic_factor, 1.0f);
  EXPECT_EQ(m.roughness_factor, 1.0f);
  EXPECT_EQ(m.normal_scale, 1.0f);
  EXPECT_EQ(m.occlusion_strength, 1.0f);
  EXPECT_EQ(m.emissive_factor, glm::vec3(0.0f));
  EXPECT_EQ(m.emissive_strength, 1.0f);
  EXPECT_EQ(m.alpha_mode, rig::AlphaMode::Opaque);
  EXPECT_EQ(m.alpha_cutoff, 0.5f);
  EXPECT_FALSE(m.double_sided);
  EXPECT_FALSE(m.unlit);
  for (const rig::TextureRef* t :
       {&m.base_color, &m.metallic_roughness, &m.normal, &m.occlusion, &m.emissive}) {
    EXPECT_FALSE(t->present());
    EXPECT_EQ(t->texture, -1);
    EXPECT_EQ(t->image, -1);
    EXPECT_EQ(t->texcoord, 0);
    EXPECT_FALSE(t->has_transform);
  }
}

TEST(ImportMaterial, DanglingTextureIndexIsAOneLineError) {
  std::string json = kMaterialFile;
  json =
      json.replace(json.find(R"("normalTexture":{"index":2)"), 26, R"("normalTexture":{"index":7)");
  const std::string error = import_error("dangling", json, triangle_and_picture());
  EXPECT_NE(error.find("material 0 normalTexture uses texture 7"), std::string::npos) << error;
}

TEST(ImportMaterial, MalformedTextureTransformIsAWarningAndIgnored) {
  std::string json = kMaterialFile;
  json = json.replace(json.find(R"("rotation":-0.5)"), 15, R"("rotation":"x")");
  const rig::Model model = import_ok("bad_transform", json, triangle_and_picture());
  ASSERT_EQ(model.materials.size(), 3u);
  EXPECT_FALSE(model.materials[0].emissive.has_transform);
  EXPECT_NE(find_warning(model, "TEXTURE_TRANSFORM_INVALID"), nullptr);
}

// Buffer of the attribute tests: POSITION (bufferView 0), TANGENT float VEC4 (1), COLOR_0
// UNSIGNED_BYTE VEC3 normalized with a stride of 4 (2), TEXCOORD_1 float VEC2 (3), COLOR_0
// UNSIGNED_SHORT VEC4 normalized (4).
ByteBuffer attribute_buffer() {
  ByteBuffer bin;
  bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
  bin.put<float>({1, 0, 0, 1, 0, 1, 0, -1, 0, 0, 1, 1});
  bin.put<uint8_t>({255, 0, 128, 0, 1, 2, 254, 0, 51, 102, 204, 0});
  bin.put<float>({0.25f, 0.5f, 0.75f, 1.0f, -1.0f, 2.0f});
  bin.put<uint16_t>({65535, 0, 32768, 1000, 1, 2, 3, 4, 0, 0, 0, 65535});
  return bin;
}

const char* kAttributeFile = R"({
  "asset":{"version":"2.0"},
  "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
  "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":48},
                 {"buffer":0,"byteOffset":84,"byteLength":12,"byteStride":4},
                 {"buffer":0,"byteOffset":96,"byteLength":24},
                 {"buffer":0,"byteOffset":120,"byteLength":24}],
  "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
               {"bufferView":1,"componentType":5126,"count":{TANGENT_COUNT},"type":"{TANGENT_TYPE}"},
               {"bufferView":2,"componentType":5121,"normalized":true,"count":3,"type":"VEC3"},
               {"bufferView":3,"componentType":5126,"count":3,"type":"VEC2"},
               {"bufferView":4,"componentType":5123,"normalized":true,"count":{COLOR_COUNT},"type":"VEC4"}],
  "meshes":[{"primitives":[
    {"attributes":{"POSITION":0,"TANGENT":1,"COLOR_0":2,"TEXCOORD_1":3}},
    {"attributes":{"POSITION":0,"COLOR_0":4}}]}],
  "nodes":[{"mesh":0}]})";

std::string attribute_file(const std::string& tangent_type = "VEC4", int tangent_count = 3,
                           int color_count = 3) {
  std::string json = fill_in(kAttributeFile, "TANGENT_TYPE", tangent_type);
  json = fill_in(json, "TANGENT_COUNT", std::to_string(tangent_count));
  return fill_in(json, "COLOR_COUNT", std::to_string(color_count));
}

TEST(ImportAttributes, ColorTangentAndSecondTexcoordAreKept) {
  const rig::Model model = import_ok("attributes", attribute_file(), attribute_buffer());
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].primitives.size(), 2u);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  // Normalized UNSIGNED_BYTE: c / 255, the spec's normalization; VEC3 → alpha 1.
  ASSERT_EQ(p.colors0.size(), 3u);
  EXPECT_EQ(p.colors0[0], glm::vec4(1.0f, 0.0f, 128 / 255.0f, 1.0f));
  EXPECT_EQ(p.colors0[1], glm::vec4(1 / 255.0f, 2 / 255.0f, 254 / 255.0f, 1.0f));
  EXPECT_EQ(p.colors0[2], glm::vec4(0.2f, 0.4f, 0.8f, 1.0f));  // 51, 102, 204 over 255
  ASSERT_EQ(p.tangents.size(), 3u);
  EXPECT_EQ(p.tangents[0], glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(p.tangents[1], glm::vec4(0, 1, 0, -1));  // w keeps the handedness
  EXPECT_EQ(p.tangents[2], glm::vec4(0, 0, 1, 1));
  ASSERT_EQ(p.texcoords1.size(), 3u);
  EXPECT_EQ(p.texcoords1[0], glm::vec2(0.25f, 0.5f));
  EXPECT_EQ(p.texcoords1[2], glm::vec2(-1.0f, 2.0f));
  EXPECT_TRUE(p.texcoords0.empty());

  // Normalized UNSIGNED_SHORT VEC4: c / 65535, alpha from the file.
  const rig::Primitive& q = model.meshes[0].primitives[1];
  ASSERT_EQ(q.colors0.size(), 3u);
  EXPECT_EQ(q.colors0[0], glm::vec4(1.0f, 0.0f, 32768 / 65535.0f, 1000 / 65535.0f));
  EXPECT_EQ(q.colors0[2], glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_TRUE(q.tangents.empty());
  EXPECT_EQ(find_warning(model, "TANGENT_INVALID"), nullptr);
}

TEST(ImportAttributes, WrongTypeTangentIsAWarningAndDropped) {
  const rig::Model model = import_ok("tangent_vec3", attribute_file("VEC3", 3), attribute_buffer());
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_TRUE(model.meshes[0].primitives[0].tangents.empty());
  EXPECT_EQ(model.meshes[0].primitives[0].colors0.size(), 3u);  // the rest still imports
  const rig::ImportWarning* warning = find_warning(model, "TANGENT_INVALID");
  ASSERT_NE(warning, nullptr);
  EXPECT_NE(warning->message.find("mesh 0 primitive 0 TANGENT"), std::string::npos)
      << warning->message;
}

TEST(ImportAttributes, TangentCountOtherThanPositionsIsAWarningAndDropped) {
  const rig::Model model =
      import_ok("tangent_count", attribute_file("VEC4", 2), attribute_buffer());
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_TRUE(model.meshes[0].primitives[0].tangents.empty());
  const rig::ImportWarning* warning = find_warning(model, "TANGENT_INVALID");
  ASSERT_NE(warning, nullptr);
  EXPECT_NE(warning->message.find("2 elements but POSITION has 3"), std::string::npos)
      << warning->message;
}

// A tangent accessor of the right type and count that reads past its bufferView is bad data,
// not an unusable attribute: an error, as for every other attribute.
TEST(ImportAttributes, TangentPastItsBufferViewIsAnError) {
  std::string json = attribute_file();
  const std::string view = R"({"bufferView":1,"componentType":5126)";
  json.replace(json.find(view), view.size(),
               R"({"bufferView":1,"byteOffset":16,"componentType":5126)");
  const std::string error = import_error("tangent_past", json, attribute_buffer());
  EXPECT_NE(error.find("mesh 0 primitive 0 TANGENT"), std::string::npos) << error;
}

TEST(ImportAttributes, ColorCountOtherThanPositionsIsAnError) {
  const std::string error =
      import_error("color_count", attribute_file("VEC4", 3, 2), attribute_buffer());
  EXPECT_NE(error.find("mesh 0 primitive 1 COLOR_0 has 2 elements but POSITION has 3"),
            std::string::npos)
      << error;
}

TEST(ImportAttributes, ColorPastItsBufferViewIsAnError) {
  const std::string error =
      import_error("color_past", attribute_file("VEC4", 3, 4), attribute_buffer());
  EXPECT_NE(error.find("COLOR_0"), std::string::npos) << error;
}

}  // namespace
