#include "import/pointer_source.h"

#include <cmath>

#include "import/json_tree.h"

namespace rig::import {

bool read_pointer_channels(std::string_view json, uint32_t max_depth,
                           std::vector<PointerChannelSource>& out, std::string& error) {
  out.clear();
  if (json.find("KHR_animation_pointer") == std::string_view::npos) return true;
  JsonValue animations;
  bool found = false;
  if (!parse_json_member(json, "animations", max_depth, animations, found, error)) return false;
  if (!found || animations.type != JsonValue::Type::Array) return true;
  for (size_t a = 0; a < animations.items.size(); ++a) {
    const JsonValue* channels = animations.items[a].get("channels");
    if (!channels || channels->type != JsonValue::Type::Array) continue;
    for (size_t c = 0; c < channels->items.size(); ++c) {
      const JsonValue& channel = channels->items[c];
      const JsonValue* target = channel.get("target");
      const JsonValue* path = target ? target->get("path") : nullptr;
      if (!path || !path->is_string() || path->text != "pointer") continue;
      const std::string at = "animation " + std::to_string(a) + " channel " + std::to_string(c);
      const JsonValue* extensions = target->get("extensions");
      const JsonValue* extension = extensions ? extensions->get("KHR_animation_pointer") : nullptr;
      const JsonValue* pointer = extension ? extension->get("pointer") : nullptr;
      if (!pointer || !pointer->is_string()) {
        error = at + " has target path 'pointer' but no KHR_animation_pointer pointer string";
        return false;
      }
      PointerChannelSource source;
      source.animation = a;
      source.channel = c;
      const JsonValue* sampler = channel.get("sampler");
      if (sampler && sampler->is_number() && sampler->number >= 0.0 &&
          sampler->number <= 2147483647.0 && std::floor(sampler->number) == sampler->number)
        source.sampler = int(sampler->number);
      source.pointer = pointer->text;
      out.push_back(std::move(source));
    }
  }
  return true;
}

}  // namespace rig::import
