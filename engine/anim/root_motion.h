// Root motion: what a clip does to its root joint on the ground plane, kept, removed or
// extracted per clip.
//
// Stage: right after a clip is sampled (before blending), RootMotionClip::apply() rewrites the
// root joint's local transform in the sampled pose:
//   Keep     nothing changes (the file's motion plays, and snaps back at each loop).
//   InPlace  the root's horizontal translation (the part perpendicular to `up`, in the root's
//            parent space) is held at the clip's first frame; with include_yaw its turn about
//            `up` is held too. Height, tilt and everything else still play.
//   Extract  the pose is made in place exactly as InPlace, and the motion that was removed is
//            handed out as RigidMotion deltas (RootMotionClip::delta) that a RootMotionAccumulator
//            integrates across loops; the accumulated placement is put back on the root after
//            blending (PoseStack::placement), so the character walks away instead of
//            snapping back: after k whole loops it stands k × loop_motion() further on.
//
// A RigidMotion is a translation and a yaw about `up` in the root's parent space: x ↦ t + Yaw·x.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <span>

#include "model/model.h"

namespace rig {

enum class RootMotionMode : uint8_t { Keep, InPlace, Extract };

struct RootMotionSettings {
  RootMotionMode mode = RootMotionMode::Keep;
  int root = -1;                   // -1: default_root_motion_node(model)
  bool include_yaw = false;        // also hold (InPlace) / extract (Extract) the turn about `up`
  glm::vec3 up{0.0f, 1.0f, 0.0f};  // in the root's parent space
};

// The top joint of the first skin (its first joint without a joint parent); without skins the
// first scene root; -1 for an empty model.
int default_root_motion_node(const Model& model);

struct RigidMotion {
  glm::vec3 translation{0.0f};
  float yaw = 0.0f;  // radians about the settings' up axis
};

// a then b in b's frame: x ↦ a(b(x)).
RigidMotion compose(const RigidMotion& a, const RigidMotion& b, glm::vec3 up);
RigidMotion inverse(const RigidMotion& m, glm::vec3 up);
// Component-wise lerp (for crossfading two clips' deltas).
RigidMotion blend(const RigidMotion& a, const RigidMotion& b, float w);
// m applied on the left of a local transform: translation t + Yaw·x, rotation Yaw·r.
Transform apply(const RigidMotion& m, const Transform& local, glm::vec3 up);

// Turn of `q` about unit `up` (the twist of a swing–twist split), radians in (−π, π].
float yaw_about(const glm::quat& q, glm::vec3 up);

// One clip's root motion, measured once at construction (allocates nothing per frame).
class RootMotionClip {
 public:
  RootMotionClip() = default;
  // Clip `clip` of the file.
  RootMotionClip(const Model& model, int clip, RootMotionSettings settings);
  // Any clip's raw keys (node indices of `model`), held while this lives; null: no motion.
  RootMotionClip(const Model& model, std::shared_ptr<const Clip> clip, RootMotionSettings settings);

  const RootMotionSettings& settings() const { return settings_; }
  int root() const { return settings_.root; }
  bool active() const { return settings_.mode != RootMotionMode::Keep && settings_.root >= 0; }

  // The stage after sampling: holds the root's horizontal translation (and yaw) at the clip's
  // first frame for InPlace and Extract; nothing for Keep. `local`: one per node.
  void apply(std::span<Transform> local) const;

  // Root motion from the clip's start to `time` (clamped to the clip): H(time)·H(start)⁻¹, with
  // H the horizontal translation (and yaw when include_yaw) of the root at a time.
  RigidMotion motion_at(float time) const;
  // The motion of one whole loop: motion_at(end).
  RigidMotion loop_motion() const { return loop_; }
  // Motion from `from` to `to` when playback wrapped `loops` times in between (+1 for each
  // wrap from end to start playing forward, −1 for each the other way):
  // motion_at(from)⁻¹ · loop^loops · motion_at(to).
  RigidMotion delta(float from, float to, int loops) const;

 private:
  struct Planar {
    glm::vec3 horizontal{0.0f};
    float yaw = 0.0f;
  };
  Planar planar_at(float time) const;
  Planar planar(const Transform& root_local) const;

  std::shared_ptr<const Clip> clip_;  // null: no clip (Keep)
  RootMotionSettings settings_;
  Transform rest_;  // the root's rest transform (what unanimated channels hold)
  Planar start_;    // at clip start
  RigidMotion loop_;
};

// Integrates root-motion deltas into a placement (Extract). No allocation.
class RootMotionAccumulator {
 public:
  void reset() { placement_ = {}; }
  void add(const RigidMotion& delta, glm::vec3 up = {0.0f, 1.0f, 0.0f}) {
    placement_ = compose(placement_, delta, up);
  }
  // The common case: one clip played from `from` to `to`, wrapping `loops` times.
  void advance(const RootMotionClip& clip, float from, float to, int loops) {
    add(clip.delta(from, to, loops), clip.settings().up);
  }
  // Where the in-place pose stands: compose onto the root's local (PoseStack::placement).
  const RigidMotion& placement() const { return placement_; }

 private:
  RigidMotion placement_;
};

// Whole loops between two successive playback times of a looping clip: +1 when playing
// forward (speed > 0) and time went back, −1 when playing backward and time went forward,
// else 0. (Playback wraps at most once per frame for frame times shorter than the clip.)
int loops_between(float previous_time, float time, float speed);

}  // namespace rig
