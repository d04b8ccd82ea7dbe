// Keyframe sampling: the seed's worked slerp examples and the glTF spec's interpolation rules.
#include "anim/sampling.h"

#include <gtest/gtest.h>

#include <cmath>

#include "anim/pose.h"
#include "test_models.h"

namespace rig {
namespace {

using test::angle_degrees;
using test::axis_angle;

glm::quat sample_rotation(const Channel& c, float t) {
  float v[4];
  sample_channel(c, t, v);
  return glm::quat(v[3], v[0], v[1], v[2]);
}

float sample_x(const Channel& c, float t) {
  float v[3];
  sample_channel(c, t, v);
  return v[0];
}

// Seed 000 §3-4: elbow track 0° → 100° → 10° at 0, 0.2, 0.4 s about Z.
TEST(SeedSlerp, ElbowTrackKeepsConstantAngularSpeed) {
  Channel c = test::rotation_channel(
      0, {0.0f, 0.2f, 0.4f},
      {axis_angle({0, 0, 1}, 0), axis_angle({0, 0, 1}, 100), axis_angle({0, 0, 1}, 10)});
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.05f)), 25.0f, 1e-3f);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.13f)), 65.0f, 1e-3f);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.20f)), 100.0f, 1e-3f);
  // Past the middle key the angle drops back: 100 → 10 over 0.2 s, halfway at 0.3 s.
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.30f)), 55.0f, 1e-3f);
}

// Seed 000 §15 exercise: 0° → 45° → 90° about Y at 0, 0.5, 1 s.
TEST(SeedSlerp, ExerciseTrackQuarterPoints) {
  Channel c = test::rotation_channel(
      0, {0.0f, 0.5f, 1.0f},
      {axis_angle({0, 1, 0}, 0), axis_angle({0, 1, 0}, 45), axis_angle({0, 1, 0}, 90)});
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.25f)), 22.5f, 1e-3f);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.75f)), 67.5f, 1e-3f);
  // The axis stays Y.
  glm::quat q = sample_rotation(c, 0.75f);
  EXPECT_NEAR(q.x, 0.0f, 1e-6f);
  EXPECT_NEAR(q.z, 0.0f, 1e-6f);
}

TEST(SpecSampling, StepHoldsThePreviousKey) {
  Channel c = test::vec3_channel(0, TargetPath::Translation, {1, 2, 3},
                                 {{0, 0, 0}, {10, 0, 0}, {20, 0, 0}}, Interpolation::Step);
  EXPECT_EQ(sample_x(c, 1.0f), 0.0f);
  EXPECT_EQ(sample_x(c, 1.5f), 0.0f);
  EXPECT_EQ(sample_x(c, 1.999f), 0.0f);
  EXPECT_EQ(sample_x(c, 2.0f), 10.0f);
  EXPECT_EQ(sample_x(c, 2.999f), 10.0f);
  EXPECT_EQ(sample_x(c, 3.0f), 20.0f);
}

TEST(SpecSampling, LinearLerpsAndClampsOutsideTheKeys) {
  // Clip starting at t = 1 s: the file's timeline, not zero-based.
  Channel c = test::vec3_channel(0, TargetPath::Translation, {1, 2, 3},
                                 {{0, 0, 0}, {10, 0, 0}, {20, -4, 0}}, Interpolation::Linear);
  EXPECT_FLOAT_EQ(sample_x(c, 1.25f), 2.5f);
  EXPECT_FLOAT_EQ(sample_x(c, 2.0f), 10.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 2.5f), 15.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 0.0f), 0.0f);  // before the first key: first value
  EXPECT_FLOAT_EQ(sample_x(c, -7.0f), 0.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 9.0f), 20.0f);  // after the last key: last value
  float v[3];
  sample_channel(c, 2.75f, v);
  EXPECT_FLOAT_EQ(v[1], -3.0f);
}

TEST(SpecSampling, CubicSplineIsTheSpecsHermiteWithScaledTangents) {
  // Keys at t = 0 and t = 2 (td = 2): v0 = 0, out-tangent b0 = 1; in-tangent a1 = 3, v1 = 1.
  // p(u) = (2u³-3u²+1)v0 + td(u³-2u²+u)b0 + (-2u³+3u²)v1 + td(u³-u²)a1.
  // At u = 0.5: 0 + 2*0.125*1 + 0.5*1 + 2*(-0.125)*3 = 0.25 + 0.5 - 0.75 = 0.
  // At u = 0.25: 2*(0.015625-0.125+0.25)*1 + (-0.03125+0.1875) + 2*(0.015625-0.0625)*3
  //            = 0.28125 + 0.15625 - 0.28125 = 0.15625.
  Channel c;
  c.path = TargetPath::Translation;
  c.interpolation = Interpolation::CubicSpline;
  c.components = 3;
  c.times = {0.0f, 2.0f};
  c.values = {/*a0*/ 9, 9, 9, /*v0*/ 0, 0, 0, /*b0*/ 1, 0, 0,
              /*a1*/ 3, 0, 0, /*v1*/ 1, 0, 0, /*b1*/ 9, 9, 9};
  EXPECT_NEAR(sample_x(c, 1.0f), 0.0f, 1e-6f);
  EXPECT_NEAR(sample_x(c, 0.5f), 0.15625f, 1e-6f);
  EXPECT_FLOAT_EQ(sample_x(c, 0.0f), 0.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 2.0f), 1.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 5.0f), 1.0f);  // clamped to the last value, not a tangent
  EXPECT_FLOAT_EQ(sample_x(c, -1.0f), 0.0f);
}

// Three keys, so the second segment (k = 1) is sampled: every element must come from keys 1 and
// 2 (v1, its out-tangent b1, the in-tangent a2 of key 2, v2), never from key 0's slots.
// Keys at t = 0, 1, 3; per key (in-tangent a, value v, out-tangent b):
//   key 0: a0 = (9,9,9), v0 = (0,0,0), b0 = (0,0,0)
//   key 1: a1 = (0,4,0), v1 = (1,2,0), b1 = (1,-1,0)
//   key 2: a2 = (2,4,0), v2 = (3,0,0), b2 = (9,9,9)
// t = 0.5, segment 0: td = 1, u = 0.5 → h00 = h01 = 0.5, td·h10 = 0.125, td·h11 = -0.125:
//   0.5·v0 + 0.125·b0 + 0.5·v1 - 0.125·a1 = (0.5, 1, 0) - (0, 0.5, 0) = (0.5, 0.5, 0).
// t = 2, segment 1: td = 2, u = 0.5 → td·h10 = 0.25, td·h11 = -0.25:
//   0.5·v1 + 0.25·b1 + 0.5·v2 - 0.25·a2 = (0.5,1,0) + (0.25,-0.25,0) + (1.5,0,0) - (0.5,1,0)
//   = (1.75, -0.25, 0).
TEST(SpecSampling, CubicSplineSecondSegmentUsesItsOwnKeysAndTangents) {
  Channel c;
  c.path = TargetPath::Translation;
  c.interpolation = Interpolation::CubicSpline;
  c.components = 3;
  c.times = {0.0f, 1.0f, 3.0f};
  c.values = {/*a0*/ 9, 9, 9, /*v0*/ 0, 0, 0, /*b0*/ 0, 0,  0,
              /*a1*/ 0, 4, 0, /*v1*/ 1, 2, 0, /*b1*/ 1, -1, 0,
              /*a2*/ 2, 4, 0, /*v2*/ 3, 0, 0, /*b2*/ 9, 9,  9};
  float v[3];
  sample_channel(c, 0.5f, v);
  EXPECT_NEAR(v[0], 0.5f, 1e-6f);
  EXPECT_NEAR(v[1], 0.5f, 1e-6f);
  EXPECT_NEAR(v[2], 0.0f, 1e-6f);
  sample_channel(c, 1.0f, v);  // exactly on key 1: its value, not a tangent
  EXPECT_FLOAT_EQ(v[0], 1.0f);
  EXPECT_FLOAT_EQ(v[1], 2.0f);
  EXPECT_FLOAT_EQ(v[2], 0.0f);
  sample_channel(c, 2.0f, v);
  EXPECT_NEAR(v[0], 1.75f, 1e-6f);
  EXPECT_NEAR(v[1], -0.25f, 1e-6f);
  EXPECT_NEAR(v[2], 0.0f, 1e-6f);
}

TEST(SpecSampling, CubicSplineRotationIsRenormalized) {
  Channel c;
  c.path = TargetPath::Rotation;
  c.interpolation = Interpolation::CubicSpline;
  c.components = 4;
  c.times = {0.0f, 1.0f};
  glm::quat a = axis_angle({1, 0, 0}, 0), b = axis_angle({1, 0, 0}, 90);
  c.values = {0, 0, 0, 0, a.x, a.y, a.z, a.w, 0, 0, 0, 0,
              0, 0, 0, 0, b.x, b.y, b.z, b.w, 0, 0, 0, 0};
  glm::quat q = sample_rotation(c, 0.5f);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  // Zero tangents, u = 0.5: p = 0.5 a + 0.5 b, normalized → exactly the 45° rotation.
  EXPECT_NEAR(angle_degrees(q), 45.0f, 1e-3f);
}

TEST(SpecSampling, LinearRotationTakesTheShortestPathAcrossASignFlip) {
  // Second key is -q(20° about Z): the same rotation, opposite hemisphere.
  glm::quat k1 = -axis_angle({0, 0, 1}, 20);
  Channel c = test::rotation_channel(0, {0, 1}, {glm::quat(1, 0, 0, 0), k1});
  glm::quat q = sample_rotation(c, 0.5f);
  EXPECT_NEAR(angle_degrees(q), 10.0f, 1e-3f);  // not 170°
  // Halfway from the identity to q(20° about +Z): q(10° about +Z) = (cos 5°, 0, 0, sin 5°).
  EXPECT_NEAR(q.w, std::cos(glm::radians(5.0f)), 1e-5f);
  EXPECT_NEAR(q.x, 0.0f, 1e-6f);
  EXPECT_NEAR(q.y, 0.0f, 1e-6f);
  EXPECT_NEAR(q.z, std::sin(glm::radians(5.0f)), 1e-5f);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
}

TEST(SpecSampling, StepRotationAndExactKeyTimes) {
  Channel c = test::rotation_channel(
      0, {0, 1, 2},
      {axis_angle({0, 1, 0}, 0), axis_angle({0, 1, 0}, 30), axis_angle({0, 1, 0}, 60)},
      Interpolation::Step);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 0.99f)), 0.0f, 1e-3f);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 1.0f)), 30.0f, 1e-3f);
  EXPECT_NEAR(angle_degrees(sample_rotation(c, 1.5f)), 30.0f, 1e-3f);
}

TEST(SpecSampling, FindKeyIsTheBracketingSegment) {
  std::vector<float> t = {0.0f, 0.5f, 1.0f, 4.0f};
  EXPECT_EQ(find_key(t, 0.0f), 0u);
  EXPECT_EQ(find_key(t, 0.49f), 0u);
  EXPECT_EQ(find_key(t, 0.5f), 1u);
  EXPECT_EQ(find_key(t, 3.9f), 2u);
}

TEST(SpecSampling, SingleKeyChannelIsConstant) {
  Channel c = test::vec3_channel(0, TargetPath::Scale, {0.5f}, {{2, 3, 4}}, Interpolation::Linear);
  EXPECT_FLOAT_EQ(sample_x(c, 0.0f), 2.0f);
  EXPECT_FLOAT_EQ(sample_x(c, 10.0f), 2.0f);
}

TEST(SlerpShortest, MatchesTheClosedForm) {
  glm::quat a = axis_angle({0, 1, 0}, 10), b = axis_angle({0, 1, 0}, 130);
  glm::quat q = slerp_shortest(a, b, 0.25f);
  EXPECT_NEAR(angle_degrees(q), 40.0f, 1e-3f);
  // Nearly parallel inputs (the lerp fallback) still give unit results on the arc.
  glm::quat c = axis_angle({0, 1, 0}, 1), d = axis_angle({0, 1, 0}, 2);
  glm::quat r = slerp_shortest(c, d, 0.5f);
  EXPECT_NEAR(glm::length(r), 1.0f, 1e-6f);
  EXPECT_NEAR(angle_degrees(r), 1.5f, 1e-2f);
  // Off the midpoint the fallback must still weight the ends the right way round: a quarter
  // of the way from 1° to 2° is 1.25° (components compared: acos near 1 has no resolution).
  const glm::quat quarter = slerp_shortest(c, d, 0.25f);
  const glm::quat want = axis_angle({0, 1, 0}, 1.25f);
  EXPECT_NEAR(quarter.y, want.y, 1e-6f);
  EXPECT_NEAR(quarter.w, want.w, 1e-6f);
}

// Morph weight channels: components = target count, lerped per weight.
TEST(SpecSampling, MorphWeightsLerpEveryTarget) {
  Channel c;
  c.path = TargetPath::Weights;
  c.interpolation = Interpolation::Linear;
  c.components = 2;
  c.times = {0, 2};
  c.values = {0.0f, 1.0f, 1.0f, 0.0f};
  float w[2];
  sample_channel(c, 0.5f, w);
  EXPECT_FLOAT_EQ(w[0], 0.25f);
  EXPECT_FLOAT_EQ(w[1], 0.75f);
}

}  // namespace
}  // namespace rig
