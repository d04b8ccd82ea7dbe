#include "import/pointer_source.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace rig::import {
namespace {

using Json = nlohmann::json;

// The member `key` of `value`, nullptr when `value` is not an object or has no such member.
const Json* member(const Json& value, const char* key) {
  if (!value.is_object()) return nullptr;
  const auto it = value.find(key);
  return it == value.end() ? nullptr : &*it;
}

}  // namespace

bool read_pointer_channels(std::string_view json, uint32_t max_depth,
                           std::vector<PointerChannelSource>& out, std::string& error) {
  out.clear();
  if (json.find("KHR_animation_pointer") == std::string_view::npos) return true;
  // nlohmann 3.11 parses without recursion (parser::sax_parse_internal keeps its own stack of
  // open containers) and frees a tree without recursion (json_value::destroy flattens it onto a
  // heap stack), so deep nesting cannot overflow the call stack here. The depth limit still
  // applies, as it does in the shape check before tinygltf: no container nested `max_depth`
  // deep is stored, and the text is refused. Only the root's "animations" member is stored; the
  // rest (buffers' data: URIs, meshes) is parsed and dropped. A repeated "animations" keeps its
  // last value, as tinygltf (the same nlohmann) does, so the channel indices are tinygltf's.
  bool too_deep = false;
  const Json::parser_callback_t keep = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) {
      if (depth > 0 && static_cast<uint32_t>(depth) >= max_depth) too_deep = true;
      return !too_deep;
    }
    if (depth == 1 && event == Json::parse_event_t::key) return parsed == "animations";
    return true;
  };
  // Invalid UTF-8, numbers beyond double's range and trailing text are parse errors here, as in
  // tinygltf, which has accepted this text already: these errors only guard direct callers.
  const Json root = Json::parse(json.data(), json.data() + json.size(), keep,
                                /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    error = "invalid JSON (the KHR_animation_pointer channels cannot be read)";
    return false;
  }
  if (too_deep) {
    error = "JSON nested too deeply (more than " + std::to_string(max_depth) + " levels)";
    return false;
  }
  if (!root.is_object()) {
    error = "the JSON is not an object";
    return false;
  }
  const Json* animations = member(root, "animations");
  if (!animations || !animations->is_array()) return true;
  for (size_t a = 0; a < animations->size(); ++a) {
    const Json* channels = member((*animations)[a], "channels");
    if (!channels || !channels->is_array()) continue;
    for (size_t c = 0; c < channels->size(); ++c) {
      const Json& channel = (*channels)[c];
      const Json* target = member(channel, "target");
      const Json* path = target ? member(*target, "path") : nullptr;
      if (!path || !path->is_string() || *path != "pointer") continue;
      const std::string at = "animation " + std::to_string(a) + " channel " + std::to_string(c);
      const Json* extensions = member(*target, "extensions");
      const Json* extension = extensions ? member(*extensions, "KHR_animation_pointer") : nullptr;
      const Json* pointer = extension ? member(*extension, "pointer") : nullptr;
      if (!pointer || !pointer->is_string()) {
        error = at + " has target path 'pointer' but no KHR_animation_pointer pointer string";
        return false;
      }
      PointerChannelSource source;
      source.animation = a;
      source.channel = c;
      // An integral value in int's range however it is written (2 or 2.0); else -1.
      const Json* sampler = member(channel, "sampler");
      const double index = sampler && sampler->is_number() ? sampler->get<double>() : -1.0;
      if (index >= 0.0 && index <= 2147483647.0 && std::floor(index) == index)
        source.sampler = int(index);
      source.pointer = pointer->get_ref<const std::string&>();
      out.push_back(std::move(source));
    }
  }
  return true;
}

}  // namespace rig::import
