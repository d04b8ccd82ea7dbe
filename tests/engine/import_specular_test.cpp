// KHR_materials_ior and KHR_materials_specular, read from small files written here. Every
// expected value is the hand-written one in the JSON or the extension's default.
#include <gtest/gtest.h>

#include <string>

#include "import/gltf_import.h"
#include "import_test_files.h"

namespace {

using rig::test::fill_in;
using rig::test::find_warning;
using rig::test::import_error;
using rig::test::import_ok;
using rig::test::triangle_and_picture;

// {MATERIALS} is the materials array.
const char* kFile = R"({
  "asset":{"version":"2.0"},
  "extensionsUsed":["KHR_materials_ior","KHR_materials_specular","KHR_texture_transform"],
  "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
  "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12}],
  "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
  "images":[{"bufferView":1,"mimeType":"image/png"}],
  "textures":[{"source":0},{"source":0}],
  "materials":{MATERIALS},
  "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
  "nodes":[{"mesh":0}]})";

rig::Model import_materials(const std::string& name, const std::string& materials) {
  return import_ok(name, fill_in(kFile, "MATERIALS", materials), triangle_and_picture());
}

TEST(ImportSpecular, EveryFieldReadsBackTheFilesValue) {
  const rig::Model model = import_materials("specular", R"([
    {"extensions":{"KHR_materials_ior":{"ior":1.8},
      "KHR_materials_specular":{"specularFactor":0.4,"specularColorFactor":[1,0.6,0.3],
        "specularTexture":{"index":1,"texCoord":1},
        "specularColorTexture":{"index":0,
          "extensions":{"KHR_texture_transform":{"rotation":0.5,"texCoord":1}}}}}},
    {}])");
  ASSERT_EQ(model.materials.size(), 2u);
  const rig::Material& m = model.materials[0];
  EXPECT_EQ(m.ior, 1.8f);
  EXPECT_EQ(m.specular_factor, 0.4f);
  EXPECT_EQ(m.specular_color_factor, glm::vec3(1.0f, 0.6f, 0.3f));
  EXPECT_EQ(m.specular.texture, 1);
  EXPECT_EQ(m.specular.image, 0);
  EXPECT_EQ(m.specular.texcoord, 1);
  EXPECT_FALSE(m.specular.has_transform);
  EXPECT_EQ(m.specular_color.texture, 0);
  EXPECT_EQ(m.specular_color.texcoord, 0);
  ASSERT_TRUE(m.specular_color.has_transform);
  EXPECT_EQ(m.specular_color.transform.rotation, 0.5f);
  EXPECT_EQ(m.specular_color.effective_texcoord(), 1);
  // The per-slot table lists the two new slots in TextureSlot order.
  const auto slots = rig::texture_slots(m);
  EXPECT_EQ(slots[size_t(rig::TextureSlot::Specular)], &m.specular);
  EXPECT_EQ(slots[size_t(rig::TextureSlot::SpecularColor)], &m.specular_color);
  // Without the extensions: ior 1.5, factor 1, white, no textures (F0 0.04 as glTF's core).
  const rig::Material& d = model.materials[1];
  EXPECT_EQ(d.ior, 1.5f);
  EXPECT_EQ(d.specular_factor, 1.0f);
  EXPECT_EQ(d.specular_color_factor, glm::vec3(1.0f));
  EXPECT_FALSE(d.specular.present());
  EXPECT_FALSE(d.specular_color.present());
  EXPECT_EQ(find_warning(model, "MATERIAL_EXTENSION_INVALID"), nullptr);
}

TEST(ImportSpecular, IorZeroIsReadAsAPerfectReflector) {
  const rig::Model model =
      import_materials("ior0", R"([{"extensions":{"KHR_materials_ior":{"ior":0}}}])");
  EXPECT_EQ(model.materials[0].ior, 1000.0f);
}

TEST(ImportSpecular, OutOfRangeValuesAreWarningsAndTheDefaultsStay) {
  const rig::Model model = import_materials("bad", R"([
    {"extensions":{"KHR_materials_ior":{"ior":0.5},
      "KHR_materials_specular":{"specularFactor":-1,"specularColorFactor":[1,"x",0],
        "specularTexture":{"texCoord":0}}}}])");
  const rig::Material& m = model.materials[0];
  EXPECT_EQ(m.ior, 1.5f);
  EXPECT_EQ(m.specular_factor, 1.0f);
  EXPECT_EQ(m.specular_color_factor, glm::vec3(1.0f));
  EXPECT_FALSE(m.specular.present());
  const rig::ImportWarning* w = find_warning(model, "MATERIAL_EXTENSION_INVALID");
  ASSERT_NE(w, nullptr);
  EXPECT_GE(w->count, 4u);
}

TEST(ImportSpecular, DanglingSpecularTextureIsAOneLineError) {
  const std::string error = import_error(
      "dangling",
      fill_in(
          kFile, "MATERIALS",
          R"([{"extensions":{"KHR_materials_specular":{"specularColorTexture":{"index":5}}}}])"),
      triangle_and_picture());
  EXPECT_NE(error.find("material 0 KHR_materials_specular specularColorTexture uses texture 5"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
