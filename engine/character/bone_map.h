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

}  // namespace rig
