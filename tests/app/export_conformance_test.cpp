// `rigview --export-obj` on small glTF files written here, one spec corner per test, against
// positions worked out by hand from the glTF 2.0 spec (the derivation is in the comments; the
// code only evaluates the closed forms). These are the corners an unseen model is likely to
// hit: matrices with shear, sparse and quantized accessors, every primitive mode, scene
// selection, unusual skins, morph targets, every interpolation and crossfades.
//
// OBJ contract checked: one `o <node name or node<index>>#<primitive>` per drawn primitive in
// scene order (depth first, children in file order, primitives in mesh order), world-space `v`
// and unit `vn` in the primitive's own vertex order, faces as the spec's primitive modes define.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/glm.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../engine/import_test_gltf.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using glm::dvec3;

// Quaternion components written into the JSON (x, y, z, w order as glTF stores them).
const std::string kHalf = "0.7071067811865476";  // sin 45° = cos 45°: a 90° turn about Z
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kPi = std::numbers::pi;

// ---- Writing glTF files ---------------------------------------------------------------------

// Collects buffer views and accessors over one embedded buffer; json() wraps a body (scenes,
// nodes, meshes, ...) into a whole file.
class GltfWriter {
 public:
  // Appends raw bytes as one bufferView (4-byte aligned start) and returns its index.
  int raw_view(const std::vector<uint8_t>& bytes, int stride = 0) {
    while (bin_.size() % 4 != 0) bin_.push_back(0);
    std::string view = "{\"buffer\":0,\"byteOffset\":" + std::to_string(bin_.size()) +
                       ",\"byteLength\":" + std::to_string(bytes.size());
    if (stride > 0) view += ",\"byteStride\":" + std::to_string(stride);
    views_.push_back(view + "}");
    bin_.insert(bin_.end(), bytes.begin(), bytes.end());
    return static_cast<int>(views_.size()) - 1;
  }
  template <typename T>
  int view(const std::vector<T>& values, int stride = 0) {
    return raw_view(bytes_of(values), stride);
  }
  // `fields` is the inside of the accessor object.
  int accessor(const std::string& fields) {
    accessors_.push_back("{" + fields + "}");
    return static_cast<int>(accessors_.size()) - 1;
  }
  // A tightly packed accessor over its own bufferView.
  template <typename T>
  int data(const std::vector<T>& values, int component_type, const std::string& type,
           const std::string& extra = "") {
    const int v = view(values);
    return accessor("\"bufferView\":" + std::to_string(v) +
                    ",\"componentType\":" + std::to_string(component_type) +
                    ",\"count\":" + std::to_string(values.size() / components(type)) +
                    ",\"type\":\"" + type + "\"" + extra);
  }
  int floats(const std::vector<float>& values, const std::string& type) {
    return data(values, 5126, type);
  }

  std::string json(const std::string& body) const {
    std::string text = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":" +
                       std::to_string(bin_.size()) + ",\"uri\":\"" + rig::test::data_uri(bin_) +
                       "\"}],\"bufferViews\":[";
    for (size_t i = 0; i < views_.size(); ++i) text += (i ? "," : "") + views_[i];
    text += "],\"accessors\":[";
    for (size_t i = 0; i < accessors_.size(); ++i) text += (i ? "," : "") + accessors_[i];
    return text + "]," + body + "}";
  }

  template <typename T>
  static std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
  }

 private:
  static size_t components(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4") return 4;
    return 16;  // MAT4
  }

  std::vector<uint8_t> bin_;
  std::vector<std::string> views_, accessors_;
};

// Replaces {KEY} with the number (accessor indices in the JSON bodies below).
std::string fill(std::string text, std::initializer_list<std::pair<const char*, int>> values) {
  for (const auto& [key, value] : values)
    text = rig::test::fill_in(text, key, std::to_string(value));
  return text;
}

// ---- Reading the OBJ --------------------------------------------------------------------------

struct ObjObject {
  std::string name;
  std::vector<dvec3> v, vn;
  std::vector<std::array<long, 3>> faces;  // 0-based vertex indices within this object
  size_t lines = 0, points = 0;
};

std::vector<ObjObject> parse_obj(const std::string& text) {
  std::vector<ObjObject> objects;
  long base = 0;  // vertices written before the current object
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "o") {
      if (!objects.empty()) base += static_cast<long>(objects.back().v.size());
      objects.push_back({});
      objects.back().name = line.substr(2);
      continue;
    }
    if (tag.empty() || tag == "#") continue;
    if (objects.empty()) {
      ADD_FAILURE() << "OBJ data before the first `o`: " << line;
      continue;
    }
    ObjObject& o = objects.back();
    if (tag == "v" || tag == "vn") {
      dvec3 p;
      words >> p.x >> p.y >> p.z;
      EXPECT_FALSE(words.fail()) << line;
      (tag == "v" ? o.v : o.vn).push_back(p);
    } else if (tag == "f") {
      std::array<long, 3> face{};
      int corners = 0;
      std::string corner;
      while (words >> corner) {
        long vertex = 0, normal = 0;
        const int parsed = std::sscanf(corner.c_str(), "%ld//%ld", &vertex, &normal);
        EXPECT_EQ(parsed, 2) << line;
        EXPECT_EQ(vertex, normal) << "v and vn indices differ: " << line;
        if (corners < 3) face[static_cast<size_t>(corners)] = vertex - 1 - base;
        ++corners;
      }
      EXPECT_EQ(corners, 3) << line;
      o.faces.push_back(face);
    } else if (tag == "l") {
      ++o.lines;
    } else if (tag == "p") {
      ++o.points;
    }
  }
  return objects;
}

const fs::path& folder() {
  static const fs::path dir = rig::test::temp_folder("conformance");
  return dir;
}

// Writes the model, runs `rigview --export-obj OUT <args> MODEL` and parses OUT.
std::vector<ObjObject> export_obj(const std::string& name, const std::string& gltf,
                                  const std::string& args = "") {
  const fs::path model = folder() / (name + ".gltf");
  const fs::path obj = folder() / (name + ".obj");
  fs::remove(obj);
  rig::test::write_file(model, gltf);
  const rig::test::RunResult result =
      rig::test::run_rigview("--export-obj " + rig::test::quote(obj.string()) + " " + args + " " +
                             rig::test::quote(model.string()));
  EXPECT_EQ(result.status, 0) << name << " " << args << ": " << result.err;
  std::ifstream file(obj, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return parse_obj(text.str());
}

struct Expected {
  std::string name;
  std::vector<dvec3> positions;
  std::vector<dvec3> normals = {};  // empty: not checked (only their count and unit length)
};

double bbox_diagonal(const std::vector<Expected>& objects) {
  dvec3 low(1e300), high(-1e300);
  for (const Expected& e : objects) {
    for (const dvec3& p : e.positions) {
      low = glm::min(low, p);
      high = glm::max(high, p);
    }
  }
  return low.x > high.x ? 0.0 : glm::length(high - low);
}

// Object names and order, vertex counts, positions (within `tolerance`, default 1e-5 of the
// expected bounding-box diagonal) and normals (unit, within 1e-5 when given).
void expect_objects(const std::vector<ObjObject>& got, const std::vector<Expected>& want,
                    double tolerance = -1.0) {
  if (tolerance < 0.0) tolerance = 1e-5 * std::max(bbox_diagonal(want), 1.0);
  ASSERT_EQ(got.size(), want.size()) << "number of `o` objects";
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("object " + std::to_string(i) + " (" + want[i].name + ")");
    EXPECT_EQ(got[i].name, want[i].name);
    ASSERT_EQ(got[i].v.size(), want[i].positions.size());
    ASSERT_EQ(got[i].vn.size(), want[i].positions.size());
    for (size_t k = 0; k < want[i].positions.size(); ++k) {
      const dvec3 d = got[i].v[k] - want[i].positions[k];
      EXPECT_LE(glm::length(d), tolerance)
          << "vertex " << k << ": got (" << got[i].v[k].x << ", " << got[i].v[k].y << ", "
          << got[i].v[k].z << ") expected (" << want[i].positions[k].x << ", "
          << want[i].positions[k].y << ", " << want[i].positions[k].z << ")";
      EXPECT_NEAR(glm::length(got[i].vn[k]), 1.0, 1e-5) << "normal " << k << " is not unit";
      if (!want[i].normals.empty()) {
        const dvec3 e = want[i].normals[k];
        EXPECT_LE(glm::length(got[i].vn[k] - e), 1e-5)
            << "normal " << k << ": got (" << got[i].vn[k].x << ", " << got[i].vn[k].y << ", "
            << got[i].vn[k].z << ") expected (" << e.x << ", " << e.y << ", " << e.z << ")";
      }
    }
  }
}

// Rotation by `degrees` about +Z.
dvec3 rot_z(double degrees, dvec3 p) {
  const double a = degrees * kPi / 180.0;
  return {std::cos(a) * p.x - std::sin(a) * p.y, std::sin(a) * p.x + std::cos(a) * p.y, p.z};
}

std::vector<dvec3> moved(const std::vector<dvec3>& points, dvec3 offset) {
  std::vector<dvec3> out;
  for (const dvec3& p : points) out.push_back(p + offset);
  return out;
}

// The triangle most tests draw: (0,0,0) (1,0,0) (0,1,0).
const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
const std::vector<dvec3> kTrianglePoints = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

// ---- Node matrices ----------------------------------------------------------------------------

// M (column-major in the file: columns (2,0,0) (1,3,0) (0,0,0.5), translation (10,20,30)):
//   M (x, y, z) = (2x + y + 10, 3y + 20, z/2 + 30)    — non-uniform scale plus shear x += y.
const std::string kShearMatrix = "[2,0,0,0, 1,3,0,0, 0,0,0.5,0, 10,20,30,1]";

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
