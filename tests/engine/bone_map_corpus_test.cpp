// find_humanoid on the bundled mannequin and on every humanoid of the corpus, against joint names
// written down by hand from each file's skeleton (read in a glTF viewer / the JSON): every core
// part the model has is found on the expected joint, and what a model lacks is reported missing.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "character/bone_map.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

// Expected joint name per part; "" = the model has no joint for it (must stay unmapped).
using Expected = std::map<HumanBone, std::string>;

Expected sided(const std::string& hips, const std::string& spine, const std::string& chest,
               const std::string& neck, const std::string& head, const std::string (&left)[6],
               const std::string (&right)[6]) {
  using H = HumanBone;
  Expected e{
      {H::Hips, hips}, {H::Spine, spine}, {H::Chest, chest}, {H::Neck, neck}, {H::Head, head}};
  const H l[6] = {H::LeftUpperArm, H::LeftLowerArm, H::LeftHand,
                  H::LeftUpperLeg, H::LeftLowerLeg, H::LeftFoot};
  const H r[6] = {H::RightUpperArm, H::RightLowerArm, H::RightHand,
                  H::RightUpperLeg, H::RightLowerLeg, H::RightFoot};
  for (int i = 0; i < 6; ++i) {
    e[l[i]] = left[i];
    e[r[i]] = right[i];
  }
  return e;
}

// Checks every core part against `expected` and prints one table row (model, found, missing).
void check(const Model& model, int skin, const std::string& label, const Expected& expected) {
  const HumanoidMap map = find_humanoid(model, skin);
  int found = 0;
  std::string missing;
  for (const auto& [bone, name] : expected) {
    ASSERT_TRUE(is_core_human_bone(bone));
    const int node = map[bone];
    const std::string got = node >= 0 ? model.nodes[size_t(node)].name : "";
    EXPECT_EQ(got, name) << label << ": " << human_bone_name(bone);
    if (node >= 0)
      ++found;
    else
      missing += std::string(missing.empty() ? "" : ", ") + human_bone_name(bone);
  }
  std::printf("| %s | %d/17 | %s |\n", label.c_str(), found,
              missing.empty() ? "-" : missing.c_str());
}

Model load(const std::filesystem::path& path) {
  Model model;
  std::string error;
  EXPECT_TRUE(import_gltf(path.string(), model, error)) << path << ": " << error;
  return model;
}

TEST(BoneMapBundled, MannequinMapsByItsMixamoStyleNames) {
  const Model model = load(std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets/mannequin.glb");
  check(model, 0, "mannequin.glb",
        sided("Hips", "Spine", "Spine1", "Neck", "Head",
              {"LeftArm", "LeftForeArm", "LeftHand", "LeftUpLeg", "LeftLeg", "LeftFoot"},
              {"RightArm", "RightForeArm", "RightHand", "RightUpLeg", "RightLeg", "RightFoot"}));
  const HumanoidMap map = find_humanoid(model, 0);
  EXPECT_EQ(model.nodes[size_t(map[HumanBone::UpperChest])].name, "Spine2");
  EXPECT_EQ(model.nodes[size_t(map[HumanBone::LeftShoulder])].name, "LeftShoulder");
  EXPECT_EQ(model.nodes[size_t(map[HumanBone::RightToes])].name, "RightToeBase");
}

TEST(BoneMapBundled, APoseHumanoidMapsByItsRigifyStyleNames) {
  const Model model = load(std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets/humanoid_apose.glb");
  check(model, 0, "humanoid_apose.glb",
        sided("hips", "spine", "chest", "neck", "head",
              {"upper_arm.L", "forearm.L", "hand.L", "thigh.L", "shin.L", "foot.L"},
              {"upper_arm.R", "forearm.R", "hand.R", "thigh.R", "shin.R", "foot.R"}));
  // The structure alone agrees on every core part (the A-pose arms, the toes' facing).
  const HumanoidMap by_name = find_humanoid_by_name(model, 0);
  const HumanoidMap by_structure = find_humanoid_by_structure(model, 0);
  for (size_t i = 0; i < kHumanBoneCount; ++i) {
    if (is_core_human_bone(HumanBone(i))) {
      EXPECT_EQ(by_structure.node[i], by_name.node[i]) << human_bone_name(HumanBone(i));
    }
  }
  // No joint name is shared with the mannequin's convention.
  const Model mannequin = load(std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets/mannequin.glb");
  for (int node : model.skins[0].joints)
    for (int other : mannequin.skins[0].joints)
      EXPECT_NE(model.nodes[size_t(node)].name, mannequin.nodes[size_t(other)].name);
}

TEST(BoneMapCorpus, EveryHumanoidMapsItsCoreBones) {
  RIG_REQUIRE_CORPUS(corpus);
  std::printf("| model | core bones found | missing |\n|---|---|---|\n");
  {
    // KayKit: no neck; "wrist" is the hand joint, "hand" a palm joint below it.
    const Model m = load(corpus / "KayKit_Knight/Knight.glb");
    check(m, 0, "KayKit_Knight/Knight.glb",
          sided("hips", "spine", "chest", "", "head",
                {"upperarm.l", "lowerarm.l", "wrist.l", "upperleg.l", "lowerleg.l", "foot.l"},
                {"upperarm.r", "lowerarm.r", "wrist.r", "upperleg.r", "lowerleg.r", "foot.r"}));
  }
  // CesiumMan and RiggedFigure: numbered names ("arm_joint_L__4_" is the upper arm), found by
  // structure.
  {
    const Model m = load(corpus / "CesiumMan/CesiumMan.glb");
    check(m, 0, "CesiumMan/CesiumMan.glb",
          sided("Skeleton_torso_joint_1", "Skeleton_torso_joint_2", "torso_joint_3",
                "Skeleton_neck_joint_1", "Skeleton_neck_joint_2",
                {"Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_L__3_", "Skeleton_arm_joint_L__2_",
                 "leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3"},
                {"Skeleton_arm_joint_R", "Skeleton_arm_joint_R__2_", "Skeleton_arm_joint_R__3_",
                 "leg_joint_R_1", "leg_joint_R_2", "leg_joint_R_3"}));
  }
  {
    const Model m = load(corpus / "RiggedFigure/RiggedFigure.glb");
    check(m, 0, "RiggedFigure/RiggedFigure.glb",
          sided("torso_joint_1", "torso_joint_2", "torso_joint_3", "neck_joint_1", "neck_joint_2",
                {"arm_joint_L_1", "arm_joint_L_2", "arm_joint_L_3", "leg_joint_L_1",
                 "leg_joint_L_2", "leg_joint_L_3"},
                {"arm_joint_R_1", "arm_joint_R_2", "arm_joint_R_3", "leg_joint_R_1",
                 "leg_joint_R_2", "leg_joint_R_3"}));
  }
  // The Quaternius robots: no hand joint (three palm joints, one per finger, leave the lower
  // arm), and the feet are IK-driven children of the root, found by name.
  const Expected robot =
      sided("Hips", "Abdomen", "Torso", "Neck", "Head",
            {"UpperArm.L", "LowerArm.L", "", "UpperLeg.L", "LowerLeg.L", "Foot.L"},
            {"UpperArm.R", "LowerArm.R", "", "UpperLeg.R", "LowerLeg.R", "Foot.R"});
  {
    const Model m = load(corpus / "RobotExpressive/RobotExpressive.glb");
    check(m, 0, "RobotExpressive/RobotExpressive.glb (skin 0)", robot);
    check(m, 1, "RobotExpressive/RobotExpressive.glb (skin 1)", robot);
  }
  {
    const Model m = load(corpus / "QuaterniusRobot/robot.glb");
    check(m, 0, "QuaterniusRobot/robot.glb", robot);
  }
  {
    // The hips joint is called "Root": the joint both upper legs hang from.
    const Model m = load(corpus / "girl/girl.glb");
    check(m, 0, "girl/girl.glb",
          sided("Root", "LowerSpine", "UpperSpine", "Neck", "Head",
                {"UpperArm.L", "LowerArm.L", "Palm.L", "UpperLeg.L", "LowerLeg.L", "Foot.L"},
                {"UpperArm.R", "LowerArm.R", "Palm.R", "UpperLeg.R", "LowerLeg.R", "Foot.R"}));
  }
  // Not humanoids: greenman (one-joint arms, two-joint legs, no head joint) and the Fox.
  for (const char* file : {"greenman/greenman.glb", "Fox/Fox.glb"}) {
    const Model m = load(corpus / file);
    const HumanoidMap map = find_humanoid(m, 0);
    EXPECT_FALSE(missing_core_bones(map).empty()) << file;
    int found = 0;
    for (size_t i = 0; i < kHumanBoneCount; ++i)
      found += is_core_human_bone(HumanBone(i)) && map.node[i] >= 0;
    std::printf("| %s | %d/17 | not a humanoid |\n", file, found);
  }
}

}  // namespace
}  // namespace rig
