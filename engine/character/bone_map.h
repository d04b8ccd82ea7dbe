// Which joint of one skeleton plays which part of a human body, and which joint of a source
// skeleton drives which joint of a target: the plain data that retargeting reads.
//
// HumanBone names the humanoid's parts (the Unity Humanoid / VRM set: hips up the spine to the
// head, shoulders, arms, legs, toes, three segments per finger). A HumanoidMap gives, for one
// skeleton, the node that plays each part (-1 where it has none). A BoneMap pairs source nodes
// with target nodes; pairs that play a human part carry it as their role, the others (twist
// bones, extras matched by name) have none.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

enum class HumanBone : uint8_t {
  Hips,
  Spine,
  Chest,
  UpperChest,
  Neck,
  Head,
  LeftShoulder,
  LeftUpperArm,
  LeftLowerArm,
  LeftHand,
  RightShoulder,
  RightUpperArm,
  RightLowerArm,
  RightHand,
  LeftUpperLeg,
  LeftLowerLeg,
  LeftFoot,
  LeftToes,
  RightUpperLeg,
  RightLowerLeg,
  RightFoot,
  RightToes,
  // Fingers: thumb, index, middle, ring, little; segments 1 (proximal) .. 3 (distal).
  LeftThumb1,
  LeftThumb2,
  LeftThumb3,
  LeftIndex1,
  LeftIndex2,
  LeftIndex3,
  LeftMiddle1,
  LeftMiddle2,
  LeftMiddle3,
  LeftRing1,
  LeftRing2,
  LeftRing3,
  LeftLittle1,
  LeftLittle2,
  LeftLittle3,
  RightThumb1,
  RightThumb2,
  RightThumb3,
  RightIndex1,
  RightIndex2,
  RightIndex3,
  RightMiddle1,
  RightMiddle2,
  RightMiddle3,
  RightRing1,
  RightRing2,
  RightRing3,
  RightLittle1,
  RightLittle2,
  RightLittle3,
  Count
};

inline constexpr size_t kHumanBoneCount = size_t(HumanBone::Count);

// For one skeleton: the node that plays each human part, -1 where none does.
struct HumanoidMap {
  std::array<int, kHumanBoneCount> node;
  HumanoidMap() { node.fill(-1); }
  int operator[](HumanBone bone) const { return node[size_t(bone)]; }
  int& operator[](HumanBone bone) { return node[size_t(bone)]; }
};

// One source joint driving one target joint (glTF node indices of their own models).
struct BonePair {
  int source = -1;
  int target = -1;
  HumanBone role = HumanBone::Count;  // Count: no human part (a twist bone, an extra by name)
};

struct BoneMap {
  std::vector<BonePair> pairs;
  // The pair playing `role`, nullptr when none.
  const BonePair* find(HumanBone role) const {
    for (const BonePair& pair : pairs)
      if (pair.role == role) return &pair;
    return nullptr;
  }
};

struct Model;

// ---- Names ------------------------------------------------------------------------------------

// The part's VRM-style lowerCamel name: "hips", "upperChest", "leftUpperArm", "rightLittle3".
// "" for Count.
const char* human_bone_name(HumanBone bone);
// The part named `name` (exactly as human_bone_name spells it), Count when none is.
HumanBone human_bone_from_name(std::string_view name);

// The 17 core parts every humanoid must have mapped before retargeting: hips, spine, chest,
// neck, head, and both sides' upper arm, lower arm, hand, upper leg, lower leg and foot.
bool is_core_human_bone(HumanBone bone);
// The neck is core but optional: some game rigs (KayKit's) go from the chest straight to the
// head, and such a skeleton is still a humanoid.
inline bool is_optional_core_bone(HumanBone bone) { return bone == HumanBone::Neck; }

// The core parts `map` lacks, in HumanBone order. The neck is reported apart (`neck_missing`),
// never in the returned list: a map is acceptable exactly when the list is empty.
std::vector<HumanBone> missing_core_bones(const HumanoidMap& map, bool* neck_missing = nullptr);

// ---- Name normalization -----------------------------------------------------------------------

enum class JointSide : uint8_t { None, Left, Right };

// A joint name reduced to what the conventions agree on (see normalize_joint_name).
struct JointNameParts {
  JointSide side = JointSide::None;
  std::string base;  // lower-case letters and digits, no separators, no side marker
};

// Splits a joint name into side and base: drops everything up to the last ':' or '|'
// (namespaces: "mixamorig:", "Armature|"), the Mixamo "mixamorig<N>_" prefix, Rigify "DEF-",
// "ORG-", "MCH-" and an "Armature_" prefix; cuts the rest into words at separators (' ', '_',
// '.', '-'), at lower→upper case changes ("LeftUpLeg" → left up leg) and around digit runs;
// a word "l"/"left" or "r"/"right" anywhere is the side; VRM's "J", "Bip" (with its number) and
// "C" words are dropped; digit runs lose their leading zeros ("spine.001" → spine1). The
// remaining words, lower-cased and joined, are the base.
JointNameParts split_joint_name(std::string_view name);
// The canonical form: base, then "_l" or "_r" for a side ("mixamorig:LeftUpLeg" → "upleg_l",
// "DEF-upper_arm.L" → "upperarm_l", "thigh_l" → "thigh_l", "spine_01" → "spine1").
std::string normalize_joint_name(std::string_view name);

// Twist and roll helpers ("ForeArmTwist", "upperarm_twist_01_l", "control-heel-roll.l") are never
// human parts, whatever else their names say.
bool is_twist_joint_name(std::string_view name);

// ---- Finding a skeleton's humanoid parts ------------------------------------------------------

// By name alone (joints of skin `skin`; -1 = the first skin): the vocabulary of Mixamo, Unreal,
// Unity Humanoid / VRM, Rigify deform bones and Quaternius/KayKit (README, "Retargeting: the bone
// map"). The hips are the hips/pelvis name, else the nearest joint both upper legs descend from;
// the spine parts are the joints between the hips and the neck (or head, or the joint the arms
// branch from), in order: spine, chest, upperChest; more segments stay unmapped.
HumanoidMap find_humanoid_by_name(const Model& model, int skin);
// By the rest pose alone, names ignored (README: the structural rule and the left/right rule).
HumanoidMap find_humanoid_by_structure(const Model& model, int skin);
// By name, then every part names missed taken from the structural map where consistent: the part
// is still free and both maps give its parent part (upper arm for the lower arm, hips for the
// spine …) the same joint.
HumanoidMap find_humanoid(const Model& model, int skin);

// ---- Source → target ---------------------------------------------------------------------------

// One pair per human part both maps have (its role set), then extras: joints of either model's
// skins whose normalized names are equal on both sides, unique on each side and not yet paired
// (twist bones and other helpers), with role Count.
BoneMap make_bone_map(const Model& source, const HumanoidMap& source_map, const Model& target,
                      const HumanoidMap& target_map);

// A pair given by exact node names wins over what was found: every pair using either joint is
// dropped and (source, target) added, with the role of the dropped pair that used the target
// (else of the one that used the source, else none). An empty target name unmaps the source
// joint (drops its pairs, adds nothing). False with a one-line `error` naming the unknown joint.
bool apply_bone_map_override(BoneMap& map, const Model& source, const Model& target,
                             std::string_view source_joint, std::string_view target_joint,
                             std::string* error);

}  // namespace rig
