// The bundled mannequin: a 1.8 m humanoid in T-pose (Y up, +Z forward, standing on y = 0),
// made of tubes and capsules around its bones, with clips chosen to show LBS against DQS.
#include <cmath>
#include <initializer_list>
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
  kSpine1,
  kSpine2,
  kNeck,
  kHead,
  kLeftShoulder,
  kLeftArm,
  kLeftForeArm,
  kLeftForeArmTwist,
  kLeftHand,
  kRightShoulder,
  kRightArm,
  kRightForeArm,
  kRightForeArmTwist,
  kRightHand,
  kLeftUpLeg,
  kLeftLeg,
  kLeftFoot,
  kLeftToeBase,
  kRightUpLeg,
  kRightLeg,
  kRightFoot,
  kRightToeBase,
  kJointCount
};

// Key heights and reaches (metres). The character's left is +X.
constexpr double kHipsY = 0.95, kSpineY = 1.05, kSpine1Y = 1.17, kSpine2Y = 1.30;
constexpr double kNeckY = 1.50, kHeadY = 1.60, kShoulderY = 1.44;
constexpr double kClavicleX = 0.04, kShoulderX = 0.18, kElbowX = 0.46, kTwistX = 0.59,
                 kWristX = 0.72, kHandEndX = 0.92;
constexpr double kLegX = 0.10, kHipJointY = 0.92, kKneeY = 0.51, kAnkleY = 0.09;
constexpr double kToeY = 0.025, kToeZ = 0.13, kToeEndZ = 0.21;

// The right-side twin of a left-side joint (side < 0), or the joint itself (side > 0).
int side_joint(Joint left, double side) {
  if (side > 0.0) return left;
  return left >= kLeftUpLeg ? left + (kRightUpLeg - kLeftUpLeg)
                            : left + (kRightShoulder - kLeftShoulder);
}

std::vector<JointDef> skeleton() {
  std::vector<JointDef> j(kJointCount);
  auto set = [&](Joint id, const char* name, int parent, glm::dvec3 p) {
    j[id] = {name, parent, p};
  };
  set(kHips, "Hips", -1, {0, kHipsY, 0});
  set(kSpine, "Spine", kHips, {0, kSpineY, 0});
  set(kSpine1, "Spine1", kSpine, {0, kSpine1Y, 0});
  set(kSpine2, "Spine2", kSpine1, {0, kSpine2Y, 0});
  set(kNeck, "Neck", kSpine2, {0, kNeckY, 0});
  set(kHead, "Head", kNeck, {0, kHeadY, 0});
  for (double sx : {1.0, -1.0}) {
    const char* p = sx > 0 ? "Left" : "Right";
    auto name = [&](const char* part) { return std::string(p) + part; };
    const int shoulder = side_joint(kLeftShoulder, sx);
    j[shoulder] = {name("Shoulder"), kSpine2, {sx * kClavicleX, kShoulderY, 0}};
    j[shoulder + 1] = {name("Arm"), shoulder, {sx * kShoulderX, kShoulderY, 0}};
    j[shoulder + 2] = {name("ForeArm"), shoulder + 1, {sx * kElbowX, kShoulderY, 0}};
    j[shoulder + 3] = {name("ForeArmTwist"), shoulder + 2, {sx * kTwistX, kShoulderY, 0}};
    j[shoulder + 4] = {name("Hand"), shoulder + 3, {sx * kWristX, kShoulderY, 0}};
    const int up_leg = side_joint(kLeftUpLeg, sx);
    j[up_leg] = {name("UpLeg"), kHips, {sx * kLegX, kHipJointY, 0}};
    j[up_leg + 1] = {name("Leg"), up_leg, {sx * kLegX, kKneeY, 0}};
    j[up_leg + 2] = {name("Foot"), up_leg + 1, {sx * kLegX, kAnkleY, 0}};
    j[up_leg + 3] = {name("ToeBase"), up_leg + 2, {sx * kLegX, kToeY, kToeZ}};
  }
  return j;
}

BoneSegment bone(int joint, glm::dvec3 a, glm::dvec3 b) { return {joint, a, b}; }

void add_body(SkinnedMesh& mesh) {
  const glm::dvec3 X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);

  // Torso: hips to shoulders, wider at pelvis and chest. e2 = +Z puts the stripes in front.
  TubeSpec torso;
  torso.origin = {0, 0.86, 0};
  torso.axis = Y;
  torso.e1 = -X;
  torso.profile = {{0.00, 0.150, 0.095}, {0.09, 0.160, 0.105}, {0.22, 0.135, 0.090},
                   {0.34, 0.150, 0.098}, {0.46, 0.170, 0.105}, {0.56, 0.160, 0.090},
                   {0.62, 0.125, 0.072}};
  torso.ring_at = {kHipsY - 0.86, kSpineY - 0.86, kSpine1Y - 0.86, kSpine2Y - 0.86};
  torso.ring_spacing = 0.0125;
  torso.segments = 40;
  torso.cap_start = 0.07;
  torso.cap_end = 0.04;
  torso.cap_rings = 6;
  torso.v0 = kTorsoBand.v0 + 0.01;
  torso.v1 = kTorsoBand.v1 - 0.01;
  torso.bones = {
      bone(kHips, {0, 0.70, 0}, {0, kSpineY, 0}), bone(kSpine, {0, kSpineY, 0}, {0, kSpine1Y, 0}),
      bone(kSpine1, {0, kSpine1Y, 0}, {0, kSpine2Y, 0}),
      bone(kSpine2, {0, kSpine2Y, 0}, {0, kNeckY, 0}), bone(kNeck, {0, kNeckY, 0}, {0, kHeadY, 0})};
  torso.falloff = 0.06;
  add_tube(torso, mesh);

  TubeSpec neck;
  neck.origin = {0, 1.44, 0};
  neck.axis = Y;
  neck.e1 = -X;
  neck.profile = {{0.0, 0.052, 0.050}, {0.10, 0.045, 0.045}, {0.18, 0.046, 0.046}};
  neck.ring_at = {kNeckY - 1.44};
  neck.ring_spacing = 0.01;
  neck.segments = 24;
  neck.cap_start = neck.cap_end = 0.02;
  neck.cap_rings = 6;
  neck.v0 = kExtremityBand.v0 + 0.01;
  neck.v1 = kExtremityBand.v0 + 0.08;
  neck.bones = {bone(kSpine2, {0, kSpine2Y, 0}, {0, kNeckY, 0}),
                bone(kNeck, {0, kNeckY, 0}, {0, kHeadY, 0}),
                bone(kHead, {0, kHeadY, 0}, {0, 1.80, 0})};
  neck.falloff = 0.04;
  add_tube(neck, mesh);

  // Head: an egg from y = 1.58 to 1.80, slightly forward of the neck.
  TubeSpec head;
  head.origin = {0, 1.645, 0.012};
  head.axis = Y;
  head.e1 = -X;
  head.profile = {{0.0, 0.082, 0.095}, {0.045, 0.086, 0.100}, {0.09, 0.084, 0.096}};
  head.ring_spacing = 0.01;
  head.segments = 32;
  head.cap_start = head.cap_end = 0.065;
  head.cap_rings = 10;
  head.v0 = kExtremityBand.v0 + 0.09;
  head.v1 = kExtremityBand.v0 + 0.17;
  head.bones = {bone(kNeck, {0, kNeckY, 0}, {0, kHeadY, 0}),
                bone(kHead, {0, kHeadY, 0}, {0, 1.85, 0})};
  head.falloff = 0.04;
  add_tube(head, mesh);

  // Nose: tells front from back at a glance.
  TubeSpec nose;
  nose.origin = {0, 1.70, 0.085};
  nose.axis = Z;
  nose.e1 = X;
  nose.profile = {{0.0, 0.016, 0.016}, {0.03, 0.013, 0.013}};
  nose.ring_spacing = 0.01;
  nose.segments = 12;
  nose.cap_start = 0.01;
  nose.cap_end = 0.012;
  nose.cap_rings = 4;
  nose.v0 = kExtremityBand.v0 + 0.18;
  nose.v1 = kExtremityBand.v0 + 0.20;
  nose.bones = {bone(kHead, {0, kHeadY, 0}, {0, 1.85, 0})};
  nose.falloff = 0.04;
  add_tube(nose, mesh);

  for (double sx : {1.0, -1.0}) {
    const glm::dvec3 out(sx, 0, 0);  // along the arm, away from the body
    const int shoulder = side_joint(kLeftShoulder, sx);
    const int arm = shoulder + 1, fore = shoulder + 2, twist = shoulder + 3, hand = shoulder + 4;
    auto at_arm = [&](double x) { return glm::dvec3(sx * x, kShoulderY, 0); };

    // Arm, from inside the chest to the wrist. e1 = -sx Z makes e2 = +Y: stripe on top.
    TubeSpec a;
    a.origin = at_arm(0.06);
    a.axis = out;
    a.e1 = {0, 0, -sx};
    a.profile = {{0.00, 0.050, 0.050}, {0.12, 0.056, 0.056}, {0.26, 0.046, 0.046},
                 {0.40, 0.038, 0.038}, {0.46, 0.041, 0.041}, {0.66, 0.028, 0.028}};
    a.ring_at = {kShoulderX - 0.06, kElbowX - 0.06, kTwistX - 0.06, kWristX - 0.06};
    a.ring_spacing = 0.01;
    a.segments = 24;
    a.cap_start = 0.03;
    a.cap_end = 0.02;
    a.cap_rings = 6;
    a.v0 = kArmBand.v0 + 0.01;
    a.v1 = kArmBand.v1 - 0.01;
    a.bones = {bone(kSpine2, {0, kSpine2Y, 0}, {0, kNeckY, 0}),
               bone(shoulder, at_arm(kClavicleX), at_arm(kShoulderX)),
               bone(arm, at_arm(kShoulderX), at_arm(kElbowX)),
               bone(fore, at_arm(kElbowX), at_arm(kTwistX)),
               bone(twist, at_arm(kTwistX), at_arm(kWristX)),
               bone(hand, at_arm(kWristX), at_arm(kHandEndX))};
    a.falloff = 0.05;
    add_tube(a, mesh);

    // Hand: a flat mitten, wide along Z, thin along Y.
    TubeSpec h;
    h.origin = at_arm(0.70);
    h.axis = out;
    h.e1 = {0, 0, -sx};
    h.profile = {
        {0.00, 0.032, 0.022}, {0.06, 0.046, 0.024}, {0.12, 0.044, 0.018}, {0.16, 0.038, 0.014}};
    h.ring_at = {kWristX - 0.70};
    h.ring_spacing = 0.008;
    h.segments = 24;
    h.cap_start = 0.02;
    h.cap_end = 0.03;
    h.cap_rings = 6;
    h.v0 = kExtremityBand.v0 + 0.21;
    h.v1 = kExtremityBand.v0 + 0.235 - 0.01;
    h.bones = {bone(twist, at_arm(kTwistX), at_arm(kWristX)),
               bone(hand, at_arm(kWristX), at_arm(kHandEndX))};
    h.falloff = 0.03;
    add_tube(h, mesh);

    const int up_leg = side_joint(kLeftUpLeg, sx);
    const int leg = up_leg + 1, foot = up_leg + 2, toe = up_leg + 3;
    auto at_leg = [&](double y) { return glm::dvec3(sx * kLegX, y, 0); };
    const glm::dvec3 toe_base(sx * kLegX, kToeY, kToeZ);

    // Leg, from inside the pelvis to the ankle. e1 = +X makes e2 = +Z: stripe in front.
    TubeSpec l;
    l.origin = at_leg(1.00);
    l.axis = -Y;
    l.e1 = X;
    l.profile = {{0.00, 0.088, 0.088}, {0.08, 0.090, 0.090}, {0.30, 0.072, 0.072},
                 {0.49, 0.052, 0.052}, {0.60, 0.056, 0.056}, {0.82, 0.040, 0.040},
                 {0.91, 0.036, 0.036}};
    l.ring_at = {1.00 - kHipJointY, 1.00 - kKneeY, 1.00 - kAnkleY};
    l.ring_spacing = 0.0125;
    l.segments = 28;
    l.cap_start = 0.04;
    l.cap_end = 0.03;
    l.cap_rings = 6;
    l.v0 = kLegBand.v0 + 0.01;
    l.v1 = kLegBand.v1 - 0.01;
    l.bones = {bone(kHips, at_leg(kHipJointY), at_leg(1.15)),
               bone(up_leg, at_leg(kHipJointY), at_leg(kKneeY)),
               bone(leg, at_leg(kKneeY), at_leg(kAnkleY)), bone(foot, at_leg(kAnkleY), toe_base)};
    l.falloff = 0.07;
    add_tube(l, mesh);

    // Foot: heel to toe along +Z with a flat sole on y = 0 (centre height = half-height).
    TubeSpec f;
    f.origin = {sx * kLegX, 0.04, -0.02};
    f.axis = Z;
    f.e1 = X;
    f.profile = {{0.00, 0.036, 0.040, 0.000},
                 {0.07, 0.045, 0.034, -0.006},
                 {0.15, 0.048, 0.022, -0.018},
                 {0.19, 0.045, 0.016, -0.024}};
    f.ring_at = {kToeZ + 0.02};
    f.ring_spacing = 0.008;
    f.segments = 24;
    f.cap_start = 0.045;
    f.cap_end = 0.035;
    f.cap_rings = 8;
    f.v0 = kExtremityBand.v0 + 0.235;
    f.v1 = kExtremityBand.v1 - 0.01;
    f.bones = {bone(leg, at_leg(kKneeY), at_leg(kAnkleY)), bone(foot, at_leg(kAnkleY), toe_base),
               bone(toe, toe_base, {sx * kLegX, kToeY, kToeEndZ})};
    f.falloff = 0.035;
    add_tube(f, mesh);
  }
}

// ---- Clips -------------------------------------------------------------------------------

// Arm hanging `lower` degrees below the T-pose, swung `swing` degrees forward.
glm::dquat arm_down(double side, double lower, double swing) {
  return rot_x(-swing) * rot_z(-side * lower);
}
// Elbow flexion bringing the forearm forward (towards +Z) from the T-pose.
glm::dquat elbow(double side, double degrees) { return rot_y(-side * degrees); }

void idle_pose(double t, JointPose& p, double period) {
  const double phi = 2.0 * kPi * t / period;
  const double breath = std::sin(2.0 * phi);
  p.rotation[kSpine] = rot_z(1.2 * std::sin(phi));
  p.rotation[kSpine1] = rot_x(-1.2 * breath);
  p.rotation[kSpine2] = rot_x(-1.0 * breath);
  p.rotation[kNeck] = rot_x(1.5 * breath);
  p.rotation[kHead] = rot_y(4.0 * std::sin(phi)) * rot_x(1.0 * std::sin(phi + 1.0));
  for (double sx : {1.0, -1.0}) {
    const int shoulder = side_joint(kLeftShoulder, sx);
    p.rotation[shoulder] = rot_z(sx * 1.2 * (0.5 + 0.5 * breath));
    p.rotation[shoulder + 1] =
        arm_down(sx, 74.0 + 1.5 * sx * std::sin(phi), 4.0 + 2.0 * sx * std::sin(phi));
    p.rotation[shoulder + 2] = elbow(sx, 14.0 + 3.0 * std::sin(phi + 0.5));
    p.rotation[shoulder + 4] = rot_z(-sx * 6.0);
  }
}

struct GaitParams {
  double period;  // seconds per cycle (two steps)
  double hip_amp, hip_bias;
  double knee_base, knee_swing, knee_lead;
  double pelvis_yaw, chest_yaw, lean;
  double arm_lower, arm_swing, elbow_base, elbow_swing;
};

void gait_pose(double t, JointPose& p, const GaitParams& g) {
  const double phi = 2.0 * kPi * t / g.period;
  for (double sx : {1.0, -1.0}) {
    const double ph = sx > 0 ? phi : phi + kPi;
    const double hip = g.hip_amp * std::sin(ph) + g.hip_bias;
    // The knee folds during swing (when the thigh moves forward, cos(ph) > 0), peaking early.
    const double swing = std::pow(std::max(0.0, std::cos(ph + g.knee_lead)), 2.0);
    const double knee = g.knee_base + g.knee_swing * swing;
    // Foot flat on the floor in stance, near neutral in swing.
    const double stance = smoothstep01((0.25 - std::cos(ph)) / 0.5);
    const double ankle = stance * (hip - knee) + (1.0 - stance) * -6.0;
    const int up_leg = side_joint(kLeftUpLeg, sx);
    p.rotation[up_leg] = rot_x(-hip);
    p.rotation[up_leg + 1] = rot_x(knee);
    p.rotation[up_leg + 2] = rot_x(ankle);

    // Arms swing against the legs: the left arm goes back while the left leg goes forward.
    const double arm_swing = -sx * g.arm_swing * std::sin(phi);
    const int shoulder = side_joint(kLeftShoulder, sx);
    p.rotation[shoulder + 1] = arm_down(sx, g.arm_lower, arm_swing);
    p.rotation[shoulder + 2] = elbow(sx, g.elbow_base + g.elbow_swing * arm_swing / g.arm_swing);
    p.rotation[shoulder + 4] = rot_z(-sx * 8.0);
  }
  // The pelvis turns with the forward leg, the chest against it; the head keeps looking ahead.
  p.rotation[kHips] = rot_y(-g.pelvis_yaw * std::sin(phi));
  p.rotation[kSpine] = rot_x(g.lean);
  p.rotation[kSpine2] = rot_y(g.chest_yaw * std::sin(phi));
  p.rotation[kNeck] = rot_y((g.pelvis_yaw - g.chest_yaw) * std::sin(phi)) * rot_x(-0.6 * g.lean);
}

// Sets the hips height of every key so the lowest foot vertex touches y = 0 (plus `lift`, for
// the flight phase of the run), then raises keys until the poses between keys clear the floor
// as well (LINEAR interpolation is not the procedural motion).
void plant_feet(KeyedPoses& keyed, const std::vector<JointDef>& joints, const SkinnedMesh& mesh,
                const std::vector<double>& lift) {
  std::vector<uint32_t> low_vertices;
  for (uint32_t v = 0; v < mesh.positions.size(); ++v)
    if (mesh.positions[v].y < 0.30) low_vertices.push_back(v);
  std::vector<glm::dmat4> skinning;
  for (int k = 0; k < keyed.frames; ++k) {
    JointPose& pose = keyed.keys[k];
    skinning_matrices(joints, pose, skinning);
    const double lowest = lowest_skinned_y(mesh, low_vertices, skinning);
    pose.translation[kHips].y += lift[k] - lowest;
  }
  keyed.keys[keyed.frames] = keyed.keys[0];
  for (int pass = 0; pass < 3; ++pass) {
    double worst = 0.0;
    for (int k = 0; k < keyed.frames; ++k) {
      double dip = 0.0;
      for (int s = 1; s < 8; ++s) {
        const JointPose between = interpolate(keyed, (k + s / 8.0) / keyed.fps);
        skinning_matrices(joints, between, skinning);
        dip = std::max(dip, -lowest_skinned_y(mesh, low_vertices, skinning));
      }
      if (dip > 0.0) {
        // Raising both ends of the segment raises every pose between them by as much.
        keyed.keys[k].translation[kHips].y += dip;
        keyed.keys[(k + 1) % keyed.frames].translation[kHips].y += dip;
        keyed.keys[keyed.frames] = keyed.keys[0];
      }
      worst = std::max(worst, dip);
    }
    if (worst == 0.0) break;
  }
}

}  // namespace

void snap_skeleton_to_float(std::vector<JointDef>& joints) {
  for (JointDef& j : joints) {
    const glm::dvec3 parent = j.parent >= 0 ? joints[j.parent].rest_world : glm::dvec3(0.0);
    const glm::dvec3 local = j.rest_world - parent;
    j.rest_world = parent + glm::dvec3(round_to_float(local.x), round_to_float(local.y),
                                       round_to_float(local.z));
  }
}

Asset build_mannequin() {
  Asset asset;
  asset.name = "Mannequin";
  asset.joints = skeleton();
  snap_skeleton_to_float(asset.joints);
  add_body(asset.mesh);
  asset.png = mannequin_texture_png();
  const auto& joints = asset.joints;
  constexpr double kFps = 30.0;

  const KeyedPoses idle = sample_looping("Idle", 120, kFps, joints,
                                         [](double t, JointPose& p) { idle_pose(t, p, 4.0); });

  const GaitParams walk{32 / kFps, 24.0, 0.0,  6.0,  58.0, 0.35, 5.0,
                        8.0,       3.0,  76.0, 18.0, 20.0, 8.0};
  KeyedPoses walk_keys = sample_looping("Walk", 32, kFps, joints,
                                        [&](double t, JointPose& p) { gait_pose(t, p, walk); });
  plant_feet(walk_keys, joints, asset.mesh, std::vector<double>(32, 0.0));

  const GaitParams run{22 / kFps, 38.0, 5.0,  20.0, 95.0, 0.45, 8.0,
                       12.0,      10.0, 70.0, 35.0, 85.0, 10.0};
  KeyedPoses run_keys = sample_looping("Run", 22, kFps, joints,
                                       [&](double t, JointPose& p) { gait_pose(t, p, run); });
  std::vector<double> flight(22);
  for (int k = 0; k < 22; ++k)  // two flight phases per cycle, one after each push-off
    flight[k] = 0.03 * std::pow(std::sin(2.0 * kPi * k / 22.0 + 0.6), 2.0);
  plant_feet(run_keys, joints, asset.mesh, flight);

  const KeyedPoses wave = sample_looping("Wave", 120, kFps, joints, [](double t, JointPose& p) {
    idle_pose(t, p, 4.0);
    // Raise the right hand, wave it six times, lower it; weight 0 at both ends of the loop.
    const double raised = smoothstep01(t / 0.8) * (1.0 - smoothstep01((t - 3.2) / 0.8));
    const double wag = std::sin(2.0 * kPi * 1.5 * t);
    const int shoulder = side_joint(kLeftShoulder, -1.0);
    p.rotation[shoulder + 1] =
        slerp_shortest(p.rotation[shoulder + 1], rot_y(25.0) * rot_z(-35.0), raised);
    p.rotation[shoulder + 2] =
        slerp_shortest(p.rotation[shoulder + 2], rot_z(-55.0 + 20.0 * wag), raised);
    p.rotation[shoulder + 4] = slerp_shortest(
        p.rotation[shoulder + 4], rot_z(-20.0 * std::sin(2.0 * kPi * 1.5 * t - 0.6)), raised);
    p.rotation[kHead] = p.rotation[kHead] * rot_z(5.0 * raised);
  });

  // Twist: both forearms wring 0 -> 180 -> 0 degrees about their own axis at the twist joint,
  // whose ring is 50/50 between ForeArm and ForeArmTwist: LBS collapses it, DQS keeps it round.
  const KeyedPoses twist = sample_looping("Twist", 60, kFps, joints, [](double t, JointPose& p) {
    const double angle = 180.0 * (0.5 - 0.5 * std::cos(2.0 * kPi * t / 2.0));
    p.rotation[kLeftForeArmTwist] = rot_x(angle);
    p.rotation[kRightForeArmTwist] = rot_x(-angle);
  });

  // Bend: elbows and knees 0 -> 150 -> 0 degrees, the joint-bulge demo.
  const KeyedPoses bend = sample_looping("Bend", 90, kFps, joints, [](double t, JointPose& p) {
    const double angle = 150.0 * (0.5 - 0.5 * std::cos(2.0 * kPi * t / 3.0));
    for (double sx : {1.0, -1.0}) {
      p.rotation[side_joint(kLeftForeArm, sx)] = elbow(sx, angle);
      p.rotation[side_joint(kLeftLeg, sx)] = rot_x(angle);
    }
  });

  for (const KeyedPoses* k :
       std::initializer_list<const KeyedPoses*>{&idle, &walk_keys, &run_keys, &wave, &twist, &bend})
    asset.clips.push_back(to_clip(*k, joints));
  return asset;
}

}  // namespace rig::gen
