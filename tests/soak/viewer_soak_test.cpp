// Soak: the real viewer under Xvfb for RIGVIEW_SOAK_SECONDS (default 60; 1800 by hand), switching
// clips, crossfades, methods, surface colours and models (a broken one among them). The viewer
// itself checks the growth of the memory it holds after warm-up (< 5%), OpenGL errors (none) and frame-time
// creep, and prints one summary line (viewer/soak.h), which this test shows.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace {

TEST(ViewerSoak, ClipsMethodsColoursAndReloadsKeepMemoryAndFrameTimeFlat) {
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "xvfb-run is not installed: soak skipped";
  const char* env = std::getenv("RIGVIEW_SOAK_SECONDS");
  const int seconds = env && std::atoi(env) > 0 ? std::atoi(env) : 60;
  const std::string assets = std::string(RIGVIEW_SOURCE_DIR) + "/assets/";
  const std::filesystem::path broken = rig::test::scratch_dir() / "broken.glb";
  std::ofstream(broken, std::ios::binary) << "glTF not really";
  const std::string models =
      assets + "twist_arm.glb:" + broken.string() + ":" + assets + "mannequin.glb";
  const std::string home = (rig::test::scratch_dir() / "home").string();
  const rig::test::RunResult r = rig::test::run_rigview_env(
      "HOME=" + rig::test::quote(home) + " RIGVIEW_VIEWER_SOAK=" + std::to_string(seconds) +
          " RIGVIEW_VIEWER_SOAK_MODELS=" + rig::test::quote(models) +
          " xvfb-run -a -s '-screen 0 1024x768x24'",
      rig::test::quote(assets + "mannequin.glb") + " --resolution 800,600");
  std::printf("%s", r.out.c_str());  // the summary line, for the record
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("soak: ok"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find(" opens="), std::string::npos);
}

}  // namespace
