// `rigview --export-obj` on small glTF files written here, one spec corner per test, against
// positions worked out by hand from the glTF 2.0 spec (the derivation is in the comments; the
// code only evaluates the closed forms). These are the corners an unseen model is likely to
// hit: matrices with shear, sparse and quantized accessors, every primitive mode, scene
// selection, unusual skins, morph targets, every interpolation and crossfades.
//
// OBJ contract checked: one `o <node name or node<index>>#<primitive>` per drawn primitive in
// scene order (depth first, children in file order, primitives in mesh order), world-space `v`
// and unit `vn` in the primitive's own vertex order, faces as the spec's primitive modes define.
#include "export_conformance.h"

#include <gtest/gtest.h>

namespace {

using namespace export_conformance;

TEST(ExportConformance, MatrixWithShearOnRigidMeshUnderRotatedParent) {
  GltfWriter g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, "VEC3");
  const int nrm = g.floats({1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");
  const int idx = g.data<uint16_t>({0, 1, 2, 0, 3, 1}, 5123, "SCALAR");
  const std::string body = fill(R"(
    "scene":0,"scenes":[{"nodes":[0,2]}],
    "nodes":[{"name":"Parent","translation":[1,0,0],"rotation":[0,0,)" +
                                    kHalf + "," + kHalf +
                                    R"(],"children":[1]},
             {"name":"Sheared","mesh":0,"matrix":)" +
                                    kShearMatrix + R"(},
             {"name":"Mirrored","mesh":0,"matrix":[-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"NORMAL":{NRM}},"indices":{IDX}}]}])",
                                {{"POS", pos}, {"NRM", nrm}, {"IDX", idx}});
  // World = T(1,0,0) · Rz(90°) · M, Rz(90°)(x, y, z) = (-y, x, z):
  //   (0,0,0) → M (10,20,30)   → R (-20,10,30)   → (-19,10,30)
  //   (1,0,0) → M (12,20,30)   → (-19,12,30);  (0,1,0) → M (11,23,30) → (-22,11,30)
  //   (0,0,1) → M (10,20,30.5) → (-19,10,30.5)
  // Normal (1,0,0): inverse transpose of M's 3x3 = [[1/2,0,0],[-1/6,1/3,0],[0,0,2]] gives
  // (1/2, -1/6, 0) ∝ (3,-1,0) (perpendicular to M's images (1,3,0), (0,0,1/2) of the plane
  // x = 0); Rz(90°) → (1,3,0)/√10.
  // Mirrored: diag(-1,1,1) flips x; its normal matrix maps (1,0,0) to (-1,0,0).
  const dvec3 sheared_normal = dvec3(1, 3, 0) / std::sqrt(10.0);
  expect_objects(export_obj("matrix_shear", g.json(body)),
                 {{"Sheared#0",
                   {{-19, 10, 30}, {-19, 12, 30}, {-22, 11, 30}, {-19, 10, 30.5}},
                   {sheared_normal, sheared_normal, sheared_normal, sheared_normal}},
                  {"Mirrored#0",
                   {{0, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                   {{-1, 0, 0}, {-1, 0, 0}, {-1, 0, 0}, {-1, 0, 0}}}},
                 1e-5);
}

TEST(ExportConformance, MatrixNodeAboveAnimatedJoint) {
  GltfWriter g;
  const int pos = g.floats(kTriangle, "VEC3");
  const int joints = g.data<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const int times = g.floats({0, 1}, "SCALAR");
  const int rotations = g.data<float>({0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f}, 5126, "VEC4");
  // Skin without inverseBindMatrices (identity); the skinned node's translation is ignored.
  const std::string body =
      fill(R"(
    "scenes":[{"nodes":[0,2]}],
    "nodes":[{"name":"Root","matrix":)" +
               kShearMatrix + R"(,"children":[1]},
             {"name":"Joint","translation":[0,1,0]},
             {"name":"Skinned","mesh":0,"skin":0,"translation":[100,0,0]}],
    "skins":[{"joints":[1]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J},"WEIGHTS_0":{W}}}]}],
    "animations":[{"channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}}],
                   "samplers":[{"input":{T},"output":{R}}]}])",
           {{"POS", pos}, {"J", joints}, {"W", weights}, {"T", times}, {"R", rotations}});
  // Joint world = M · T(0,1,0) · Rz(θ), θ = 90° at t = 1 and 45° at t = 0.5 (slerp).
  // t = 1: (0,0,0) → (0,1,0) → M (11,23,30); (1,0,0) → (0,2,0) → (12,26,30);
  //        (0,1,0) → (-1,1,0) → (9,23,30).
  // t = 0.5 (c = √½): (1,0,0) → (c, 1+c, 0) → (11+3c, 23+3c, 30);
  //        (0,1,0) → (-c, 1+c, 0) → (11-c, 23+3c, 30).
  // Generated normal +Z: M's normal matrix keeps z apart, so it stays (0,0,1).
  // One influence: DQS (polar split of the sheared skinning matrix) must equal LBS.
  const std::vector<dvec3> up(3, dvec3(0, 0, 1));
  const double c = kSqrtHalf;
  for (const char* skinning : {"lbs", "dqs"}) {
    SCOPED_TRACE(skinning);
    const std::string method = std::string(" --skinning ") + skinning;
    expect_objects(export_obj("matrix_joint", g.json(body), "--animation-time 1" + method),
                   {{"Skinned#0", {{11, 23, 30}, {12, 26, 30}, {9, 23, 30}}, up}});
    expect_objects(export_obj("matrix_joint", g.json(body), "--animation-time 0.5" + method),
                   {{"Skinned#0",
                     {{11, 23, 30}, {11 + 3 * c, 23 + 3 * c, 30}, {11 - c, 23 + 3 * c, 30}},
                     up}});
  }
}

// ---- Sparse accessors -------------------------------------------------------------------------

TEST(ExportConformance, SparseAccessorsOnPositionsAndMorphDeltas) {
  GltfWriter g;
  const int base_view = g.view<float>({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0});
  const int index16_view = g.view<uint16_t>({1, 3});
  // 12 bytes of filler before the values, skipped through sparse.values.byteOffset.
  const int values_view = g.view<float>({9, 9, 9, 5, 0, 0, 5, 5, 5});
  const int index8_view = g.view<uint8_t>({2});
  const int value7_view = g.view<float>({0, 0, 7});
  const int index32_view = g.view<uint32_t>({1});
  const int delta_view = g.view<float>({0, 0, 2});
  const int tri = g.floats(kTriangle, "VEC3");
  const int idx = g.data<uint16_t>({0, 1, 2, 1, 3, 2}, 5123, "SCALAR");
  const std::string v = "\"bufferView\":";
  const int sparse_on_view = g.accessor(
      v + std::to_string(base_view) +
      R"(,"componentType":5126,"count":4,"type":"VEC3","sparse":{"count":2,"indices":{"bufferView":)" +
      std::to_string(index16_view) + R"(,"componentType":5123},"values":{"bufferView":)" +
      std::to_string(values_view) + R"(,"byteOffset":12}})");
  const int sparse_no_view = g.accessor(
      R"("componentType":5126,"count":3,"type":"VEC3","sparse":{"count":1,"indices":{"bufferView":)" +
      std::to_string(index8_view) + R"(,"componentType":5121},"values":{"bufferView":)" +
      std::to_string(value7_view) + "}}");
  const int sparse_delta = g.accessor(
      R"("componentType":5126,"count":3,"type":"VEC3","sparse":{"count":1,"indices":{"bufferView":)" +
      std::to_string(index32_view) + R"(,"componentType":5125},"values":{"bufferView":)" +
      std::to_string(delta_view) + "}}");
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0,1]}],
    "nodes":[{"name":"Sparse","mesh":0},{"name":"Morphed","mesh":1,"translation":[0,0,10]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{SV}},"indices":{IDX}},
                             {"attributes":{"POSITION":{SN}}}]},
              {"primitives":[{"attributes":{"POSITION":{TRI}},"targets":[{"POSITION":{SD}}]}],
               "weights":[0.5]}])",
                                {{"SV", sparse_on_view},
                                 {"IDX", idx},
                                 {"SN", sparse_no_view},
                                 {"TRI", tri},
                                 {"SD", sparse_delta}});
  // Sparse over a bufferView: elements 1 and 3 replaced by (5,0,0) and (5,5,5).
  // Sparse without a bufferView: zeros, element 2 replaced by (0,0,7).
  // Morph delta without a bufferView: zeros except vertex 1 (0,0,2); weight 0.5 → (1,0,1);
  // then the node's translation (0,0,10).
  expect_objects(export_obj("sparse", g.json(body)),
                 {{"Sparse#0", {{0, 0, 0}, {5, 0, 0}, {0, 1, 0}, {5, 5, 5}}},
                  {"Sparse#1", {{0, 0, 0}, {0, 0, 0}, {0, 0, 7}}},
                  {"Morphed#0", {{0, 0, 10}, {1, 0, 11}, {0, 1, 10}}}});
}

// ---- KHR_mesh_quantization and interleaved buffers -------------------------------------------

TEST(ExportConformance, QuantizedAndInterleavedAttributes) {
  GltfWriter g;
  // Vertex attributes start on 4-byte boundaries (spec), so 6-byte SHORT VEC3 elements use a
  // byteStride of 8 and 3-byte BYTE VEC3 / 2-byte UNSIGNED_BYTE VEC2 elements a stride of 4.
  auto strided = [](const std::vector<uint8_t>& element_bytes, size_t element_size, size_t stride) {
    std::vector<uint8_t> out;
    for (size_t at = 0; at < element_bytes.size(); at += element_size) {
      out.insert(out.end(), element_bytes.begin() + static_cast<long>(at),
                 element_bytes.begin() + static_cast<long>(at + element_size));
      out.resize(out.size() + stride - element_size, 0);
    }
    return out;
  };
  auto accessor = [&](int view, int component_type, bool normalized, const char* type,
                      int byte_offset = 0) {
    return g.accessor("\"bufferView\":" + std::to_string(view) +
                      ",\"byteOffset\":" + std::to_string(byte_offset) +
                      ",\"componentType\":" + std::to_string(component_type) + ",\"normalized\":" +
                      (normalized ? "true" : "false") + ",\"count\":3,\"type\":\"" + type + "\"");
  };
  // p0: POSITION normalized SHORT, NORMAL normalized BYTE, TEXCOORD_0 normalized UNSIGNED_BYTE.
  const int p0_pos = accessor(
      g.raw_view(
          strided(GltfWriter::bytes_of<int16_t>({32767, 0, 0, 0, -32768, 0, 16384, -16384, 32767}),
                  6, 8),
          8),
      5122, true, "VEC3");
  const int p0_nrm = accessor(
      g.raw_view(
          strided(GltfWriter::bytes_of<int8_t>({127, 127, 0, 127, 127, 0, 127, 127, 0}), 3, 4), 4),
      5120, true, "VEC3");
  const int p0_uv =
      accessor(g.raw_view(strided({0, 0, 255, 0, 0, 255}, 2, 4), 4), 5121, true, "VEC2");
  // p1: POSITION BYTE (not normalized); p2: POSITION normalized UNSIGNED_SHORT, TEXCOORD_0
  // normalized SHORT.
  const int p1_pos = accessor(
      g.raw_view(strided(GltfWriter::bytes_of<int8_t>({1, 2, 3, -4, 5, -6, 127, -128, 0}), 3, 4),
                 4),
      5120, false, "VEC3");
  const int p2_pos = accessor(
      g.raw_view(
          strided(GltfWriter::bytes_of<uint16_t>({65535, 0, 0, 0, 65535, 0, 0, 0, 32768}), 6, 8),
          8),
      5123, true, "VEC3");
  const int p2_uv = accessor(g.view<int16_t>({0, 0, 32767, 0, 0, -32767}), 5122, true, "VEC2");
  // p3: one interleaved bufferView, 12 bytes per vertex: SHORT x,y,z, 2 bytes padding,
  // normalized BYTE nx,ny,nz, 1 byte padding.
  std::vector<uint8_t> interleaved;
  const int16_t xyz[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  const int8_t normals[3][3] = {{127, 0, 0}, {0, 127, 0}, {0, 0, 127}};
  for (int k = 0; k < 3; ++k) {
    const std::vector<uint8_t> p =
        GltfWriter::bytes_of<int16_t>({xyz[k][0], xyz[k][1], xyz[k][2], 0});
    interleaved.insert(interleaved.end(), p.begin(), p.end());
    const std::vector<uint8_t> n =
        GltfWriter::bytes_of<int8_t>({normals[k][0], normals[k][1], normals[k][2], 0});
    interleaved.insert(interleaved.end(), n.begin(), n.end());
  }
  const int interleaved_view = g.raw_view(interleaved, 12);
  const int p3_pos = accessor(interleaved_view, 5122, false, "VEC3", 0);
  const int p3_nrm = accessor(interleaved_view, 5120, true, "VEC3", 8);

  const std::string body = fill(R"(
    "extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"],
    "scenes":[{"nodes":[0]}],
    "nodes":[{"name":"Quantized","mesh":0,"translation":[1,1,1],"scale":[2,4,0.5]}],
    "meshes":[{"primitives":[
      {"attributes":{"POSITION":{P0},"NORMAL":{N0},"TEXCOORD_0":{U0}}},
      {"attributes":{"POSITION":{P1}}},
      {"attributes":{"POSITION":{P2},"TEXCOORD_0":{U2}}},
      {"attributes":{"POSITION":{P3},"NORMAL":{N3}}}]}])",
                                {{"P0", p0_pos},
                                 {"N0", p0_nrm},
                                 {"U0", p0_uv},
                                 {"P1", p1_pos},
                                 {"P2", p2_pos},
                                 {"U2", p2_uv},
                                 {"P3", p3_pos},
                                 {"N3", p3_nrm}});
  // Decoding (spec, "Animations"/"Meshes" tables): normalized SHORT c → max(c/32767, -1),
  // normalized UNSIGNED_SHORT c → c/65535, normalized BYTE c → max(c/127, -1); unnormalized
  // integers are taken as they are. World = (1,1,1) + (2x, 4y, z/2).
  const double h = 16384.0 / 32767.0;
  const dvec3 n0 = dvec3(2, 1, 0) / std::sqrt(5.0);  // diag(1/2, 1/4, 2)·(1,1,0) ∝ (2,1,0)
  const std::vector<ObjObject> got = export_obj("quantized", g.json(body));
  // Everything at 1e-6 of the bounding-box diagonal (~600)...
  expect_objects(
      got,
      {{"Quantized#0", {{3, 1, 1}, {1, -3, 1}, {1 + 2 * h, 1 - 4 * h, 1.5}}, {n0, n0, n0}},
       {"Quantized#1", {{3, 9, 2.5}, {-7, 21, -2}, {255, -511, 1}}},
       {"Quantized#2", {{3, 1, 1}, {1, 5, 1}, {1, 1, 1 + 0.5 * 32768.0 / 65535.0}}},
       {"Quantized#3",
        {{3, 9, 2.5}, {9, 21, 4}, {15, 33, 5.5}},
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
      1e-6 * 600);
  // ...and the small primitives again at 2e-6: c/32767 and c/32768 differ by up to 3e-5
  // before the node's scale, which 1e-5 of the whole model's diagonal would not notice.
  ASSERT_EQ(got.size(), 4u);
  expect_objects({got[0]}, {{"Quantized#0", {{3, 1, 1}, {1, -3, 1}, {1 + 2 * h, 1 - 4 * h, 1.5}}}},
                 2e-6);
  expect_objects({got[2]},
                 {{"Quantized#2", {{3, 1, 1}, {1, 5, 1}, {1, 1, 1 + 0.5 * 32768.0 / 65535.0}}}},
                 2e-6);
}

// ---- Primitive modes --------------------------------------------------------------------------

TEST(ExportConformance, EveryPrimitiveModeKeepsItsVerticesAndSpecFaces) {
  GltfWriter g;
  const int five = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0}, "VEC3");
  const int fan_idx = g.data<uint8_t>({4, 3, 2, 1, 0}, 5121, "SCALAR");
  const int four = g.floats({0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, "VEC3");
  const int tri = g.floats(kTriangle, "VEC3");
  const int loop_idx = g.data<uint16_t>({2, 1, 0}, 5123, "SCALAR");
  const int six = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1}, "VEC3");
  const int tri_idx32 = g.data<uint32_t>({0, 2, 1}, 5125, "SCALAR");
  const std::string body = fill(R"(
    "scenes":[{"nodes":[0]}],
    "nodes":[{"name":"Modes","mesh":0,"translation":[0,0,1]}],
    "meshes":[{"primitives":[
      {"attributes":{"POSITION":{FIVE}},"mode":5},
      {"attributes":{"POSITION":{FIVE}},"indices":{FAN},"mode":6},
      {"attributes":{"POSITION":{FOUR}},"mode":1},
      {"attributes":{"POSITION":{TRI}},"mode":0},
      {"attributes":{"POSITION":{TRI}},"indices":{LOOP},"mode":2},
      {"attributes":{"POSITION":{TRI}},"mode":3},
      {"attributes":{"POSITION":{SIX}}},
      {"attributes":{"POSITION":{TRI}},"indices":{I32},"mode":4}]}])",
                                {{"FIVE", five},
                                 {"FAN", fan_idx},
                                 {"FOUR", four},
                                 {"TRI", tri},
                                 {"LOOP", loop_idx},
                                 {"SIX", six},
                                 {"I32", tri_idx32}});
  const std::vector<ObjObject> got = export_obj("modes", g.json(body));
  const dvec3 up(0, 0, 1);
  const std::vector<dvec3> five_points =
      moved({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 2, 0}}, up);
  const std::vector<dvec3> tri_points = moved(kTrianglePoints, up);
  expect_objects(
      got,
      {{"Modes#0", five_points},
       {"Modes#1", five_points},
       {"Modes#2", moved({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, up)},
       {"Modes#3", tri_points},
       {"Modes#4", tri_points},
       {"Modes#5", tri_points},
       {"Modes#6", moved({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}, up)},
       {"Modes#7", tri_points}});
  ASSERT_EQ(got.size(), 8u);
  using Faces = std::vector<std::array<long, 3>>;
  // TRIANGLE_STRIP, spec: triangle i = {v_i, v_(i+(1+i%2)), v_(i+(2-i%2))}.
  EXPECT_EQ(got[0].faces, (Faces{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}}));
  // TRIANGLE_FAN, spec: triangle i = {v_(i+1), v_(i+2), v_0}, v_k = indices[k] = 4 - k.
  EXPECT_EQ(got[1].faces, (Faces{{3, 2, 4}, {2, 1, 4}, {1, 0, 4}}));
  // LINES, POINTS, LINE_LOOP, LINE_STRIP: vertices exported, no faces.
  for (size_t p : {2u, 3u, 4u, 5u}) EXPECT_TRUE(got[p].faces.empty()) << "primitive " << p;
  // Non-indexed TRIANGLES: consecutive triples; UNSIGNED_INT indices as given.
  EXPECT_EQ(got[6].faces, (Faces{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(got[7].faces, (Faces{{0, 2, 1}}));
}

// ---- Scenes -----------------------------------------------------------------------------------

// Mesh 0 has two primitives, mesh 1 one (the triangle); mesh 1 is instanced by five nodes.
// Hierarchy: 3 → {5 → {2}, 1}; 0, 4 are roots. Scene 0 = [4, 0], scene 1 = [3, 0] (node 0 is
// in both).
std::string scene_model(const std::string& scene_property, bool with_scenes) {
  GltfWriter g;
  const int tri = g.floats(kTriangle, "VEC3");
  const int far_tri = g.floats({0, 0, 5, 1, 0, 5, 0, 1, 5}, "VEC3");
  std::string body = R"(
    "nodes":[{"name":"A","mesh":1,"translation":[1,0,0]},
             {"name":"B","mesh":1,"translation":[0,2,0]},
             {"mesh":1,"translation":[0,0,3]},
             {"mesh":0,"translation":[10,0,0],"children":[5,1]},
             {"name":"Elsewhere","mesh":1,"translation":[0,0,-9]},
             {"mesh":1,"translation":[5,0,0],"children":[2]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{TRI}}},{"attributes":{"POSITION":{FAR}}}]},
              {"primitives":[{"attributes":{"POSITION":{TRI}}}]}])";
  if (with_scenes) body += R"(,"scenes":[{"nodes":[4,0]},{"nodes":[3,0]}])";
  body += scene_property;
  return g.json(fill(body, {{"TRI", tri}, {"FAR", far_tri}}));
}

TEST(ExportConformance, SceneOrderInstancingAndSceneSelection) {
  const std::vector<dvec3> t = kTrianglePoints;
  // World translations: node 3 (10,0,0), node 5 (15,0,0), node 2 (15,0,3), node 1 (10,2,0),
  // node 0 (1,0,0), node 4 (0,0,-9). Unnamed nodes are node<index>.
  const Expected a{"A#0", moved(t, {1, 0, 0})}, b{"B#0", moved(t, {10, 2, 0})},
      n2{"node2#0", moved(t, {15, 0, 3})}, n3p0{"node3#0", moved(t, {10, 0, 0})},
      n3p1{"node3#1", moved(t, {10, 0, 5})}, n5{"node5#0", moved(t, {15, 0, 0})},
      elsewhere{"Elsewhere#0", moved(t, {0, 0, -9})};
  // "scene": 1 → roots [3, 0], depth first, children in file order: 3, 5, 2, 1, then 0.
  expect_objects(export_obj("scene1", scene_model(R"(,"scene":1)", true)),
                 {n3p0, n3p1, n5, n2, b, a});
  // No "scene" property: scene 0 → [4, 0].
  expect_objects(export_obj("scene_default", scene_model("", true)), {elsewhere, a});
  // No scenes at all: nothing selects a scene, so every root (node index order) is shown.
  expect_objects(export_obj("no_scenes", scene_model("", false)),
                 {a, n3p0, n3p1, n5, n2, b, elsewhere});
}

// ---- Skins ------------------------------------------------------------------------------------

}  // namespace
