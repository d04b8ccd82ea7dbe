// EXT_meshopt_compression: bufferViews whose bytes are stored compressed (meshoptimizer's
// attribute, triangle and index codecs, plus the octahedral, quaternion and exponential filters),
// decoded with Debian's libmeshoptimizer before any accessor is read.
//
// Two steps, because tinygltf cannot parse such files by itself:
//  1. before tinygltf: buffers that hold no data (marked `fallback: true`, or without a `uri`
//     where they cannot be the GLB's BIN chunk) get a tiny placeholder data: URI in the JSON, so
//     that tinygltf neither reads their file nor refuses the missing `uri`;
//  2. after tinygltf: every compressed bufferView is decoded into a buffer of its own (sizes
//     checked and charged to the decode budget first), and the bufferView points at it. The
//     accessor reader then reads it like any other bufferView.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/accessor_reader.h"

namespace tinygltf {
class Model;
}

namespace rig::import {

// Step 1. `json` is the whole JSON text; `is_glb` whether it came from a GLB (whose buffer 0 may
// be the BIN chunk). When the document uses EXT_meshopt_compression and has buffers without
// data, rewrites `json` and lists those buffers in `no_data` (ascending); otherwise leaves both
// alone. Returns false only when the JSON cannot be parsed (tinygltf then reports why).
bool mark_meshopt_fallback_buffers(std::string& json, bool is_glb, std::vector<int>& no_data);

// Step 2. `no_data`: the buffers step 1 listed (their placeholder bytes are dropped here).
// Fails with a one-line reason naming the bufferView ("bufferView 3: EXT_meshopt_compression
// data is corrupt or truncated (meshopt error -2)").
bool decode_meshopt_buffer_views(tinygltf::Model& document, const std::vector<int>& no_data,
                                 DecodeBudget& budget, std::string& error);

}  // namespace rig::import
