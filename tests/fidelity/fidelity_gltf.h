// A small glTF document builder for the fidelity suite's generated scenes: float and integer
// accessors in one buffer (a base64 data URI), PNG images as data URIs, and the rest of the
// document (materials, nodes, skins, animations) as JSON text the scenes write themselves.
// Also the geometry the scenes are made of (spheres, squares, open tubes) with normals,
// tangents and UVs worked out analytically.
#pragma once

#include <stb/stb_image_write.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "../engine/import_test_gltf.h"

namespace rig::fidelity {

constexpr float kPi = 3.14159265358979f;

// One primitive's vertex data. Empty arrays are attributes the primitive does not have.
struct Prim {
  std::vector<float> positions, normals, tangents, colors, uv0, uv1, weights;  // xyz, xyzw, rgba
  std::vector<uint16_t> joints;                                                // 4 per vertex
  std::vector<uint16_t> indices;
  int material = -1;

  size_t vertex_count() const { return positions.size() / 3; }
  // Appends `other` (same attributes) with its indices shifted.
  void append(const Prim& other) {
    const auto base = uint16_t(vertex_count());
    positions.insert(positions.end(), other.positions.begin(), other.positions.end());
    normals.insert(normals.end(), other.normals.begin(), other.normals.end());
    tangents.insert(tangents.end(), other.tangents.begin(), other.tangents.end());
    colors.insert(colors.end(), other.colors.begin(), other.colors.end());
    uv0.insert(uv0.end(), other.uv0.begin(), other.uv0.end());
    uv1.insert(uv1.end(), other.uv1.begin(), other.uv1.end());
    weights.insert(weights.end(), other.weights.begin(), other.weights.end());
    joints.insert(joints.end(), other.joints.begin(), other.joints.end());
    for (uint16_t i : other.indices) indices.push_back(uint16_t(base + i));
  }
};

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

inline std::string json_array(const std::vector<float>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + num(values[i]);
  return out + "]";
}

class Doc {
 public:
  // A float accessor of `components` per element ("SCALAR", "VEC2", ... from the count).
  int floats(const std::vector<float>& values, int components, bool min_max = false,
             const char* type = nullptr) {
    static const char* kTypes[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    const size_t offset = buffer_.size();
    for (float f : values) buffer_.put<float>({f});
    const size_t count = values.size() / size_t(components);
    std::string extra;
    if (min_max) {
      std::vector<float> lo(size_t(components), 1e30f), hi(size_t(components), -1e30f);
      for (size_t i = 0; i < values.size(); ++i) {
        lo[i % size_t(components)] = std::min(lo[i % size_t(components)], values[i]);
        hi[i % size_t(components)] = std::max(hi[i % size_t(components)], values[i]);
      }
      extra = ",\"min\":" + json_array(lo) + ",\"max\":" + json_array(hi);
    }
    return accessor(view(offset, buffer_.size() - offset), 5126, count,
                    type ? type : kTypes[components], extra);
  }
  int ushorts(const std::vector<uint16_t>& values, const char* type, int components,
              bool index_target) {
    const size_t offset = buffer_.size();
    for (uint16_t v : values) buffer_.put<uint16_t>({v});
    const size_t length = buffer_.size() - offset;
    buffer_.pad4();
    return accessor(view(offset, length, index_target ? 34963 : 0), 5123,
                    values.size() / size_t(components), type, "");
  }

  // RGBA8 texels, rows top first, as a PNG image; returns the texture of it.
  int texture(const std::vector<uint8_t>& rgba, int width, int height,
              const std::string& sampler = "") {
    std::vector<uint8_t> png;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
          auto* out = static_cast<std::vector<uint8_t>*>(context);
          out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
        },
        &png, width, height, 4, rgba.data(), width * 4);
    images_.push_back("{\"uri\":\"data:image/png;base64," + rig::test::base64(png) + "\"}");
    std::string texture = "{\"source\":" + std::to_string(images_.size() - 1);
    if (!sampler.empty()) {
      samplers_.push_back(sampler);
      texture += ",\"sampler\":" + std::to_string(samplers_.size() - 1);
    }
    textures_.push_back(texture + "}");
    return int(textures_.size() - 1);
  }

  int material(const std::string& json) { return push(materials_, json); }
  void uses(const std::string& extension) { extensions_.insert(extension); }

  // A mesh of `prims`; returns the mesh index.
  int mesh(const std::vector<Prim>& prims) {
    std::string out = "{\"primitives\":[";
    for (size_t p = 0; p < prims.size(); ++p) {
      const Prim& m = prims[p];
      std::string a = "\"POSITION\":" + std::to_string(floats(m.positions, 3, true));
      if (!m.normals.empty()) a += ",\"NORMAL\":" + std::to_string(floats(m.normals, 3));
      if (!m.tangents.empty()) a += ",\"TANGENT\":" + std::to_string(floats(m.tangents, 4));
      if (!m.colors.empty()) a += ",\"COLOR_0\":" + std::to_string(floats(m.colors, 4));
      if (!m.uv0.empty()) a += ",\"TEXCOORD_0\":" + std::to_string(floats(m.uv0, 2));
      if (!m.uv1.empty()) a += ",\"TEXCOORD_1\":" + std::to_string(floats(m.uv1, 2));
      if (!m.joints.empty())
        a += ",\"JOINTS_0\":" + std::to_string(ushorts(m.joints, "VEC4", 4, false));
      if (!m.weights.empty()) a += ",\"WEIGHTS_0\":" + std::to_string(floats(m.weights, 4));
      out += std::string(p ? "," : "") + "{\"attributes\":{" + a +
             "},\"indices\":" + std::to_string(ushorts(m.indices, "SCALAR", 1, true)) +
             (m.material >= 0 ? ",\"material\":" + std::to_string(m.material) : "") + "}";
    }
    return push(meshes_, out + "]}");
  }
  // A node (its JSON object); `root` puts it in the scene.
  int node(const std::string& json, bool root = true) {
    const int index = push(nodes_, json);
    if (root) roots_.push_back(index);
    return index;
  }
  int skin(const std::string& json) { return push(skins_, json); }
  int animation(const std::string& json) { return push(animations_, json); }

  std::string json() const {
    std::string roots;
    for (size_t i = 0; i < roots_.size(); ++i) roots += (i ? "," : "") + std::to_string(roots_[i]);
    std::string out = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"rigview fidelity suite\"}";
    if (!extensions_.empty()) {
      std::string list;
      for (const auto& e : extensions_) list += (list.empty() ? "\"" : ",\"") + e + "\"";
      out += ",\"extensionsUsed\":[" + list + "]";
    }
    out += ",\"scene\":0,\"scenes\":[{\"nodes\":[" + roots + "]}]";
    out += section("nodes", nodes_) + section("meshes", meshes_) +
           section("materials", materials_) + section("textures", textures_) +
           section("images", images_) + section("samplers", samplers_) + section("skins", skins_) +
           section("animations", animations_) + section("accessors", accessors_) +
           section("bufferViews", views_);
    out += ",\"buffers\":[{\"byteLength\":" + std::to_string(buffer_.size()) + ",\"uri\":\"" +
           rig::test::data_uri(buffer_.data) + "\"}]}";
    return out;
  }

 private:
  static int push(std::vector<std::string>& list, const std::string& json) {
    list.push_back(json);
    return int(list.size() - 1);
  }
  static std::string section(const char* name, const std::vector<std::string>& list) {
    if (list.empty()) return "";
    std::string out = std::string(",\"") + name + "\":[";
    for (size_t i = 0; i < list.size(); ++i) out += (i ? "," : "") + list[i];
    return out + "]";
  }
  int view(size_t offset, size_t length, int target = 0) {
    return push(views_, "{\"buffer\":0,\"byteOffset\":" + std::to_string(offset) +
                            ",\"byteLength\":" + std::to_string(length) +
                            (target ? ",\"target\":" + std::to_string(target) : "") + "}");
  }
  int accessor(int view, int component, size_t count, const char* type, const std::string& extra) {
    return push(accessors_, "{\"bufferView\":" + std::to_string(view) + ",\"componentType\":" +
                                std::to_string(component) + ",\"count\":" + std::to_string(count) +
                                ",\"type\":\"" + type + "\"" + extra + "}");
  }

  rig::test::ByteBuffer buffer_;
  std::vector<std::string> views_, accessors_, meshes_, nodes_, materials_, textures_, images_,
      samplers_, skins_, animations_;
  std::vector<int> roots_;
  std::set<std::string> extensions_;
};

// A sphere of radius r at (cx, cy, cz): `rings` from +Y down, `segments` around Y. UV u along
// the segments, v down the rings (glTF's top-left origin); the tangent is ∂P/∂u normalised,
// (cos φ, 0, −sin φ), with w = +1: cross(N, T) = −∂P/∂v, the bitangent pointing to decreasing
// v as glTF's normal textures expect (green up in the image).
inline Prim sphere(float cx, float cy, float cz, float r, int rings = 24, int segments = 32,
                   int material = -1) {
  Prim m;
  for (int i = 0; i <= rings; ++i) {
    const float theta = kPi * float(i) / float(rings);
    for (int j = 0; j <= segments; ++j) {
      const float phi = 2.0f * kPi * float(j) / float(segments);
      const float n[3] = {std::sin(theta) * std::sin(phi), std::cos(theta),
                          std::sin(theta) * std::cos(phi)};
      m.positions.insert(m.positions.end(), {cx + r * n[0], cy + r * n[1], cz + r * n[2]});
      m.normals.insert(m.normals.end(), {n[0], n[1], n[2]});
      m.tangents.insert(m.tangents.end(), {std::cos(phi), 0.0f, -std::sin(phi), 1.0f});
      m.uv0.insert(m.uv0.end(), {float(j) / float(segments), float(i) / float(rings)});
    }
  }
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const auto a = uint16_t(i * (segments + 1) + j), b = uint16_t(a + segments + 1);
      m.indices.insert(m.indices.end(),
                       {a, b, uint16_t(a + 1), uint16_t(a + 1), b, uint16_t(b + 1)});
    }
  m.material = material;
  return m;
}

// A square of half size h centred on (cx, cy, cz) facing +Z, split in n × n cells; u = 0..1
// left to right, v = 0..1 top to bottom; tangent +X (w = +1: cross(+Z, +X) = +Y, towards
// decreasing v).
inline Prim square(float cx, float cy, float cz, float h, int material = -1, int n = 4) {
  Prim m;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const float u = float(j) / float(n), v = float(i) / float(n);
      m.positions.insert(m.positions.end(), {cx - h + 2 * h * u, cy + h - 2 * h * v, cz});
      m.normals.insert(m.normals.end(), {0, 0, 1});
      m.tangents.insert(m.tangents.end(), {1, 0, 0, 1});
      m.uv0.insert(m.uv0.end(), {u, v});
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const auto a = uint16_t(i * (n + 1) + j), b = uint16_t(a + n + 1);
      m.indices.insert(m.indices.end(),
                       {a, b, uint16_t(a + 1), uint16_t(a + 1), b, uint16_t(b + 1)});
    }
  m.material = material;
  return m;
}

// An open tube (no caps) of radius r around the Y axis from y0 to y1 at (cx, cz), outward
// normals; its inside is only seen through the open ends.
inline Prim tube(float cx, float cz, float y0, float y1, float r, int segments = 32,
                 int material = -1) {
  Prim m;
  for (int i = 0; i <= 1; ++i)
    for (int j = 0; j <= segments; ++j) {
      const float phi = 2.0f * kPi * float(j) / float(segments);
      const float s = std::sin(phi), c = std::cos(phi);
      m.positions.insert(m.positions.end(), {cx + r * s, i ? y0 : y1, cz + r * c});
      m.normals.insert(m.normals.end(), {s, 0, c});
      m.uv0.insert(m.uv0.end(), {float(j) / float(segments), float(i)});
    }
  for (int j = 0; j < segments; ++j) {
    const auto a = uint16_t(j), b = uint16_t(j + segments + 1);
    m.indices.insert(m.indices.end(), {a, b, uint16_t(a + 1), uint16_t(a + 1), b, uint16_t(b + 1)});
  }
  m.material = material;
  return m;
}

}  // namespace rig::fidelity
