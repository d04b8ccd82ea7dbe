// The rig doctor on the command line: --info reports its findings, --simulate-bug reproduces the
// classic bugs on a correct file and the doctor names them, --confine refuses URIs that leave the
// model's folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

TEST(RigDoctorCli, InfoNamesEachSimulatedBugAndNothingOnTheCleanFile) {
  rig::test::RunResult r = run_rigview(quote(kMannequin) + " --info");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* code : {"IBM_MISSING", "IBM_SUSPECT", "JOINT_ORDER_SUSPECT", "SIMULATED_BUG"})
    EXPECT_EQ(r.out.find(code), std::string::npos) << code;
  const std::pair<const char*, const char*> bugs[] = {
      {"no-ibm", "\"IBM_MISSING\""},
      {"reversed-multiply", "\"JOINT_ORDER_SUSPECT\""},
      {"shifted-joints", "\"JOINT_ORDER_SUSPECT\""}};
  for (const auto& [bug, code] : bugs) {
    r = run_rigview(quote(kMannequin) + " --simulate-bug " + bug + " --info");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"SIMULATED_BUG\""), std::string::npos) << bug;
    EXPECT_NE(r.out.find(code), std::string::npos) << bug << ": " << r.out;
  }
  r = run_rigview(quote(kMannequin) + " --simulate-bug sideways --info");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--simulate-bug expects"), std::string::npos) << r.err;
}

TEST(RigDoctorCli, ConfineRefusesABufferOutsideTheModelsFolder) {
  namespace fs = std::filesystem;
  const fs::path root = rig::test::scratch_dir() / "confine";
  fs::create_directories(root / "model");
  std::ofstream(root / "outside.bin", std::ios::binary) << std::string(36, '\0');
  std::ofstream(root / "model" / "tri.gltf") << R"({"asset":{"version":"2.0"},
    "buffers":[{"byteLength":36,"uri":"../outside.bin"}],
    "bufferViews":[{"buffer":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
                  "min":[0,0,0],"max":[0,0,0]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
  const std::string model = quote((root / "model" / "tri.gltf").string());
  EXPECT_EQ(run_rigview(model + " --info").status, 0);  // the default allows ../
  const rig::test::RunResult r = run_rigview(model + " --confine --info");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("outside"), std::string::npos) << r.err;
}

}  // namespace
