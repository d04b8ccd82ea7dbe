// The second humanoid, for retargeting tests and demos: 0.8 times the mannequin's height, shorter
// legs and longer arms for that height, an A-pose rest (arms 45 degrees down) and Rigify-like
// names (upper_arm.L, forearm.L, thigh.L, shin.L …) where the mannequin has Mixamo's.
#include <cmath>
#include <string>
#include <vector>

#include "clip_builder.h"
#include "models.h"
#include "pose_math.h"
#include "surface.h"
#include "texture.h"

namespace rig::gen {
namespace {

enum Joint : int {
  kHips,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kShoulderL,
  kUpperArmL,
  kForearmL,
  kHandL,
  kShoulderR,
  kUpperArmR,
  kForearmR,
  kHandR,
  kThighL,
  kShinL,
  kFootL,
  kToeL,
  kThighR,
  kShinR,
  kFootR,
  kToeR,
  kJointCount
};

// Heights and lengths (metres); the character's left is +X, it faces +Z, 1.44 m tall.
constexpr double kHipsY = 0.70, kSpineY = 0.80, kChestY = 0.98, kNeckY = 1.20, kHeadY = 1.28;
constexpr double kTopY = 1.44, kShoulderY = 1.15, kClavicleX = 0.03, kShoulderX = 0.15;
constexpr double kUpperArm = 0.27, kForearm = 0.26, kHand = 0.14;
constexpr double kLegX = 0.09, kHipJointY = 0.67, kKneeY = 0.37, kAnkleY = 0.07;
constexpr double kToeY = 0.02, kToeZ = 0.10, kToeEndZ = 0.16;

// Unit direction of the arm in the A-pose: out to the side and 45 degrees down.
glm::dvec3 arm_dir(double sx) { return glm::dvec3(sx * std::sqrt(0.5), -std::sqrt(0.5), 0.0); }

std::vector<JointDef> skeleton() {
  std::vector<JointDef> j(kJointCount);
  j[kHips] = {"hips", -1, {0, kHipsY, 0}};
  j[kSpine] = {"spine", kHips, {0, kSpineY, 0}};
  j[kChest] = {"chest", kSpine, {0, kChestY, 0}};
  j[kNeck] = {"neck", kChest, {0, kNeckY, 0}};
  j[kHead] = {"head", kNeck, {0, kHeadY, 0}};
  for (double sx : {1.0, -1.0}) {
    const std::string s = sx > 0 ? ".L" : ".R";
    const int sh = sx > 0 ? kShoulderL : kShoulderR;
    const glm::dvec3 root(sx * kShoulderX, kShoulderY, 0);
    j[sh] = {"shoulder" + s, kChest, {sx * kClavicleX, kShoulderY, 0}};
    j[sh + 1] = {"upper_arm" + s, sh, root};
    j[sh + 2] = {"forearm" + s, sh + 1, root + kUpperArm * arm_dir(sx)};
    j[sh + 3] = {"hand" + s, sh + 2, root + (kUpperArm + kForearm) * arm_dir(sx)};
    const int th = sx > 0 ? kThighL : kThighR;
    j[th] = {"thigh" + s, kHips, {sx * kLegX, kHipJointY, 0}};
    j[th + 1] = {"shin" + s, th, {sx * kLegX, kKneeY, 0}};
    j[th + 2] = {"foot" + s, th + 1, {sx * kLegX, kAnkleY, 0}};
    j[th + 3] = {"toe" + s, th + 2, {sx * kLegX, kToeY, kToeZ}};
  }
  return j;
}

// A round tube from a to b (radii r0 → r1) wrapping `bones`.
void limb(SkinnedMesh& mesh, glm::dvec3 a, glm::dvec3 b, glm::dvec3 e1, double r0, double r1,
          std::vector<double> rings, std::vector<BoneSegment> bones, TextureBand band,
          double falloff) {
  TubeSpec t;
  t.origin = a;
  t.axis = glm::normalize(b - a);
  t.e1 = e1;
  const double length = glm::length(b - a);
  t.profile = {{0.0, r0, r0}, {length, r1, r1}};
  t.ring_at = std::move(rings);
  t.ring_spacing = 0.0125;
  t.segments = 20;
  t.cap_start = 0.6 * r0;
  t.cap_end = 0.6 * r1;
  t.cap_rings = 5;
  t.v0 = band.v0 + 0.01;
  t.v1 = band.v1 - 0.01;
  t.bones = std::move(bones);
  t.falloff = falloff;
  add_tube(t, mesh);
}

void add_body(const std::vector<JointDef>& j, SkinnedMesh& mesh) {
  auto at = [&](int joint) { return j[joint].rest_world; };
  auto seg = [&](int joint, int next) { return BoneSegment{joint, at(joint), at(next)}; };
  const glm::dvec3 X(1, 0, 0);
  const glm::dvec3 top(0, kTopY, 0);
  limb(mesh, {0, 0.60, 0}, {0, kNeckY, 0}, -X, 0.12, 0.11, {kSpineY - 0.60, kChestY - 0.60},
       {{kHips, {0, 0.55, 0}, at(kSpine)}, seg(kSpine, kChest), seg(kChest, kNeck)}, kTorsoBand,
       0.06);
  limb(mesh, {0, kNeckY - 0.04, 0}, top, -X, 0.045, 0.08, {kHeadY - kNeckY + 0.04},
       {seg(kChest, kNeck), seg(kNeck, kHead), {kHead, at(kHead), top}}, kExtremityBand, 0.04);
  for (double sx : {1.0, -1.0}) {
    const int sh = sx > 0 ? kShoulderL : kShoulderR;
    const glm::dvec3 d = arm_dir(sx);
    const glm::dvec3 hand_end = at(sh + 3) + kHand * d;
    limb(mesh, at(sh + 1) - 0.04 * d, hand_end, {0, 0, -sx}, 0.045, 0.03,
         {0.04, 0.04 + kUpperArm, 0.04 + kUpperArm + kForearm},
         {seg(kChest, kNeck),
          seg(sh, sh + 1),
          seg(sh + 1, sh + 2),
          seg(sh + 2, sh + 3),
          {sh + 3, at(sh + 3), hand_end}},
         kArmBand, 0.05);
    const int th = sx > 0 ? kThighL : kThighR;
    const glm::dvec3 toe_end(sx * kLegX, kToeY, kToeEndZ);
    limb(mesh, {sx * kLegX, 0.74, 0}, at(th + 2), X, 0.075, 0.035,
         {0.74 - kHipJointY, 0.74 - kKneeY},
         {{kHips, at(th), {sx * kLegX, 0.85, 0}},
          seg(th, th + 1),
          seg(th + 1, th + 2),
          seg(th + 2, th + 3)},
         kLegBand, 0.06);
    limb(mesh, {sx * kLegX, 0.035, -0.03}, {sx * kLegX, 0.035, kToeEndZ}, X, 0.035, 0.03,
         {kToeZ + 0.03}, {seg(th + 1, th + 2), seg(th + 2, th + 3), {th + 3, at(th + 3), toe_end}},
         kExtremityBand, 0.03);
  }
}

}  // namespace

Asset build_humanoid_apose() {
  Asset asset;
  asset.name = "HumanoidAPose";
  asset.joints = skeleton();
  snap_skeleton_to_float(asset.joints);
  add_body(asset.joints, asset.mesh);
  asset.png = mannequin_texture_png();
  // ArmRaise: both arms up from the A-pose to 30 degrees above horizontal and back, elbows
  // bending a little on the way (one 2 s loop).
  const KeyedPoses raise =
      sample_looping("ArmRaise", 60, 30.0, asset.joints, [](double t, JointPose& p) {
        const double w = 0.5 - 0.5 * std::cos(2.0 * kPi * t / 2.0);
        for (double sx : {1.0, -1.0}) {
          const int sh = sx > 0 ? kShoulderL : kShoulderR;
          p.rotation[sh + 1] = rot_z(sx * 75.0 * w);
          p.rotation[sh + 2] = rot_y(-sx * 30.0 * w);
        }
      });
  asset.clips.push_back(to_clip(raise, asset.joints));
  return asset;
}

}  // namespace rig::gen
