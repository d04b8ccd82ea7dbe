#include "import/accessor_reader.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>

namespace rig::import {
namespace {

uint32_t component_size(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

const char* component_type_name(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return "BYTE";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return "UNSIGNED_BYTE";
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return "SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return "UNSIGNED_SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return "UNSIGNED_INT";
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return "FLOAT";
    default:
      return "an invalid componentType";
  }
}

// 0 when glTF does not define the combination at all (e.g. normalized FLOAT, DOUBLE, INT).
unsigned format_bit(int component_type, bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return normalized ? 0 : kFloat;
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return normalized ? kByteNorm : kByte;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return normalized ? kUByteNorm : kUByte;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return normalized ? kShortNorm : kShort;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return normalized ? kUShortNorm : kUShort;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return normalized ? 0 : kUInt;
    default:
      return 0;
  }
}

int tinygltf_type(ElementType type) {
  switch (type) {
    case ElementType::Scalar:
      return TINYGLTF_TYPE_SCALAR;
    case ElementType::Vec2:
      return TINYGLTF_TYPE_VEC2;
    case ElementType::Vec3:
      return TINYGLTF_TYPE_VEC3;
    case ElementType::Vec4:
      return TINYGLTF_TYPE_VEC4;
    case ElementType::Mat4:
      return TINYGLTF_TYPE_MAT4;
  }
  return -1;
}

const char* tinygltf_type_name(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "an unknown type";
  }
}

template <typename T>
T load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);  // byte-wise: accessors need not be aligned in memory
  return value;
}

// The spec's decoding of one component to float ("Animations" / "Meshes" normalization table).
float decode_float(const uint8_t* p, int component_type, bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return load<float>(p);
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const float c = static_cast<float>(load<int8_t>(p));
      return normalized ? std::max(c / 127.0f, -1.0f) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      const float c = static_cast<float>(load<uint8_t>(p));
      return normalized ? c / 255.0f : c;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      const float c = static_cast<float>(load<int16_t>(p));
      return normalized ? std::max(c / 32767.0f, -1.0f) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      const float c = static_cast<float>(load<uint16_t>(p));
      return normalized ? c / 65535.0f : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return static_cast<float>(load<uint32_t>(p));
    default:
      return 0.0f;
  }
}

uint32_t decode_uint(const uint8_t* p, int component_type, bool /*normalized*/) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return load<uint8_t>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return load<uint16_t>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return load<uint32_t>(p);
    default:
      return 0;  // excluded by the format check before reading
  }
}

}  // namespace

bool buffer_view_bytes(const tinygltf::Model& model, int index, const uint8_t*& data,
                       uint64_t& length, std::string& error) {
  if (index < 0 || static_cast<size_t>(index) >= model.bufferViews.size()) {
    error = "bufferView " + std::to_string(index) + " does not exist (the file has " +
            std::to_string(model.bufferViews.size()) + ")";
    return false;
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(index)];
  if (view.buffer < 0 || static_cast<size_t>(view.buffer) >= model.buffers.size()) {
    error = "bufferView " + std::to_string(index) + " uses buffer " + std::to_string(view.buffer) +
            does_not_exist(model.buffers.size());
    return false;
  }
  const uint64_t buffer_size = model.buffers[static_cast<size_t>(view.buffer)].data.size();
  const uint64_t offset = view.byteOffset;
  const uint64_t view_length = view.byteLength;
  // Written as two comparisons so that offset + length cannot overflow.
  if (view_length > buffer_size || offset > buffer_size - view_length) {
    error = "bufferView " + std::to_string(index) + " reads past the end of buffer " +
            std::to_string(view.buffer) + " (byteOffset " + std::to_string(offset) +
            " + byteLength " + std::to_string(view_length) + " > " + std::to_string(buffer_size) +
            ")";
    return false;
  }
  data = model.buffers[static_cast<size_t>(view.buffer)].data.data() + offset;
  length = view_length;
  return true;
}

namespace {

// Checks that `bytes_needed` bytes starting at `offset` fit inside a view of `length` bytes.
bool fits(uint64_t offset, uint64_t bytes_needed, uint64_t length) {
  return offset <= length && bytes_needed <= length - offset;
}

}  // namespace

uint32_t component_count(ElementType type) {
  switch (type) {
    case ElementType::Scalar:
      return 1;
    case ElementType::Vec2:
      return 2;
    case ElementType::Vec3:
      return 3;
    case ElementType::Vec4:
      return 4;
    case ElementType::Mat4:
      return 16;
  }
  return 0;
}

const char* element_type_name(ElementType type) { return tinygltf_type_name(tinygltf_type(type)); }

struct AccessorReader::Layout {
  const uint8_t* data = nullptr;  // nullptr: no bufferView, every element starts as zeros
  uint64_t stride = 0;
  uint64_t count = 0;
  int component_type = 0;
  uint32_t components = 0;
  uint32_t component_size = 0;
  bool normalized = false;
  // Sparse substitution (sparse_count == 0 when the accessor is not sparse).
  uint64_t sparse_count = 0;
  const uint8_t* sparse_indices = nullptr;
  int sparse_index_type = 0;
  const uint8_t* sparse_values = nullptr;
};

int AccessorReader::component_type(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= model_.accessors.size()) return -1;
  return model_.accessors[static_cast<size_t>(index)].componentType;
}

bool AccessorReader::element_count(int index, uint64_t& count, std::string& error) const {
  if (index < 0 || static_cast<size_t>(index) >= model_.accessors.size()) {
    error = "accessor " + std::to_string(index) + " does not exist (the file has " +
            std::to_string(model_.accessors.size()) + ")";
    return false;
  }
  const tinygltf::Accessor& accessor = model_.accessors[static_cast<size_t>(index)];
  const uint64_t limit = accessor.bufferView >= 0
                             ? std::min(kMaxAccessorElements, limits_.max_accessor_elements)
                             : std::min(kMaxBufferlessElements, limits_.max_bufferless_elements);
  if (accessor.count > limit) {
    error = "accessor " + std::to_string(index) + " has count " + std::to_string(accessor.count) +
            ", too large (limit " + std::to_string(limit) + ")";
    return false;
  }
  count = accessor.count;
  return true;
}

bool AccessorReader::resolve(int index, ElementType type, unsigned formats, Layout& layout,
                             std::string& error) const {
  if (!element_count(index, layout.count, error)) return false;
  const tinygltf::Accessor& accessor = model_.accessors[static_cast<size_t>(index)];
  const std::string name = "accessor " + std::to_string(index);

  if (accessor.type != tinygltf_type(type)) {
    error =
        name + " is " + tinygltf_type_name(accessor.type) + ", expected " + element_type_name(type);
    return false;
  }
  const unsigned bit = format_bit(accessor.componentType, accessor.normalized);
  if (bit == 0 || (bit & formats) == 0) {
    error = name + " uses " + (accessor.normalized ? "normalized " : "") +
            component_type_name(accessor.componentType) + " components, not allowed here";
    return false;
  }
  layout.component_type = accessor.componentType;
  layout.normalized = accessor.normalized;
  layout.components = component_count(type);
  layout.component_size = component_size(accessor.componentType);
  const uint64_t element_size = uint64_t{layout.components} * layout.component_size;

  if (accessor.bufferView >= 0) {
    const uint8_t* view_data = nullptr;
    uint64_t view_length = 0;
    if (!buffer_view_bytes(model_, accessor.bufferView, view_data, view_length, error)) {
      error = name + ": " + error;
      return false;
    }
    const uint64_t declared_stride =
        model_.bufferViews[static_cast<size_t>(accessor.bufferView)].byteStride;
    if (declared_stride != 0 && declared_stride < element_size) {
      error = "bufferView " + std::to_string(accessor.bufferView) + " has byteStride " +
              std::to_string(declared_stride) + ", smaller than one element of " + name + " (" +
              std::to_string(element_size) + " bytes)";
      return false;
    }
    layout.stride = declared_stride != 0 ? declared_stride : element_size;
    // count <= 2^27 and stride <= 2^8 (tinygltf rejects larger strides): no overflow here.
    const uint64_t bytes_needed =
        layout.count == 0 ? 0 : layout.stride * (layout.count - 1) + element_size;
    if (!fits(accessor.byteOffset, bytes_needed, view_length)) {
      error = name + " reads past the end of bufferView " + std::to_string(accessor.bufferView) +
              " (byteOffset " + std::to_string(accessor.byteOffset) + " + " +
              std::to_string(bytes_needed) + " bytes > byteLength " + std::to_string(view_length) +
              ")";
      return false;
    }
    layout.data = view_data + accessor.byteOffset;
  }

  if (accessor.sparse.isSparse) {
    const auto& sparse = accessor.sparse;
    if (sparse.count < 1 || static_cast<uint64_t>(sparse.count) > layout.count) {
      error = name + " has sparse count " + std::to_string(sparse.count) + ", outside 1.." +
              std::to_string(layout.count);
      return false;
    }
    layout.sparse_count = static_cast<uint64_t>(sparse.count);
    const int index_type = sparse.indices.componentType;
    if (index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) {
      error = name + " has sparse indices of componentType " + std::to_string(index_type) +
              " (must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT)";
      return false;
    }
    layout.sparse_index_type = index_type;
    const uint8_t* view_data = nullptr;
    uint64_t view_length = 0;
    if (!buffer_view_bytes(model_, sparse.indices.bufferView, view_data, view_length, error)) {
      error = name + " sparse indices: " + error;
      return false;
    }
    if (sparse.indices.byteOffset < 0 ||
        !fits(static_cast<uint64_t>(sparse.indices.byteOffset),
              layout.sparse_count * component_size(index_type), view_length)) {
      error = name + " sparse indices read past the end of bufferView " +
              std::to_string(sparse.indices.bufferView);
      return false;
    }
    layout.sparse_indices = view_data + sparse.indices.byteOffset;
    if (!buffer_view_bytes(model_, sparse.values.bufferView, view_data, view_length, error)) {
      error = name + " sparse values: " + error;
      return false;
    }
    if (sparse.values.byteOffset < 0 || !fits(static_cast<uint64_t>(sparse.values.byteOffset),
                                              layout.sparse_count * element_size, view_length)) {
      error = name + " sparse values read past the end of bufferView " +
              std::to_string(sparse.values.bufferView);
      return false;
    }
    layout.sparse_values = view_data + sparse.values.byteOffset;
  }
  return true;
}

template <typename T, typename Decode>
bool AccessorReader::read(int index, ElementType type, unsigned formats, std::vector<T>& out,
                          Decode decode, std::string& error) const {
  Layout layout;
  if (!resolve(index, type, formats, layout, error)) return false;
  // Bounded: count was checked against the limits and against the bytes really present, and
  // the decoded size is charged to the import's budget before anything is allocated.
  if (budget_ && !budget_->charge(layout.count * layout.components * sizeof(T),
                                  "accessor " + std::to_string(index), error)) {
    return false;
  }
  out.assign(layout.count * layout.components, T{});
  if (layout.data) {
    for (uint64_t i = 0; i < layout.count; ++i) {
      const uint8_t* element = layout.data + i * layout.stride;
      for (uint32_t c = 0; c < layout.components; ++c) {
        out[i * layout.components + c] =
            decode(element + c * layout.component_size, layout.component_type, layout.normalized);
      }
    }
  }
  // Sparse values are tightly packed; each index replaces one whole element.
  const uint32_t index_size = component_size(layout.sparse_index_type);
  const uint64_t element_size = uint64_t{layout.components} * layout.component_size;
  for (uint64_t s = 0; s < layout.sparse_count; ++s) {
    const uint64_t target =
        decode_uint(layout.sparse_indices + s * index_size, layout.sparse_index_type, false);
    if (target >= layout.count) {
      error = "accessor " + std::to_string(index) + " sparse index " + std::to_string(s) + " is " +
              std::to_string(target) + " but the accessor has " + std::to_string(layout.count) +
              " elements";
      return false;
    }
    const uint8_t* element = layout.sparse_values + s * element_size;
    for (uint32_t c = 0; c < layout.components; ++c) {
      out[target * layout.components + c] =
          decode(element + c * layout.component_size, layout.component_type, layout.normalized);
    }
  }
  return true;
}

bool AccessorReader::read_floats(int index, ElementType type, unsigned formats,
                                 std::vector<float>& out, std::string& error) const {
  return read(index, type, formats, out, decode_float, error);
}

bool AccessorReader::read_uints(int index, ElementType type, unsigned formats,
                                std::vector<uint32_t>& out, std::string& error) const {
  // Only unsigned integer formats can be read as indices.
  return read(index, type, formats & (kUByte | kUShort | kUInt), out, decode_uint, error);
}

}  // namespace rig::import
