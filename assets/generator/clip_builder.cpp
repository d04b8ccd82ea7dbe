#include "clip_builder.h"

#include <algorithm>
#include <cmath>

namespace rig::gen {

KeyedPoses sample_looping(const std::string& name, int frames, double fps,
                          std::span<const JointDef> joints, const PoseFunction& fn) {
  KeyedPoses keyed;
  keyed.name = name;
  keyed.frames = frames;
  keyed.fps = fps;
  for (int k = 0; k < frames; ++k) {
    JointPose pose = rest_joint_pose(joints);
    fn(k / fps, pose);
    for (auto& q : pose.rotation) q = glm::normalize(q);
    keyed.keys.push_back(pose);
  }
  keyed.keys.push_back(keyed.keys.front());
  return keyed;
}

JointPose interpolate(const KeyedPoses& keyed, double t) {
  const double position = std::clamp(t * keyed.fps, 0.0, double(keyed.frames));
  const int k = std::min(int(std::floor(position)), keyed.frames - 1);
  const double f = position - k;
  const JointPose& a = keyed.keys[k];
  const JointPose& b = keyed.keys[k + 1];
  JointPose out = a;
  for (size_t j = 0; j < a.rotation.size(); ++j) {
    out.rotation[j] = slerp_shortest(a.rotation[j], b.rotation[j], f);
    out.translation[j] = a.translation[j] + (b.translation[j] - a.translation[j]) * f;
  }
  return out;
}

ClipDef to_clip(const KeyedPoses& keyed, std::span<const JointDef> joints) {
  ClipDef clip;
  clip.name = keyed.name;
  clip.frames = keyed.frames;
  clip.fps = keyed.fps;
  const JointPose rest = rest_joint_pose(joints);
  for (size_t j = 0; j < joints.size(); ++j) {
    bool translated = false, rotated = false;
    for (const JointPose& key : keyed.keys) {
      translated |= glm::length(key.translation[j] - rest.translation[j]) > 1e-9;
      const glm::dquat& q = key.rotation[j];
      rotated |= std::abs(q.x) + std::abs(q.y) + std::abs(q.z) > 1e-9;
    }
    if (translated) {
      TranslationTrack track;
      track.joint = int(j);
      for (const JointPose& key : keyed.keys) track.keys.push_back(key.translation[j]);
      clip.translations.push_back(track);
    }
    if (rotated) {
      RotationTrack track;
      track.joint = int(j);
      for (const JointPose& key : keyed.keys) {
        glm::dquat q = key.rotation[j];
        // Consecutive keys in one hemisphere, so LINEAR slerp never takes the long way.
        if (!track.keys.empty() && glm::dot(track.keys.back(), q) < 0.0) q = -q;
        track.keys.push_back(q);
      }
      clip.rotations.push_back(track);
    }
  }
  return clip;
}

}  // namespace rig::gen
