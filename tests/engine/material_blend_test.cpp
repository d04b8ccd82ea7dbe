// Material poses through crossfades and layers (anim/material_blend.h, Character's material
// stage). Every expected value is worked out by hand from the keys below (LINEAR keys, the
// crossfade a + (b − a)·w, the additive base + (value − reference)·w, the spec's ranges), never
// from the code's own output.
#include "anim/material_blend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "character/character.h"
#include "character/pose_stack.h"
#include "test_models.h"

namespace rig {
namespace {

constexpr size_t kBase = size_t(TextureSlot::BaseColor);

void expect_vec4(const glm::vec4& got, const glm::vec4& want, const char* what) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], 1e-6f) << what << " component " << c;
}

void expect_vec3(const glm::vec3& got, const glm::vec3& want, const char* what) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], 1e-6f) << what << " component " << c;
}

// A LINEAR channel with keys at t = 0 and t = 2.
MaterialChannel channel(int material, MaterialProperty property, std::vector<float> from,
                        std::vector<float> to) {
  MaterialChannel c;
  c.material = material;
  c.property = property;
  c.slot = TextureSlot::BaseColor;
  c.keys.components = uint32_t(from.size());
  c.keys.times = {0.0f, 2.0f};
  c.keys.values = from;
  c.keys.values.insert(c.keys.values.end(), to.begin(), to.end());
  return c;
}

// One node, one material (file: grey base colour, black emissive, metallic 1, roughness 0.9,
// no texture transform), two clips over t in [0, 2]:
//   0 "A"  base colour red → blue, emissive red (constant), roughness 0.5 → 0.1,
//          base colour texture rotation 0 → 2
//   1 "B"  base colour green (constant), metallic 0 (constant), texture rotation 3 (constant)
//   2 "C"  no material channel (a node channel only)
// So at t = 1: A's base colour (0.5, 0, 0.5, 1), roughness 0.3, rotation 1.
Model two_clip_model() {
  Model m;
  test::add_node(m, "root", -1, {0, 0, 0});
  Material mat;
  mat.base_color_factor = {0.2f, 0.2f, 0.2f, 1.0f};
  mat.roughness_factor = 0.9f;
  m.materials.push_back(mat);
  using P = MaterialProperty;
  Clip a;
  a.name = "A";
  a.end = 2.0f;
  a.material_channels = {channel(0, P::BaseColorFactor, {1, 0, 0, 1}, {0, 0, 1, 1}),
                         channel(0, P::EmissiveFactor, {1, 0, 0}, {1, 0, 0}),
                         channel(0, P::RoughnessFactor, {0.5f}, {0.1f}),
                         channel(0, P::TextureRotation, {0.0f}, {2.0f})};
  Clip b;
  b.name = "B";
  b.end = 2.0f;
  b.material_channels = {channel(0, P::BaseColorFactor, {0, 1, 0, 1}, {0, 1, 0, 1}),
                         channel(0, P::MetallicFactor, {0.0f}, {0.0f}),
                         channel(0, P::TextureRotation, {3.0f}, {3.0f})};
  Clip c;
  c.name = "C";
  c.end = 2.0f;
  Channel move;
  move.node = 0;
  move.times = {0.0f, 2.0f};
  move.values = {0, 0, 0, 1, 0, 0};
  c.channels.push_back(move);
  m.clips = {a, b, c};
  return m;
}

constexpr int kA = 0, kB = 1, kC = 2;

const MaterialFactors& crossfade(Character& character, int clip, float time, int blend_clip,
                                 float blend_time, float weight) {
  character.evaluate(PoseSelection{clip, time, blend_clip, blend_time, weight});
  return character.material_pose().values[0];
}

TEST(MaterialBlend, CrossfadeAtAQuarterIsTheHandMixedValue) {
  const Model model = two_clip_model();
  Character character(model);
  const MaterialFactors& f = crossfade(character, kA, 1.0f, kB, 0.5f, 0.25f);
  // 0.75·(0.5, 0, 0.5, 1) + 0.25·(0, 1, 0, 1).
  expect_vec4(f.base_color, {0.375f, 0.25f, 0.375f, 1.0f}, "base colour");
  // Rotation mixes linearly: 0.75·1 + 0.25·3.
  EXPECT_NEAR(f.transforms[kBase].rotation, 1.5f, 1e-6f);
  // Animated by A alone: B holds the file's values (emissive 0, roughness 0.9).
  expect_vec3(f.emissive, {0.75f, 0.0f, 0.0f}, "emissive");
  EXPECT_NEAR(f.roughness, 0.75f * 0.3f + 0.25f * 0.9f, 1e-6f);
  // Animated by B alone: 0.75·1 (the file's) + 0.25·0.
  EXPECT_NEAR(f.metallic, 0.75f, 1e-6f);
  // Neither animates the texture offset or scale: the extension's defaults.
  EXPECT_EQ(f.transforms[kBase].offset, glm::vec2(0.0f));
  EXPECT_EQ(f.transforms[kBase].scale, glm::vec2(1.0f));
}

TEST(MaterialBlend, CrossfadeEndsAreEachClipAlone) {
  const Model model = two_clip_model();
  Character character(model);
  // Weight 0 is A alone, bit for bit; weight 1 is B alone (B does not animate roughness: the
  // file's 0.9, and emissive the file's black).
  const MaterialFactors a = crossfade(character, kA, 1.0f, -1, 0.0f, 0.0f);
  const MaterialFactors at0 = crossfade(character, kA, 1.0f, kB, 0.5f, 0.0f);
  EXPECT_EQ(at0.base_color, a.base_color);
  EXPECT_EQ(at0.roughness, a.roughness);
  EXPECT_EQ(at0.emissive, a.emissive);
  EXPECT_EQ(at0.transforms[kBase].rotation, a.transforms[kBase].rotation);
  const MaterialFactors& at1 = crossfade(character, kA, 1.0f, kB, 0.5f, 1.0f);
  expect_vec4(at1.base_color, {0.0f, 1.0f, 0.0f, 1.0f}, "weight 1");
  EXPECT_NEAR(at1.roughness, 0.9f, 1e-6f);
  expect_vec3(at1.emissive, {0.0f, 0.0f, 0.0f}, "weight 1 emissive");
  // A clip with no material channel is the file's values: a crossfade into it fades A out.
  const MaterialFactors& into_c = crossfade(character, kA, 1.0f, kC, 0.5f, 0.5f);
  expect_vec4(into_c.base_color, {0.35f, 0.1f, 0.35f, 1.0f}, "into C");  // (A + grey) / 2
  expect_vec3(into_c.emissive, {0.5f, 0.0f, 0.0f}, "into C emissive");
}

TEST(MaterialBlend, AdditiveLayerAtHalfAddsHalfTheDifferenceFromItsReference) {
  const Model model = two_clip_model();
  Character character(model);
  PoseStack stack(character);
  stack.base = {kB, 0.5f};
  PoseLayer add;
  add.clip = kA;
  add.time = 1.0f;
  add.weight = 0.5f;
  add.mode = BlendMode::Additive;
  add.mask.assign(model.nodes.size(), 0.0f);  // a joint mask does not reach materials
  stack.add_layer(add);
  character.evaluate(stack);
  const MaterialFactors& f = character.material_pose().values[0];
  // Reference: A's first frame (t = 0). Roughness: B's (the file's) 0.9 + 0.5·(0.3 − 0.5).
  EXPECT_NEAR(f.roughness, 0.8f, 1e-6f);
  // Rotation: B's 3 + 0.5·(1 − 0).
  EXPECT_NEAR(f.transforms[kBase].rotation, 3.5f, 1e-6f);
  // Base colour: (0,1,0,1) + 0.5·((0.5,0,0.5,1) − (1,0,0,1)) = (−0.25, 1, 0.25, 1), red clamped
  // to 0.
  expect_vec4(f.base_color, {0.0f, 1.0f, 0.25f, 1.0f}, "base colour");
  // A's emissive is constant (difference 0); B's metallic is not in A (difference 0).
  expect_vec3(f.emissive, {0.0f, 0.0f, 0.0f}, "emissive");
  EXPECT_NEAR(f.metallic, 0.0f, 1e-6f);

  // A chosen reference: A at t = 2, as the node pose takes it. Base colour
  // (0,1,0,1) + 0.5·((0.5,0,0.5,1) − (0,0,1,1)) = (0.25, 1, −0.25, 1), blue clamped to 0.
  stack.layer(0).reference_clip = kA;
  stack.layer(0).reference_time = 2.0f;
  character.evaluate(stack);
  expect_vec4(character.material_pose().values[0].base_color, {0.25f, 1.0f, 0.0f, 1.0f},
              "reference A at 2");
  // Roughness 0.9 + 0.5·(0.3 − 0.1).
  EXPECT_NEAR(character.material_pose().values[0].roughness, 1.0f, 1e-6f);
}

TEST(MaterialBlend, OverrideLayerChangesOnlyWhatItsClipAnimates) {
  const Model model = two_clip_model();
  Character character(model);
  PoseStack stack(character);
  stack.base = {kA, 1.0f};
  PoseLayer over;
  over.clip = kB;
  over.time = 0.5f;
  over.weight = 0.25f;
  over.mask.assign(model.nodes.size(), 0.0f);  // a joint mask does not reach materials
  stack.add_layer(over);
  character.evaluate(stack);
  const MaterialFactors& f = character.material_pose().values[0];
  // What B animates mixes by 0.25, as the crossfade.
  expect_vec4(f.base_color, {0.375f, 0.25f, 0.375f, 1.0f}, "base colour");
  EXPECT_NEAR(f.transforms[kBase].rotation, 1.5f, 1e-6f);
  EXPECT_NEAR(f.metallic, 0.75f, 1e-6f);
  // What B does not animate keeps the base's: A's emissive and roughness, exactly.
  expect_vec3(f.emissive, {1.0f, 0.0f, 0.0f}, "emissive");
  EXPECT_NEAR(f.roughness, 0.3f, 1e-6f);

  // A layer whose clip animates no material, even at weight 1, leaves A's values: base colour
  // at t = 1, and the file's metallic.
  stack.layer(0).clip = kC;
  stack.layer(0).weight = 1.0f;
  character.evaluate(stack);
  expect_vec4(character.material_pose().values[0].base_color, {0.5f, 0.0f, 0.5f, 1.0f}, "under C");
  EXPECT_EQ(character.material_pose().values[0].metallic, 1.0f);
}

// The functions on their own, on poses built by hand.
MaterialPose one_material_pose(const MaterialFactors& f) {
  MaterialPose p;
  p.values = {f};
  p.animated = {1};
  p.any_animated = true;
  return p;
}

TEST(MaterialBlend, EveryValueMixesLinearlyAndTheWeightIsClamped) {
  MaterialFactors fa, fb;
  fa.base_color = {1, 0, 0, 1};
  fb.base_color = {0, 0, 1, 0};
  fa.ior = 1.5f;
  fb.ior = 2.5f;
  fa.specular_color = {1, 1, 1};
  fb.specular_color = {0, 0.5f, 1};
  fa.transforms[3].offset = {0.0f, 1.0f};
  fb.transforms[3].offset = {4.0f, -1.0f};
  fa.transforms[3].scale = {1.0f, 1.0f};
  fb.transforms[3].scale = {3.0f, 5.0f};
  fa.transforms[3].rotation = -1.0f;
  fb.transforms[3].rotation = 3.0f;
  fa.normal_scale = 1.0f;
  fb.normal_scale = -1.0f;
  const MaterialPose a = one_material_pose(fa), b = one_material_pose(fb);
  MaterialPose out = one_material_pose(MaterialFactors{});
  blend_material_poses(a, b, 0.25f, out);
  const MaterialFactors& f = out.values[0];
  expect_vec4(f.base_color, {0.75f, 0.0f, 0.25f, 0.75f}, "base colour");
  EXPECT_NEAR(f.ior, 1.75f, 1e-6f);
  expect_vec3(f.specular_color, {0.75f, 0.875f, 1.0f}, "specular colour");
  EXPECT_NEAR(f.transforms[3].offset.x, 1.0f, 1e-6f);
  EXPECT_NEAR(f.transforms[3].offset.y, 0.5f, 1e-6f);
  EXPECT_NEAR(f.transforms[3].scale.x, 1.5f, 1e-6f);
  EXPECT_NEAR(f.transforms[3].scale.y, 2.0f, 1e-6f);
  EXPECT_NEAR(f.transforms[3].rotation, 0.0f, 1e-6f);
  EXPECT_NEAR(f.normal_scale, 0.5f, 1e-6f);
  // Weights outside [0, 1] clamp, NaN reads 0: the ends, exactly.
  blend_material_poses(a, b, 7.0f, out);
  EXPECT_EQ(out.values[0].base_color, fb.base_color);
  blend_material_poses(a, b, std::numeric_limits<float>::quiet_NaN(), out);
  EXPECT_EQ(out.values[0].base_color, fa.base_color);
  blend_material_poses(a, b, -2.0f, out);
  EXPECT_EQ(out.values[0].transforms[3].rotation, -1.0f);
}

TEST(MaterialBlend, ClampPutsValuesInTheSpecRanges) {
  MaterialFactors f;
  f.base_color = {-0.5f, 1.5f, 0.25f, std::numeric_limits<float>::quiet_NaN()};
  f.metallic = 1.2f;
  f.roughness = -0.1f;
  f.occlusion_strength = 2.0f;
  f.emissive = {-1.0f, 3.0f, 0.5f};  // no upper bound: an emissive factor above 1 stays
  f.emissive_strength = -2.0f;
  f.alpha_cutoff = -0.5f;
  f.ior = 0.5f;
  f.specular = -1.0f;
  f.specular_color = {-1.0f, 2.0f, 0.0f};
  f.normal_scale = -3.0f;  // no range
  f.transforms[0].scale = {-2.0f, 0.0f};
  MaterialPose p = one_material_pose(f);
  clamp_material_pose(p);
  const MaterialFactors& c = p.values[0];
  expect_vec4(c.base_color, {0.0f, 1.0f, 0.25f, 0.0f}, "base colour");
  EXPECT_EQ(c.metallic, 1.0f);
  EXPECT_EQ(c.roughness, 0.0f);
  EXPECT_EQ(c.occlusion_strength, 1.0f);
  expect_vec3(c.emissive, {0.0f, 3.0f, 0.5f}, "emissive");
  EXPECT_EQ(c.emissive_strength, 0.0f);
  EXPECT_EQ(c.alpha_cutoff, 0.0f);
  EXPECT_EQ(c.ior, 1.0f);
  EXPECT_EQ(c.specular, 0.0f);
  expect_vec3(c.specular_color, {0.0f, 2.0f, 0.0f}, "specular colour");
  EXPECT_EQ(c.normal_scale, -3.0f);
  EXPECT_EQ(c.transforms[0].scale, glm::vec2(-2.0f, 0.0f));
  // An ior of 1000 (the file's 0) is in range.
  p.values[0].ior = 1000.0f;
  clamp_material_pose(p);
  EXPECT_EQ(p.values[0].ior, 1000.0f);
}

TEST(MaterialBlend, AdditiveOnItsOwnAndPosesOfAnotherShapeAreLeftAlone) {
  MaterialFactors base, value, reference;
  base.roughness = 0.5f;
  value.roughness = 0.9f;
  reference.roughness = 0.1f;
  value.transforms[1].offset = {2.0f, 0.0f};
  MaterialPose out = one_material_pose(base);
  add_material_difference(out, one_material_pose(value), one_material_pose(reference), 0.5f, out);
  EXPECT_NEAR(out.values[0].roughness, 0.9f, 1e-6f);  // 0.5 + 0.5·0.8
  EXPECT_NEAR(out.values[0].transforms[1].offset.x, 1.0f, 1e-6f);
  // A material not marked animated is not written; a pose of another size is not read.
  MaterialPose frozen = one_material_pose(base);
  frozen.animated[0] = 0;
  blend_material_poses(frozen, one_material_pose(value), 1.0f, frozen);
  EXPECT_EQ(frozen.values[0].roughness, 0.5f);
  MaterialPose empty;
  blend_material_poses(empty, one_material_pose(value), 1.0f, out);
  add_material_difference(out, empty, out, 1.0f, out);
  EXPECT_NEAR(out.values[0].roughness, 0.9f, 1e-6f);
}

}  // namespace
}  // namespace rig
