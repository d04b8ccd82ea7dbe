// The edits a glTF document write applies (write/document_writer.h): plain data, one struct per
// kind, gathered in a DocumentEdit variant. Everything an edit does not name stays as the file
// had it.
//
// Indices name the input document's objects: `animation` is an index into the file's
// animations, whatever other edits remove or add. Two edits of the same object (one animation,
// one primitive's influence set, one skin) are refused.
#pragma once

#include <array>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace rig {
struct Clip;
}

namespace rig::write {

// glTF's codes (the constants tinygltf names TINYGLTF_COMPONENT_TYPE_* and TINYGLTF_TYPE_*),
// repeated so that producers of edits need no tinygltf.
enum ComponentType : int {
  kByte = 5120,
  kUnsignedByte = 5121,
  kShort = 5122,
  kUnsignedShort = 5123,
  kUnsignedInt = 5125,
  kFloat = 5126,
};
enum ElementType : int {  // tinygltf's TINYGLTF_TYPE_* values (components in the low bits)
  kScalar = 65,
  kVec2 = 2,
  kVec3 = 3,
  kVec4 = 4,
  kMat4 = 36,
};

// An accessor's contents as written: `bytes` tightly packed, little-endian, count elements.
struct AccessorData {
  int component_type = kFloat;
  int type = kScalar;
  bool normalized = false;
  size_t count = 0;
  std::vector<uint8_t> bytes;
  std::vector<double> min_values, max_values;  // written when not empty (sampler inputs need them)
};
// `values` as FLOAT accessor data of `type` (count = values / components); with `bounds`, the
// per-component min and max.
AccessorData float_accessor(std::span<const float> values, int type, bool bounds);
// Key times: FLOAT SCALAR with min and max (glTF requires them on a sampler's input).
AccessorData key_times(std::span<const float> times);

// One animation as glTF holds it. Samplers are written in order, each its input then its output.
struct ClipSampler {
  AccessorData input;
  AccessorData output;
  std::string interpolation = "LINEAR";  // LINEAR, STEP or CUBICSPLINE
};
struct ClipChannel {
  int sampler = 0;
  int node = 0;
  std::string path;  // translation, rotation, scale or weights
};
struct ClipData {
  std::string name;  // AddClip's name; ReplaceClip keeps the file's
  std::vector<ClipSampler> samplers;
  std::vector<ClipChannel> channels;
};

// `clip`'s channels as glTF samplers and channels (FLOAT, one sampler per channel, the keys as
// they are: CUBICSPLINE's in-tangent, value, out-tangent triples included), named `clip.name`.
ClipData clip_data(const Clip& clip);

// The file's animation `animation` gets `clip`'s samplers and channels; its name, extras and
// extensions stay.
struct ReplaceClip {
  int animation = 0;
  ClipData clip;
};
// A new animation after the file's (those kept), in the order of the edits.
struct AddClip {
  ClipData clip;
};
// The file's animation `animation` is dropped (nothing else in core glTF refers to animations,
// so no other index changes; the later animations move down by one).
struct RemoveClip {
  int animation = 0;
};

// How SetSkinWeights stores the weights.
enum class WeightEncoding {
  Keep,           // the component type of the set the file has (FLOAT for a new set)
  Float,          // FLOAT
  UnsignedShort,  // normalized UNSIGNED_SHORT
  UnsignedByte,   // normalized UNSIGNED_BYTE
};
// JOINTS_n / WEIGHTS_n (n = `set`) of one primitive: per vertex (the primitive's attribute
// count), 4 joint indices and 4 weights. The set may be new (n = the primitive's set count).
// Weights must be finite and not negative. Where the set is the primitive's only one, each
// vertex's weights are divided by their sum (all-zero stays zero), as glTF requires; integer
// weights then sum to exactly 255 or 65535 (largest remainder rounding: write/weight_encoding.h).
// Joints are stored as the file's set stores them when that type holds every index, else as the
// smallest that does (UNSIGNED_BYTE up to 255, else UNSIGNED_SHORT). Every joint index must be
// below the joint count of each skin a node draws this mesh with.
struct SetSkinWeights {
  int mesh = 0;
  int primitive = 0;
  int set = 0;
  std::vector<std::array<uint16_t, 4>> joints;
  std::vector<std::array<float, 4>> weights;
  WeightEncoding encoding = WeightEncoding::Keep;
};

// A skin's inverse bind matrices, one per joint, stored as FLOAT MAT4 (column-major, as glm).
struct SetInverseBindMatrices {
  int skin = 0;
  std::vector<glm::mat4> matrices;
};

using DocumentEdit =
    std::variant<ReplaceClip, AddClip, RemoveClip, SetSkinWeights, SetInverseBindMatrices>;

}  // namespace rig::write
