// Helpers of the export conformance tests (export_conformance_test.cpp and
// export_conformance_skin_test.cpp): small glTF files written in the test, the rigview
// binary run on them, and its OBJ read back.
#pragma once

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

namespace export_conformance {

namespace fs = std::filesystem;
using glm::dvec3;

// Quaternion components written into the JSON (x, y, z, w order as glTF stores them).
inline const std::string kHalf = "0.7071067811865476";  // sin 45° = cos 45°: a 90° turn about Z
inline constexpr double kSqrtHalf = 0.70710678118654752440;
inline constexpr double kPi = std::numbers::pi;

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
inline std::string fill(std::string text,
                        std::initializer_list<std::pair<const char*, int>> values) {
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

inline std::vector<ObjObject> parse_obj(const std::string& text) {
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

inline const fs::path& folder() {
  static const fs::path dir = rig::test::temp_folder("conformance");
  return dir;
}

// Writes the model, runs `rigview --export-obj OUT <args> MODEL` and parses OUT.
inline std::vector<ObjObject> export_obj(const std::string& name, const std::string& gltf,
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

inline double bbox_diagonal(const std::vector<Expected>& objects) {
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
inline void expect_objects(const std::vector<ObjObject>& got, const std::vector<Expected>& want,
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
inline dvec3 rot_z(double degrees, dvec3 p) {
  const double a = degrees * kPi / 180.0;
  return {std::cos(a) * p.x - std::sin(a) * p.y, std::sin(a) * p.x + std::cos(a) * p.y, p.z};
}

inline std::vector<dvec3> moved(const std::vector<dvec3>& points, dvec3 offset) {
  std::vector<dvec3> out;
  for (const dvec3& p : points) out.push_back(p + offset);
  return out;
}

// The triangle most tests draw: (0,0,0) (1,0,0) (0,1,0).
inline const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
inline const std::vector<dvec3> kTrianglePoints = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

// ---- Node matrices ----------------------------------------------------------------------------

// M (column-major in the file: columns (2,0,0) (1,3,0) (0,0,0.5), translation (10,20,30)):
//   M (x, y, z) = (2x + y + 10, 3y + 20, z/2 + 30)    — non-uniform scale plus shear x += y.
inline const std::string kShearMatrix = "[2,0,0,0, 1,3,0,0, 0,0,0.5,0, 10,20,30,1]";

}  // namespace export_conformance
