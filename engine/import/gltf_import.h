// glTF 2.0 (.gltf with external or data: URIs, and .glb) → rig::Model.
//
// Path policy (external buffers and images given by a `uri`):
//   * data: URIs are decoded in memory;
//   * relative URIs resolve against the model's folder and only there (never the working
//     directory); by default they may climb out of it with "..";
//   * absolute paths ("/x", "C:\x", "\\server\x") are refused: "absolute path not allowed";
//   * any other scheme ("file:", "http:", ...) is refused: "URI scheme 'file' not allowed";
//   * ImportOptions::confine (batch use; the CLI's --confine): after ".." segments,
//     percent-decoding and symbolic links are resolved, every URI must still name a file inside
//     the model's folder: "resolves outside the model's folder (confined)".
//   * import_gltf_from_memory has no folder: only data: URIs and GLB-embedded buffers.
//
// Resource caps (ImportLimits; every one is checked before the memory is allocated and fails
// the import with a message naming the element, the value and the cap):
//   max_image_pixels        2^26 (67,108,864) pixels per image, i.e. 256 MiB of RGBA8; larger
//                           images are skipped with IMAGE_TOO_LARGE (drawn untextured)
//   max_total_image_bytes   1 GiB of decoded RGBA8 over all images (later images skipped,
//                           IMAGE_TOO_LARGE)
//   max_accessor_elements   2^27 elements per accessor backed by a bufferView (which must hold
//                           them); 2^24 for accessors without a bufferView (all zeros/sparse)
//   max_vertices            2^24 (16,777,216) vertices per primitive, 2^26 over the whole model
//   max_keys                2^24 keys per animation channel, 2^26 over the whole model
//   max_influence_sets      8 JOINTS_n/WEIGHTS_n pairs per primitive (32 influences)
//   decode budget           everything the importer decodes (attributes, indices, keys,
//                           matrices, influences, generated normals) is charged against
//                           decode_fixed_bytes (256 MiB) + decode_bytes_per_input_byte (16) × N,
//                           N = bytes of the file plus its external buffer and image files;
//                           past it the import fails ("decoded data would exceed ...").
//                           Accessors without a bufferView, sparse accessors and accessors read
//                           many times cost no file bytes, so this is what bounds them.
//   max_json_depth          128 levels of JSON nesting (deeper crashed tinygltf's recursive
//                           parser: 100,000 "[" overflowed the stack)
//   max_json_containers     2^18 JSON objects and arrays
//   max_json_values         2^21 other JSON values (numbers, strings, literals)
// Memory bound (measured with /usr/bin/time on crafted files; N = input bytes as above):
//   tinygltf's document     up to ~250 × N (worst measured: "nodes":[{},{},...], 2.1 GB for
//                           8 MB before the JSON caps), and by the caps never more than about
//                           700 MiB (2^18 containers × ~750 B + 2^21 values × ~230 B)
//   + 2 × N                 the file and its decoded buffers
//   + 16 × N + 256 MiB      the decode budget
//   + 1 GiB + 256 MiB       decoded images and stb's buffer for the one being decoded
// i.e. at most min(250 × N, 700 MiB) + 18 × N + 1.5 GiB. The fuzz targets (tests/fuzz/) run under
// a 2 GiB RSS limit.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "model/model.h"

namespace rig {

struct ImportLimits {
  uint64_t max_image_pixels = uint64_t{1} << 26;
  uint64_t max_total_image_bytes = uint64_t{1} << 30;
  uint64_t max_accessor_elements = uint64_t{1} << 27;
  uint64_t max_bufferless_elements = uint64_t{1} << 24;
  uint64_t max_primitive_vertices = uint64_t{1} << 24;
  uint64_t max_total_vertices = uint64_t{1} << 26;
  uint64_t max_channel_keys = uint64_t{1} << 24;
  uint64_t max_total_keys = uint64_t{1} << 26;
  uint32_t max_influence_sets = 8;
  // The JSON itself, checked by a scan before tinygltf parses it: nesting (tinygltf and its JSON
  // library recurse once per level, so a file of "[[[[..." would overflow the stack), objects and
  // arrays (tinygltf keeps a large struct per glTF object: ~250 bytes of memory per byte of
  // "nodes":[{},{},...]) and other values (each becomes a ~200-byte tinygltf::Value in extras).
  uint32_t max_json_depth = 128;
  uint64_t max_json_containers = uint64_t{1} << 18;
  uint64_t max_json_values = uint64_t{1} << 21;
  uint64_t decode_fixed_bytes = uint64_t{256} << 20;
  uint64_t decode_bytes_per_input_byte = 16;
};

struct ImportOptions {
  // No URI may resolve outside the model's folder (after "..", percent-decoding and symbolic
  // links). Off by default: relative URIs may climb out (shared texture folders are common).
  bool confine = false;
  ImportLimits limits;
};

// Loads `path` into `out`. On failure returns false and sets `error` to one line saying what
// is wrong and where (e.g. "accessor 12 reads past the end of bufferView 3"), without the file
// name. Repairs (renormalized weights, normalized rotation keys, ...) land in out.warnings.
// Never reads out of bounds, whatever the file holds.
bool import_gltf(const std::string& path, Model& out, std::string& error);
bool import_gltf(const std::string& path, const ImportOptions& options, Model& out,
                 std::string& error);

// The same from bytes already in memory (GLB or JSON glTF, told apart by the GLB magic).
// `name` only becomes Model::file. External URIs are refused (there is no folder).
bool import_gltf_from_memory(std::span<const uint8_t> bytes, const std::string& name,
                             const ImportOptions& options, Model& out, std::string& error);

}  // namespace rig
