// The weight paint brush (skin/weight_brush.h) against weights worked out by hand on a small
// quad: Add, Subtract, Replace and Smooth with each falloff, a joint new to a vertex and to a
// full vertex, X symmetry on mirrored joints, and every vertex still summing to 1 after many dabs.
#include "skin/weight_brush.h"

#include <gtest/gtest.h>

#include <random>

namespace rig {
namespace {

// Four vertices in bind space: v0 (−1,0,0), v1 (0,0,0), v2 (1,0,0), v3 (0,1,0); triangles
// (0,1,3) and (1,2,3), so v1's neighbours are v0, v2 and v3. Joints 0 "LeftArm", 1 "RightArm",
// 2 "Spine". Weights: v0 J0 1; v1 J0 0.6, J1 0.4; v2 J1 1; v3 J0 0.5, J1 0.5.
Model quad() {
  Model m;
  m.nodes.resize(4);
  m.nodes[0].name = "LeftArm";
  m.nodes[1].name = "RightArm";
  m.nodes[2].name = "Spine";
  m.nodes[3].mesh = 0;
  m.nodes[3].skin = 0;
  m.node_order = {0, 1, 2, 3};
  m.scene_roots = {0, 1, 2, 3};
  Primitive p;
  p.positions = {{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  p.normals.assign(4, glm::vec3(0, 0, 1));
  p.indices = {0, 1, 3, 1, 2, 3};
  p.influences = 4;
  p.joints = {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  p.weights = {1, 0, 0, 0, 0.6f, 0.4f, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
  Mesh mesh;
  mesh.primitives = {p};
  m.meshes.push_back(mesh);
  Skin skin;
  skin.joints = {0, 1, 2};
  skin.inverse_bind.assign(3, glm::mat4(1.0f));
  skin.joint_parent = {-1, -1, -1};
  skin.order = {0, 1, 2};
  m.skins.push_back(skin);
  m.draws.push_back({3, 0, 0, 0});
  return m;
}

// Vertex v's weight of joint j (0 when it has none).
float weight(const SkinLayer& layer, uint32_t v, uint16_t j) {
  const SkinMesh& mesh = layer.meshes().primitives[0];
  float w = 0.0f;
  for (uint32_t k = 0; k < mesh.influences; ++k)
    if (mesh.vertex_joints(v)[k] == j) w += mesh.vertex_weights(v)[k];
  return w;
}

float sum(const SkinLayer& layer, uint32_t v) {
  float s = 0.0f;
  for (float w : layer.meshes().primitives[0].vertex_weights(v)) s += w;
  return s;
}

struct Fixture {
  Model model = quad();
  SkinLayer layer{model};
  WeightBrush brush;
  Fixture() { brush.prepare(model, layer); }
  WeightEditResult dab(BrushDab d) { return brush.dab(layer, d); }
};

TEST(WeightBrush, FalloffCurves) {
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Smooth, 0.0f), 1.0f);
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Smooth, 0.25f), 0.84375f);  // 1 − (3/16 − 2/64)
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Smooth, 0.5f), 0.5f);
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Linear, 0.75f), 0.25f);
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Constant, 0.99f), 1.0f);
  EXPECT_FLOAT_EQ(brush_falloff(BrushFalloff::Constant, 1.0f), 0.0f);
}

TEST(WeightBrush, AddRaisesTheJointAndScalesTheOthers) {
  Fixture f;
  BrushDab d;
  d.joint = 1;
  d.center = {0, 0, 0};
  d.radius = 0.5f;  // v1 only
  d.strength = 0.5f;
  d.falloff = BrushFalloff::Constant;
  EXPECT_EQ(f.dab(d).vertices_changed, 1u);
  EXPECT_NEAR(weight(f.layer, 1, 1), 0.7f, 1e-6f);  // 0.4 + 0.5 · 0.6
  EXPECT_NEAR(weight(f.layer, 1, 0), 0.3f, 1e-6f);  // 0.6 · 0.3 / 0.6
  EXPECT_FLOAT_EQ(weight(f.layer, 0, 0), 1.0f);
  EXPECT_FLOAT_EQ(weight(f.layer, 2, 1), 1.0f);
  // A joint new to a vertex: v0 (J0 alone) takes J1 = 0 + 0.5 · 1, J0 keeps the rest.
  d.center = {-1, 0, 0};
  f.dab(d);
  EXPECT_NEAR(weight(f.layer, 0, 1), 0.5f, 1e-6f);
  EXPECT_NEAR(weight(f.layer, 0, 0), 0.5f, 1e-6f);
}

TEST(WeightBrush, SubtractWithLinearFalloff) {
  Fixture f;
  BrushDab d;
  d.mode = BrushMode::Subtract;
  d.joint = 1;
  d.center = {0.25f, 0, 0};
  d.radius = 1.0f;
  d.strength = 0.5f;
  d.falloff = BrushFalloff::Linear;
  f.dab(d);
  // v1 at 0.25: f = 0.75, s = 0.375: J1 0.4 · 0.625 = 0.25, J0 0.75.
  EXPECT_NEAR(weight(f.layer, 1, 1), 0.25f, 1e-6f);
  EXPECT_NEAR(weight(f.layer, 1, 0), 0.75f, 1e-6f);
  // v2 at 0.75 has J1 alone: nothing to give its weight to.
  EXPECT_FLOAT_EQ(weight(f.layer, 2, 1), 1.0f);
  // v3 at √(0.25² + 1) > 1: outside.
  EXPECT_FLOAT_EQ(weight(f.layer, 3, 1), 0.5f);
}

TEST(WeightBrush, ReplaceAndSmooth) {
  Fixture f;
  BrushDab d;
  d.mode = BrushMode::Replace;
  d.joint = 1;
  d.value = 0.2f;
  d.strength = 1.0f;
  d.radius = 0.1f;
  d.falloff = BrushFalloff::Constant;
  f.dab(d);
  EXPECT_NEAR(weight(f.layer, 1, 1), 0.2f, 1e-6f);
  EXPECT_NEAR(weight(f.layer, 1, 0), 0.8f, 1e-6f);
  // Smooth at v1: the mean of J1 over v0 (0), v2 (1), v3 (0.5) is 0.5; strength 0.5: 0.2 +
  // 0.5 · 0.3 = 0.35.
  d.mode = BrushMode::Smooth;
  d.strength = 0.5f;
  f.dab(d);
  EXPECT_NEAR(weight(f.layer, 1, 1), 0.35f, 1e-6f);
  EXPECT_NEAR(weight(f.layer, 1, 0), 0.65f, 1e-6f);
}

TEST(WeightBrush, AJointNewToAFullVertexTakesTheSmallestPlace) {
  Model model = quad();
  model.skins[0].joints.resize(9, 2);
  model.skins[0].inverse_bind.assign(9, glm::mat4(1.0f));
  model.skins[0].joint_parent.assign(9, -1);
  model.skins[0].order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  Primitive& p = model.meshes[0].primitives[0];
  // v1 with 8 joints 0..7: weights 0.05, 0.15, 0.15, ... (0.05 the smallest, joint 0).
  p.influences = 8;
  std::vector<uint16_t> joints(32, 0);
  std::vector<float> weights(32, 0.0f);
  for (int v = 0; v < 4; ++v) weights[size_t(v) * 8] = 1.0f;
  for (int k = 0; k < 8; ++k) {
    joints[8 + size_t(k)] = uint16_t(k);
    weights[8 + size_t(k)] = k == 0 ? 0.09f : 0.13f;
  }
  p.joints = joints;
  p.weights = weights;
  SkinLayer layer(model);
  WeightBrush brush;
  brush.prepare(model, layer);
  BrushDab d;
  d.joint = 8;
  d.radius = 0.1f;
  d.strength = 0.5f;
  d.falloff = BrushFalloff::Constant;
  brush.dab(layer, d);
  // Joint 0 (0.09) gives its place: the others (0.91) are scaled to 0.5 / 0.91 each.
  EXPECT_NEAR(weight(layer, 1, 8), 0.5f, 1e-6f);
  EXPECT_FLOAT_EQ(weight(layer, 1, 0), 0.0f);
  EXPECT_NEAR(weight(layer, 1, 3), 0.13f * 0.5f / 0.91f, 1e-6f);
  EXPECT_NEAR(sum(layer, 1), 1.0f, 1e-6f);
}

TEST(WeightBrush, XSymmetryDabsTheMirrorJointAtTheMirroredPlace) {
  Fixture f;
  BrushDab d;
  d.joint = 2;  // Spine: its own mirror
  d.center = {-1, 0, 0};
  d.radius = 0.5f;
  d.strength = 0.5f;
  d.falloff = BrushFalloff::Constant;
  d.x_mirror = true;
  f.dab(d);
  EXPECT_NEAR(weight(f.layer, 0, 2), 0.5f, 1e-6f);  // v0 at −1
  EXPECT_NEAR(weight(f.layer, 2, 2), 0.5f, 1e-6f);  // v2 at +1, mirrored
  // LeftArm (0) mirrors to RightArm (1): at −1, v0 gets more J0 (it has J0 alone: unchanged);
  // at +1, v2 gets J1, which it has alone but now shares with Spine: 0.5 + 0.5 · 0.5.
  d.joint = 0;
  f.dab(d);
  EXPECT_NEAR(weight(f.layer, 2, 1), 0.75f, 1e-6f);
  EXPECT_NEAR(weight(f.layer, 0, 0), 0.75f, 1e-6f);
}

TEST(WeightBrush, ManyDabsKeepEveryVertexSummingToOne) {
  Fixture f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f), s(0.0f, 1.0f);
  for (int i = 0; i < 500; ++i) {
    BrushDab d;
    d.joint = uint16_t(i % 3);
    d.center = {u(rng), u(rng) * 0.5f + 0.5f, 0.0f};
    d.radius = 0.3f + s(rng);
    d.strength = s(rng);
    d.value = s(rng);
    d.mode = BrushMode(i % 4);
    d.falloff = BrushFalloff((i / 4) % 3);
    d.x_mirror = i % 5 == 0;
    f.dab(d);
    for (uint32_t v = 0; v < 4; ++v) ASSERT_NEAR(sum(f.layer, v), 1.0f, 1e-5f) << i << " " << v;
  }
}

}  // namespace
}  // namespace rig
