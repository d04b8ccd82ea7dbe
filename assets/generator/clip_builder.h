// Turns a procedural pose function into keyframed clips: samples it at every key, closes the
// loop exactly, keeps quaternions in one hemisphere, and drops tracks that never move.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "asset.h"
#include "pose_math.h"

namespace rig::gen {

// Fills `pose` (already the rest pose) for time t in seconds.
using PoseFunction = std::function<void(double t, JointPose& pose)>;

struct KeyedPoses {
  std::string name;
  int frames = 0;
  double fps = 30.0;
  std::vector<JointPose> keys;  // frames + 1
};

// Samples `fn` at k / fps for k = 0..frames-1 and repeats key 0 as the last key, so the clip
// loops with bit-identical first and last poses.
KeyedPoses sample_looping(const std::string& name, int frames, double fps,
                          std::span<const JointDef> joints, const PoseFunction& fn);

// The pose between keys, as a LINEAR glTF sampler reproduces it.
JointPose interpolate(const KeyedPoses& keyed, double t);

ClipDef to_clip(const KeyedPoses& keyed, std::span<const JointDef> joints);

}  // namespace rig::gen
