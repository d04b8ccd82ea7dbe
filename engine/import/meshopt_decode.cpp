#include "import/meshopt_decode.h"

#include <meshoptimizer.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace rig::import {
namespace {

constexpr const char* kExtension = "EXT_meshopt_compression";
// What a buffer without data becomes for tinygltf: three zero bytes as a data: URI.
constexpr const char* kPlaceholderUri = "data:application/octet-stream;base64,AAAA";
constexpr uint64_t kPlaceholderLength = 3;
// Far above any real bufferView (the decoded size is also charged to the decode budget), low
// enough that count * byteStride (byteStride <= 256) cannot overflow.
constexpr uint64_t kMaxCount = uint64_t{1} << 32;

enum class Mode { Attributes, Triangles, Indices };
enum class Filter { None, Octahedral, Quaternion, Exponential };

struct Compressed {
  uint64_t buffer = 0, offset = 0, length = 0, stride = 0, count = 0;
  Mode mode = Mode::Attributes;
  Filter filter = Filter::None;
};

// A non-negative integer member of the extension object (tinygltf keeps large ones as reals).
bool read_integer(const tinygltf::Value& object, const char* key, bool required, uint64_t limit,
                  uint64_t& out, const std::string& at, std::string& error) {
  if (!object.Has(key)) {
    if (!required) return true;
    error = at + ": " + kExtension + " has no '" + key + "'";
    return false;
  }
  const tinygltf::Value& value = object.Get(key);
  const double number = value.IsNumber() ? value.GetNumberAsDouble() : -1.0;
  if (!(number >= 0.0) || number != std::floor(number) || number > static_cast<double>(limit)) {
    error =
        at + ": " + kExtension + " '" + key + "' is not an integer in 0.." + std::to_string(limit);
    return false;
  }
  out = static_cast<uint64_t>(number);
  return true;
}

bool read_name(const tinygltf::Value& object, const char* key, const char* fallback,
               std::string& out, const std::string& at, std::string& error) {
  if (!object.Has(key)) {
    if (fallback) {
      out = fallback;
      return true;
    }
    error = at + ": " + kExtension + " has no '" + key + "'";
    return false;
  }
  const tinygltf::Value& value = object.Get(key);
  if (!value.IsString()) {
    error = at + ": " + kExtension + " '" + key + "' is not a string";
    return false;
  }
  out = value.Get<std::string>();
  return true;
}

// The extension object of bufferView `at`, checked against the rules of the extension's
// specification ("For the extension object to be valid, the following must hold").
bool parse_compressed(const tinygltf::BufferView& view, const tinygltf::Value& object,
                      const std::string& at, Compressed& out, std::string& error) {
  if (!object.IsObject()) {
    error = at + ": " + kExtension + " is not an object";
    return false;
  }
  std::string mode, filter;
  if (!read_integer(object, "buffer", true, kMaxCount, out.buffer, at, error) ||
      !read_integer(object, "byteOffset", false, uint64_t{1} << 53, out.offset, at, error) ||
      !read_integer(object, "byteLength", true, uint64_t{1} << 53, out.length, at, error) ||
      !read_integer(object, "byteStride", true, 256, out.stride, at, error) ||
      !read_integer(object, "count", true, kMaxCount, out.count, at, error) ||
      !read_name(object, "mode", nullptr, mode, at, error) ||
      !read_name(object, "filter", "NONE", filter, at, error)) {
    return false;
  }
  const std::string prefix = at + ": " + kExtension + " ";
  if (mode == "ATTRIBUTES") {
    out.mode = Mode::Attributes;
  } else if (mode == "TRIANGLES") {
    out.mode = Mode::Triangles;
  } else if (mode == "INDICES") {
    out.mode = Mode::Indices;
  } else {
    error = prefix + "mode '" + mode + "' is unknown (ATTRIBUTES, TRIANGLES or INDICES)";
    return false;
  }
  if (filter == "NONE") {
    out.filter = Filter::None;
  } else if (filter == "OCTAHEDRAL") {
    out.filter = Filter::Octahedral;
  } else if (filter == "QUATERNION") {
    out.filter = Filter::Quaternion;
  } else if (filter == "EXPONENTIAL") {
    out.filter = Filter::Exponential;
  } else {
    error = prefix + "filter '" + filter + "' is unknown";
    return false;
  }
  const std::string stride = std::to_string(out.stride);
  if (out.mode == Mode::Attributes && (out.stride == 0 || out.stride % 4 != 0)) {
    error = prefix + "byteStride " + stride + " is not a multiple of 4 in 4..256 (ATTRIBUTES)";
    return false;
  }
  if (out.mode != Mode::Attributes && out.stride != 2 && out.stride != 4) {
    error = prefix + "byteStride " + stride + " is not 2 or 4 (" + mode + ")";
    return false;
  }
  if (out.mode != Mode::Attributes && out.filter != Filter::None) {
    error = prefix + "filter " + filter + " is only allowed with mode ATTRIBUTES";
    return false;
  }
  if (out.mode == Mode::Triangles && out.count % 3 != 0) {
    error = prefix + "count " + std::to_string(out.count) + " is not a multiple of 3 (TRIANGLES)";
    return false;
  }
  if ((out.filter == Filter::Octahedral && out.stride != 4 && out.stride != 8) ||
      (out.filter == Filter::Quaternion && out.stride != 8)) {
    error = prefix + "byteStride " + stride + " does not suit filter " + filter;
    return false;
  }
  if (view.byteStride != 0 && view.byteStride != out.stride) {
    error = prefix + "byteStride " + stride + " differs from the bufferView's byteStride " +
            std::to_string(view.byteStride);
    return false;
  }
  if (view.byteLength != out.count * out.stride) {
    error = at + " has byteLength " + std::to_string(view.byteLength) + " but its " + kExtension +
            " data decodes to count " + std::to_string(out.count) + " x byteStride " + stride +
            " = " + std::to_string(out.count * out.stride) + " bytes";
    return false;
  }
  return true;
}

bool is_no_data(const std::vector<int>& no_data, uint64_t buffer) {
  return buffer <= static_cast<uint64_t>(std::numeric_limits<int>::max()) &&
         std::binary_search(no_data.begin(), no_data.end(), static_cast<int>(buffer));
}

// Decodes one bufferView into `out` (count * stride bytes, already charged to the budget).
bool decode(const Compressed& c, const uint8_t* source, std::vector<unsigned char>& out,
            const std::string& at, std::string& error) {
  if (c.count == 0) return true;
  int result = 0;
  switch (c.mode) {
    case Mode::Attributes:
      result = meshopt_decodeVertexBuffer(out.data(), c.count, c.stride, source, c.length);
      break;
    case Mode::Triangles:
      result = meshopt_decodeIndexBuffer(out.data(), c.count, c.stride, source, c.length);
      break;
    case Mode::Indices:
      result = meshopt_decodeIndexSequence(out.data(), c.count, c.stride, source, c.length);
      break;
  }
  if (result != 0) {
    error = at + ": " + kExtension + " data is corrupt or truncated (meshopt error " +
            std::to_string(result) + ")";
    return false;
  }
  switch (c.filter) {
    case Filter::None:
      break;
    case Filter::Octahedral:
      meshopt_decodeFilterOct(out.data(), c.count, c.stride);
      break;
    case Filter::Quaternion:
      meshopt_decodeFilterQuat(out.data(), c.count, c.stride);
      break;
    case Filter::Exponential:
      meshopt_decodeFilterExp(out.data(), c.count, c.stride);
      break;
  }
  return true;
}

}  // namespace

bool mark_meshopt_fallback_buffers(std::string& json, bool is_glb, std::vector<int>& no_data) {
  no_data.clear();
  if (json.find(kExtension) == std::string::npos) return true;
  nlohmann::json root = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return false;
  if (!root.is_object()) return true;
  const auto buffers = root.find("buffers");
  if (buffers == root.end() || !buffers->is_array()) return true;
  for (size_t i = 0; i < buffers->size(); ++i) {
    nlohmann::json& buffer = (*buffers)[i];
    if (!buffer.is_object()) continue;
    bool fallback = false;
    if (const auto ext = buffer.find("extensions"); ext != buffer.end() && ext->is_object()) {
      if (const auto mine = ext->find(kExtension); mine != ext->end() && mine->is_object()) {
        const auto flag = mine->find("fallback");
        fallback = flag != mine->end() && flag->is_boolean() && flag->get<bool>();
      }
    }
    // The spec's placeholder: no URI, and not the GLB's BIN chunk (which only buffer 0 can be).
    const bool placeholder = !buffer.contains("uri") && !(is_glb && i == 0);
    if (!fallback && !placeholder) continue;
    buffer["uri"] = kPlaceholderUri;
    buffer["byteLength"] = kPlaceholderLength;
    no_data.push_back(static_cast<int>(i));
  }
  if (no_data.empty()) return true;
  json = root.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return true;
}

bool decode_meshopt_buffer_views(tinygltf::Model& document, const std::vector<int>& no_data,
                                 DecodeBudget& budget, std::string& error) {
  for (int b : no_data) {
    if (b >= 0 && static_cast<size_t>(b) < document.buffers.size()) {
      document.buffers[static_cast<size_t>(b)].data.clear();
    }
  }
  const size_t view_count = document.bufferViews.size();
  for (size_t v = 0; v < view_count; ++v) {
    tinygltf::BufferView& view = document.bufferViews[v];
    const std::string at = "bufferView " + std::to_string(v);
    const auto ext = view.extensions.find(kExtension);
    if (ext == view.extensions.end()) {
      if (view.buffer >= 0 && is_no_data(no_data, static_cast<uint64_t>(view.buffer))) {
        error = at + " reads buffer " + std::to_string(view.buffer) +
                ", which holds no data (an EXT_meshopt_compression fallback buffer), without "
                "being compressed itself";
        return false;
      }
      continue;
    }
    Compressed c;
    if (!parse_compressed(view, ext->second, at, c, error)) return false;
    if (c.buffer >= document.buffers.size()) {
      error = at + ": " + kExtension + " uses buffer " + std::to_string(c.buffer) +
              does_not_exist(document.buffers.size(), " buffers");
      return false;
    }
    if (is_no_data(no_data, c.buffer)) {
      error = at + ": " + kExtension + " reads buffer " + std::to_string(c.buffer) +
              ", a fallback buffer that holds no data";
      return false;
    }
    const std::vector<unsigned char>& source = document.buffers[c.buffer].data;
    if (c.length > source.size() || c.offset > source.size() - c.length) {
      error = at + ": " + kExtension + " data reads past the end of buffer " +
              std::to_string(c.buffer) + " (byteOffset " + std::to_string(c.offset) +
              " + byteLength " + std::to_string(c.length) + " > " + std::to_string(source.size()) +
              ")";
      return false;
    }
    // Checked before allocating: the size follows from count and byteStride, and a few bytes of
    // compressed data can claim gigabytes.
    if (!budget.charge(c.count * c.stride, at + " (" + kExtension + ")", error)) return false;
    tinygltf::Buffer decoded;
    decoded.data.resize(c.count * c.stride);
    if (!decode(c, source.data() + c.offset, decoded.data, at, error)) return false;
    document.buffers.push_back(std::move(decoded));
    view.buffer = static_cast<int>(document.buffers.size() - 1);
    view.byteOffset = 0;
  }
  return true;
}

}  // namespace rig::import
