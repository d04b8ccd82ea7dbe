// Importing the small glTF files the import tests write: JSON with {URI} and {LEN} filled
// from a buffer, written to a temp folder and imported; the warnings looked up by code.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "import/gltf_import.h"
#include "import_test_gltf.h"

namespace rig::test {

// bufferView 0: a triangle (3 float VEC3); bufferView 1: 12 bytes that are no picture (the
// material tests' images: they import, and the renderer draws without them).
inline ByteBuffer triangle_and_picture() {
  ByteBuffer bin;
  bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
  bin.put<uint8_t>({'n', 'o', 't', ' ', 'a', ' ', 'p', 'n', 'g', '!', 0, 0});
  return bin;
}

inline const rig::ImportWarning* find_warning(const rig::Model& model, const std::string& code) {
  for (const rig::ImportWarning& warning : model.warnings) {
    if (warning.code == code) return &warning;
  }
  return nullptr;
}

// Writes `json` (with {URI} and {LEN} filled from `bin`) to this process's temp folder and
// imports it.
inline bool import_json(const std::string& name, std::string json, const ByteBuffer& bin,
                        rig::Model& model, std::string& error) {
  json = fill_in(json, "URI", data_uri(bin.data));
  json = fill_in(json, "LEN", std::to_string(bin.size()));
  const auto path = temp_folder("import") / (name + ".gltf");
  write_file(path, json);
  return rig::import_gltf(path.string(), model, error);
}

inline rig::Model import_ok(const std::string& name, const std::string& json,
                            const ByteBuffer& bin) {
  rig::Model model;
  std::string error;
  EXPECT_TRUE(import_json(name, json, bin, model, error)) << error;
  return model;
}

// The one-line error of a file the importer must refuse.
inline std::string import_error(const std::string& name, const std::string& json,
                                const ByteBuffer& bin) {
  rig::Model model;
  std::string error;
  EXPECT_FALSE(import_json(name, json, bin, model, error));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

}  // namespace rig::test
