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
// Memory bound: a file of N bytes makes the importer allocate at most about
//     40 × N            tinygltf: its JSON tree (nlohmann, up to ≈ 24 × N for arrays of
//                       one-digit numbers), the file and its decoded buffers (≈ 2 × N) and
//                       tinygltf's per-object copies
//   + 16 × N + 256 MiB  the decode budget above
//   + 1 GiB + 256 MiB   decoded images, plus stb's scratch for the one being decoded
// i.e. about 56 × N + 1.5 GiB. The fuzz targets (tests/fuzz/) check it under a 2 GiB RSS limit.
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
