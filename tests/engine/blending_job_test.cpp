// BlendingJob: every case validate() refuses (and run() then writes nothing), and run() against
// hand-computed blends: the crossfade of two poses (lerp, shortest-path slerp), a per-joint mask,
// an additive layer, clamped weights, a node list.
#include "anim/blending_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;
using test::expect_vec3;

// q and −q are one rotation: compares up to that sign.
void expect_rotation(glm::quat got, glm::quat want, float tol = 1e-5f) {
  if (glm::dot(got, want) < 0.0f) got = -got;
  EXPECT_NEAR(got.x, want.x, tol);
  EXPECT_NEAR(got.y, want.y, tol);
  EXPECT_NEAR(got.z, want.z, tol);
  EXPECT_NEAR(got.w, want.w, tol);
}

bool same_bits(const Transform& a, const Transform& b) {
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

// Two poses of `n` nodes and two morph weights, and an output filled with a sentinel, so that a
// refused run() is seen to leave it alone.
struct Fixture {
  explicit Fixture(size_t n = 3, size_t morphs = 2)
      : a(n), b(n), out(n), a_morph(morphs, 0.0f), b_morph(morphs, 1.0f), out_morph(morphs) {
    sentinel.translation = {-7.0f, -7.0f, -7.0f};
    std::fill(out.begin(), out.end(), sentinel);
    std::fill(out_morph.begin(), out_morph.end(), -7.0f);
    for (Transform& t : b) t.translation = {1.0f, 2.0f, 3.0f};
  }
  BlendLayer layer_a() const { return {a, a_morph}; }
  BlendLayer layer_b(float w) const {
    BlendLayer l{b, b_morph};
    l.weight = w;
    return l;
  }
  BlendingJob job(std::span<const BlendLayer> layers) {
    BlendingJob j;
    j.layers = layers;
    j.output = out;
    j.output_morph_weights = out_morph;
    return j;
  }
  bool untouched() const {
    for (const Transform& t : out)
      if (!same_bits(t, sentinel)) return false;
    for (float m : out_morph)
      if (m != -7.0f) return false;
    return true;
  }
  std::vector<Transform> a, b, out;
  std::vector<float> a_morph, b_morph, out_morph;
  Transform sentinel;
};

// validate() false, and run() returns false without writing anything.
void expect_refused(Fixture& f, const BlendingJob& job) {
  EXPECT_FALSE(job.validate());
  EXPECT_FALSE(job.run());
  EXPECT_TRUE(f.untouched());
}

TEST(BlendingJobValidate, AcceptsTheFixturesOwnJob) {
  Fixture f;
  const BlendLayer layers[] = {f.layer_a(), f.layer_b(0.5f)};
  const BlendingJob job = f.job(layers);
  EXPECT_TRUE(job.validate());
  EXPECT_TRUE(job.run());
  EXPECT_FALSE(f.untouched());
}

TEST(BlendingJobValidate, RefusesNoLayers) {
  Fixture f;
  expect_refused(f, f.job({}));
}

TEST(BlendingJobValidate, RefusesALayerShorterOrLongerThanTheOutput) {
  Fixture f;
  std::vector<Transform> shorter(f.out.size() - 1), longer(f.out.size() + 1);
  for (const std::vector<Transform>* local : {&shorter, &longer}) {
    BlendLayer bad{*local, f.b_morph};
    const BlendLayer as_base[] = {bad, f.layer_b(0.5f)};
    expect_refused(f, f.job(as_base));
    const BlendLayer as_second[] = {f.layer_a(), bad};
    expect_refused(f, f.job(as_second));
  }
}

TEST(BlendingJobValidate, RefusesMismatchedMorphWeights) {
  Fixture f;
  const std::vector<float> one(1, 0.5f);
  const BlendLayer layers[] = {f.layer_a(), BlendLayer{f.b, one}};
  expect_refused(f, f.job(layers));
  const BlendLayer base_short[] = {BlendLayer{f.a, one}, f.layer_b(1.0f)};
  expect_refused(f, f.job(base_short));
}

TEST(BlendingJobValidate, RefusesAMaskOfTheWrongSize) {
  Fixture f;
  const std::vector<float> mask(f.out.size() - 1, 1.0f);
  BlendLayer masked = f.layer_b(1.0f);
  masked.joint_weights = mask;
  const BlendLayer layers[] = {f.layer_a(), masked};
  expect_refused(f, f.job(layers));
}

TEST(BlendingJobValidate, RefusesAnAdditiveLayerWithoutAFullReference) {
  Fixture f;
  BlendLayer add = f.layer_b(1.0f);
  add.mode = BlendMode::Additive;  // no reference at all
  const BlendLayer none[] = {f.layer_a(), add};
  expect_refused(f, f.job(none));
  const std::vector<Transform> short_ref(f.out.size() - 1);
  add.reference = short_ref;
  const BlendLayer shorter[] = {f.layer_a(), add};
  expect_refused(f, f.job(shorter));
  // A full reference with morph weights of the wrong size (empty would mean all 0).
  add.reference = f.a;
  const std::vector<float> ref_morph(f.out_morph.size() + 1, 0.0f);
  add.reference_morph_weights = ref_morph;
  const BlendLayer morphs[] = {f.layer_a(), add};
  expect_refused(f, f.job(morphs));
}

TEST(BlendingJobValidate, IgnoresTheBaseLayersMode) {
  // layers[0] is taken as it is: an "additive" base needs no reference.
  Fixture f;
  BlendLayer base = f.layer_a();
  base.mode = BlendMode::Additive;
  const BlendLayer layers[] = {base, f.layer_b(0.5f)};
  EXPECT_TRUE(f.job(layers).validate());
}

TEST(BlendingJobValidate, RefusesNodeIndicesOutsideTheOutput) {
  Fixture f;
  const BlendLayer layers[] = {f.layer_a(), f.layer_b(0.5f)};
  for (const int bad : {-1, int(f.out.size())}) {
    const int nodes[] = {0, bad};
    BlendingJob job = f.job(layers);
    job.nodes = nodes;
    expect_refused(f, job);
  }
}

// The crossfade at w = 0.25 from A (identity, origin, unit scale, morphs 0 and 1) to B (90°
// about Y given as the opposite-hemisphere quaternion, t = (2, −4, 8), s = (3, 1, 1), morphs 1
// and 0), by hand: t = (0.5, −1, 2), s = (1.5, 1, 1), morphs 0.25 and 0.75, and the rotation a
// quarter of the way along the short arc, 22.5° about Y = (0, sin 11.25°, 0, cos 11.25°). (A
// normalized lerp would give 2·atan(0.25·sin45° / (0.75 + 0.25·cos45°)) = 21.6°; the long way
// round would turn the other way.) Nine nodes: the eight-wide and four-wide kernels and a tail.
TEST(BlendingJobRun, TwoPoseCrossfadeAtAQuarterIsTheHandComputedBlend) {
  Fixture f(9);
  f.a_morph = {0.0f, 1.0f};
  f.b_morph = {1.0f, 0.0f};
  for (size_t i = 0; i < f.b.size(); ++i) {
    f.b[i].translation = {2, -4, 8};
    f.b[i].scale = {3, 1, 1};
    f.b[i].rotation = -axis_angle({0, 1, 0}, 90);
  }
  const BlendLayer layers[] = {f.layer_a(), f.layer_b(0.25f)};
  ASSERT_TRUE(f.job(layers).run());
  const float half = 11.25f * test::kDeg;
  for (const Transform& t : f.out) {
    expect_vec3(t.translation, {0.5f, -1.0f, 2.0f});
    expect_vec3(t.scale, {1.5f, 1.0f, 1.0f});
    expect_rotation(t.rotation, glm::quat(std::cos(half), 0.0f, std::sin(half), 0.0f));
  }
  EXPECT_NEAR(f.out_morph[0], 0.25f, 1e-6f);
  EXPECT_NEAR(f.out_morph[1], 0.75f, 1e-6f);
}

// Layer weight 0.5 times the mask (1, 0.5, 0): node 0 goes half way, node 1 a quarter, node 2
// stays the base bit for bit. Morph weights follow the layer weight alone (0.5).
TEST(BlendingJobRun, MaskScalesTheLayerWeightPerJoint) {
  Fixture f(3);
  for (Transform& t : f.b) t.rotation = axis_angle({0, 0, 1}, 80);
  const std::vector<float> mask = {1.0f, 0.5f, 0.0f};
  BlendLayer masked = f.layer_b(0.5f);
  masked.joint_weights = mask;
  const BlendLayer layers[] = {f.layer_a(), masked};
  ASSERT_TRUE(f.job(layers).run());
  expect_vec3(f.out[0].translation, {0.5f, 1.0f, 1.5f});
  expect_rotation(f.out[0].rotation, axis_angle({0, 0, 1}, 40));
  expect_vec3(f.out[1].translation, {0.25f, 0.5f, 0.75f});
  expect_rotation(f.out[1].rotation, axis_angle({0, 0, 1}, 20));
  EXPECT_TRUE(same_bits(f.out[2], f.a[2]));
  EXPECT_NEAR(f.out_morph[0], 0.5f, 1e-6f);
}

// Additive at w = 0.5 over a base (t (1,0,0), 30° about Z, s 2, morph 0.2): value 90° about Z,
// t (3,0,0), s 4, morph 0.9 against a reference 30° about Z, t (1,0,0), s 1, morph 0.1. By hand:
// the difference is 60° about Z, half of it 30°, on the base's 30°: 60°; t = 1 + (3 − 1)/2 = 2;
// s = 2 · (4/1)^0.5 = 4; morph = 0.2 + (0.9 − 0.1)/2 = 0.6.
TEST(BlendingJobRun, AdditiveLayerAddsItsWeightedDifferenceFromTheReference) {
  Fixture f(1, 1);
  f.a[0] = {{1, 0, 0}, axis_angle({0, 0, 1}, 30), {2, 2, 2}};
  f.a_morph = {0.2f};
  f.b[0] = {{3, 0, 0}, axis_angle({0, 0, 1}, 90), {4, 4, 4}};
  f.b_morph = {0.9f};
  const std::vector<Transform> reference = {{{1, 0, 0}, axis_angle({0, 0, 1}, 30), {1, 1, 1}}};
  const std::vector<float> reference_morph = {0.1f};
  BlendLayer add = f.layer_b(0.5f);
  add.mode = BlendMode::Additive;
  add.reference = reference;
  add.reference_morph_weights = reference_morph;
  const BlendLayer layers[] = {f.layer_a(), add};
  ASSERT_TRUE(f.job(layers).run());
  expect_vec3(f.out[0].translation, {2, 0, 0});
  expect_rotation(f.out[0].rotation, axis_angle({0, 0, 1}, 60));
  expect_vec3(f.out[0].scale, {4, 4, 4});
  EXPECT_NEAR(f.out_morph[0], 0.6f, 1e-6f);
}

// Weights are clamped to [0, 1]: −1 (and a total layer weight of 0) gives the base back bit for
// bit, 2 gives what 1 gives.
TEST(BlendingJobRun, WeightsOutsideZeroToOneAreClamped) {
  Fixture f(5);
  for (Transform& t : f.b) t.rotation = axis_angle({1, 0, 0}, 70);
  for (const float w : {-1.0f, 0.0f}) {
    const BlendLayer layers[] = {f.layer_a(), f.layer_b(w)};
    ASSERT_TRUE(f.job(layers).run());
    for (size_t i = 0; i < f.out.size(); ++i) EXPECT_TRUE(same_bits(f.out[i], f.a[i])) << w;
    EXPECT_EQ(f.out_morph, f.a_morph);
  }
  const BlendLayer one[] = {f.layer_a(), f.layer_b(1.0f)};
  ASSERT_TRUE(f.job(one).run());
  const std::vector<Transform> at_one = f.out;
  const BlendLayer two[] = {f.layer_a(), f.layer_b(2.0f)};
  ASSERT_TRUE(f.job(two).run());
  for (size_t i = 0; i < f.out.size(); ++i) EXPECT_TRUE(same_bits(f.out[i], at_one[i]));
  expect_vec3(f.out[0].translation, {1, 2, 3});
  expect_rotation(f.out[0].rotation, axis_angle({1, 0, 0}, 70));
  EXPECT_EQ(f.out_morph, f.b_morph);
}

// A node list blends only those nodes; the others keep the base layer's values.
TEST(BlendingJobRun, NodeListBlendsOnlyTheListedNodes) {
  Fixture f(4);
  const BlendLayer layers[] = {f.layer_a(), f.layer_b(0.5f)};
  const int nodes[] = {1, 3};
  BlendingJob job = f.job(layers);
  job.nodes = nodes;
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(same_bits(f.out[0], f.a[0]));
  EXPECT_TRUE(same_bits(f.out[2], f.a[2]));
  expect_vec3(f.out[1].translation, {0.5f, 1.0f, 1.5f});
  expect_vec3(f.out[3].translation, {0.5f, 1.0f, 1.5f});
}

// The output may be the base layer's own storage (the pose stack blends in place).
TEST(BlendingJobRun, OutputMayAliasTheBaseLayer) {
  Fixture f(2);
  const BlendLayer layers[] = {f.layer_a(), f.layer_b(0.5f)};
  BlendingJob job = f.job(layers);
  job.output = f.a;
  job.output_morph_weights = f.a_morph;
  ASSERT_TRUE(job.run());
  expect_vec3(f.a[0].translation, {0.5f, 1.0f, 1.5f});
  EXPECT_NEAR(f.a_morph[1], 0.5f, 1e-6f);
}

}  // namespace
}  // namespace rig
