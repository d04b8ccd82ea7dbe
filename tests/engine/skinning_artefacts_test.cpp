// Skinning artefact measures against the seed's analytic twist figures and hand-made meshes.
#include "analysis/skinning_artefacts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <string>

#include "import/gltf_import.h"
#include "test_models.h"
#include "test_support.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

// Two joints along +X (the second at (1,0,0)), a 16-vertex ring of radius 0.2 around the second
// joint, 50/50 between them, and one vertex that joint 1 owns outright; one clip twisting
// joint 1 about X from 0° to `degrees` over one second while the whole arm moves away (root
// translated by (0,5,0) and turned 30° about Y), which h must not see.
Model twist_model(float degrees) {
  Model m;
  const int j0 = add_node(m, "upper", -1, {0, 0, 0});
  const int j1 = add_node(m, "lower", j0, {1, 0, 0});
  const int mesh_node = add_node(m, "skin", -1, {0, 0, 0});
  Skin skin;
  skin.joints = {j0, j1};
  skin.inverse_bind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), {-1, 0, 0})};
  skin.joint_parent = {-1, 0};
  skin.order = {0, 1};
  m.skins.push_back(skin);
  Primitive prim;
  prim.mode = PrimitiveMode::Points;
  prim.influences = 4;
  for (int i = 0; i < 16; ++i) {
    const float a = float(i) * 2.0f * 3.14159265f / 16.0f;
    prim.positions.push_back({1.0f, 0.2f * std::cos(a), 0.2f * std::sin(a)});
    prim.joints.insert(prim.joints.end(), {0, 1, 0, 0});
    prim.weights.insert(prim.weights.end(), {0.5f, 0.5f, 0, 0});
  }
  prim.positions.push_back({1.5f, 0.2f, 0.0f});  // rigid with joint 1
  prim.joints.insert(prim.joints.end(), {1, 0, 0, 0});
  prim.weights.insert(prim.weights.end(), {1, 0, 0, 0});
  prim.normals.assign(prim.positions.size(), glm::vec3(0, 1, 0));
  Mesh mesh;
  mesh.primitives.push_back(prim);
  m.meshes.push_back(mesh);
  m.nodes[size_t(mesh_node)].mesh = 0;
  m.nodes[size_t(mesh_node)].skin = 0;
  m.draws.push_back({mesh_node, 0, 0, 0});
  Clip clip;
  clip.channels.push_back(test::rotation_channel(
      j1, {0.0f, 1.0f}, {glm::quat(1, 0, 0, 0), axis_angle({1, 0, 0}, degrees)}));
  clip.channels.push_back(test::rotation_channel(
      j0, {0.0f, 1.0f}, {glm::quat(1, 0, 0, 0), axis_angle({0, 1, 0}, 30.0f)}));
  clip.channels.push_back(test::vec3_channel(j0, TargetPath::Translation, {0.0f, 1.0f},
                                             {glm::vec3(0), glm::vec3(0, 5, 0)},
                                             Interpolation::Linear));
  clip.end = 1.0f;
  m.clips.push_back(clip);
  return m;
}

// h of every ring vertex and of the rigid vertex at the end of the twist.
void twist_deflation(float degrees, SkinningMethod method, std::vector<float>& ring, float& rigid) {
  const Model m = twist_model(degrees);
  Character character(m);
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  ArtefactFrame frame = ArtefactFrame::make(m);
  character.evaluate(PoseSelection{0, 1.0f});
  analyze_frame(setup, character, method, frame);
  ring.assign(frame.deflation[0].begin(), frame.deflation[0].begin() + 16);
  rigid = frame.deflation[0][16];
}

TEST(Deflation, SeedTwistAt180DegreesCollapsesLbsToTheClampAndKeepsDqs) {
  std::vector<float> ring;
  float rigid = 0.0f;
  twist_deflation(180.0f, SkinningMethod::Linear, ring, rigid);
  for (float h : ring) EXPECT_FLOAT_EQ(h, -10.0f);  // cos 90° = 0: the 2⁻¹⁰ clamp
  EXPECT_NEAR(rigid, 0.0f, 1e-5f);
  twist_deflation(180.0f, SkinningMethod::DualQuaternion, ring, rigid);
  for (float h : ring) EXPECT_NEAR(h, 0.0f, 1e-5f);
  EXPECT_NEAR(rigid, 0.0f, 1e-5f);
}

TEST(Deflation, SeedTwistAt90DegreesIsLog2OfCos45ForLbs) {
  std::vector<float> ring;
  float rigid = 0.0f;
  twist_deflation(90.0f, SkinningMethod::Linear, ring, rigid);
  for (float h : ring) EXPECT_NEAR(h, std::log2(std::cos(3.14159265f / 4.0f)), 1e-5f);  // −0.5
  EXPECT_NEAR(rigid, 0.0f, 1e-5f);
}

TEST(Deflation, JointScoreAndRmsAreAreaWeighted) {
  // Points carry no area: the ring measures h but no joint gets a score.
  const Model m = twist_model(90.0f);
  Character character(m);
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  ArtefactFrame frame = ArtefactFrame::make(m);
  character.evaluate(PoseSelection{0, 1.0f});
  analyze_frame(setup, character, SkinningMethod::Linear, frame);
  EXPECT_TRUE(std::isnan(frame.joint_scores[0][0]));
  EXPECT_TRUE(std::isnan(frame.rms));
  EXPECT_NEAR(frame.max_abs_h.value, -0.5f, 1e-5f);
  EXPECT_EQ(frame.max_abs_h.joint, 0);   // 50/50: the smaller joint index dominates
  EXPECT_GE(frame.max_abs_h.vertex, 0);  // a ring vertex (all equal up to rounding)
  EXPECT_LT(frame.max_abs_h.vertex, 16);
}

TEST(Deflation, DistanceToSegment) {
  EXPECT_DOUBLE_EQ(
      distance_to_segment(glm::dvec3(0.5f, 2, 0), glm::dvec3(0, 0, 0), glm::dvec3(1, 0, 0)), 2.0);
  EXPECT_DOUBLE_EQ(
      distance_to_segment(glm::dvec3(-3, 4, 0), glm::dvec3(0, 0, 0), glm::dvec3(1, 0, 0)),
      5.0);  // past a
  EXPECT_DOUBLE_EQ(
      distance_to_segment(glm::dvec3(4, 4, 0), glm::dvec3(0, 0, 0), glm::dvec3(1, 0, 0)),
      5.0);  // past b
  EXPECT_DOUBLE_EQ(
      distance_to_segment(glm::dvec3(3, 4, 0), glm::dvec3(0, 0, 0), glm::dvec3(0, 0, 0)),
      5.0);  // a point
}

// A unit cube of 24 vertices (4 per face, seams duplicated as with per-face normals), outward
// winding, on a rigid node that a clip scales from 1 to `scale`. `drop_face` removes one face.
Model cube_model(float scale, bool drop_face) {
  Model m;
  const int node = add_node(m, "cube", -1, {0, 0, 0});
  Primitive prim;
  const glm::vec3 n[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int f = 0; f < (drop_face ? 5 : 6); ++f) {
    // Two axes u, v with u × v = n, corners at n/2 ± u/2 ± v/2, counter-clockwise seen from n.
    const glm::vec3 u = std::abs(n[f].x) > 0 ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    const glm::vec3 v = glm::cross(n[f], u);
    const uint32_t base = prim.vertex_count();
    for (glm::vec2 c : {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)})
      prim.positions.push_back(0.5f * (n[f] + c.x * u + c.y * v));
    prim.indices.insert(prim.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  }
  prim.normals.assign(prim.positions.size(), glm::vec3(0, 1, 0));
  Mesh mesh;
  mesh.primitives.push_back(prim);
  m.meshes.push_back(mesh);
  m.nodes[0].mesh = 0;
  m.draws.push_back({node, 0, 0, -1});
  Clip clip;
  clip.channels.push_back(test::vec3_channel(node, TargetPath::Scale, {0.0f, 1.0f},
                                             {glm::vec3(1.0f), glm::vec3(scale)},
                                             Interpolation::Linear));
  clip.end = 1.0f;
  m.clips.push_back(clip);
  return m;
}

TEST(VolumeChange, AClosedCubeScaledByTwoGainsSevenHundredPercent) {
  const Model m = cube_model(2.0f, false);
  Character character(m);
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  EXPECT_TRUE(setup.closed);
  EXPECT_NEAR(setup.rest_volume, 1.0, 1e-6);
  ArtefactFrame frame = ArtefactFrame::make(m);
  character.evaluate(PoseSelection{0, 1.0f});
  analyze_frame(setup, character, SkinningMethod::Linear, frame);
  EXPECT_NEAR(frame.volume_change_percent, 700.0, 1e-3);  // 2³ = 8 times the volume
  character.evaluate(PoseSelection{0, 0.5f});             // scale 1.5: 3.375 times
  analyze_frame(setup, character, SkinningMethod::Linear, frame);
  EXPECT_NEAR(frame.volume_change_percent, 237.5, 1e-3);
}

TEST(VolumeChange, AnOpenBoxIsReportedAsApproximate) {
  const Model m = cube_model(2.0f, true);
  Character character(m);
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  EXPECT_FALSE(setup.closed);
  // Five faces of the centred unit cube: each face's cone to the origin has volume 1/6.
  EXPECT_NEAR(setup.rest_volume, 5.0 / 6.0, 1e-6);
}

TEST(ClipScan, SampleRateAndTimesFollowTheKeyGrid) {
  Clip grid;
  grid.channels.push_back(
      test::vec3_channel(0, TargetPath::Translation, {0.5f, 0.5f + 1 / 30.0f, 0.5f + 4 / 30.0f},
                         {glm::vec3(0), glm::vec3(1), glm::vec3(2)}, Interpolation::Linear));
  grid.start = 0.5f;
  grid.end = 0.5f + 4 / 30.0f;
  EXPECT_FLOAT_EQ(clip_sample_rate(grid, 30.0f), 30.0f);
  const std::vector<float> times = clip_sample_times(grid, 30.0f);
  ASSERT_EQ(times.size(), 5u);  // ceil(4 − 1e-6) + 1
  EXPECT_FLOAT_EQ(times[2], 0.5f + 2 / 30.0f);
  EXPECT_EQ(times.back(), grid.end);
  Clip off_grid = grid;
  off_grid.channels[0].times[2] = 0.5f + 0.11f;
  off_grid.end = 0.61f;
  EXPECT_FLOAT_EQ(clip_sample_rate(off_grid, 30.0f), 30.0f);  // the fallback
  EXPECT_EQ(clip_sample_times(off_grid, 30.0f).size(), 5u);   // ceil(0.11·30 − 1e-6) + 1
}

TEST(ClipScan, MannequinTwistRanksTheForearmTwistJointsFirstForLbs) {
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  int twist = -1;
  for (size_t c = 0; c < model.clips.size(); ++c)
    if (model.clips[c].name == "Twist") twist = int(c);
  ASSERT_GE(twist, 0);
  const Character character(model);
  const ArtefactSetup setup = ArtefactSetup::build(model, character.skin_layer());
  ClipScanOptions options;
  options.clip = twist;
  options.methods = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
  ClipScan scan;
  ASSERT_TRUE(scan_clip(model, setup, options, scan));
  const MethodScan& lbs = scan.methods[0];
  ASSERT_GE(lbs.joints.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const std::string name =
        model.nodes[size_t(model.skins[0].joints[size_t(lbs.joints[size_t(i)].joint)])].name;
    EXPECT_NE(name.find("ForeArm"), std::string::npos) << "rank " << i << ": " << name;
  }
  // At the 180° middle of the clip the 50/50 rings hit the clamp under LBS, not under DQS.
  EXPECT_FLOAT_EQ(lbs.max_abs_h.value, -10.0f);
  EXPECT_NEAR(lbs.max_abs_h_time, 1.0f, 1e-4f);
  EXPECT_GT(std::abs(scan.methods[1].max_abs_h.value), 0.0f);
  EXPECT_LT(std::abs(scan.methods[1].max_abs_h.value), 1.0f);
  EXPECT_GT(scan.max_method_difference, 0.0f);
}

}  // namespace
}  // namespace rig
