// One bounds-checked path from a glTF accessor to plain arrays. Every attribute, index list,
// key time, key value and matrix goes through here, so the range and overflow checks are written
// once: a hostile file cannot make the importer read outside a buffer or allocate absurd amounts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/gltf_import.h"

namespace tinygltf {
class Model;
}

namespace rig::import {

// What is left of the import's decode budget (ImportLimits), in bytes. Shared by every stage.
struct DecodeBudget {
  uint64_t remaining = ~uint64_t{0};
  // Takes `bytes` for `what`; false (with `error` set) when that would exceed the budget.
  bool charge(uint64_t bytes, const std::string& what, std::string& error) {
    if (bytes > remaining) {
      error = what + " would decode " + std::to_string(bytes) +
              " bytes, over what is left of the import's decode budget (" +
              std::to_string(remaining) + " bytes; see ImportLimits)";
      return false;
    }
    remaining -= bytes;
    return true;
  }
};

// The tail of every dangling-reference error: ", which does not exist (the file has 3)".
inline std::string does_not_exist(size_t count, const char* noun = "",
                                  const char* holder = "the file") {
  return std::string(", which does not exist (") + holder + " has " + std::to_string(count) + noun +
         ")";
}

// Accepted (componentType, normalized) combinations, as a bit set. The glTF spec (and
// KHR_mesh_quantization) fixes which of these each semantic may use.
constexpr unsigned kFloat = 1u << 0;
constexpr unsigned kByte = 1u << 1;
constexpr unsigned kByteNorm = 1u << 2;
constexpr unsigned kUByte = 1u << 3;
constexpr unsigned kUByteNorm = 1u << 4;
constexpr unsigned kShort = 1u << 5;
constexpr unsigned kShortNorm = 1u << 6;
constexpr unsigned kUShort = 1u << 7;
constexpr unsigned kUShortNorm = 1u << 8;
constexpr unsigned kUInt = 1u << 9;

// Element type of an accessor (tinygltf's TINYGLTF_TYPE_* values are not sequential, so we keep
// our own names and translate).
enum class ElementType { Scalar, Vec2, Vec3, Vec4, Mat4 };

// Ceilings checked before anything is allocated. 2^27 elements is far beyond any character model
// (and the bufferView must also really hold them); accessors without a bufferView cost no file
// bytes at all, so they get a tighter ceiling.
constexpr uint64_t kMaxAccessorElements = uint64_t{1} << 27;
constexpr uint64_t kMaxBufferlessElements = uint64_t{1} << 24;

uint32_t component_count(ElementType type);

// The bytes of bufferView `index`, after checking that it lies inside its buffer
// ("bufferView 3 reads past the end of buffer 0 (byteOffset 100 + byteLength 400 > 320)").
bool buffer_view_bytes(const tinygltf::Model& model, int index, const uint8_t*& data,
                       uint64_t& length, std::string& error);
const char* element_type_name(ElementType type);

class AccessorReader {
 public:
  explicit AccessorReader(const tinygltf::Model& model) : model_(model) {}
  AccessorReader(const tinygltf::Model& model, const ImportLimits& limits, DecodeBudget& budget)
      : model_(model), limits_(limits), budget_(&budget) {}

  // Number of elements of accessor `index` after checking that the index exists and the count
  // is not absurd. Used to match attribute counts before reading.
  bool element_count(int index, uint64_t& count, std::string& error) const;

  // Reads every element as floats, component by component (count * components values).
  // Normalized integers follow the spec (u8 c/255, i8 max(c/127,-1), u16 c/65535,
  // i16 max(c/32767,-1)); other integers convert as-is. Sparse substitution is applied.
  bool read_floats(int index, ElementType type, unsigned formats, std::vector<float>& out,
                   std::string& error) const;

  // Same for integer data (indices, joints). `formats` must only hold integer formats.
  bool read_uints(int index, ElementType type, unsigned formats, std::vector<uint32_t>& out,
                  std::string& error) const;

  // The accessor's componentType (TINYGLTF_COMPONENT_TYPE_*), or -1 for a bad index.
  int component_type(int index) const;

 private:
  struct Layout;
  bool resolve(int index, ElementType type, unsigned formats, Layout& layout,
               std::string& error) const;
  template <typename T, typename Decode>
  bool read(int index, ElementType type, unsigned formats, std::vector<T>& out, Decode decode,
            std::string& error) const;

  const tinygltf::Model& model_;
  ImportLimits limits_;
  DecodeBudget* budget_ = nullptr;  // nullptr: unlimited (beyond the element caps)
};

}  // namespace rig::import
