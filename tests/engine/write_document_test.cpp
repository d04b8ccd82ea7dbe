// The document writer without edits (write/gltf_document.h): the copy holds the file's own
// document, self-contained, and imports to the same model.
#include <gtest/gtest.h>

#include "import/gltf_import.h"
#include "write/gltf_document.h"
#include "write_test_support.h"

namespace rig {
namespace {

using test::accessor_bytes;
using test::read_document;
using test::scratch_file;

// The imported models agree on everything --info reports and on the data itself.
void expect_same_model(const Model& a, const Model& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (size_t s = 0; s < a.skins.size(); ++s) {
    EXPECT_EQ(a.skins[s].joints, b.skins[s].joints);
    EXPECT_EQ(a.skins[s].inverse_bind, b.skins[s].inverse_bind);
  }
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t c = 0; c < a.clips.size(); ++c) {
    ASSERT_EQ(a.clips[c].channels.size(), b.clips[c].channels.size());
    for (size_t k = 0; k < a.clips[c].channels.size(); ++k) {
      EXPECT_EQ(a.clips[c].channels[k].times, b.clips[c].channels[k].times);
      EXPECT_EQ(a.clips[c].channels[k].values, b.clips[c].channels[k].values);
    }
  }
  EXPECT_EQ(a.draws.size(), b.draws.size());
  EXPECT_EQ(a.warnings.size(), b.warnings.size());
}

TEST(WriteDocument, ANoOpCopyKeepsEveryObjectAndItsData) {
  for (const char* name : {"mannequin", "twist_arm"}) {
    const std::string in = std::string(RIGVIEW_SOURCE_DIR "/assets/") + name + ".glb";
    for (const char* ext : {".glb", ".gltf"}) {
      const std::string out = scratch_file(std::string("copy_") + name + ext);
      std::string error;
      ASSERT_TRUE(write::write_document(in, {}, out, error)) << error;
      const tinygltf::Model before = read_document(in), after = read_document(out);
      EXPECT_EQ(after.accessors.size(), before.accessors.size());
      EXPECT_EQ(after.bufferViews.size(), before.bufferViews.size());
      EXPECT_EQ(after.images.size(), before.images.size());
      EXPECT_EQ(after.materials.size(), before.materials.size());
      for (size_t a = 0; a < before.accessors.size(); ++a)
        EXPECT_EQ(accessor_bytes(after, int(a)), accessor_bytes(before, int(a))) << a;
      Model a, b;
      ASSERT_TRUE(import_gltf(in, a, error)) << error;
      ASSERT_TRUE(import_gltf(out, b, error)) << error;
      expect_same_model(a, b);
    }
  }
}

// By extension: .gltf is JSON with the buffer as a data: URI, anything else GLB; OutputFormat::Glb
// (the optimizer's) writes GLB whatever the name.
TEST(WriteDocument, TheFormatFollowsTheNameUnlessGlbIsAskedFor) {
  write::SourceDocument doc;
  std::string error;
  ASSERT_TRUE(doc.open(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb", error)) << error;
  const std::string json = scratch_file("format.GLTF"), other = scratch_file("format.bin");
  const std::string forced = scratch_file("forced.gltf");
  ASSERT_TRUE(doc.save(json, error)) << error;
  ASSERT_TRUE(doc.save(other, error)) << error;
  ASSERT_TRUE(doc.save(forced, error, {}, write::OutputFormat::Glb)) << error;
  EXPECT_EQ(test::slurp(json).substr(0, 1), "{");
  EXPECT_NE(test::slurp(json).find("data:application/octet-stream;base64,"), std::string::npos);
  EXPECT_EQ(test::slurp(other).substr(0, 4), "glTF");
  EXPECT_EQ(test::slurp(forced).substr(0, 4), "glTF");
}

TEST(WriteDocument, AnUnreadableInputIsNamed) {
  std::string error;
  const std::string missing = scratch_file("missing.glb");
  EXPECT_FALSE(write::write_document(missing, {}, scratch_file("never.glb"), error));
  EXPECT_NE(error.find(missing), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(scratch_file("never.glb")));
}

}  // namespace
}  // namespace rig
