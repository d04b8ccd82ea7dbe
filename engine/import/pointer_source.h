// KHR_animation_pointer channels as the file's JSON gives them. tinygltf 2.7 requires
// `target.node` and drops channels without one, which is every pointer channel, so they are read
// from the JSON text here (with nlohmann-json, the parser tinygltf itself uses), before the import
// stages turn them into clip data (import/pointer_import.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rig::import {

struct PointerChannelSource {
  size_t animation = 0;
  size_t channel = 0;  // its index in the file's animations[animation].channels
  int sampler = -1;    // -1 when the channel has no integer `sampler`
  std::string pointer;
};

// Every channel of `json` (a glTF document's JSON text) whose target.path is "pointer", in file
// order. A pointer channel without a string `extensions.KHR_animation_pointer.pointer` is an
// error naming it. Reads nothing (true, empty) when the text never mentions the extension. Text
// nlohmann cannot parse, or nested `max_depth` containers deep, is an error.
bool read_pointer_channels(std::string_view json, uint32_t max_depth,
                           std::vector<PointerChannelSource>& out, std::string& error);

}  // namespace rig::import
