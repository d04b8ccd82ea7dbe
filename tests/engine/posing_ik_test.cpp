// Two-bone IK and aim constraints, checked against geometry alone: where the joints end up in
// world space (distances, planes, angles), never against the solver's own intermediate values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "anim/aim_constraint.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/two_bone_ik.h"
#include "character/character.h"
#include "character/posing_constraints.h"
#include "import/gltf_import.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

glm::vec3 pos(const glm::mat4& m) { return glm::vec3(m[3]); }

float angle_between(glm::vec3 a, glm::vec3 b) {
  return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f));
}

// pelvis (turned 30° about Y, scale 2) ─ hip ─ knee ─ ankle ─ toe; the knee bent forward
// 20°. World bone lengths: 2 × 0.5 and 2 × 0.45.
struct Leg {
  Model model;
  Skeleton skeleton;
  std::vector<Transform> local;
  std::vector<glm::mat4> world;
  int pelvis, hip, knee, ankle, toe;

  Leg() {
    pelvis = add_node(model, "pelvis", -1, {0.1f, 1.0f, -0.2f}, axis_angle({0, 1, 0}, 30.0f));
    model.nodes[size_t(pelvis)].rest.scale = glm::vec3(2.0f);
    hip = add_node(model, "hip", pelvis, {0.1f, 0.0f, 0.0f}, axis_angle({1, 0, 0}, -10.0f));
    knee = add_node(model, "knee", hip, {0.0f, -0.5f, 0.0f}, axis_angle({1, 0, 0}, 20.0f));
    ankle = add_node(model, "ankle", knee, {0.0f, -0.45f, 0.0f}, axis_angle({1, 0, 0}, -10.0f));
    toe = add_node(model, "toe", ankle, {0.0f, -0.05f, 0.12f});
    skeleton = Skeleton::build(model);
    for (const Node& n : model.nodes) local.push_back(n.rest);
    world.resize(local.size());
    refresh();
  }
  void refresh() {
    LocalToWorldJob job;
    job.skeleton = &skeleton;
    job.local = local;
    job.world = world;
    job.run();
  }
  TwoBoneIKJob job(glm::vec3 target) {
    TwoBoneIKJob j;
    j.skeleton = &skeleton;
    j.local = local;
    j.world = world;
    j.ik.chain = two_bone_chain(model, ankle);
    j.ik.target = target;
    return j;
  }
  float upper() const { return glm::length(pos(world[size_t(knee)]) - pos(world[size_t(hip)])); }
  float lower() const { return glm::length(pos(world[size_t(ankle)]) - pos(world[size_t(knee)])); }
};

TEST(PosingTwoBoneIK, DefaultChainIsTheEndsParentAndGrandparent) {
  Leg leg;
  const TwoBoneChain c = two_bone_chain(leg.model, leg.ankle);
  EXPECT_EQ(c.root, leg.hip);
  EXPECT_EQ(c.mid, leg.knee);
  EXPECT_EQ(c.end, leg.ankle);
  EXPECT_FALSE(two_bone_chain(leg.model, leg.hip).valid());
}

TEST(PosingTwoBoneIK, ReachesReachableTargetsWithBoneLengthsKept) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  int solved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Leg leg;
    const float l1 = leg.upper(), l2 = leg.lower(), reach = l1 + l2;
    ASSERT_NEAR(l1, 1.0f, 1e-5f);
    ASSERT_NEAR(l2, 0.9f, 1e-5f);
    const glm::vec3 hip = pos(leg.world[size_t(leg.hip)]);
    glm::vec3 dir(unit(rng), unit(rng), unit(rng));
    if (glm::length(dir) < 0.1f) continue;
    dir = glm::normalize(dir);
    // Distances strictly inside the reachable shell [|l1 − l2|, l1 + l2].
    const float d =
        std::abs(l1 - l2) + 0.01f + (reach - std::abs(l1 - l2) - 0.02f) * (0.5f + 0.5f * unit(rng));
    const glm::vec3 target = hip + dir * d;
    const glm::vec3 toe_offset_before =
        glm::inverse(glm::mat3(leg.world[size_t(leg.ankle)])) *
        (pos(leg.world[size_t(leg.toe)]) - pos(leg.world[size_t(leg.ankle)]));
    ASSERT_TRUE(leg.job(target).run());
    const glm::vec3 end = pos(leg.world[size_t(leg.ankle)]);
    EXPECT_LT(glm::length(end - target), 1e-5f * reach) << "trial " << trial;
    EXPECT_NEAR(leg.upper(), l1, 1e-6f);
    EXPECT_NEAR(leg.lower(), l2, 1e-6f);
    // The hip itself does not move, and the toe follows the ankle rigidly (subtree refreshed).
    EXPECT_LT(glm::length(pos(leg.world[size_t(leg.hip)]) - hip), 1e-6f);
    const glm::vec3 toe_offset_after = glm::inverse(glm::mat3(leg.world[size_t(leg.ankle)])) *
                                       (pos(leg.world[size_t(leg.toe)]) - end);
    EXPECT_LT(glm::length(toe_offset_after - toe_offset_before), 1e-5f);
    // World matrices are the locals composed again (nothing left stale).
    std::vector<glm::mat4> fresh(leg.world.size());
    Pose p{leg.local, {}};
    compute_world_matrices(leg.model, p, fresh);
    for (size_t i = 0; i < fresh.size(); ++i)
      EXPECT_LT(glm::length(pos(fresh[i]) - pos(leg.world[i])), 1e-6f);
    ++solved;
  }
  EXPECT_GT(solved, 250);
}

TEST(PosingTwoBoneIK, MidJointLiesInThePlaneOfRootTargetAndPole) {
  const glm::vec3 offsets[] = {{0.3f, -1.2f, 0.5f}, {-0.4f, -0.9f, 0.2f}, {0.0f, -1.5f, -0.6f}};
  const glm::vec3 poles[] = {{1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}, {-1.0f, 0.5f, 1.0f}};
  for (const glm::vec3& offset : offsets)
    for (const glm::vec3& pole_dir : poles) {
      Leg leg;
      const glm::vec3 hip = pos(leg.world[size_t(leg.hip)]);
      const glm::vec3 target = hip + offset;
      const glm::vec3 pole = hip + 0.5f * offset + pole_dir;
      TwoBoneIKJob job = leg.job(target);
      job.ik.use_pole = true;
      job.ik.pole = pole;
      ASSERT_TRUE(job.run());
      const glm::vec3 mid = pos(leg.world[size_t(leg.knee)]);
      const glm::vec3 n = glm::normalize(glm::cross(target - hip, pole - hip));
      EXPECT_LT(std::abs(glm::dot(mid - hip, n)), 1e-5f);
      // … and on the pole's side of the root→target line.
      const glm::vec3 axis = glm::normalize(target - hip);
      const glm::vec3 pole_perp = (pole - hip) - axis * glm::dot(pole - hip, axis);
      EXPECT_GT(glm::dot(mid - hip, pole_perp), 0.0f);
      EXPECT_LT(glm::length(pos(leg.world[size_t(leg.ankle)]) - target), 2e-5f);
    }
}

TEST(PosingTwoBoneIK, TwistTurnsTheBendPlaneAboutTheRootTargetLine) {
  Leg leg;
  const glm::vec3 hip = pos(leg.world[size_t(leg.hip)]);
  const glm::vec3 target = hip + glm::vec3(0.2f, -1.3f, 0.4f);
  const glm::vec3 pole = hip + glm::vec3(0.0f, -0.5f, 2.0f);
  TwoBoneIKJob job = leg.job(target);
  job.ik.use_pole = true;
  job.ik.pole = pole;
  job.ik.twist = glm::radians(90.0f);
  ASSERT_TRUE(job.run());
  const glm::vec3 axis = glm::normalize(target - hip);
  const glm::vec3 mid = pos(leg.world[size_t(leg.knee)]);
  const glm::vec3 bend = (mid - hip) - axis * glm::dot(mid - hip, axis);
  const glm::vec3 pole_perp = (pole - hip) - axis * glm::dot(pole - hip, axis);
  // A quarter turn about root→target, right-handed: from the pole's side to axis × that side.
  EXPECT_NEAR(glm::degrees(angle_between(bend, pole_perp)), 90.0f, 1e-2f);
  EXPECT_GT(glm::dot(bend, glm::cross(axis, pole_perp)), 0.0f);
  EXPECT_LT(glm::length(pos(leg.world[size_t(leg.ankle)]) - target), 2e-5f);
}

TEST(PosingTwoBoneIK, WithoutPoleKeepsTheAnimatedBendSide) {
  Leg leg;
  const glm::vec3 hip = pos(leg.world[size_t(leg.hip)]);
  const glm::vec3 ankle = pos(leg.world[size_t(leg.ankle)]);
  const glm::vec3 knee = pos(leg.world[size_t(leg.knee)]);
  const glm::vec3 axis = glm::normalize(ankle - hip);
  const glm::vec3 bend_before = (knee - hip) - axis * glm::dot(knee - hip, axis);
  // Pull the foot up a little along the same line: the knee bends further, the same way.
  const glm::vec3 target = hip + axis * (glm::length(ankle - hip) * 0.8f);
  ASSERT_TRUE(leg.job(target).run());
  const glm::vec3 knee_after = pos(leg.world[size_t(leg.knee)]);
  const glm::vec3 bend_after = (knee_after - hip) - axis * glm::dot(knee_after - hip, axis);
  EXPECT_GT(glm::length(bend_after), glm::length(bend_before));
  EXPECT_LT(angle_between(bend_after, bend_before), 1e-3f);
}

// A dead-straight leg has no bend to keep: the hinge axis decides, and the knee goes forward for
// a +X hinge (a positive turn about X swings the shin back), backward for −X.
TEST(PosingTwoBoneIK, StraightChainBendsAboutTheHingeWithoutFlipping) {
  for (float sign : {1.0f, -1.0f}) {
    float previous_z = 0.0f;
    for (int i = 0; i <= 10; ++i) {
      Model m;
      const int hip = add_node(m, "hip", -1, {0, 1, 0});
      const int knee = add_node(m, "knee", hip, {0, -0.5f, 0});
      const int ankle = add_node(m, "ankle", knee, {0, -0.5f, 0});
      const Skeleton s = Skeleton::build(m);
      std::vector<Transform> local = {m.nodes[0].rest, m.nodes[1].rest, m.nodes[2].rest};
      std::vector<glm::mat4> world(3);
      LocalToWorldJob{&s, local, world, -1}.run();
      TwoBoneIKJob job{&s, local, world, {}};
      job.ik.chain = {hip, knee, ankle};
      job.ik.mid_axis = {sign, 0, 0};
      // Straight below at 80 % reach, then drifting sideways a little: no flip on the way.
      job.ik.target = glm::vec3(0.002f * float(i), 0.2f, 0.0f);
      ASSERT_TRUE(job.run());
      const float z = pos(world[size_t(knee)]).z;
      EXPECT_GT(sign * z, 0.1f) << i;
      if (i > 0) {
        EXPECT_LT(std::abs(z - previous_z), 0.01f) << i;
      }
      previous_z = z;
      EXPECT_LT(glm::length(pos(world[size_t(ankle)]) - job.ik.target), 2e-5f);
    }
  }
}

TEST(PosingTwoBoneIK, UnreachableTargetStraightensTheChainTowardsIt) {
  for (const glm::vec3& far : {glm::vec3(5, -3, 2), glm::vec3(-4, 1, 0), glm::vec3(0, -10, 0)}) {
    Leg leg;
    const float l1 = leg.upper(), l2 = leg.lower();
    const glm::vec3 hip = pos(leg.world[size_t(leg.hip)]);
    ASSERT_TRUE(leg.job(hip + far).run());
    const glm::vec3 knee = pos(leg.world[size_t(leg.knee)]);
    const glm::vec3 ankle = pos(leg.world[size_t(leg.ankle)]);
    EXPECT_LT(angle_between(knee - hip, far), 1e-3f);
    EXPECT_LT(angle_between(ankle - knee, far), 1e-3f);
    EXPECT_NEAR(glm::length(ankle - hip), l1 + l2, 1e-5f);
    EXPECT_NEAR(leg.upper(), l1, 1e-6f);
    EXPECT_NEAR(leg.lower(), l2, 1e-6f);
  }
}

TEST(PosingTwoBoneIK, WeightZeroIsBitIdentical) {
  Leg leg;
  const std::vector<Transform> local = leg.local;
  const std::vector<glm::mat4> world = leg.world;
  TwoBoneIKJob job = leg.job(pos(leg.world[size_t(leg.hip)]) + glm::vec3(0.5f, -0.5f, 0.5f));
  job.ik.weight = 0.0f;
  job.ik.use_pole = true;
  job.ik.pole = glm::vec3(3.0f);
  ASSERT_TRUE(job.run());
  EXPECT_EQ(std::memcmp(local.data(), leg.local.data(), local.size() * sizeof(Transform)), 0);
  EXPECT_EQ(std::memcmp(world.data(), leg.world.data(), world.size() * sizeof(glm::mat4)), 0);
}

TEST(PosingTwoBoneIK, PartialWeightMovesPartWayAndKeepsLengths) {
  Leg leg;
  const glm::vec3 start = pos(leg.world[size_t(leg.ankle)]);
  const glm::vec3 target = pos(leg.world[size_t(leg.hip)]) + glm::vec3(0.6f, -1.0f, 0.6f);
  TwoBoneIKJob job = leg.job(target);
  job.ik.weight = 0.5f;
  ASSERT_TRUE(job.run());
  const glm::vec3 end = pos(leg.world[size_t(leg.ankle)]);
  EXPECT_LT(glm::length(end - target), glm::length(start - target));
  EXPECT_GT(glm::length(end - target), 1e-3f);
  EXPECT_NEAR(leg.upper(), 1.0f, 1e-5f);
  EXPECT_NEAR(leg.lower(), 0.9f, 1e-5f);
}

TEST(PosingTwoBoneIK, SoftenEasesNearFullExtensionWithoutJumps) {
  // Walk the target out along a line through full reach; with soften the end follows smoothly
  // (no step larger than the target's), and stops short of full extension.
  Leg probe;
  const glm::vec3 hip = pos(probe.world[size_t(probe.hip)]);
  const glm::vec3 dir = glm::normalize(glm::vec3(0.2f, -1.0f, 0.3f));
  glm::vec3 previous(0.0f);
  float biggest_step = 0.0f;
  const float step = 0.002f;
  for (int i = 0; i <= 200; ++i) {
    Leg leg;
    TwoBoneIKJob job = leg.job(hip + dir * (1.6f + step * float(i)));
    job.ik.soften = 0.1f;
    ASSERT_TRUE(job.run());
    const glm::vec3 end = pos(leg.world[size_t(leg.ankle)]);
    if (i > 0) biggest_step = std::max(biggest_step, glm::length(end - previous));
    previous = end;
    EXPECT_LE(glm::length(end - hip), 1.9f + 1e-5f);
  }
  EXPECT_LT(biggest_step, step * 1.01f);
  EXPECT_LT(glm::length(previous - hip), 1.9f - 1e-4f);
}

TEST(PosingTwoBoneIK, KeepEndRotationHoldsTheFootsWorldRotation) {
  Leg leg;
  const glm::mat3 before = glm::mat3(leg.world[size_t(leg.ankle)]);
  TwoBoneIKJob job = leg.job(pos(leg.world[size_t(leg.hip)]) + glm::vec3(0.3f, -1.4f, 0.4f));
  job.ik.keep_end_rotation = true;
  ASSERT_TRUE(job.run());
  const glm::mat3 after = glm::mat3(leg.world[size_t(leg.ankle)]);
  for (int c = 0; c < 3; ++c) EXPECT_LT(glm::length(after[c] - before[c]), 1e-5f);
}

TEST(PosingTwoBoneIK, RejectsChainsThatAreNotAncestorChains) {
  Leg leg;
  TwoBoneIKJob job = leg.job(glm::vec3(0.0f));
  job.ik.chain = {leg.knee, leg.hip, leg.ankle};
  EXPECT_FALSE(job.validate());
  job.ik.chain = {leg.hip, leg.knee, 99};
  EXPECT_FALSE(job.validate());
}

// neck ─ head (+Z forward), under a spine of three joints, all at rest facing +Z.
struct Torso {
  Model model;
  Skeleton skeleton;
  std::vector<Transform> local;
  std::vector<glm::mat4> world;
  int spine, chest, neck, head;
  Torso() {
    spine = add_node(model, "spine", -1, {0, 1.0f, 0}, axis_angle({0, 1, 0}, 10.0f));
    chest = add_node(model, "chest", spine, {0, 0.3f, 0}, axis_angle({1, 0, 0}, 5.0f));
    neck = add_node(model, "neck", chest, {0, 0.3f, 0});
    head = add_node(model, "head", neck, {0, 0.1f, 0.02f}, axis_angle({0, 0, 1}, 7.0f));
    skeleton = Skeleton::build(model);
    for (const Node& n : model.nodes) local.push_back(n.rest);
    world.resize(local.size());
    LocalToWorldJob job{&skeleton, local, world, -1};
    job.run();
  }
  glm::vec3 aim_dir() const {
    return glm::normalize(glm::mat3(world[size_t(head)]) * glm::vec3(0, 0, 1));
  }
  glm::vec3 head_pos() const { return pos(world[size_t(head)]); }
};

AimJob aim_job(Torso& t, std::span<const int> chain, glm::vec3 target) {
  AimJob j;
  j.skeleton = &t.skeleton;
  j.local = t.local;
  j.world = t.world;
  j.chain = chain;
  j.aim.target = target;
  return j;
}

TEST(PosingAim, PointsTheAxisAtATargetWithinTheLimit) {
  Torso t;
  const glm::vec3 animated = t.aim_dir();
  const int chain[] = {t.head};
  const glm::vec3 target = t.head_pos() + glm::vec3(1.0f, 0.4f, 1.5f);  // about 40° off
  ASSERT_LT(glm::degrees(angle_between(target - t.head_pos(), animated)), 80.0f);
  ASSERT_TRUE(aim_job(t, chain, target).run());
  EXPECT_LT(glm::degrees(angle_between(t.aim_dir(), target - t.head_pos())), 1e-2f);
  EXPECT_LT(aim_error_degrees(t.world[size_t(t.head)], {0, 0, 1}, target), 1e-2f);
}

TEST(PosingAim, StopsExactlyAtTheLimitTowardsATargetBeyondIt) {
  Torso t;
  const glm::vec3 animated = t.aim_dir();
  const int chain[] = {t.head};
  const glm::vec3 target = t.head_pos() + glm::vec3(-2.0f, 0.3f, -1.0f);  // well behind
  const float off = glm::degrees(angle_between(target - t.head_pos(), animated));
  ASSERT_GT(off, 100.0f);
  ASSERT_TRUE(aim_job(t, chain, target).run());
  EXPECT_NEAR(glm::degrees(angle_between(t.aim_dir(), animated)), 80.0f, 1e-2f);
  // Turned straight towards the target: the rest of the way is what the limit withheld.
  EXPECT_NEAR(glm::degrees(angle_between(t.aim_dir(), target - t.head_pos())), off - 80.0f, 1e-2f);
}

TEST(PosingAim, SpreadsTheTurnOverAChainAndStillHitsTheTarget) {
  Torso t;
  const std::vector<Transform> before = t.local;
  const int chain[] = {t.spine, t.chest, t.neck, t.head};
  const glm::vec3 target = glm::vec3(1.5f, 1.2f, 1.0f);
  AimJob job = aim_job(t, chain, target);
  const float shares[] = {1.0f, 1.0f, 2.0f, 4.0f};
  job.chain_weights = shares;
  ASSERT_TRUE(job.run());
  EXPECT_LT(glm::degrees(angle_between(t.aim_dir(), target - t.head_pos())), 1e-2f);
  float previous = 0.0f;
  for (int j : chain) {
    const float turned =
        test::angle_degrees(glm::inverse(before[size_t(j)].rotation) * t.local[size_t(j)].rotation);
    EXPECT_GT(turned, 1.0f) << "joint " << j;
    if (j == t.spine) previous = turned;
    // Only rotations change.
    EXPECT_EQ(t.local[size_t(j)].translation, before[size_t(j)].translation);
  }
  EXPECT_GT(previous, 0.0f);
}

TEST(PosingAim, WeightZeroIsBitIdenticalAndOtherNodesUntouched) {
  Torso t;
  const std::vector<Transform> local = t.local;
  const std::vector<glm::mat4> world = t.world;
  const int chain[] = {t.chest, t.head};
  AimJob job = aim_job(t, chain, glm::vec3(3, 3, 3));
  job.aim.weight = 0.0f;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(std::memcmp(local.data(), t.local.data(), local.size() * sizeof(Transform)), 0);
  EXPECT_EQ(std::memcmp(world.data(), t.world.data(), world.size() * sizeof(glm::mat4)), 0);
  job.aim.weight = 1.0f;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(std::memcmp(&local[size_t(t.spine)], &t.local[size_t(t.spine)], sizeof(Transform)),
            0);  // not in the chain
  EXPECT_EQ(std::memcmp(&local[size_t(t.neck)], &t.local[size_t(t.neck)], sizeof(Transform)), 0);
}

TEST(PosingAim, RejectsChainsOutOfOrder) {
  Torso t;
  const int chain[] = {t.head, t.spine};
  EXPECT_FALSE(aim_job(t, chain, glm::vec3(1)).validate());
}

// The constraints as a Character runs them: after blending, before skinning.
TEST(PosingConstraints, CharacterRunsIKAndAimAfterTheBlend) {
  Leg leg;
  Character character(leg.model);
  TwoBoneIKConstraint ik(two_bone_chain(leg.model, leg.ankle));
  const glm::vec3 hip = pos(character.world()[size_t(leg.hip)]);
  ik.ik.target = hip + glm::vec3(0.2f, -1.5f, 0.5f);
  AimConstraint aim(chain_between(leg.model, leg.ankle, leg.toe));
  EXPECT_EQ(aim.chain().size(), 2u);
  aim.aim.axis = {0, -0.05f, 0.12f};
  aim.aim.target = hip + glm::vec3(0.0f, -2.0f, 2.0f);
  PoseConstraint* all[] = {&ik, &aim};
  character.set_constraints(all);
  character.evaluate(PoseSelection{});
  EXPECT_LT(glm::length(pos(character.world()[size_t(leg.ankle)]) - ik.ik.target), 2e-5f);
  EXPECT_LT(aim_error_degrees(character.world()[size_t(leg.toe)], aim.aim.axis, aim.aim.target),
            0.05f);
}

// The mannequin's arm: Arm → ForeArm → ForeArmTwist → Hand. The chain skips the twist joint,
// which rides along the forearm; the hand's fingers-to-be (its subtree) follow.
TEST(PosingConstraints, MannequinArmChainWithATwistJointBetween) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
      << error;
  const int arm = find_nodes(m, {"LeftArm"})[0], fore = find_nodes(m, {"LeftForeArm"})[0];
  const int twist = find_nodes(m, {"LeftForeArmTwist"})[0], hand = find_nodes(m, {"LeftHand"})[0];
  Character plain(m), character(m);
  TwoBoneIKConstraint ik;
  ik.ik.chain = {arm, fore, hand};
  const PoseSelection wave{3, 1.0f};  // Wave (waves the right arm; the left hangs)
  plain.evaluate(wave);
  const auto p = [](const Character& c, int n) { return pos(c.world()[size_t(n)]); };
  ik.ik.target = p(plain, arm) + glm::vec3(0.25f, -0.2f, 0.3f);
  PoseConstraint* all[] = {&ik};
  character.set_constraints(all);
  character.evaluate(wave);
  const float reach =
      glm::length(p(plain, fore) - p(plain, arm)) + glm::length(p(plain, hand) - p(plain, fore));
  EXPECT_LT(glm::length(p(character, hand) - ik.ik.target), 1e-5f * reach);
  for (auto [a, b] : {std::pair{arm, fore}, std::pair{fore, twist}, std::pair{twist, hand}})
    EXPECT_NEAR(glm::length(p(character, b) - p(character, a)),
                glm::length(p(plain, b) - p(plain, a)), 1e-6f);
  // The twist joint still lies on the elbow→wrist segment, as animated.
  const glm::vec3 e = p(character, fore), w = p(character, hand), t = p(character, twist);
  EXPECT_LT(glm::length(glm::cross(t - e, w - e)) / glm::length(w - e), 1e-5f);
}

}  // namespace
}  // namespace rig
