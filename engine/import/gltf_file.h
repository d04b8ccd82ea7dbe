// Reading a .gltf / .glb from disk into tinygltf's document, with errors turned into one line.
// tinygltf does the JSON parsing and buffer/URI loading; everything it does not check (and a few
// things it reports poorly: truncated GLB, missing .bin) is checked or reworded here.
#pragma once

#include <tiny_gltf.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "import/image_decode.h"
#include "import/pointer_source.h"

namespace rig::import {

struct GltfSource {
  tinygltf::Model document;
  // Images given by `uri` (file or data:), decoded while tinygltf parsed them. Images stored in a
  // bufferView are not here: they are decoded later, after their bufferView is bounds-checked.
  std::map<int, DecodedImage> uri_images;
  // External buffer files longer than their byteLength (read as their first byteLength bytes).
  size_t longer_buffer_files = 0;
  // Bytes read: the file (or the memory block) plus every external buffer and image file. The
  // decode budget (ImportLimits) scales with it.
  uint64_t input_bytes = 0;
  // Decoded RGBA bytes of uri_images, counted against ImportLimits::max_total_image_bytes.
  uint64_t image_bytes = 0;
  // KHR_animation_pointer channels, read from the JSON text (tinygltf drops them).
  std::vector<PointerChannelSource> pointer_channels;
  // EXT_meshopt_compression: buffers that hold no data (fallback or placeholder buffers), which
  // tinygltf saw as 3-byte placeholders (see meshopt_decode.h). Ascending.
  std::vector<int> meshopt_no_data;
};

bool load_gltf_source(const std::string& path, const ImportOptions& options, GltfSource& source,
                      std::string& error);
// From memory: no folder, so only data: URIs and the GLB's BIN chunk can hold buffers.
bool load_gltf_source_from_memory(std::span<const uint8_t> bytes, const ImportOptions& options,
                                  GltfSource& source, std::string& error);

// Joins a multi-line message into one line ("a; b"), trimmed, at most `max_length` characters.
std::string one_line(const std::string& text, size_t max_length = 300);

}  // namespace rig::import
