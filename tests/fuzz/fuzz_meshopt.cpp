// libFuzzer target: EXT_meshopt_compression's decoding behind the importer's checks. The first
// six bytes choose the extension object (mode, filter, byteStride, count); the rest is the
// compressed stream. Every input must decode or be refused with one line, within the budget.
// Built by `make fuzz` (clang-14, ASan + UBSan); see tests/fuzz/CMakeLists.txt.
#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "import/meshopt_decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 6) return 0;
  static const char* const kModes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES", "OTHER"};
  static const char* const kFilters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
  const int stride = data[2];
  const int count = data[3] | data[4] << 8;  // up to 2^16 elements
  tinygltf::Model document;
  tinygltf::Buffer buffer;
  buffer.data.assign(data + 6, data + size);
  document.buffers.push_back(std::move(buffer));
  document.buffers.emplace_back();  // the fallback buffer, no data
  tinygltf::BufferView view;
  view.buffer = 1;
  view.byteLength = static_cast<size_t>(stride) * static_cast<size_t>(count);
  tinygltf::Value::Object extension;
  extension["buffer"] = tinygltf::Value(0);
  extension["byteLength"] = tinygltf::Value(static_cast<int>(size - 6));
  extension["byteStride"] = tinygltf::Value(stride);
  extension["count"] = tinygltf::Value(count);
  extension["mode"] = tinygltf::Value(std::string(kModes[data[0] & 3]));
  extension["filter"] = tinygltf::Value(std::string(kFilters[data[1] & 3]));
  view.extensions["EXT_meshopt_compression"] = tinygltf::Value(extension);
  document.bufferViews.push_back(view);
  rig::import::DecodeBudget budget{uint64_t{1} << 20};
  std::string error;
  rig::import::decode_meshopt_buffer_views(document, {1}, budget, error);
  return 0;
}
