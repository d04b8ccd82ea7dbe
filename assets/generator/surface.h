// Smooth tubes with ellipsoidal end caps, built ring by ring around a straight axis, and skin
// weights from the distance of each vertex to the bones the tube wraps.
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "asset.h"

namespace rig::gen {

// Cross-section of a tube at axial position s: ellipse radii along e1 and e2, and an offset of
// the ellipse centre along e2 (lets a foot keep a flat sole while its height changes).
struct ProfileKey {
  double s = 0.0;
  double r1 = 0.0;
  double r2 = 0.0;
  double offset2 = 0.0;
};

// A bone as a segment from its joint towards the next joint (or the end of the body part).
struct BoneSegment {
  int joint = 0;
  glm::dvec3 a{0.0};
  glm::dvec3 b{0.0};
};

struct TubeSpec {
  glm::dvec3 origin{0.0};
  glm::dvec3 axis{1.0, 0.0, 0.0};   // unit
  glm::dvec3 e1{0.0, 1.0, 0.0};     // unit, perpendicular to axis; e2 = axis x e1
  std::vector<ProfileKey> profile;  // ascending s; the body spans [front().s, back().s]
  std::vector<double> ring_at;      // s values that must get a ring (joints, 50/50 rings)
  double ring_spacing = 0.01;       // metres between rings along the body
  int segments = 24;                // around the tube
  double cap_start = 0.0;           // length of the ellipsoidal cap before s0 (0: none)
  double cap_end = 0.0;             // length of the cap after s1
  int cap_rings = 6;
  double v0 = 0.0, v1 = 1.0;       // texture band this tube maps into (texcoord y)
  std::vector<BoneSegment> bones;  // the bones that may influence this tube
  double falloff = 0.05;           // metres past a joint over which a bone's weight fades out
};

// Appends the tube's vertices and triangles to `mesh`.
void add_tube(const TubeSpec& spec, SkinnedMesh& mesh);

// Weights of the point p: each bone weighs f(sqrt(d_i^2 - d_min^2) / falloff), where d_i is
// the distance from p to bone i and f(x) = (1 - x^2)^2 fades from 1 to 0 over [0, 1]. For
// collinear bones sqrt(d_i^2 - d_min^2) is exactly the distance along the limb past the joint,
// so the ring through a joint is 50/50 and the blend width does not depend on the radius.
// Keeps the four largest, drops those under 0.5 %, renormalizes.
Influences influences_from_bones(const glm::dvec3& p, const std::vector<BoneSegment>& bones,
                                 double falloff);

}  // namespace rig::gen
