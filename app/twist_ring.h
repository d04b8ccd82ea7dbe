// The twist arm's middle ring: the vertices in the plane through ArmTwist across the bone, at
// their 50/50 weight, found once per model and measured under any pose and skinning method. The
// command line's --cross-section (app/learn_outputs.cpp) and the viewer's Learn tab
// (viewer/lessons.h) both measure it here. Measuring allocates nothing once the scratch is sized.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "character/character.h"
#include "learn_pose.h"
#include "model/model.h"
#include "skin/skin_layer.h"

namespace rigview {

// The frame of the ring's plane: origin, bone axis and two unit vectors across it.
struct RingFrame {
  glm::vec3 origin{0.0f}, axis{1.0f, 0.0f, 0.0f}, u{0.0f, 1.0f, 0.0f}, v{0.0f, 0.0f, 1.0f};
  glm::vec2 project(glm::vec3 p) const {
    return {glm::dot(p - origin, u), glm::dot(p - origin, v)};
  }
};

// origin: the twist joint; axis: from the root joint to it; u: the root joint's Y axis made
// perpendicular to the axis; v = axis × u.
RingFrame ring_frame(const glm::mat4& root, const glm::mat4& twist);

struct RadiusStats {
  float min = 0.0f, max = 0.0f, mean = 0.0f;
};
RadiusStats radius_stats(std::span<const glm::vec2> points);

// A vertex of the middle ring: where it is drawn and its angle about the bone at bind.
struct RingVertex {
  size_t draw = 0;
  uint32_t vertex = 0;
  float bind_angle = 0.0f;
};

struct TwistRing {
  TwistArmJoints arm;
  int skin = -1;
  RingFrame bind;                // from the inverse bind matrices
  std::vector<RingVertex> ring;  // ordered by bind angle
  std::vector<glm::vec2> bind_points;
  // Per draw item of the skin: skinned positions and normals (sized once).
  std::vector<std::vector<glm::vec3>> positions, normals;
};

// 0, or the exit status (2: not the twist arm; 1: no ring) with a one-line error naming `flag`.
int find_twist_ring(const rig::Model& model, const rig::SkinLayer& layer, const char* flag,
                    TwistRing& out, std::string& error);

// The posed frame: origin at ArmTwist's posed position.
RingFrame posed_ring_frame(const TwistRing& ring, const rig::Character& character);

// The ring's points under the character's current pose with `method`, in `frame`; `out` sized
// ring.ring.size(). No allocation.
void measure_ring(TwistRing& ring, const rig::Model& model, const rig::Character& character,
                  rig::SkinningMethod method, const RingFrame& frame, std::span<glm::vec2> out);

// After measure_ring: the largest offset of the ring's skinned points from ArmTwist along the
// bend's outer bisector, -(ArmRoot's Y + ArmTwist's Y) normalized (for a bend about local Z by a
// positive angle; `bend_sign` < 0 flips it).
float ring_outer_reach(const TwistRing& ring, const rig::Character& character, float bend_sign);

// ArmTwist's twist about its bone (local X) relative to rest, from the swing-twist split, in
// (-180, 180] degrees.
float ring_twist_degrees(const TwistRing& ring, const rig::Model& model,
                         const rig::Character& character);

}  // namespace rigview
