// `rigview --export-obj` on small glTF files written here, one spec corner per test, against
// positions worked out by hand from the glTF 2.0 spec (the derivation is in the comments; the
// code only evaluates the closed forms). These are the corners an unseen model is likely to
// hit: matrices with shear, sparse and quantized accessors, every primitive mode, scene
// selection, unusual skins, morph targets, every interpolation and crossfades.
//
// OBJ contract checked: one `o <node name or node<index>>#<primitive>` per drawn primitive in
// scene order (depth first, children in file order, primitives in mesh order), world-space `v`
// and unit `vn` in the primitive's own vertex order, faces as the spec's primitive modes define.
//
// This file: skins, morph targets, sampling, DQS corner cases and crossfades.
#include <gtest/gtest.h>

#include "export_conformance.h"

namespace {

using namespace export_conformance;

TEST(ExportConformance, SkinWithChildFirstJointsJointAncestorAndTransformedRoot) {
  GltfWriter g;
  const int pos = g.floats({0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 1, 0}, "VEC3");
  const int joints =
      g.data<uint8_t>({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0}, "VEC4");
  const int idx = g.data<uint16_t>({0, 1, 3, 1, 2, 3}, 5123, "SCALAR");
  const int ibm = g.floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,  // T(0,-1,0)
                            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1},
                           "MAT4");
  // Joints listed child first ([Spine, Hip]); the skinned node "Body" is a child of joint Hip
  // and carries its own translation: both must be ignored for its vertices (spec).
  const std::string body =
      fill(R"(
    "scenes":[{"nodes":[0]}],
    "nodes":[{"name":"Armature","translation":[0,0,5],"scale":[2,2,2],"children":[1]},
             {"name":"Hip","translation":[1,0,0],"children":[2,3]},
             {"name":"Spine","translation":[0,1,0],"rotation":[0,0,)" +
               kHalf + "," + kHalf + R"(]},
             {"name":"Body","mesh":0,"skin":0,"translation":[100,100,100]}],
    "skins":[{"joints":[2,1],"skeleton":1,"inverseBindMatrices":{IBM}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J},"WEIGHTS_0":{W}},
                              "indices":{IDX}}]}])",
           {{"POS", pos}, {"J", joints}, {"W", weights}, {"IDX", idx}, {"IBM", ibm}});
  // World(Hip) x = 2(x + (1,0,0)) + (0,0,5) = 2x + (2,0,5).
  // World(Spine) x = World(Hip)(Rz90 x + (0,1,0)) = 2 Rz90 x + (2,2,5).
  // Skinning: S_hip = World(Hip); S_spine x = World(Spine)(x - (0,1,0)) = 2 Rz90 x + (4,2,5).
  //   v0 (0,0,0) on Hip   → (2,0,5)
  //   v1 (0,1,0) on Spine → 2(-1,0,0) + (4,2,5) = (2,2,5)
  //   v2 (0,2,0) on Spine → 2(-2,0,0) + (4,2,5) = (0,2,5)
  //   v3 (1,1,0) half/half: S_hip → (4,2,5), S_spine → 2(-1,1,0) + (4,2,5) = (2,4,5).
  //     LBS: the average (3,3,5).
  //     DQS: both joints scale by 2 (stretch 2I), rigid parts p + (2,0,5) and Rz90 p + (4,2,5)
  //     are turns about the same Z axis through (2,2): the unit dual-quaternion average is the
  //     45° turn about it. Hip's image (4,2,5) turned 45° about (2,2): (2+√2, 2+√2, 5).
  const std::vector<dvec3> common = {{2, 0, 5}, {2, 2, 5}, {0, 2, 5}};
  std::vector<dvec3> lbs = common, dqs = common;
  lbs.push_back({3, 3, 5});
  dqs.push_back({2 + std::sqrt(2.0), 2 + std::sqrt(2.0), 5});
  expect_objects(export_obj("skin_order", g.json(body), "--skinning lbs"), {{"Body#0", lbs}});
  expect_objects(export_obj("skin_order", g.json(body), "--skinning dqs"), {{"Body#0", dqs}});
}

TEST(ExportConformance, EightInfluencesAndTwoSkinsSharingJoints) {
  GltfWriter g;
  const int pos = g.floats(kTriangle, "VEC3");
  // JOINTS_0 UNSIGNED_BYTE, WEIGHTS_0 normalized UNSIGNED_BYTE; JOINTS_1 UNSIGNED_SHORT,
  // WEIGHTS_1 normalized UNSIGNED_SHORT (65535 = 257 · 255, so 257k/65535 = k/255 exactly).
  const int joints0 = g.data<uint8_t>({0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int weights0 = g.data<uint8_t>({64, 64, 32, 32, 255, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4",
                                       ",\"normalized\":true");
  const int joints1 = g.data<uint16_t>({4, 5, 6, 7, 0, 0, 0, 0, 4, 5, 6, 7}, 5123, "VEC4");
  const int weights1 = g.data<uint16_t>({4112, 4112, 4112, 3855, 0, 0, 0, 0, 0, 0, 0, 65535}, 5123,
                                        "VEC4", ",\"normalized\":true");
  std::vector<float> minus_y;  // 8 × T(0,-1,0)
  for (int k = 0; k < 8; ++k) {
    for (float f : {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}) minus_y.push_back(f);
  }
  const int ibm = g.floats(minus_y, "MAT4");
  // Joint nodes J0..J7 are roots at T_k = (k+1, 0, k/2). Skin 0 lists them in order without
  // inverseBindMatrices; skin 1 lists them reversed with T(0,-1,0) inverse binds.
  std::string nodes;
  for (int k = 0; k < 8; ++k) {
    nodes += "{\"name\":\"J" + std::to_string(k) + "\",\"translation\":[" + std::to_string(k + 1) +
             ",0," + std::to_string(0.5 * k) + "]},";
  }
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,1,2,3,4,5,6,7,8,9]}],
    "nodes":[)" + nodes + R"(
             {"name":"SkinA","mesh":0,"skin":0,"translation":[0,50,0]},
             {"name":"SkinB","mesh":0,"skin":1,"scale":[3,3,3]}],
    "skins":[{"joints":[0,1,2,3,4,5,6,7]},
             {"joints":[7,6,5,4,3,2,1,0],"inverseBindMatrices":{IBM}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J0},"WEIGHTS_0":{W0},
                                            "JOINTS_1":{J1},"WEIGHTS_1":{W1}}}]}])",
                                {{"POS", pos},
                                 {"J0", joints0},
                                 {"W0", weights0},
                                 {"J1", joints1},
                                 {"W1", weights1},
                                 {"IBM", ibm}});
  // v0 weights over joints 0..7: (64, 64, 32, 32, 16, 16, 16, 15) / 255 (sum exactly 1).
  // SkinA: joint k moves by T_k: v0 = Σ w_k T_k = ((64·1 + 64·2 + 32·3 + 32·4 + 16·5 + 16·6 +
  //   16·7 + 15·8)/255, 0, ½(64 + 64 + 96 + 64 + 80 + 96 + 105)/255) = (824/255, 0, 284.5/255);
  //   v1 (1,0,0) all on joint 0: (2,0,0); v2 (0,1,0) all on joint 7 (set 1): (8,1,3.5).
  // SkinB: joint k is node 7-k, skinning T_(7-k) · T(0,-1,0):
  //   v0 = (Σ w_k (8-k), -1, ½ Σ w_k (7-k)) = (8 - 569/255, -1, ½(7 - 569/255))
  //      = (1471/255, -1, 608/255); v1 → (1,0,0) + T_7 - (0,1,0) = (9,-1,3.5);
  //   v2 → (0,1,0) + T_0 - (0,1,0) = (1,0,0).
  // Pure translations: DQS gives the same weighted average.
  const std::vector<Expected> want = {
      {"SkinA#0", {{824.0 / 255, 0, 284.5 / 255}, {2, 0, 0}, {8, 1, 3.5}}},
      {"SkinB#0", {{1471.0 / 255, -1, 608.0 / 255}, {9, -1, 3.5}, {1, 0, 0}}}};
  expect_objects(export_obj("eight", g.json(body), "--skinning lbs"), want);
  expect_objects(export_obj("eight", g.json(body), "--skinning dqs"), want);
}

// ---- Morph targets ----------------------------------------------------------------------------

TEST(ExportConformance, MorphTargetsWithSkinNodeWeightsAndCubicWeights) {
  GltfWriter g;
  const int pos = g.floats(kTriangle, "VEC3");
  const int target0 = g.floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
  const int target1 = g.floats({1, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  const int up = g.floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");    // NORMAL
  const int tilt = g.floats({1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");  // target 0 NORMAL
  const int joints = g.data<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const int times = g.floats({0, 2}, "SCALAR");
  // CUBICSPLINE weights, per key: in-tangents (both targets), values, out-tangents.
  const int cubic = g.floats({0, 0, 0, 1, 1, 0,   // key 0: a0, v0, b0
                              0, 1, 1, 0, 0, 0},  // key 1: a1, v1, b1
                             "SCALAR");
  const int move_times = g.floats({0, 1}, "SCALAR");
  const int moves = g.floats({0, 6, 0, 0, 8, 0}, "VEC3");
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,1,2]}],
    "nodes":[{"name":"Joint","translation":[0,5,0]},
             {"name":"Skinned","mesh":0,"skin":0,"weights":[1,0]},
             {"name":"Plain","mesh":1,"translation":[10,0,0]}],
    "skins":[{"joints":[0]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"NORMAL":{UP},"JOINTS_0":{J},
                                            "WEIGHTS_0":{W}},
                              "targets":[{"POSITION":{T0},"NORMAL":{TILT}},{"POSITION":{T1}}]}],
               "weights":[0.25,0.5]},
              {"primitives":[{"attributes":{"POSITION":{POS},"NORMAL":{UP}},
                              "targets":[{"POSITION":{T0},"NORMAL":{TILT}},{"POSITION":{T1}}]}],
               "weights":[0.25,0.5]}],
    "animations":[{"name":"Weights","channels":[{"sampler":0,"target":{"node":1,"path":"weights"}}],
                   "samplers":[{"input":{TIMES},"output":{CUBIC},"interpolation":"CUBICSPLINE"}]},
                  {"name":"Move","channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                   "samplers":[{"input":{MT},"output":{MV}}]}])",
                                {{"POS", pos},
                                 {"UP", up},
                                 {"TILT", tilt},
                                 {"T0", target0},
                                 {"T1", target1},
                                 {"J", joints},
                                 {"W", weights},
                                 {"TIMES", times},
                                 {"CUBIC", cubic},
                                 {"MT", move_times},
                                 {"MV", moves}});
  // Plain (no node.weights, not animated): mesh.weights (0.25, 0.5):
  //   v0 = (0,0,0.25) + (0.5,0,0) → (0.5,0,0.25); v1 (1,0,0.25); v2 (0,1,0.25); + (10,0,0).
  //   Normals (0,0,1) + 0.25 (1,0,0), normalized: (1,0,4)/√17.
  const dvec3 plain_normal = dvec3(1, 0, 4) / std::sqrt(17.0);
  const Expected plain{"Plain#0",
                       {{10.5, 0, 0.25}, {11, 0, 0.25}, {10, 1, 0.25}},
                       {plain_normal, plain_normal, plain_normal}};
  // Clip 0 at t = 1: u = 0.5, td = 2: h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125.
  //   w0 = 0.5·0 + 0.125·2·1 + 0.5·1 - 0.125·2·0 = 0.75
  //   w1 = 0.5·1 + 0.125·2·0 + 0.5·0 - 0.125·2·1 = 0.25
  //   morphed v0 = (0.25, 0, 0.75), v1 = (1, 0, 0.75), v2 = (0, 1, 0.75), then the joint's
  //   rest translation (0,5,0). Normals (0,0,1) + 0.75 (1,0,0) → (0.6, 0, 0.8).
  const dvec3 n075(0.6, 0, 0.8);
  expect_objects(
      export_obj("morph_skin", g.json(body), "--animation-index 0 --animation-time 1"),
      {{"Skinned#0", {{0.25, 5, 0.75}, {1, 5, 0.75}, {0, 6, 0.75}}, {n075, n075, n075}}, plain});
  // Clip 1 does not animate weights: node.weights (1, 0) override mesh.weights →
  //   (0,0,1) (1,0,1) (0,1,1); joint at t = 0.5 halfway (0,6,0) → (0,8,0) = (0,7,0).
  //   Normals (1,0,1)/√2.
  const dvec3 n1 = dvec3(1, 0, 1) / std::sqrt(2.0);
  expect_objects(export_obj("morph_skin", g.json(body), "--animation-index 1 --animation-time 0.5"),
                 {{"Skinned#0", {{0, 7, 1}, {1, 7, 1}, {0, 8, 1}}, {n1, n1, n1}}, plain});
}

// ---- Animation sampling -----------------------------------------------------------------------

TEST(ExportConformance, SamplingClampsStepsCubicSplinesAndShortestRotations) {
  GltfWriter g;
  const int pos = g.floats(kTriangle, "VEC3");
  const int t12 = g.floats({1, 2}, "SCALAR");
  const int clamp_values = g.floats({1, 0, 0, 3, 0, 0}, "VEC3");
  const int t153 = g.floats({1.5f, 3}, "SCALAR");
  const int late_values = g.floats({0, 1, 0, 0, 4, 0}, "VEC3");
  const int t123 = g.floats({1, 2, 3}, "SCALAR");
  const float h = 0.70710678f;
  const int step_values = g.floats({0, 0, 0, 1, 0, 0, h, h, 0, 0, 1, 0}, "VEC4");
  const int t13 = g.floats({1, 3}, "SCALAR");
  const int cubic_values = g.floats({0, 0, 0, 0, 0, 0, 1, 0, 0,   // key 0: in, value, out
                                     0, 1, 0, 2, 0, 0, 0, 0, 0},  // key 1: in, value, out
                                    "VEC3");
  // Consecutive keys on opposite hemispheres: -(Rz90) after identity, Rz180 after -(Rz90).
  const int flip_values = g.floats({0, 0, 0, 1, 0, 0, -h, -h, 0, 0, 1, 0}, "VEC4");
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,1,2,3,4]}],
    "nodes":[{"name":"Clamp","mesh":0},{"name":"Late","mesh":0},
             {"name":"Step","mesh":0,"translation":[0,0,5]},{"name":"Cubic","mesh":0},
             {"name":"Flip","mesh":0,"translation":[0,0,-5]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS}}}]}],
    "animations":[{"channels":[
        {"sampler":0,"target":{"node":0,"path":"translation"}},
        {"sampler":1,"target":{"node":1,"path":"translation"}},
        {"sampler":2,"target":{"node":2,"path":"rotation"}},
        {"sampler":3,"target":{"node":3,"path":"translation"}},
        {"sampler":4,"target":{"node":4,"path":"rotation"}}],
      "samplers":[{"input":{T12},"output":{CLAMP}},
                  {"input":{T153},"output":{LATE},"interpolation":"LINEAR"},
                  {"input":{T123},"output":{STEP},"interpolation":"STEP"},
                  {"input":{T13},"output":{CUBIC},"interpolation":"CUBICSPLINE"},
                  {"input":{T123},"output":{FLIP}}]}])",
                                {{"POS", pos},
                                 {"T12", t12},
                                 {"CLAMP", clamp_values},
                                 {"T153", t153},
                                 {"LATE", late_values},
                                 {"T123", t123},
                                 {"STEP", step_values},
                                 {"T13", t13},
                                 {"CUBIC", cubic_values},
                                 {"FLIP", flip_values}});
  struct Pose {
    dvec3 clamp, late;
    double step_degrees;
    dvec3 cubic;
    double flip_degrees;
  };
  auto objects = [](const Pose& p) {
    std::vector<dvec3> step, flip;
    for (const dvec3& v : kTrianglePoints) {
      step.push_back(rot_z(p.step_degrees, v) + dvec3(0, 0, 5));
      flip.push_back(rot_z(p.flip_degrees, v) + dvec3(0, 0, -5));
    }
    return std::vector<Expected>{{"Clamp#0", moved(kTrianglePoints, p.clamp)},
                                 {"Late#0", moved(kTrianglePoints, p.late)},
                                 {"Step#0", step},
                                 {"Cubic#0", moved(kTrianglePoints, p.cubic)},
                                 {"Flip#0", flip}};
  };
  const std::string model = g.json(body);
  // t = 0, before every key (the clip starts at 1): first keys.
  expect_objects(export_obj("sampling", model, "--animation-time 0"),
                 objects({{1, 0, 0}, {0, 1, 0}, 0, {0, 0, 0}, 0}));
  // t = 1.25: Clamp a quarter of the way; Late before its first key (1.5) holds it; STEP holds
  // identity; Cubic u = 0.125, td = 2: h10·td = 0.19140625, h01 = 0.04296875,
  // h11·td = -0.02734375 → 0.19140625(1,0,0) + 0.04296875(2,0,0) - 0.02734375(0,1,0)
  // = (0.27734375, -0.02734375, 0); Flip: -(Rz90) is taken as Rz90 (shortest path) → 22.5°.
  expect_objects(export_obj("sampling", model, "--animation-time 1.25"),
                 objects({{1.5, 0, 0}, {0, 1, 0}, 0, {0.27734375, -0.02734375, 0}, 22.5}));
  // t = 2.5: Clamp past its last key holds (3,0,0); Late u = 2/3 → (0,3,0); STEP Rz90 (not
  // 135°); Cubic u = 0.75: h10·td = 0.09375, h01 = 0.84375, h11·td = -0.28125 →
  // (0.09375 + 1.6875, -0.28125, 0); Flip halfway from -(Rz90) to Rz180 the short way: 135°.
  expect_objects(export_obj("sampling", model, "--animation-time 2.5"),
                 objects({{3, 0, 0}, {0, 3, 0}, 90, {1.78125, -0.28125, 0}, 135}));
  // t = 99: clamped to the clip's end (3): last keys.
  expect_objects(export_obj("sampling", model, "--animation-time 99"),
                 objects({{3, 0, 0}, {0, 4, 0}, 180, {2, 0, 0}, 180}));
}

TEST(ExportConformance, NonUniformJointScaleDqsEqualsLbsForSingleInfluences) {
  GltfWriter g;
  const int pos = g.floats({1, 0, 0, 0, 3, 0, 1, 1, 1}, "VEC3");
  const int nrm = g.floats({0, 1, 0, 1, 0, 0, 0, 0, 1}, "VEC3");
  const int joints = g.data<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const int ibm = g.floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  // identity
                            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1},
                           "MAT4");
  const int times = g.floats({0, 1}, "SCALAR");
  const int scales = g.floats({1, 1, 1, 3, 1, 0.5f}, "VEC3");
  // Child's rest rotation: 30° about Z = (0, 0, sin 15°, cos 15°).
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,2]}],
    "nodes":[{"name":"Root","children":[1]},
             {"name":"Child","translation":[0,2,0],
              "rotation":[0,0,0.25881904510252074,0.9659258262890683]},
             {"name":"Mesh","mesh":0,"skin":0}],
    "skins":[{"joints":[0,1],"inverseBindMatrices":{IBM}}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"NORMAL":{NRM},"JOINTS_0":{J},
                                            "WEIGHTS_0":{W}},"mode":0}]}],
    "animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"scale"}}],
                   "samplers":[{"input":{T},"output":{S}}]}])",
                                {{"POS", pos},
                                 {"NRM", nrm},
                                 {"J", joints},
                                 {"W", weights},
                                 {"IBM", ibm},
                                 {"T", times},
                                 {"S", scales}});
  // Root scale D = diag(sx, 1, sz); S_root = D; S_child x = D(Rz30(x - (0,2,0)) + (0,2,0)),
  // a rotation followed by a non-uniform scale (not a similarity: DQS needs the polar split).
  //   v0 (1,0,0) → (sx,0,0); v2 (1,1,1) → (sx,1,sz);
  //   v1 (0,3,0) → Rz30(0,1,0) = (-1/2, √3/2, 0) → + (0,2,0) → (-sx/2, 2 + √3/2, 0).
  // Normals: inverse transpose D⁻¹ Rz30 for the child: (1,0,0) → D⁻¹(√3/2, 1/2, 0);
  // (0,1,0) and (0,0,1) on the root stay as they are.
  const double r3 = std::sqrt(3.0);
  for (const char* skinning : {"lbs", "dqs"}) {
    SCOPED_TRACE(skinning);
    const std::string method = std::string(" --skinning ") + skinning;
    // t = 1: scale (3,1,0.5); child normal ∝ (√3/6, 1/2, 0) = (1/2, √3/2, 0) normalized.
    expect_objects(export_obj("scaled_joint", g.json(body), "--animation-time 1" + method),
                   {{"Mesh#0",
                     {{3, 0, 0}, {-1.5, 2 + r3 / 2, 0}, {3, 1, 0.5}},
                     {{0, 1, 0}, {0.5, r3 / 2, 0}, {0, 0, 1}}}});
    // t = 0.5: scale (2,1,0.75); child normal ∝ (√3/4, 1/2, 0).
    const dvec3 n1 = glm::normalize(dvec3(r3 / 4, 0.5, 0));
    expect_objects(
        export_obj("scaled_joint", g.json(body), "--animation-time 0.5" + method),
        {{"Mesh#0", {{2, 0, 0}, {-1, 2 + r3 / 2, 0}, {2, 1, 0.75}}, {{0, 1, 0}, n1, {0, 0, 1}}}});
  }
}

TEST(ExportConformance, MirroredJointDqsEqualsLbsForSingleInfluences) {
  GltfWriter g;
  const int pos = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1}, "VEC3");
  const int nrm = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1}, "VEC3");
  const int joints = g.data<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,1]}],
    "nodes":[{"name":"Joint","translation":[1,0,0],"scale":[-1,2,1]},
             {"name":"Mesh","mesh":0,"skin":0}],
    "skins":[{"joints":[0]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"NORMAL":{NRM},"JOINTS_0":{J},
                                            "WEIGHTS_0":{W}}}]}])",
                                {{"POS", pos}, {"NRM", nrm}, {"J", joints}, {"W", weights}});
  // Skinning matrix (no inverse binds): x ↦ (1,0,0) + (-x, 2y, z), a mirror (det -2).
  //   (1,0,0) → (0,0,0); (0,1,0) → (1,2,0); (0,0,1) → (1,0,1).
  // Normals by the inverse transpose diag(-1, 1/2, 1): (-1,0,0), (0,1,0), (0,0,1).
  // DQS splits the mirror into a proper rotation and a stretch of negative determinant; with
  // one influence it must reproduce the matrix exactly.
  for (const char* skinning : {"lbs", "dqs"}) {
    SCOPED_TRACE(skinning);
    expect_objects(
        export_obj("mirrored_joint", g.json(body), std::string("--skinning ") + skinning),
        {{"Mesh#0", {{0, 0, 0}, {1, 2, 0}, {1, 0, 1}}, {{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}});
  }
}

// ---- Crossfades -------------------------------------------------------------------------------

TEST(ExportConformance, BlendOfClipsAnimatingDifferentNodes) {
  GltfWriter g;
  const int pos = g.floats(kTriangle, "VEC3");
  const int times = g.floats({0, 1}, "SCALAR");
  const int turn = g.data<float>({0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f}, 5126, "VEC4");
  const int slide = g.floats({0, 0, 0, 4, 0, 0}, "VEC3");
  const int lift = g.floats({0, 10, 0, 0, 10, 8}, "VEC3");
  const std::string body =
      fill(R"(
    "scenes":[{"nodes":[0,1]}],
    "nodes":[{"name":"A","mesh":0},{"name":"B","mesh":0,"translation":[0,10,0]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS}}}]}],
    "animations":[
      {"name":"MoveA","channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}},
                                  {"sampler":1,"target":{"node":0,"path":"translation"}}],
       "samplers":[{"input":{T},"output":{TURN}},{"input":{T},"output":{SLIDE}}]},
      {"name":"MoveB","channels":[{"sampler":0,"target":{"node":1,"path":"translation"}}],
       "samplers":[{"input":{T},"output":{LIFT}}]}])",
           {{"POS", pos}, {"T", times}, {"TURN", turn}, {"SLIDE", slide}, {"LIFT", lift}});
  const std::string model = g.json(body);
  // Clip 0 at t = 1: A = T(4,0,0) Rz90, B at rest (0,10,0).
  // Clip 1 at t = 5 (clamped to 1): A at rest (identity), B at (0,10,8).
  // Weight 0.25: A = T(3,0,0) Rz(67.5°) (slerp from Rz90 towards identity), B at (0,10,2).
  std::vector<dvec3> a;
  for (const dvec3& v : kTrianglePoints) a.push_back(rot_z(67.5, v) + dvec3(3, 0, 0));
  expect_objects(export_obj("blend", model,
                            "--animation-index 0 --animation-time 1 --blend-index 1 "
                            "--blend-time 5 --blend-weight 0.25"),
                 {{"A#0", a}, {"B#0", moved(kTrianglePoints, {0, 10, 2})}});
  // Weight 1 is clip 1 alone: A back at rest.
  expect_objects(export_obj("blend", model,
                            "--animation-index 0 --animation-time 1 --blend-index 1 "
                            "--blend-time 5 --blend-weight 1"),
                 {{"A#0", kTrianglePoints}, {"B#0", moved(kTrianglePoints, {0, 10, 8})}});
}

}  // namespace
