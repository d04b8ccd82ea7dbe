// Atomic writes (write/atomic_file.h) and the document writer's use of them: a write killed
// halfway leaves the target as it was, a failed write leaves no file, the input may be the
// output.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "import/gltf_import.h"
#include "write/atomic_file.h"
#include "write/gltf_document.h"
#include "write_test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;
using test::scratch_file;
using test::slurp;

void put(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

// The temporaries `<target>.tmp-*` beside `target`.
std::vector<fs::path> temporaries(const std::string& target) {
  std::vector<fs::path> out;
  const std::string prefix = fs::path(target).filename().string() + ".tmp-";
  for (const auto& e : fs::directory_iterator(fs::path(target).parent_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  return out;
}

// Runs `write` in a child process whose after_chunk hook kills it (SIGKILL: nothing runs after)
// once half the bytes are in the temporary. Returns how the child ended.
template <typename Write>
int killed_halfway(Write run) {
  const pid_t child = fork();
  if (child == 0) {
    write::AtomicWriteOptions options;
    options.chunk_bytes = 4096;
    options.after_chunk = [](size_t written, size_t total) {
      if (written * 2 >= total) std::raise(SIGKILL);
    };
    run(options);
    _exit(0);  // not killed: the hook never ran
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(AtomicFile, WritesAndReplaces) {
  const std::string target = scratch_file("atomic_plain.bin");
  std::string error;
  const std::vector<uint8_t> bytes{1, 2, 3, 4, 5};
  ASSERT_TRUE(write::write_file_atomically(target, bytes, error)) << error;
  EXPECT_EQ(slurp(target), std::string("\1\2\3\4\5"));
  ASSERT_TRUE(write::write_file_atomically(target, std::vector<uint8_t>{9}, error)) << error;
  EXPECT_EQ(slurp(target), std::string("\x09"));
  EXPECT_TRUE(temporaries(target).empty());
}

TEST(AtomicFile, AWriteKilledHalfwayLeavesTheTargetAsItWas) {
  const std::string target = scratch_file("atomic_killed.bin");
  const std::string old = "the old contents";
  put(target, old);
  const std::vector<uint8_t> bytes(100000, 0xab);
  const int status = killed_halfway([&](const write::AtomicWriteOptions& options) {
    std::string error;
    write::write_file_atomically(target, bytes, error, options);
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  EXPECT_EQ(slurp(target), old);
  // The killed writer's temporary is what is left, half written, never the target.
  const std::vector<fs::path> left = temporaries(target);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_GE(fs::file_size(left[0]), bytes.size() / 2);
  EXPECT_LT(fs::file_size(left[0]), bytes.size());
  fs::remove(left[0]);
}

TEST(AtomicFile, ADocumentWriteKilledHalfwayLeavesTheTargetAsItWas) {
  const std::string in = RIGVIEW_SOURCE_DIR "/assets/mannequin.glb";
  const std::string target = scratch_file("killed.glb");
  const std::string old = slurp(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb");
  put(target, old);
  const int status = killed_halfway([&](const write::AtomicWriteOptions& file) {
    std::string error;
    write::DocumentWriteOptions options;
    options.file = file;
    write::write_document(in, {}, target, error, options);
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  EXPECT_EQ(slurp(target), old);
  for (const fs::path& p : temporaries(target)) fs::remove(p);
}

TEST(AtomicFile, AFailedWriteLeavesNoFileAndNamesIt) {
  std::string error;
  const std::vector<uint8_t> bytes{1, 2, 3};
  const std::string missing = scratch_file("no_such_folder/out.glb");
  EXPECT_FALSE(write::write_file_atomically(missing, bytes, error));
  EXPECT_EQ(error.rfind(missing + ": ", 0), 0u) << error;
  EXPECT_FALSE(fs::exists(fs::path(missing).parent_path()));
  // A folder where the file should go: the rename fails, the temporary is removed.
  const std::string folder = scratch_file("a_folder");
  fs::create_directories(folder);
  error.clear();
  EXPECT_FALSE(write::write_file_atomically(folder, bytes, error));
  EXPECT_EQ(error.rfind(folder + ": ", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_TRUE(temporaries(folder).empty());
  // The document writer says the same, and writes nothing.
  error.clear();
  EXPECT_FALSE(
      write::write_document(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb", {}, missing, error));
  EXPECT_EQ(error.rfind(missing + ": ", 0), 0u) << error;
  EXPECT_FALSE(fs::exists(missing));
}

TEST(AtomicFile, KeepsAnExistingTargetsPermissions) {
  const std::string target = scratch_file("atomic_mode.bin");
  put(target, "x");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::string error;
  ASSERT_TRUE(write::write_file_atomically(target, std::vector<uint8_t>{7}, error)) << error;
  EXPECT_EQ(fs::status(target).permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(AtomicFile, TheInputMayBeTheOutput) {
  const std::string copy = scratch_file("in_place.glb");
  fs::copy_file(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb", copy,
                fs::copy_options::overwrite_existing);
  std::string error;
  const std::vector<write::DocumentEdit> edits{write::RemoveClip{0}};
  ASSERT_TRUE(write::write_document(copy, edits, copy, error)) << error;
  Model model;
  ASSERT_TRUE(import_gltf(copy, model, error)) << error;
  EXPECT_TRUE(model.clips.empty());
  EXPECT_EQ(model.skins.size(), 1u);
}

}  // namespace
}  // namespace rig
