// Unknown members (write/unknown_members.h): found in a file's JSON by the schema's member names,
// and written back into the same objects by the document writer. The written JSON is checked
// through tinygltf, which reads any JSON value as `extras`: an independent parser.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <fstream>

#include "write/gltf_document.h"
#include "write/unknown_members.h"
#include "write_test_support.h"

namespace rig {
namespace {

using test::scratch_file;

// `json` parsed by tinygltf (as the extras of a minimal document).
tinygltf::Value parsed(const std::string& json) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model doc;
  std::string error, warning;
  const std::string wrapper = "{\"asset\":{\"version\":\"2.0\"},\"extras\":" + json + "}";
  EXPECT_TRUE(loader.LoadASCIIFromString(&doc, &error, &warning, wrapper.data(),
                                         unsigned(wrapper.size()), ""))
      << error;
  return doc.extras;
}

const char* kDocument = R"({
  "asset": {"version": "2.0", "rigview_asset": [1, 2]},
  "rigview_top": {"a": "}{\"]", "b": [[{"c": 1}]]},
  "extras": {"kept": "by tinygltf"},
  "nodes": [
    {"name": "a", "rigview_node": true, "extensions": {"EXT_x": {}}},
    {"name": "b", "children": [0]}
  ],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "rigview_primitive": -1.5e3}]}],
  "materials": [{"pbrMetallicRoughness": {"rigview_deep": 1}}],
  "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"},
                                "rigview_channel": null}], "samplers": []}]
})";

TEST(UnknownMembers, TheSchemasNamesAreKnownAndTheRestFoundVerbatim) {
  const std::vector<write::UnknownMember> found = write::find_unknown_members(kDocument);
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].object, "asset");
  EXPECT_EQ(found[0].name, "rigview_asset");
  EXPECT_EQ(found[0].value, "[1, 2]");
  EXPECT_EQ(found[1].object, "");
  EXPECT_EQ(found[1].name, "rigview_top");
  EXPECT_EQ(found[1].value, R"({"a": "}{\"]", "b": [[{"c": 1}]]})");
  EXPECT_EQ(found[2].object, "nodes/0");
  EXPECT_EQ(found[2].value, "true");
  EXPECT_EQ(found[3].object, "meshes/0/primitives/0");
  EXPECT_EQ(found[3].value, "-1.5e3");
  EXPECT_EQ(found[4].object, "animations/0/channels/0");
  EXPECT_EQ(found[4].value, "null");
  // Not JSON: nothing.
  EXPECT_TRUE(write::find_unknown_members("{\"a\": [1, 2}").empty());
  EXPECT_TRUE(write::find_unknown_members("").empty());
}

TEST(UnknownMembers, InsertedIntoTheirObjects) {
  const std::vector<write::UnknownMember> found = write::find_unknown_members(kDocument);
  const std::string bare = R"({"asset": {"version": "2.0"}, "nodes": [{}, {"name": "b"}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]})";
  const tinygltf::Value v = parsed(write::insert_unknown_members(bare, found));
  EXPECT_EQ(v.Get("rigview_top").Get("a").Get<std::string>(), "}{\"]");
  EXPECT_EQ(v.Get("rigview_top").Get("b").Get(0).Get(0).Get("c").GetNumberAsInt(), 1);
  EXPECT_EQ(v.Get("asset").Get("rigview_asset").ArrayLen(), 2u);
  EXPECT_EQ(v.Get("asset").Get("version").Get<std::string>(), "2.0");
  EXPECT_TRUE(v.Get("nodes").Get(0).Get("rigview_node").Get<bool>());
  EXPECT_FALSE(v.Get("nodes").Get(1).Has("rigview_node"));
  EXPECT_EQ(
      v.Get("meshes").Get(0).Get("primitives").Get(0).Get("rigview_primitive").GetNumberAsDouble(),
      -1500.0);
  // No animations in `bare`: the channel's member has nowhere to go and is left out; skipped
  // arrays too.
  EXPECT_FALSE(v.Has("animations"));
  const tinygltf::Value skipped = parsed(write::insert_unknown_members(bare, found, {"nodes"}));
  EXPECT_FALSE(skipped.Get("nodes").Get(0).Has("rigview_node"));
  EXPECT_TRUE(skipped.Get("asset").Has("rigview_asset"));
}

// twist_arm as a .gltf with unknown members at the top, in the asset, a node, the skin, the
// primitive and an accessor; written again as GLB and .gltf, without and with an edit.
TEST(UnknownMembers, TheDocumentWriterKeepsThem) {
  tinygltf::Model doc = test::read_document(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb");
  tinygltf::TinyGLTF writer;
  std::ostringstream text;
  ASSERT_TRUE(writer.WriteGltfSceneToStream(&doc, text, false, false));
  std::string json = text.str();
  auto insert_after = [&](const std::string& anchor, const std::string& member) {
    const size_t at = json.find(anchor);
    ASSERT_NE(at, std::string::npos) << anchor;
    json.insert(at + anchor.size(), member + ",");
  };
  insert_after("{", "\"rigview_top\":{\"x\":[1,2,3]}");
  insert_after("\"asset\":{", "\"rigview_asset\":\"a\"");
  insert_after("\"nodes\":[{", "\"rigview_node\":7");
  insert_after("\"skins\":[{", "\"rigview_skin\":[true]");
  insert_after("\"primitives\":[{", "\"rigview_primitive\":0.25");
  insert_after("\"accessors\":[{", "\"rigview_accessor\":\"first\"");
  const std::string in = scratch_file("unknown.gltf");
  std::ofstream(in, std::ios::binary) << json;

  const size_t joints = doc.skins[0].joints.size();
  const std::vector<write::DocumentEdit> edit{
      write::SetInverseBindMatrices{0, std::vector<glm::mat4>(joints, glm::mat4(1.0f))}};
  for (const bool edited : {false, true})
    for (const char* ext : {".gltf", ".glb"}) {
      const std::string out = scratch_file(std::string("unknown_out") + ext);
      std::string error;
      ASSERT_TRUE(write::write_document(in,
                                        edited ? std::span<const write::DocumentEdit>(edit)
                                               : std::span<const write::DocumentEdit>(),
                                        out, error))
          << error;
      std::string bytes = test::slurp(out);
      if (std::string(ext) == ".glb") {
        uint32_t length = 0;
        std::memcpy(&length, bytes.data() + 12, 4);
        bytes = bytes.substr(20, length);
      }
      const tinygltf::Value v = parsed(bytes);
      EXPECT_EQ(v.Get("rigview_top").Get("x").ArrayLen(), 3u) << ext;
      EXPECT_EQ(v.Get("asset").Get("rigview_asset").Get<std::string>(), "a") << ext;
      EXPECT_EQ(v.Get("nodes").Get(0).Get("rigview_node").GetNumberAsInt(), 7) << ext;
      EXPECT_TRUE(v.Get("skins").Get(0).Get("rigview_skin").Get(0).Get<bool>()) << ext;
      EXPECT_EQ(v.Get("meshes")
                    .Get(0)
                    .Get("primitives")
                    .Get(0)
                    .Get("rigview_primitive")
                    .GetNumberAsDouble(),
                0.25)
          << ext;
      EXPECT_EQ(v.Get("accessors").Get(0).Get("rigview_accessor").Get<std::string>(), "first")
          << ext;
      // The file still reads, with the edit applied.
      const tinygltf::Model again = test::read_document(out);
      EXPECT_EQ(again.skins[0].inverseBindMatrices != doc.skins[0].inverseBindMatrices, edited);
    }
}

}  // namespace
}  // namespace rig
