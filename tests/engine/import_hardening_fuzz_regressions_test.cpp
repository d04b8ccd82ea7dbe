// Every input the fuzz targets (tests/fuzz/) ever crashed on, kept in tests/fuzz/regressions/
// and replayed here in every build: import from memory, animate, skin on the CPU and run the
// rig doctor, exactly as rig_fuzz_animate does. A failure here is a crash or a sanitizer report.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/rig_doctor.h"
#include "character/character.h"
#include "import/gltf_import.h"

namespace {

namespace fs = std::filesystem;

TEST(ImportHardeningFuzzRegressions, EverySavedCrashInputIsHandled) {
  const fs::path folder = fs::path(RIGVIEW_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  std::vector<fs::path> inputs;
  if (fs::is_directory(folder)) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.is_regular_file() && entry.path().filename() != "README.md")
        inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) GTEST_SKIP() << "no saved fuzz inputs in " << folder;
  for (const fs::path& input : inputs) {
    SCOPED_TRACE(input.filename().string());
    std::ifstream in(input, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    rig::Model model;
    std::string error;
    if (!rig::import_gltf_from_memory(bytes, input.filename().string(), {}, model, error)) {
      EXPECT_FALSE(error.empty());
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
      continue;
    }
    rig::Character character(model);
    std::vector<rig::PoseSelection> poses = {rig::PoseSelection{}};
    for (int c = 0; c < std::min<int>(int(model.clips.size()), 4); ++c) {
      poses.push_back({c, model.clips[size_t(c)].start});
      poses.push_back({c, model.clips[size_t(c)].end});
    }
    std::vector<glm::vec3> positions, normals;
    for (const rig::PoseSelection& pose : poses) {
      character.evaluate(pose);
      for (const rig::DrawItem& item : model.draws) {
        const rig::Primitive& p =
            model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
        positions.resize(p.vertex_count());
        normals.resize(p.vertex_count());
        for (const rig::SkinningMethodInfo& method : rig::skinning_methods())
          character.skin_draw_item(item, method.method, positions, normals);
      }
    }
    (void)rig::examine_rig(model);
  }
}

}  // namespace
