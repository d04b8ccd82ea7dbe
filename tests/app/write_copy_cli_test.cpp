// `rigview --write-copy` (app/cli_commands.cpp): the document writer without edits from the
// command line: GLB and .gltf copies that reopen with the same --info, and a one-line error with
// nothing written when the output cannot be written.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

std::string tmp_path(const std::string& name) {
  return (rig::test::scratch_dir() / ("write_copy_" + name)).string();
}

// --info without its "file" member (the first one: {"file":"...",).
std::string info_without_file(const std::string& path) {
  const rig::test::RunResult r = run_rigview(quote(path) + " --info");
  EXPECT_EQ(r.status, 0) << r.err;
  const size_t comma = r.out.find("\",");
  EXPECT_EQ(r.out.rfind("{\"file\":\"", 0), 0u) << r.out;
  return comma == std::string::npos ? r.out : r.out.substr(comma + 2);
}

TEST(WriteCopyCli, CopiesReopenWithTheSameInfo) {
  for (const char* asset : {"mannequin", "twist_arm"}) {
    const std::string in = std::string(RIGVIEW_SOURCE_DIR "/assets/") + asset + ".glb";
    const std::string original = info_without_file(in);
    for (const char* ext : {".glb", ".gltf"}) {
      const std::string out = tmp_path(asset + std::string(ext));
      const rig::test::RunResult r = run_rigview(quote(in) + " --write-copy " + quote(out));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, "rigview: wrote " + out + "\n");
      const std::string bytes = slurp(out);
      EXPECT_EQ(bytes.substr(0, 4), std::string(ext) == ".glb" ? "glTF" : "{\n  ") << out;
      EXPECT_EQ(info_without_file(out), original) << out;
    }
  }
}

TEST(WriteCopyCli, AnUnwritableOutputIsOneLineAndWritesNothing) {
  const std::string out = tmp_path("missing_folder/copy.glb");
  const rig::test::RunResult r = run_rigview(quote(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb") +
                                             " --write-copy " + quote(out));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("rigview: error: " + out + ": ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out).parent_path()));
  const rig::test::RunResult usage =
      run_rigview(quote(RIGVIEW_SOURCE_DIR "/assets/twist_arm.glb") + " --write-copy ''");
  EXPECT_EQ(usage.status, 2);
}

}  // namespace
