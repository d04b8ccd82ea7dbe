// Helpers for tests that write their own small glTF files: little-endian buffers, base64 data
// URIs, GLB containers and temporary folders. Used by tests/engine/import_*_test.cpp and
// tests/app/bad_input_test.cpp.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rig::test {

// A binary buffer built value by value (x86 and every glTF file are little-endian).
struct ByteBuffer {
  std::vector<uint8_t> data;

  // Appends the values and returns the byte offset where they start.
  template <typename T>
  size_t put(std::initializer_list<T> values) {
    const size_t offset = data.size();
    for (const T& value : values) {
      uint8_t raw[sizeof(T)];
      std::memcpy(raw, &value, sizeof(T));
      data.insert(data.end(), raw, raw + sizeof(T));
    }
    return offset;
  }
  void pad4() {
    while (data.size() % 4 != 0) data.push_back(0);
  }
  size_t size() const { return data.size(); }
};

inline std::string base64(const std::vector<uint8_t>& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint32_t{bytes[i]} << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

inline std::string data_uri(const std::vector<uint8_t>& bytes) {
  return "data:application/octet-stream;base64," + base64(bytes);
}

// Replaces every "{KEY}" in `text` with `value` (JSON templates in the tests).
inline std::string fill_in(std::string text, const std::string& key, const std::string& value) {
  const std::string marker = "{" + key + "}";
  for (size_t at = text.find(marker); at != std::string::npos;
       at = text.find(marker, at + value.size())) {
    text.replace(at, marker.size(), value);
  }
  return text;
}

// This process's folder under the system temp folder, removed with everything in it when the
// test program exits normally (a static's destructor), so runs leave nothing behind.
inline const std::filesystem::path& temp_root() {
  struct Root {
    std::filesystem::path dir;
    ~Root() {
      std::error_code ignored;  // best effort: never throw from a destructor at exit
      std::filesystem::remove_all(dir, ignored);
    }
  };
  static const Root root{std::filesystem::temp_directory_path() /
                         ("rigview_import_" + std::to_string(::getpid()))};
  return root.dir;
}

// A fresh folder under temp_root(), unique per process and name.
inline std::filesystem::path temp_folder(const std::string& name) {
  const std::filesystem::path dir = temp_root() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline void write_file(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

// A GLB container (spec "Binary glTF Layout"): 12-byte header, JSON chunk padded with spaces,
// BIN chunk padded with zeros.
inline std::vector<uint8_t> make_glb(std::string json, std::vector<uint8_t> bin) {
  while (json.size() % 4 != 0) json += ' ';
  while (bin.size() % 4 != 0) bin.push_back(0);
  ByteBuffer glb;
  const uint32_t total =
      static_cast<uint32_t>(12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size()));
  glb.put<uint32_t>({0x46546C67u, 2u, total});
  glb.put<uint32_t>({static_cast<uint32_t>(json.size()), 0x4E4F534Au});
  glb.data.insert(glb.data.end(), json.begin(), json.end());
  if (!bin.empty()) {
    glb.put<uint32_t>({static_cast<uint32_t>(bin.size()), 0x004E4942u});
    glb.data.insert(glb.data.end(), bin.begin(), bin.end());
  }
  return glb.data;
}

// A triangle whose buffer lives in an external file named by `uri` (36 bytes of floats), and
// such a file: the triangle (x, 0, 0), (1, 0, 0), (0, 1, 0).
inline std::string triangle_gltf(const std::string& uri) {
  return fill_in(R"({
    "asset":{"version":"2.0"},
    "buffers":[{"byteLength":36,"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteLength":36}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                 "URI", uri);
}

inline std::vector<uint8_t> triangle_bin(float x) {
  ByteBuffer bin;
  bin.put<float>({x, 0, 0, 1, 0, 0, 0, 1, 0});
  return bin.data;
}

}  // namespace rig::test
