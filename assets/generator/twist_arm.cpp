// The twist-arm demo: a striped cylinder along +X, 1 m long, two joints, and one Twist clip.
// Its middle ring is 50/50 between the joints: under LBS it collapses to the axis at 180
// degrees, under DQS it keeps its radius (Kavan et al. 2007, figure 1).
#include <cmath>

#include "clip_builder.h"
#include "models.h"
#include "pose_math.h"
#include "surface.h"
#include "texture.h"

namespace rig::gen {

Asset build_twist_arm() {
  constexpr double kLength = 1.0, kRadius = 0.08, kHeight = 1.0;
  Asset asset;
  asset.name = "TwistArm";
  asset.joints = {{"ArmRoot", -1, {-0.5 * kLength, kHeight, 0.0}},
                  {"ArmTwist", 0, {0.0, kHeight, 0.0}}};
  snap_skeleton_to_float(asset.joints);

  TubeSpec tube;
  tube.origin = {-0.5 * kLength, kHeight, 0.0};
  tube.axis = {1.0, 0.0, 0.0};
  tube.e1 = {0.0, 0.0, -1.0};
  tube.profile = {{0.0, kRadius, kRadius}, {kLength, kRadius, kRadius}};
  tube.ring_at = {0.5 * kLength};
  tube.ring_spacing = kLength / 64.0;  // 65 rings on the body, one exactly at the joint
  tube.segments = 32;
  tube.cap_start = tube.cap_end = 0.04;
  tube.cap_rings = 6;
  tube.bones = {{0, asset.joints[0].rest_world, asset.joints[1].rest_world},
                {1, asset.joints[1].rest_world, {0.5 * kLength, kHeight, 0.0}}};
  tube.falloff = 0.2;  // blend over 20 cm either side of the joint
  add_tube(tube, asset.mesh);
  asset.png = twist_arm_texture_png();

  const KeyedPoses twist =
      sample_looping("Twist", 60, 30.0, asset.joints, [](double t, JointPose& p) {
        p.rotation[1] = rot_x(180.0 * (0.5 - 0.5 * std::cos(2.0 * kPi * t / 2.0)));
      });
  asset.clips.push_back(to_clip(twist, asset.joints));
  return asset;
}

}  // namespace rig::gen
