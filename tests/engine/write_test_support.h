// Shared by the document writer's tests (write_*_test.cpp): reading a written file back with
// tinygltf, independently of the writer.
#pragma once

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cstring>
#include <string>
#include <vector>

#include "import/gltf_file.h"
#include "test_support.h"

namespace rig::test {

// The document of a .gltf / .glb as tinygltf reads it (fails the test when it cannot).
inline tinygltf::Model read_document(const std::string& path) {
  import::GltfSource source;
  std::string error;
  EXPECT_TRUE(import::load_gltf_source(path, ImportOptions{}, source, error)) << path << error;
  return std::move(source.document);
}

// An accessor's bytes as stored (tightly packed views only; empty without a bufferView).
inline std::vector<uint8_t> accessor_bytes(const tinygltf::Model& doc, int index) {
  const tinygltf::Accessor& a = doc.accessors.at(size_t(index));
  if (a.bufferView < 0) return {};
  const tinygltf::BufferView& v = doc.bufferViews.at(size_t(a.bufferView));
  const size_t size = a.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type))) *
                      size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType)));
  const std::vector<unsigned char>& data = doc.buffers.at(size_t(v.buffer)).data;
  const size_t at = v.byteOffset + a.byteOffset;
  EXPECT_LE(at + size, data.size());
  if (at + size > data.size()) return {};
  return std::vector<uint8_t>(data.begin() + std::ptrdiff_t(at),
                              data.begin() + std::ptrdiff_t(at + size));
}

inline std::vector<float> accessor_floats(const tinygltf::Model& doc, int index) {
  const std::vector<uint8_t> bytes = accessor_bytes(doc, index);
  std::vector<float> out(bytes.size() / 4);
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

inline std::string scratch_file(const std::string& name) { return (scratch_dir() / name).string(); }

}  // namespace rig::test
