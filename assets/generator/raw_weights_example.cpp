// The raw-weights example: the rigging chapter's unnormalized weights on a bending arm. The
// twist arm's cylinder, two joints, one Bend clip (the lower joint turning 0 -> 90 -> 0 degrees
// about Z); every vertex the two joints share weighs 0.7 on its main joint and 0.5 on the other
// (sum 1.2), the vertices on one joint alone weigh 1. Deliberately invalid glTF (the validator
// reports the unnormalized weights): Learn mode's raw-weights mistake needs a file that has them.
#include <cmath>

#include "clip_builder.h"
#include "models.h"
#include "pose_math.h"
#include "surface.h"
#include "texture.h"

namespace rig::gen {

Asset build_raw_weights_example() {
  constexpr double kLength = 1.0, kRadius = 0.08, kHeight = 1.0;
  Asset asset;
  asset.name = "RawWeightsExample";
  asset.joints = {{"ArmRoot", -1, {-0.5 * kLength, kHeight, 0.0}},
                  {"ArmBend", 0, {0.0, kHeight, 0.0}}};
  snap_skeleton_to_float(asset.joints);

  TubeSpec tube;
  tube.origin = {-0.5 * kLength, kHeight, 0.0};
  tube.axis = {1.0, 0.0, 0.0};
  tube.e1 = {0.0, 0.0, -1.0};
  tube.profile = {{0.0, kRadius, kRadius}, {kLength, kRadius, kRadius}};
  tube.ring_at = {0.5 * kLength};
  tube.ring_spacing = kLength / 32.0;
  tube.segments = 24;
  tube.cap_start = tube.cap_end = 0.04;
  tube.cap_rings = 4;
  tube.bones = {{0, asset.joints[0].rest_world, asset.joints[1].rest_world},
                {1, asset.joints[1].rest_world, {0.5 * kLength, kHeight, 0.0}}};
  tube.falloff = 0.2;
  add_tube(tube, asset.mesh);
  // The chapter's example: 0.7 and 0.5 where two joints share a vertex (influences are sorted
  // by decreasing weight, so slot 0 is the main joint).
  for (Influences& in : asset.mesh.influences)
    if (in.weights[1] > 0.0f) {
      in.weights[0] = 0.7f;
      in.weights[1] = 0.5f;
    }
  asset.png = twist_arm_texture_png();

  const KeyedPoses bend =
      sample_looping("Bend", 60, 30.0, asset.joints, [](double t, JointPose& p) {
        p.rotation[1] = rot_z(90.0 * (0.5 - 0.5 * std::cos(2.0 * kPi * t / 2.0)));
      });
  asset.clips.push_back(to_clip(bend, asset.joints));
  return asset;
}

}  // namespace rig::gen
