// Where external files (buffers given by a relative `uri`) are looked for: the model's own
// folder and nowhere else — in particular not the working directory rigview was started from.
#include <gtest/gtest.h>

#include <filesystem>

#include "import/gltf_import.h"
#include "import_test_gltf.h"

namespace {

namespace fs = std::filesystem;
using rig::test::triangle_bin;
using rig::test::triangle_gltf;

// Runs the body with the working directory set to `dir`, restoring it afterwards.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const fs::path& dir) : saved_(fs::current_path()) {
    fs::current_path(dir);
  }
  ~WorkingDirectory() { fs::current_path(saved_); }

 private:
  fs::path saved_;
};

TEST(ImportPaths, MissingBufferIsNotTakenFromTheWorkingDirectory) {
  const fs::path models = rig::test::temp_folder("paths_missing_models");
  const fs::path elsewhere = rig::test::temp_folder("paths_missing_cwd");
  rig::test::write_file(models / "model.gltf", triangle_gltf("data.bin"));
  // A file with the right name and size, but in the working directory, not the model's folder.
  rig::test::write_file(elsewhere / "data.bin", triangle_bin(7));
  const WorkingDirectory cwd(elsewhere);
  rig::Model model;
  std::string error;
  EXPECT_FALSE(rig::import_gltf((models / "model.gltf").string(), model, error));
  EXPECT_NE(error.find("buffer 0: cannot read 'data.bin' (file not found)"), std::string::npos)
      << error;
}

TEST(ImportPaths, BufferNextToTheModelLoadsFromAnyWorkingDirectory) {
  const fs::path root = rig::test::temp_folder("paths_found");
  fs::create_directories(root / "models" / "bin");
  fs::create_directories(root / "shared");
  fs::create_directories(root / "cwd");
  rig::test::write_file(root / "models" / "bin" / "data.bin", triangle_bin(2));
  rig::test::write_file(root / "shared" / "my data.bin", triangle_bin(3));
  rig::test::write_file(root / "models" / "sub.gltf", triangle_gltf("bin/data.bin"));
  // A relative URI may climb out of the folder; spaces arrive percent-encoded (RFC 3986).
  rig::test::write_file(root / "models" / "up.gltf", triangle_gltf("../shared/my%20data.bin"));
  struct Case {
    fs::path working_directory;
    std::string model_path;
    float first_x;
  };
  for (const Case& c : {Case{root / "cwd", (root / "models" / "sub.gltf").string(), 2},
                        Case{root, "models/sub.gltf", 2}, Case{root / "models", "sub.gltf", 2},
                        Case{root / "models" / "bin", "../up.gltf", 3}}) {
    SCOPED_TRACE(c.model_path + " from " + c.working_directory.string());
    const WorkingDirectory cwd(c.working_directory);
    rig::Model model;
    std::string error;
    ASSERT_TRUE(rig::import_gltf(c.model_path, model, error)) << error;
    ASSERT_EQ(model.meshes.size(), 1u);
    EXPECT_EQ(model.meshes[0].primitives[0].positions[0], glm::vec3(c.first_x, 0, 0));
  }
}

TEST(ImportPaths, BufferFileLongerThanByteLengthLoadsItsFirstBytes) {
  const fs::path dir = rig::test::temp_folder("paths_longer");
  std::vector<uint8_t> padded = triangle_bin(4);
  padded.insert(padded.end(), {0xAB, 0xCD, 0xEF, 0x01});  // byteLength stays 36
  rig::test::write_file(dir / "padded.bin", padded);
  rig::test::write_file(dir / "a.gltf", triangle_gltf("padded.bin"));
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf((dir / "a.gltf").string(), model, error)) << error;
  EXPECT_EQ(model.meshes[0].primitives[0].positions[0], glm::vec3(4, 0, 0));
  bool warned = false;
  for (const rig::ImportWarning& warning : model.warnings) {
    warned = warned || (warning.code == "BUFFER_FILE_LONGER" && warning.count == 1);
  }
  EXPECT_TRUE(warned);
}

TEST(ImportPaths, BufferFileShorterThanByteLengthIsRefused) {
  const fs::path dir = rig::test::temp_folder("paths_shorter");
  std::vector<uint8_t> short_bin = triangle_bin(4);
  short_bin.resize(32);
  rig::test::write_file(dir / "short.bin", short_bin);
  rig::test::write_file(dir / "a.gltf", triangle_gltf("short.bin"));
  rig::Model model;
  std::string error;
  EXPECT_FALSE(rig::import_gltf((dir / "a.gltf").string(), model, error));
  EXPECT_NE(error.find("has 32 bytes but its byteLength is 36"), std::string::npos) << error;
}

}  // namespace
