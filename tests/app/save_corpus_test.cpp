// The save round trip on the whole corpus (RIGVIEW_CORPUS): `--save` without an edit, then the
// saved file reopens with byte-identical `--info` (all but its "file" member) and byte-identical
// OBJ at three poses: the rest pose, clip 0 at its start and clip 0 halfway. A file the importer
// refuses must be refused by --save too, with nothing written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

// --info's JSON (the first line of stdout) without its "file" member.
std::string info_without_file(const std::string& out) {
  const std::string line = out.substr(0, out.find('\n') + 1);
  const size_t comma = line.find("\",");
  return comma == std::string::npos ? line : line.substr(comma + 2);
}

// Clip 0's start and end from --info ("animations":[{"name":...,"start":S,"end":E,...), or false.
bool first_clip(const std::string& info, double& start, double& end) {
  const size_t clips = info.find("\"animations\":[{");
  if (clips == std::string::npos) return false;
  const size_t s = info.find("\"start\":", clips), e = info.find("\"end\":", clips);
  if (s == std::string::npos || e == std::string::npos) return false;
  start = std::strtod(info.c_str() + s + 8, nullptr);
  end = std::strtod(info.c_str() + e + 6, nullptr);
  return true;
}

TEST(SaveCorpus, SavedCopiesReopenWithTheSameInfoAndObjAtThreePoses) {
  RIG_REQUIRE_CORPUS(root);
  std::vector<fs::path> models;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".glb" || ext == ".gltf") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  ASSERT_FALSE(models.empty());
  const fs::path dir = rig::test::scratch_dir() / "save_corpus";
  fs::create_directories(dir);
  size_t saved = 0, refused = 0, posed = 0;
  for (size_t m = 0; m < models.size(); ++m) {
    const std::string model = models[m].string();
    const std::string name = fs::relative(models[m], root).string();
    const std::string copy = (dir / ("copy" + std::to_string(m) + ".glb")).string();
    const std::string obj = (dir / "pose.obj").string();
    // The original: --info, the save and the rest pose in one run.
    const rig::test::RunResult first = run_rigview(quote(model) + " --info --save " + quote(copy) +
                                                   " --rest-pose --export-obj " + quote(obj));
    if (first.status != 0) {
      const rig::test::RunResult info = run_rigview(quote(model) + " --info");
      EXPECT_NE(info.status, 0) << name << ": --info reads it but --save failed: " << first.err;
      EXPECT_FALSE(fs::exists(copy)) << name;
      ++refused;
      continue;
    }
    ++saved;
    const std::string info = info_without_file(first.out);
    std::vector<std::string> poses{" --rest-pose"};
    double start = 0.0, end = 0.0;
    if (first_clip(info, start, end)) {
      for (double t : {start, 0.5 * (start + end)}) {
        char time[64];
        std::snprintf(time, sizeof time, "%.9g", t);
        poses.push_back(std::string(" --animation-index 0 --animation-time ") + time);
      }
    }
    std::vector<std::string> objs{slurp(obj)};
    for (size_t p = 1; p < poses.size(); ++p) {
      ASSERT_EQ(run_rigview(quote(model) + poses[p] + " --export-obj " + quote(obj)).status, 0)
          << name << poses[p];
      objs.push_back(slurp(obj));
    }
    const rig::test::RunResult again =
        run_rigview(quote(copy) + " --info --rest-pose --export-obj " + quote(obj));
    ASSERT_EQ(again.status, 0) << name << ": " << again.err;
    EXPECT_EQ(info_without_file(again.out), info) << name;
    for (size_t p = 0; p < poses.size(); ++p) {
      if (p > 0) {
        ASSERT_EQ(run_rigview(quote(copy) + poses[p] + " --export-obj " + quote(obj)).status, 0)
            << name << poses[p];
      }
      std::string got = slurp(obj), want = objs[p];
      // The OBJ's first line names the file it was made from.
      got = got.substr(got.find('\n')), want = want.substr(want.find('\n'));
      EXPECT_TRUE(got == want) << name << poses[p] << ": the saved copy's OBJ differs";
      ++posed;
    }
  }
  std::printf("[ corpus  ] %zu saved and reopened (%zu poses compared), %zu refused\n", saved,
              posed, refused);
  EXPECT_GT(saved, 0u);
}

}  // namespace
