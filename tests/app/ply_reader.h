// Reads rigview's --export-ply files back for the command-line tests: the float vertex
// properties by name and the triangle faces (uchar count, uint indices).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace rig::test {

struct PlyMesh {
  std::vector<std::string> properties;
  size_t vertices = 0;
  std::vector<float> values;  // vertices × properties
  std::vector<std::array<uint32_t, 3>> faces;
  float at(size_t v, const std::string& property) const {
    for (size_t p = 0; p < properties.size(); ++p)
      if (properties[p] == property) return values[v * properties.size() + p];
    ADD_FAILURE() << "no property " << property;
    return 0.0f;
  }
};

inline PlyMesh read_ply_mesh(const std::string& path) {
  const std::string data = slurp(path);
  PlyMesh ply;
  const std::string end_marker = "end_header\n";
  const size_t end = data.find(end_marker);
  EXPECT_NE(end, std::string::npos) << path;
  if (end == std::string::npos) return ply;
  std::istringstream header(data.substr(0, end));
  size_t faces = 0;
  for (std::string line; std::getline(header, line);) {
    std::istringstream words(line);
    std::string word, kind, name;
    words >> word;
    if (word == "element") {
      words >> kind;
      (kind == "vertex" ? ply.vertices : faces) = 0;
      words >> (kind == "vertex" ? ply.vertices : faces);
    } else if (word == "property") {
      words >> kind;
      if (kind == "float") {
        words >> name;
        ply.properties.push_back(name);
      }
    }
  }
  size_t at = end + end_marker.size();
  const size_t floats = ply.vertices * ply.properties.size();
  EXPECT_GE(data.size(), at + floats * 4 + faces * 13) << path;
  if (data.size() < at + floats * 4 + faces * 13) return ply;
  ply.values.resize(floats);
  std::memcpy(ply.values.data(), data.data() + at, floats * 4);
  at += floats * 4;
  for (size_t f = 0; f < faces; ++f) {
    EXPECT_EQ(data[at], char(3));
    std::array<uint32_t, 3> face{};
    std::memcpy(face.data(), data.data() + at + 1, 12);
    ply.faces.push_back(face);
    at += 13;
  }
  return ply;
}

}  // namespace rig::test
