// A placed foot: the target's foot joints hang from its root (an armature node scaled by 2), not
// from its lower legs, as IK-target feet do, so two-bone IK cannot move them. The source walks in
// place: its feet slide back 0.2 units per second on the ground and its left foot lifts at 0.5 s.
// Worked out by hand: both rigs stand 1 unit high at the hips, so the hip ratio is 1 and the
// target's ground frame moves at +0.2 z per second like the source's; a foot held from the
// contact's first frame (t = 0, at its rest position) is at rest − (0, 0, 0.2·t) in model space,
// its local translation half that through the root's scale of 2.
#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "character/retarget.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

struct Legs {
  Model model;
  int hips, spine, upper[2], lower[2], foot[2];
};

// Hips at (0, 1, 0), a spine up, legs of two 0.5 bones down to feet on the ground at x = ±0.1.
Legs source_rig() {
  Legs s;
  Model& m = s.model;
  s.hips = add_node(m, "hips", -1, {0, 1, 0});
  s.spine = add_node(m, "spine", s.hips, {0, 0.5f, 0});
  const float side[2] = {0.1f, -0.1f};
  for (int f = 0; f < 2; ++f) {
    s.upper[f] = add_node(m, "upper", s.hips, {side[f], 0, 0});
    s.lower[f] = add_node(m, "lower", s.upper[f], {0, -0.5f, 0});
    s.foot[f] = add_node(m, "foot", s.lower[f], {0, -0.5f, 0});
  }
  return s;
}

// The same shape under an armature root scaled by 2 (local offsets halved), with the feet
// children of the root, turned 90° about up at rest.
Legs target_rig() {
  Legs t;
  Model& m = t.model;
  const int root = add_node(m, "armature", -1, {0, 0, 0});
  m.nodes[size_t(root)].rest.scale = glm::vec3(2.0f);
  t.hips = add_node(m, "hips", root, {0, 0.5f, 0});
  t.spine = add_node(m, "spine", t.hips, {0, 0.25f, 0});
  const float side[2] = {0.05f, -0.05f};
  for (int f = 0; f < 2; ++f) {
    t.upper[f] = add_node(m, "upper", t.hips, {side[f], 0, 0});
    t.lower[f] = add_node(m, "lower", t.upper[f], {0, -0.25f, 0});
    t.foot[f] = add_node(m, "foot_ik", root, {side[f], 0, 0}, axis_angle({0, 1, 0}, 90));
  }
  return t;
}

BoneMap legs_map(const Legs& s, const Legs& t) {
  using H = HumanBone;
  BoneMap map;
  map.pairs = {{s.hips, t.hips, H::Hips},
               {s.spine, t.spine, H::Spine},
               {s.upper[0], t.upper[0], H::LeftUpperLeg},
               {s.lower[0], t.lower[0], H::LeftLowerLeg},
               {s.foot[0], t.foot[0], H::LeftFoot},
               {s.upper[1], t.upper[1], H::RightUpperLeg},
               {s.lower[1], t.lower[1], H::RightLowerLeg},
               {s.foot[1], t.foot[1], H::RightFoot}};
  return map;
}

// Both feet slide back along −z at 0.2 units per second; the left one lifts 0.3 between 0.5 s
// and 0.75 s (1.2 units per second: faster than a contact allows) and stays up.
Clip walk_in_place(const Legs& s) {
  const glm::vec3 rest(0, -0.5f, 0);
  Clip clip = test::make_clip(
      {test::vec3_channel(s.foot[0], TargetPath::Translation, {0, 0.5f, 0.75f, 1},
                          {rest, rest + glm::vec3(0, 0, -0.1f), rest + glm::vec3(0, 0.3f, -0.15f),
                           rest + glm::vec3(0, 0.3f, -0.2f)},
                          Interpolation::Linear),
       test::vec3_channel(s.foot[1], TargetPath::Translation, {0, 1},
                          {rest, rest + glm::vec3(0, 0, -0.2f)}, Interpolation::Linear)});
  clip.name = "walk";
  return clip;
}

// World matrix of `node`, by our own recursion (not the engine's local → world job).
glm::mat4 world_of(const Model& m, const std::vector<Transform>& local, int node) {
  const glm::mat4 own = trs_matrix(local[size_t(node)]);
  const int parent = m.nodes[size_t(node)].parent;
  return parent < 0 ? own : world_of(m, local, parent) * own;
}

std::vector<Transform> pose_at(const Model& m, const Clip& clip, float time) {
  Pose pose;
  init_rest_pose(m, pose);
  sample_clip(m, clip, time, pose);
  return pose.local;
}

TEST(RetargetPlacedFeet, ARootHungFootIsHeldAtItsRecordedPlace) {
  const Legs s = source_rig(), t = target_rig();
  const BoneMap map = legs_map(s, t);
  ASSERT_TRUE(check_bone_map(s.model, t.model, map).empty());
  const Clip clip = walk_in_place(s);
  RetargetSettings off, on;
  on.keep_feet_planted = true;
  // Not a loop: the slide's end does not join its start.
  on.contacts.looping = false;
  off.contacts.looping = false;
  RetargetMeasures m_off, m_on;
  const Clip free = retarget_clip(s.model, clip, t.model, map, off, &m_off);
  const Clip placed = retarget_clip(s.model, clip, t.model, map, on, &m_on);
  ASSERT_FALSE(placed.channels.empty());
  EXPECT_EQ(m_on.feet_legs, 0u);
  EXPECT_EQ(m_on.feet_placed, 2u);
  EXPECT_EQ(m_off.feet_placed, 0u);
  EXPECT_NEAR(m_on.hip_ratio, 1.0f, 1e-6f);
  EXPECT_GT(m_on.contact_frames, 0u);
  // Feet off, the feet stay at rest while the source's slide: slide of 0.2 / 30 per frame over
  // the target's height of 1.5.
  EXPECT_NEAR(m_off.max_foot_slide, 0.2f / 30.0f / 1.5f, 1e-5f);
  EXPECT_LE(m_on.max_foot_slide, 1e-6f);

  const float x[2] = {0.1f, -0.1f};
  const glm::quat turned = axis_angle({0, 1, 0}, 90);
  size_t held[2] = {0, 0}, free_frames = 0;
  for (float time : retarget_frame_times(clip)) {
    const std::vector<Transform> local = pose_at(t.model, placed, time);
    const std::vector<Transform> rest = pose_at(t.model, free, time);
    for (int f = 0; f < 2; ++f) {
      const glm::mat4 w = world_of(t.model, local, t.foot[f]);
      // The world rotation is the retarget's: the source's feet keep their rest rotation.
      EXPECT_LT(test::angle_degrees(glm::conjugate(turned) * glm::quat_cast(glm::mat3(w))), 1e-3f)
          << f << " at " << time;
      // The right foot is in contact throughout; the left one until it lifts (the frames next to
      // 0.5 s are the contact's edge, not checked).
      if (f == 1 || time <= 0.41f) {
        test::expect_vec3(glm::vec3(w[3]), {x[f], 0, -0.2f * time}, 1e-5f);
        test::expect_vec3(local[size_t(t.foot[f])].translation, {x[f] / 2, 0, -0.1f * time}, 1e-5f);
        ++held[f];
      } else if (time >= 0.69f) {
        // Out of contact the foot is where the retarget puts it: its rest place.
        test::expect_vec3(glm::vec3(w[3]), {x[f], 0, 0}, 1e-5f);
        test::expect_vec3(glm::vec3(world_of(t.model, rest, t.foot[f])[3]), {x[f], 0, 0}, 1e-5f);
        ++free_frames;
      }
    }
  }
  EXPECT_EQ(held[1], 31u);
  EXPECT_EQ(held[0], 13u);      // 0 .. 0.4 s on the 1/30 s grid
  EXPECT_EQ(free_frames, 10u);  // 0.7 .. 1 s
}

}  // namespace
}  // namespace rig
