// Import limits for the fuzz targets: the defaults scaled down so that one input cannot take
// seconds (inputs are at most 64 KiB; the caps themselves are tested in
// tests/engine/import_hardening_caps_test.cpp).
#pragma once

#include "import/gltf_import.h"

namespace rig::fuzz {

inline ImportOptions options() {
  ImportOptions options;
  options.limits.max_image_pixels = uint64_t{1} << 20;
  options.limits.max_total_image_bytes = uint64_t{16} << 20;
  options.limits.max_bufferless_elements = uint64_t{1} << 16;
  options.limits.max_primitive_vertices = uint64_t{1} << 16;
  options.limits.max_total_vertices = uint64_t{1} << 18;
  options.limits.max_channel_keys = uint64_t{1} << 16;
  options.limits.max_total_keys = uint64_t{1} << 18;
  options.limits.decode_fixed_bytes = uint64_t{32} << 20;
  return options;
}

}  // namespace rig::fuzz
