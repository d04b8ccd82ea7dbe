// Small glTF scenes written by the reference-scene tests: triangle meshes (one node each, at
// the origin, identity transform) with positions, normals, optional COLOR_0, TEXCOORD_0/1,
// TANGENT and materials given as JSON, in a .gltf with the buffer as a base64 data URI.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../engine/import_test_gltf.h"

namespace rig::test {

struct SceneMesh {
  std::vector<float> positions;   // xyz per vertex
  std::vector<float> normals;     // xyz per vertex (empty: no NORMAL)
  std::vector<float> colors;      // rgba per vertex (empty: no COLOR_0)
  std::vector<float> texcoords;   // uv per vertex (empty: no TEXCOORD_0)
  std::vector<float> texcoords1;  // uv per vertex (empty: no TEXCOORD_1)
  std::vector<float> tangents;    // xyzw per vertex (empty: no TANGENT)
  std::vector<uint16_t> indices;
  int material = -1;
  float translation[3] = {0, 0, 0};  // the node's translation
};

// A square of half size `h` centred on (cx, cy, cz) in the plane z = cz, facing +Z (counter-
// clockwise seen from +Z).
inline SceneMesh square_facing_z(float cx, float cy, float cz, float h, int material = -1) {
  SceneMesh m;
  m.positions = {cx - h, cy - h, cz, cx + h, cy - h, cz, cx + h, cy + h, cz, cx - h, cy + h, cz};
  m.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  m.indices = {0, 1, 2, 0, 2, 3};
  m.material = material;
  return m;
}

// A sphere of radius r at c, `rings` × `segments` quads, outward normals, counter-clockwise
// seen from outside.
inline SceneMesh sphere(float cx, float cy, float cz, float r, int rings, int segments,
                        int material = -1) {
  SceneMesh m;
  const float pi = 3.14159265358979f;
  for (int i = 0; i <= rings; ++i) {
    const float theta = pi * float(i) / float(rings);  // from +Y down
    for (int j = 0; j <= segments; ++j) {
      const float phi = 2.0f * pi * float(j) / float(segments);
      const float n[3] = {std::sin(theta) * std::sin(phi), std::cos(theta),
                          std::sin(theta) * std::cos(phi)};
      for (int k = 0; k < 3; ++k) m.normals.push_back(n[k]);
      m.positions.push_back(cx + r * n[0]);
      m.positions.push_back(cy + r * n[1]);
      m.positions.push_back(cz + r * n[2]);
    }
  }
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const uint16_t a = uint16_t(i * (segments + 1) + j), b = uint16_t(a + segments + 1);
      m.indices.insert(m.indices.end(),
                       {a, b, uint16_t(a + 1), uint16_t(a + 1), b, uint16_t(b + 1)});
    }
  m.material = material;
  return m;
}

// The glTF JSON of `meshes`; `materials` is the JSON array of the materials ("" for none),
// `extensions` the extensionsUsed array ("" for none).
inline std::string scene_gltf(const std::vector<SceneMesh>& meshes,
                              const std::string& materials = "",
                              const std::string& extensions = "") {
  ByteBuffer buffer;
  std::string views, accessors, gltf_meshes, nodes, scene_nodes;
  int view = 0, accessor = 0;
  auto add_view = [&](size_t offset, size_t length, int target) {
    if (view) views += ",";
    views += "{\"buffer\":0,\"byteOffset\":" + std::to_string(offset) +
             ",\"byteLength\":" + std::to_string(length) + ",\"target\":" + std::to_string(target) +
             "}";
    return view++;
  };
  auto add_accessor = [&](int v, int type, size_t count, const char* kind,
                          const std::string& extra) {
    if (!accessors.empty()) accessors += ",";
    accessors += "{\"bufferView\":" + std::to_string(v) +
                 ",\"componentType\":" + std::to_string(type) +
                 ",\"count\":" + std::to_string(count) + ",\"type\":\"" + kind + "\"" + extra + "}";
    return accessor++;
  };
  auto floats = [&](const std::vector<float>& values) {
    const size_t offset = buffer.size();
    for (float f : values) buffer.put<float>({f});
    return offset;
  };
  for (size_t i = 0; i < meshes.size(); ++i) {
    const SceneMesh& m = meshes[i];
    const size_t n = m.positions.size() / 3;
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (size_t v = 0; v < n; ++v)
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], m.positions[v * 3 + k]);
        hi[k] = std::max(hi[k], m.positions[v * 3 + k]);
      }
    auto vec = [](const float* x) {
      return "[" + std::to_string(x[0]) + "," + std::to_string(x[1]) + "," + std::to_string(x[2]) +
             "]";
    };
    std::string attributes;
    size_t offset = floats(m.positions);
    attributes += "\"POSITION\":" +
                  std::to_string(add_accessor(add_view(offset, n * 12, 34962), 5126, n, "VEC3",
                                              ",\"min\":" + vec(lo) + ",\"max\":" + vec(hi)));
    if (!m.normals.empty()) {
      offset = floats(m.normals);
      attributes += ",\"NORMAL\":" + std::to_string(add_accessor(add_view(offset, n * 12, 34962),
                                                                 5126, n, "VEC3", ""));
    }
    if (!m.colors.empty()) {
      offset = floats(m.colors);
      attributes += ",\"COLOR_0\":" + std::to_string(add_accessor(add_view(offset, n * 16, 34962),
                                                                  5126, n, "VEC4", ""));
    }
    if (!m.texcoords.empty()) {
      offset = floats(m.texcoords);
      attributes += ",\"TEXCOORD_0\":" + std::to_string(add_accessor(add_view(offset, n * 8, 34962),
                                                                     5126, n, "VEC2", ""));
    }
    if (!m.texcoords1.empty()) {
      offset = floats(m.texcoords1);
      attributes += ",\"TEXCOORD_1\":" + std::to_string(add_accessor(add_view(offset, n * 8, 34962),
                                                                     5126, n, "VEC2", ""));
    }
    if (!m.tangents.empty()) {
      offset = floats(m.tangents);
      attributes += ",\"TANGENT\":" + std::to_string(add_accessor(add_view(offset, n * 16, 34962),
                                                                  5126, n, "VEC4", ""));
    }
    offset = buffer.size();
    for (uint16_t index : m.indices) buffer.put<uint16_t>({index});
    const size_t index_bytes = buffer.size() - offset;
    buffer.pad4();
    const int indices =
        add_accessor(add_view(offset, index_bytes, 34963), 5123, m.indices.size(), "SCALAR", "");
    if (i) gltf_meshes += ",", nodes += ",", scene_nodes += ",";
    gltf_meshes += "{\"primitives\":[{\"attributes\":{" + attributes +
                   "},\"indices\":" + std::to_string(indices) +
                   (m.material >= 0 ? ",\"material\":" + std::to_string(m.material) : "") + "}]}";
    nodes += "{\"mesh\":" + std::to_string(i) + ",\"translation\":[" +
             std::to_string(m.translation[0]) + "," + std::to_string(m.translation[1]) + "," +
             std::to_string(m.translation[2]) + "]}";
    scene_nodes += std::to_string(i);
  }
  std::string json = "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[" +
                     scene_nodes + "]}],\"nodes\":[" + nodes + "],\"meshes\":[" + gltf_meshes +
                     "],\"accessors\":[" + accessors + "],\"bufferViews\":[" + views +
                     "],\"buffers\":[{\"byteLength\":" + std::to_string(buffer.size()) +
                     ",\"uri\":\"data:application/octet-stream;base64," + base64(buffer.data) +
                     "\"}]";
  if (!materials.empty()) json += ",\"materials\":" + materials;
  if (!extensions.empty()) json += ",\"extensionsUsed\":" + extensions;
  return json + "}";
}

// `json` (a document from scene_gltf) with one image, the PNG file bytes `png` as a data URI, and
// one texture of it (index 0), sampled by `sampler` (a JSON object; empty: no sampler, glTF's
// default sampling).
inline std::string with_image_texture(std::string json, const std::vector<uint8_t>& png,
                                      const std::string& sampler = "") {
  json.pop_back();
  json += ",\"images\":[{\"uri\":\"data:image/png;base64," + base64(png) + "\"}]";
  if (sampler.empty()) return json + ",\"textures\":[{\"source\":0}]}";
  return json + ",\"samplers\":[" + sampler + "],\"textures\":[{\"source\":0,\"sampler\":0}]}";
}

inline std::string write_scene(const std::filesystem::path& path, const std::string& json) {
  std::ofstream(path) << json;
  return path.string();
}

}  // namespace rig::test
