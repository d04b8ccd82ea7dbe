// The rig doctor on every corpus file: what each one gets (the table below is the expectation;
// no correctly rigged file may get an error-level finding), and the simulated classic bugs on
// corpus characters and on the bundled mannequin, each of which must be flagged as an error.
// Every measure behind the thresholds is printed, so a threshold change can be checked here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analysis/rig_doctor.h"
#include "analysis/simulated_bugs.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_models(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The distinct codes, in finding order; error-level ones marked with '!'. "-" when none.
std::string codes(const rig::RigDiagnosis& d) {
  std::set<std::string> seen;
  std::string out;
  for (const rig::RigFinding& f : d.findings) {
    const std::string code = f.warning.code + (f.severity == rig::RigSeverity::Error ? "!" : "");
    if (!seen.insert(code).second) continue;
    if (!out.empty()) out += " ";
    out += code;
  }
  return out.empty() ? "-" : out;
}

void print_measures(const std::string& name, const rig::RigDiagnosis& d) {
  rig::RigSkinMeasures m;
  for (const rig::RigSkinMeasures& s : d.skins) {
    m.bind_displacement = std::max(m.bind_displacement, s.bind_displacement);
    m.bind_residual = std::max(m.bind_residual, s.bind_residual);
    m.misplaced_fraction = std::max(m.misplaced_fraction, s.misplaced_fraction);
    m.mean_excess = std::max(m.mean_excess, s.mean_excess);
    m.median_bone_distance = std::max(m.median_bone_distance, s.median_bone_distance);
  }
  std::printf("| %-52s | %9.3g | %9.3g | %8.3g | %8.3g | %8.3g | %s\n", name.c_str(),
              m.bind_displacement, m.bind_residual, m.misplaced_fraction, m.mean_excess,
              m.median_bone_distance, codes(d).c_str());
}

void print_header() {
  std::printf("| %-52s | %9s | %9s | %8s | %8s | %8s | findings (! = error)\n", "file", "raw disp",
              "residual", "misplace", "excess", "bone dst");
}

rig::RigDiagnosis examine(const fs::path& file, std::optional<rig::SimulatedBug> bug = {}) {
  rig::Model model;
  std::string error;
  EXPECT_TRUE(rig::import_gltf(file.string(), model, error)) << file << ": " << error;
  if (bug) rig::simulate_bug(model, *bug);
  return rig::examine_rig(model);
}

// What every corpus file gets. Only Skin_04 has an error: it is the corpus's deliberate skin
// without inverse bind matrices on joints away from the origin, i.e. exactly IBM_MISSING (its
// sample image shows the displaced plane). The other AssetGenerator skins are posed on purpose
// (rest ≠ bind): BIND_POSE_DIFFERS, informational.
const std::map<std::string, std::string> kExpected = {
    {"AnimatedMorphCube/AnimatedMorphCube.gltf", "-"},
    {"AnimatedMorphSphere/AnimatedMorphSphere.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_00.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_01.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_02.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_03.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_04.gltf", "-"},
    {"AssetGenerator_Animation_Node/Animation_Node_05.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_00.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_01.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_02.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_03.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_04.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_05.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_06.gltf", "-"},
    {"AssetGenerator_Animation_NodeMisc/Animation_NodeMisc_07.gltf", "-"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_00.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_01.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_02.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_03.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_04.gltf", "IBM_MISSING!"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_05.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_06.gltf", "-"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_07.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_08.gltf", "-"},
    {"AssetGenerator_Animation_Skin/Animation_Skin_09.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_SkinType/Animation_SkinType_00.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_SkinType/Animation_SkinType_01.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_SkinType/Animation_SkinType_02.gltf", "BIND_POSE_DIFFERS"},
    {"AssetGenerator_Animation_SkinType/Animation_SkinType_03.gltf", "BIND_POSE_DIFFERS"},
    {"CesiumMan/CesiumMan.glb", "WEIGHTS_SKIP_JOINT"},
    {"Fox/Fox.glb", "JOINTS_UNUSED"},
    {"InterpolationTest/InterpolationTest.glb", "-"},
    {"KayKit_Knight/Knight.glb", "WEIGHTS_TINY WEIGHTS_SKIP_JOINT JOINTS_UNUSED"},
    {"MorphPrimitivesTest/MorphPrimitivesTest.gltf", "-"},
    {"MorphStressTest/MorphStressTest.gltf", "-"},
    {"QuaterniusRobot/robot.glb", "WEIGHTS_TINY JOINTS_UNUSED"},
    {"RecursiveSkeletons/RecursiveSkeletons.glb", "-"},
    {"RiggedFigure/RiggedFigure.glb", "-"},
    {"RiggedSimple/RiggedSimple.glb", "-"},
    {"RobotExpressive/RobotExpressive.glb", "WEIGHTS_TINY JOINTS_UNUSED BIND_POSE_DIFFERS"},
    {"SimpleMorph/SimpleMorph.gltf", "-"},
    {"SimpleSkin/SimpleSkin.gltf", "-"},
    {"assimp_skin_edge_cases/mixed_skin_joints.gltf", "-"},
    {"assimp_skin_edge_cases/normalized_skin_weights.gltf", "-"},
    {"assimp_skin_edge_cases/quad_skin.glb", "-"},
    {"girl/girl.glb", "WEIGHTS_TINY WEIGHTS_SKIP_JOINT JOINTS_UNUSED BIND_POSE_DIFFERS"},
    {"greenman/greenman.glb", "WEIGHTS_TINY JOINTS_UNUSED"},
    {"greenman/greenman_hat.glb", "-"},
    {"greenman/greenman_shield.glb", "-"},
    {"greenman/greenman_sword.glb", "-"},
};

TEST(RigDoctorCorpus, EveryFileGetsWhatTheTableSays) {
  RIG_REQUIRE_CORPUS(root);
  print_header();
  std::set<std::string> seen;
  for (const fs::path& file : corpus_models(root)) {
    const std::string name = fs::relative(file, root).string();
    const rig::RigDiagnosis d = examine(file);
    print_measures(name, d);
    seen.insert(name);
    auto it = kExpected.find(name);
    ASSERT_NE(it, kExpected.end()) << "a corpus file the table does not list: " << name;
    EXPECT_EQ(codes(d), it->second) << name;
    for (const rig::RigFinding& f : d.findings) {
      EXPECT_FALSE(f.warning.message.empty());
      EXPECT_GT(f.warning.count, 0u) << f.warning.code;
    }
  }
  EXPECT_EQ(seen.size(), kExpected.size()) << "a file in the table is missing from the corpus";
}

TEST(RigDoctorCorpus, SimulatedBugsAreFlaggedOnCorpusCharacters) {
  RIG_REQUIRE_CORPUS(root);
  const std::map<rig::SimulatedBug, std::string> expected = {
      {rig::SimulatedBug::NoIbm, "IBM_MISSING"},
      {rig::SimulatedBug::TranslationOnlyIbm, "IBM_SUSPECT"},
      {rig::SimulatedBug::ReversedMultiply, "JOINT_ORDER_SUSPECT"},
      {rig::SimulatedBug::ShiftedJoints, "JOINT_ORDER_SUSPECT"}};
  print_header();
  for (const char* name : {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb",
                           "RiggedFigure/RiggedFigure.glb", "KayKit_Knight/Knight.glb",
                           "greenman/greenman.glb", "QuaterniusRobot/robot.glb", "girl/girl.glb"}) {
    for (rig::SimulatedBug bug : rig::kSimulatedBugs) {
      const rig::RigDiagnosis d = examine(root / name, bug);
      print_measures(std::string(name) + " " + rig::simulated_bug_name(bug), d);
      // (girl's rest pose is not its bind pose; the bind skeleton's bone offsets do not care.)
      EXPECT_TRUE(d.has_errors()) << name << " " << rig::simulated_bug_name(bug);
      const rig::RigFinding* f = d.find(expected.at(bug));
      ASSERT_NE(f, nullptr) << name << " " << rig::simulated_bug_name(bug);
      EXPECT_EQ(f->severity, rig::RigSeverity::Error);
      EXPECT_FALSE(f->joints.empty()) << f->warning.message;
      if (bug == rig::SimulatedBug::TranslationOnlyIbm) {
        EXPECT_NE(f->warning.message.find("translation-only"), std::string::npos)
            << f->warning.message;
      }
      if (bug == rig::SimulatedBug::ShiftedJoints) {
        EXPECT_NE(f->warning.message.find("the joint indices look shifted by 1"), std::string::npos)
            << f->warning.message;
      }
    }
  }
}

}  // namespace
