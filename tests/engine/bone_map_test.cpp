// The humanoid bone map (engine/character/bone_map.h): part names, joint-name normalization, the
// by-name and structural finders on hand-built skeletons whose every joint's part is known by
// construction (humanoid_test_skeleton.h), the source → target map and its overrides.
#include "character/bone_map.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "humanoid_test_skeleton.h"

namespace rig {
namespace {

using test::build_humanoid;
using test::BuiltSkeleton;
using test::convention;

TEST(BoneMapNames, VrmStyleNamesRoundTrip) {
  EXPECT_STREQ(human_bone_name(HumanBone::Hips), "hips");
  EXPECT_STREQ(human_bone_name(HumanBone::UpperChest), "upperChest");
  EXPECT_STREQ(human_bone_name(HumanBone::LeftUpperArm), "leftUpperArm");
  EXPECT_STREQ(human_bone_name(HumanBone::RightToes), "rightToes");
  EXPECT_STREQ(human_bone_name(HumanBone::LeftThumb1), "leftThumb1");
  EXPECT_STREQ(human_bone_name(HumanBone::LeftIndex2), "leftIndex2");
  EXPECT_STREQ(human_bone_name(HumanBone::RightLittle3), "rightLittle3");
  EXPECT_STREQ(human_bone_name(HumanBone::Count), "");
  for (size_t i = 0; i < kHumanBoneCount; ++i)
    EXPECT_EQ(human_bone_from_name(human_bone_name(HumanBone(i))), HumanBone(i)) << i;
  EXPECT_EQ(human_bone_from_name("LeftUpperArm"), HumanBone::Count);  // case matters
  EXPECT_EQ(human_bone_from_name("tail"), HumanBone::Count);
}

TEST(BoneMapNames, SeventeenCoreBonesAndTheNeckIsOptional) {
  int core = 0;
  for (size_t i = 0; i < kHumanBoneCount; ++i) core += is_core_human_bone(HumanBone(i));
  EXPECT_EQ(core, 17);
  EXPECT_FALSE(is_core_human_bone(HumanBone::UpperChest));
  EXPECT_FALSE(is_core_human_bone(HumanBone::LeftShoulder));
  EXPECT_FALSE(is_core_human_bone(HumanBone::LeftToes));

  HumanoidMap map;
  for (size_t i = 0; i < kHumanBoneCount; ++i)
    if (is_core_human_bone(HumanBone(i))) map.node[i] = int(i);
  bool neck_missing = true;
  EXPECT_TRUE(missing_core_bones(map, &neck_missing).empty());
  EXPECT_FALSE(neck_missing);
  map[HumanBone::Neck] = -1;
  EXPECT_TRUE(missing_core_bones(map, &neck_missing).empty());
  EXPECT_TRUE(neck_missing);
  map[HumanBone::RightFoot] = -1;
  map[HumanBone::Chest] = -1;
  EXPECT_EQ(missing_core_bones(map),
            (std::vector<HumanBone>{HumanBone::Chest, HumanBone::RightFoot}));
}

TEST(BoneMapNames, NormalizationAcrossConventions) {
  const std::pair<const char*, const char*> cases[] = {
      {"mixamorig:LeftUpLeg", "upleg_l"},
      {"mixamorig1:RightHand", "hand_r"},
      {"mixamorig_Hips", "hips"},
      {"Armature|mixamorig:Spine1", "spine1"},
      {"DEF-upper_arm.L", "upperarm_l"},
      {"ORG-forearm.R", "forearm_r"},
      {"DEF-spine.003", "spine3"},
      {"spine_01", "spine1"},
      {"thigh_l", "thigh_l"},
      {"upperarm_twist_01_r", "upperarmtwist1_r"},
      {"J_Bip_L_UpperArm", "upperarm_l"},
      {"J_Bip_C_Hips", "hips"},
      {"Bip01 R Forearm", "forearm_r"},
      {"UpperArm.L", "upperarm_l"},
      {"upperarm.l", "upperarm_l"},
      {"l_hand", "hand_l"},
      {"Left Foot", "foot_l"},
      {"LeftHandThumb1", "handthumb1_l"},
      {"Armature_Head", "head"},
      {"LowerLeg-R", "lowerleg_r"},
      {"Lower", "lower"},  // a lone word is never a side marker
  };
  for (const auto& [in, out] : cases) EXPECT_EQ(normalize_joint_name(in), out) << in;
  EXPECT_TRUE(is_twist_joint_name("LeftForeArmTwist"));
  EXPECT_TRUE(is_twist_joint_name("upperarm_twist_01_l"));
  EXPECT_TRUE(is_twist_joint_name("control-heel-roll.l"));
  EXPECT_FALSE(is_twist_joint_name("Controller"));
  EXPECT_FALSE(is_twist_joint_name("LeftForeArm"));
}

// Every built slot with a part is found, and nothing else is mapped to a part the skeleton does
// not have a slot for.
void expect_map(const BuiltSkeleton& b, const HumanoidMap& map, const std::string& what) {
  std::vector<int> expected(kHumanBoneCount, -1);
  for (int slot = 0; slot < test::kSlotCount; ++slot)
    if (test::slot_bone(slot) != HumanBone::Count)
      expected[size_t(test::slot_bone(slot))] = b.node_of[slot];
  for (size_t i = 0; i < size_t(HumanBone::LeftThumb1); ++i) {
    const int got = map.node[i];
    EXPECT_EQ(got, expected[i]) << what << ": " << human_bone_name(HumanBone(i)) << " is "
                                << (got >= 0 ? b.model.nodes[size_t(got)].name : "(none)");
  }
}

struct Convention {
  const char* name;
  std::vector<std::string> centre, side;
};

const std::vector<Convention>& conventions() {
  static const std::vector<Convention> all = {
      {"Mixamo",
       {"mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2",
        "mixamorig:Neck", "", "mixamorig:Head"},
       {"mixamorig:{Side}Shoulder", "mixamorig:{Side}Arm", "mixamorig:{Side}ForeArm",
        "mixamorig:{Side}Hand", "", "mixamorig:{Side}UpLeg", "mixamorig:{Side}Leg",
        "mixamorig:{Side}Foot", "mixamorig:{Side}ToeBase"}},
      {"Unreal",
       {"pelvis", "spine_01", "spine_02", "spine_03", "neck_01", "", "head"},
       {"clavicle_{s}", "upperarm_{s}", "lowerarm_{s}", "hand_{s}", "", "thigh_{s}", "calf_{s}",
        "foot_{s}", "ball_{s}"}},
      {"Unity",
       {"Hips", "Spine", "Chest", "UpperChest", "Neck", "", "Head"},
       {"{Side}Shoulder", "{Side}UpperArm", "{Side}LowerArm", "{Side}Hand", "", "{Side}UpperLeg",
        "{Side}LowerLeg", "{Side}Foot", "{Side}Toes"}},
      {"VRM",
       {"J_Bip_C_Hips", "J_Bip_C_Spine", "J_Bip_C_Chest", "J_Bip_C_UpperChest", "J_Bip_C_Neck", "",
        "J_Bip_C_Head"},
       {"J_Bip_{S}_Shoulder", "J_Bip_{S}_UpperArm", "J_Bip_{S}_LowerArm", "J_Bip_{S}_Hand", "",
        "J_Bip_{S}_UpperLeg", "J_Bip_{S}_LowerLeg", "J_Bip_{S}_Foot", "J_Bip_{S}_ToeBase"}},
      {"Rigify",
       {"DEF-spine", "DEF-spine.001", "DEF-spine.002", "DEF-spine.003", "DEF-spine.004",
        "DEF-spine.005", "DEF-spine.006"},
       {"DEF-shoulder.{S}", "DEF-upper_arm.{S}", "DEF-forearm.{S}", "DEF-hand.{S}", "",
        "DEF-thigh.{S}", "DEF-shin.{S}", "DEF-foot.{S}", "DEF-toe.{S}"}},
      {"Quaternius",
       {"Hips", "Spine", "Chest", "", "Neck", "", "Head"},
       {"Shoulder.{S}", "UpperArm.{S}", "LowerArm.{S}", "Hand.{S}", "", "UpperLeg.{S}",
        "LowerLeg.{S}", "Foot.{S}", "Toes.{S}"}},
      // KayKit: no neck, no shoulder, the wrist joint is the hand and a "hand" joint below it.
      {"KayKit",
       {"hips", "spine", "chest", "", "", "", "head"},
       {"", "upperarm.{s}", "lowerarm.{s}", "wrist.{s}", "hand.{s}", "upperleg.{s}", "lowerleg.{s}",
        "foot.{s}", "toes.{s}"}},
  };
  return all;
}

TEST(BoneMapByName, EveryConventionMapsEveryPartItNames) {
  for (const Convention& c : conventions()) {
    const BuiltSkeleton b = build_humanoid(convention(c.centre, c.side), false);
    expect_map(b, find_humanoid_by_name(b.model, 0), c.name);
  }
}

TEST(BoneMapByName, HipsFromTheLegsWhenNoJointIsNamedSo) {
  // The girl in the corpus: the hips joint is called "Root".
  BuiltSkeleton b =
      build_humanoid(convention({"Root", "LowerSpine", "UpperSpine", "", "Neck", "", "Head"},
                                {"Shoulder.{S}", "UpperArm.{S}", "LowerArm.{S}", "Palm.{S}", "",
                                 "UpperLeg.{S}", "LowerLeg.{S}", "Foot.{S}", ""}),
                     false);
  expect_map(b, find_humanoid_by_name(b.model, -1), "Root-hipped");
}

TEST(BoneMapByName, TwistBonesAreNeverParts) {
  std::vector<std::string> names = convention(conventions()[0].centre, conventions()[0].side);
  BuiltSkeleton b = build_humanoid(names, false);
  // Renaming the left hand into a twist helper leaves the left hand unmapped.
  b.model.nodes[size_t(b.node_of[test::kLHand])].name = "mixamorig:LeftHandTwist";
  const HumanoidMap map = find_humanoid_by_name(b.model, 0);
  EXPECT_EQ(map[HumanBone::LeftHand], -1);
  EXPECT_EQ(map[HumanBone::RightHand], b.node_of[test::kRHand]);
}

std::vector<std::string> meaningless_names() {
  std::vector<std::string> names(test::kSlotCount);
  for (int i = 0; i < test::kSlotCount; ++i)
    names[size_t(i)] = "b" + std::to_string((i * 7) % test::kSlotCount);
  names[test::kNeck2] = names[test::kLHandEnd] = names[test::kRHandEnd] = "";
  return names;
}

TEST(BoneMapByStructure, TPoseAndAPose) {
  for (bool a_pose : {false, true}) {
    const BuiltSkeleton b = build_humanoid(meaningless_names(), a_pose);
    EXPECT_EQ(find_humanoid_by_name(b.model, 0)[HumanBone::Hips], -1);
    expect_map(b, find_humanoid_by_structure(b.model, 0), a_pose ? "A-pose" : "T-pose");
  }
}

TEST(BoneMapByStructure, TurnedCharactersKeepTheirLeftAndRight) {
  const float half_pi = 1.57079633f, pi = 3.14159265f;
  struct Case {
    const char* what;
    glm::quat armature;
    bool compensate;
  } cases[] = {
      {"facing -Z", glm::angleAxis(pi, glm::vec3(0, 1, 0)), false},
      {"facing +X", glm::angleAxis(half_pi, glm::vec3(0, 1, 0)), false},
      {"Z-up armature corrected by its node", glm::angleAxis(half_pi, glm::vec3(1, 0, 0)), true},
      {"Z-up model, uncorrected", glm::angleAxis(half_pi, glm::vec3(1, 0, 0)), false},
  };
  for (const Case& c : cases)
    for (bool a_pose : {false, true}) {
      const BuiltSkeleton b = build_humanoid(meaningless_names(), a_pose, c.armature, c.compensate);
      expect_map(b, find_humanoid_by_structure(b.model, 0),
                 std::string(c.what) + (a_pose ? ", A-pose" : ", T-pose"));
    }
}

TEST(BoneMapByStructure, NoNeckMeansTheJointAboveTheArmsIsTheHead) {
  std::vector<std::string> names = meaningless_names();
  names[test::kNeck] = names[test::kUpperChest] = names[test::kLShoulder] =
      names[test::kRShoulder] = "";
  const BuiltSkeleton b = build_humanoid(names, false);
  expect_map(b, find_humanoid_by_structure(b.model, 0), "no neck");
}

TEST(BoneMapFind, NamesFirstThenStructureWhereConsistent) {
  // Only the hips and the neck have recognisable names; the rest comes from the structure.
  std::vector<std::string> names = meaningless_names();
  names[test::kHips] = "pelvis";
  names[test::kNeck] = "neck_01";
  const BuiltSkeleton b = build_humanoid(names, true);
  expect_map(b, find_humanoid(b.model, 0), "partly named");

  // A name map that disagrees with the structure keeps its own choice and takes nothing below
  // it: the left upper arm named on the right arm's joint.
  std::vector<std::string> wrong = convention(conventions()[2].centre, conventions()[2].side);
  wrong[test::kLLowerArm] = wrong[test::kLHand] = "";
  wrong[test::kRUpperArm] = "LeftUpperArm";
  wrong[test::kLUpperArm] = "b1";
  const BuiltSkeleton w = build_humanoid(wrong, false);
  const HumanoidMap map = find_humanoid(w.model, 0);
  EXPECT_EQ(map[HumanBone::LeftUpperArm], w.node_of[test::kRUpperArm]);
  EXPECT_EQ(map[HumanBone::LeftLowerArm], -1);  // the structure's is under another upper arm
}

TEST(BoneMapPairs, OnePairPerSharedPartPlusExtrasByName) {
  const Convention& mixamo = conventions()[0];
  const Convention& kaykit = conventions()[6];
  BuiltSkeleton s = build_humanoid(convention(mixamo.centre, mixamo.side), false);
  BuiltSkeleton t = build_humanoid(convention(kaykit.centre, kaykit.side), true);
  // A helper on both sides with the same normalized name, and one only on the source.
  auto add_joint = [](BuiltSkeleton& b, const std::string& name, int parent) {
    Node n;
    n.name = name;
    n.parent = parent;
    b.model.nodes[size_t(parent)].children.push_back(int(b.model.nodes.size()));
    b.model.skins[0].joints.push_back(int(b.model.nodes.size()));
    b.model.nodes.push_back(n);
    return int(b.model.nodes.size()) - 1;
  };
  const int s_twist = add_joint(s, "mixamorig:LeftForeArmTwist", s.node_of[test::kLLowerArm]);
  const int t_twist = add_joint(t, "ForeArm_Twist.L", t.node_of[test::kLLowerArm]);
  add_joint(s, "mixamorig:Tail", s.node_of[test::kHips]);

  const BoneMap map =
      make_bone_map(s.model, find_humanoid(s.model, 0), t.model, find_humanoid(t.model, 0));
  // KayKit lacks upper chest, neck, shoulders: hips, spine, chest, head, 2 × (upper arm, lower
  // arm, hand, upper leg, lower leg, foot, toes) = 18 parts, plus the twist pair.
  ASSERT_EQ(map.pairs.size(), 19u);
  for (int slot : {test::kHips, test::kSpine, test::kChest, test::kHead, test::kLUpperArm,
                   test::kRHand, test::kLToes, test::kRUpperLeg}) {
    const BonePair* pair = map.find(test::slot_bone(slot));
    ASSERT_NE(pair, nullptr) << slot;
    EXPECT_EQ(pair->source, s.node_of[slot]);
    EXPECT_EQ(pair->target, t.node_of[slot]);
  }
  EXPECT_EQ(map.find(HumanBone::Neck), nullptr);
  EXPECT_EQ(map.pairs.back().source, s_twist);
  EXPECT_EQ(map.pairs.back().target, t_twist);
  EXPECT_EQ(map.pairs.back().role, HumanBone::Count);
}

TEST(BoneMapOverride, OverridesWinKeepRolesAndUnmap) {
  const Convention& unity = conventions()[2];
  const Convention& unreal = conventions()[1];
  BuiltSkeleton s = build_humanoid(convention(unity.centre, unity.side), false);
  BuiltSkeleton t = build_humanoid(convention(unreal.centre, unreal.side), true);
  BoneMap map =
      make_bone_map(s.model, find_humanoid(s.model, 0), t.model, find_humanoid(t.model, 0));
  const size_t pairs = map.pairs.size();
  ASSERT_EQ(pairs, 22u);  // every body part (no fingers in these skeletons)
  std::string error;

  // The target's spine_02 now driven by the source's Spine: the chest pair (spine_02's) is
  // replaced and keeps the chest role; the old spine pair (source Spine) goes.
  ASSERT_TRUE(apply_bone_map_override(map, s.model, t.model, "Spine", "spine_02", &error)) << error;
  EXPECT_EQ(map.pairs.size(), pairs - 1);
  const BonePair* chest = map.find(HumanBone::Chest);
  ASSERT_NE(chest, nullptr);
  EXPECT_EQ(chest->source, s.node_of[test::kSpine]);
  EXPECT_EQ(chest->target, t.node_of[test::kChest]);
  EXPECT_EQ(map.find(HumanBone::Spine), nullptr);

  // An empty target unmaps the source joint.
  ASSERT_TRUE(apply_bone_map_override(map, s.model, t.model, "LeftHand", "", &error));
  EXPECT_EQ(map.find(HumanBone::LeftHand), nullptr);
  EXPECT_EQ(map.pairs.size(), pairs - 2);

  // Unknown joints: false, one line naming the joint, the map unchanged.
  const BoneMap before = map;
  EXPECT_FALSE(apply_bone_map_override(map, s.model, t.model, "NoSuchBone", "head", &error));
  EXPECT_EQ(error, "bone map: unknown source joint 'NoSuchBone'");
  EXPECT_FALSE(apply_bone_map_override(map, s.model, t.model, "Head", "skull", &error));
  EXPECT_EQ(error, "bone map: unknown target joint 'skull'");
  EXPECT_EQ(map.pairs.size(), before.pairs.size());

  // A target joint that had no pair takes the role of the source joint's pair.
  Node helmet;
  helmet.name = "helmet";
  helmet.parent = t.node_of[test::kHead];
  t.model.nodes.push_back(helmet);
  ASSERT_TRUE(apply_bone_map_override(map, s.model, t.model, "Head", "helmet", &error));
  const BonePair* head = map.find(HumanBone::Head);
  ASSERT_NE(head, nullptr);
  EXPECT_EQ(head->source, s.node_of[test::kHead]);
  EXPECT_EQ(head->target, int(t.model.nodes.size()) - 1);
  EXPECT_EQ(map.pairs.size(), pairs - 2);
}

}  // namespace
}  // namespace rig
