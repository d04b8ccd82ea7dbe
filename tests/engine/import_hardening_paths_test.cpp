// Path policy of external URIs: the default (relative URIs may climb out of the model's folder;
// absolute paths, other schemes and the working directory refused, each saying why) and the
// confine mode for batch use (nothing outside the model's folder after "..", percent-decoding and
// symbolic links), plus import from memory (no folder at all).
#include <gtest/gtest.h>

#include <filesystem>

#include "import/gltf_import.h"
#include "import_test_gltf.h"

namespace {

namespace fs = std::filesystem;
using rig::test::triangle_bin;
using rig::test::triangle_gltf;

struct Result {
  bool ok = false;
  std::string error;
  float first_x = 0.0f;
};

Result load(const fs::path& file, bool confine) {
  rig::ImportOptions options;
  options.confine = confine;
  rig::Model model;
  Result r;
  r.ok = rig::import_gltf(file.string(), options, model, r.error);
  if (r.ok) r.first_x = model.meshes[0].primitives[0].positions[0].x;
  return r;
}

// root/models/<model files>, root/models/inside.bin, root/shared/outside.bin,
// root/models/link_out.bin → ../shared/outside.bin, root/models/link_in.bin → inside.bin.
fs::path make_tree(const std::string& name) {
  const fs::path root = rig::test::temp_folder(name);
  fs::create_directories(root / "models" / "sub");
  fs::create_directories(root / "shared");
  rig::test::write_file(root / "models" / "inside.bin", triangle_bin(1));
  rig::test::write_file(root / "shared" / "outside.bin", triangle_bin(2));
  fs::create_symlink(root / "shared" / "outside.bin", root / "models" / "link_out.bin");
  fs::create_symlink("inside.bin", root / "models" / "link_in.bin");
  fs::create_directory_symlink(root / "shared", root / "models" / "shared_dir");
  return root;
}

TEST(ImportHardeningPaths, AbsolutePathsAreRefusedAsAbsoluteNotAsMissing) {
  const fs::path root = make_tree("hardening_abs");
  const fs::path existing = root / "shared" / "outside.bin";  // exists: refusal, not "not found"
  for (const std::string& uri : {existing.string(), std::string("/etc/passwd"),
                                 std::string("C:/models/x.bin"), std::string("C:\\\\x.bin")}) {
    rig::test::write_file(root / "models" / "abs.gltf", triangle_gltf(uri));
    for (bool confine : {false, true}) {
      SCOPED_TRACE(uri + (confine ? " confined" : " default"));
      const Result r = load(root / "models" / "abs.gltf", confine);
      EXPECT_FALSE(r.ok);
      EXPECT_NE(r.error.find("absolute path not allowed"), std::string::npos) << r.error;
      EXPECT_EQ(r.error.find("file not found"), std::string::npos) << r.error;
    }
  }
}

TEST(ImportHardeningPaths, OtherSchemesAreRefusedByName) {
  const fs::path root = make_tree("hardening_scheme");
  for (const auto& [uri, scheme] :
       {std::pair<std::string, std::string>{"file:///etc/passwd", "file"},
        {"http://example.com/a.bin", "http"},
        {"https://example.com/a.bin", "https"}}) {
    rig::test::write_file(root / "models" / "s.gltf", triangle_gltf(uri));
    const Result r = load(root / "models" / "s.gltf", false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("URI scheme '" + scheme + "' not allowed"), std::string::npos)
        << r.error;
  }
}

TEST(ImportHardeningPaths, DefaultModeLetsRelativeUrisClimbOutAndFollowLinks) {
  const fs::path root = make_tree("hardening_default");
  struct Case {
    std::string uri;
    float x;
  };
  for (const Case& c :
       {Case{"inside.bin", 1}, Case{"sub/../inside.bin", 1}, Case{"../shared/outside.bin", 2},
        Case{"%2E%2E/shared/outside.bin", 2}, Case{"%2e%2e%2Fshared%2Foutside.bin", 2},
        Case{"link_out.bin", 2}, Case{"link_in.bin", 1}, Case{"shared_dir/outside.bin", 2}}) {
    SCOPED_TRACE(c.uri);
    rig::test::write_file(root / "models" / "m.gltf", triangle_gltf(c.uri));
    const Result r = load(root / "models" / "m.gltf", false);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.first_x, c.x);
  }
}

TEST(ImportHardeningPaths, ConfineModeKeepsEveryUriInsideTheModelsFolder) {
  const fs::path root = make_tree("hardening_confine");
  for (const std::string& uri :
       {std::string("../shared/outside.bin"), std::string("%2E%2E/shared/outside.bin"),
        std::string("%2e%2e%2Fshared%2Foutside.bin"), std::string("sub/../../shared/outside.bin"),
        std::string("link_out.bin"), std::string("shared_dir/outside.bin"),
        std::string("./../shared/outside.bin")}) {
    SCOPED_TRACE(uri);
    rig::test::write_file(root / "models" / "m.gltf", triangle_gltf(uri));
    const Result r = load(root / "models" / "m.gltf", true);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("resolves outside the model's folder (confined)"), std::string::npos)
        << r.error;
  }
  for (const std::string& uri : {std::string("inside.bin"), std::string("sub/../inside.bin"),
                                 std::string("link_in.bin"), std::string("%69nside.bin")}) {
    SCOPED_TRACE(uri);
    rig::test::write_file(root / "models" / "m.gltf", triangle_gltf(uri));
    const Result r = load(root / "models" / "m.gltf", true);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.first_x, 1.0f);
  }
}

TEST(ImportHardeningPaths, ConfineModeWorksThroughASymlinkedModelFolder) {
  const fs::path root = make_tree("hardening_confine_linked");
  fs::create_directory_symlink(root / "models", root / "alias");
  rig::test::write_file(root / "models" / "m.gltf", triangle_gltf("inside.bin"));
  const Result inside = load(root / "alias" / "m.gltf", true);
  ASSERT_TRUE(inside.ok) << inside.error;
  rig::test::write_file(root / "models" / "m.gltf", triangle_gltf("../shared/outside.bin"));
  EXPECT_FALSE(load(root / "alias" / "m.gltf", true).ok);
}

TEST(ImportHardeningPaths, MemoryImportTakesDataUrisAndRefusesFiles) {
  const std::string with_data = triangle_gltf(rig::test::data_uri(triangle_bin(5)));
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf_from_memory(
      {reinterpret_cast<const uint8_t*>(with_data.data()), with_data.size()}, "mem.gltf", {}, model,
      error))
      << error;
  EXPECT_EQ(model.meshes[0].primitives[0].positions[0].x, 5.0f);
  EXPECT_EQ(model.file, "mem.gltf");

  const std::string with_file = triangle_gltf("inside.bin");
  EXPECT_FALSE(rig::import_gltf_from_memory(
      {reinterpret_cast<const uint8_t*>(with_file.data()), with_file.size()}, "mem.gltf", {}, model,
      error));
  EXPECT_NE(error.find("not allowed when importing from memory"), std::string::npos) << error;

  const std::vector<uint8_t> glb = rig::test::make_glb(
      R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":36}],
          "bufferViews":[{"buffer":0,"byteLength":36}],
          "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
          "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]})",
      triangle_bin(6));
  ASSERT_TRUE(rig::import_gltf_from_memory(glb, "mem.glb", {}, model, error)) << error;
  EXPECT_EQ(model.meshes[0].primitives[0].positions[0].x, 6.0f);
  EXPECT_FALSE(rig::import_gltf_from_memory({}, "empty", {}, model, error));
  EXPECT_EQ(error, "file is empty");
}

}  // namespace
