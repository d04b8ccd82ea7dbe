// Which pose to show: a clip at a time, optionally crossfaded into a second clip. Plain data that
// the playback controller produces and a Character consumes.
#pragma once

namespace rig {

// clip < 0 (or a model without clips) is the rest pose.
struct PoseSelection {
  int clip = -1;
  float time = 0.0f;    // seconds on the file's timeline (clamped by sampling)
  int blend_clip = -1;  // crossfade target, -1 for none
  float blend_time = 0.0f;
  float blend_weight = 0.0f;  // 0 = clip, 1 = blend_clip
};

}  // namespace rig
