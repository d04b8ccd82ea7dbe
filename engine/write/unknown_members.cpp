#include "write/unknown_members.h"

#include <algorithm>
#include <map>
#include <set>

namespace rig::write {

namespace {

// The glTF 2.0 schema's member names per kind of object (extensions and extras for all).
const std::map<std::string, std::set<std::string>>& known_members() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"",
       {"extensionsUsed", "extensionsRequired", "accessors", "animations", "asset", "buffers",
        "bufferViews", "cameras", "images", "materials", "meshes", "nodes", "samplers", "scene",
        "scenes", "skins", "textures"}},
      {"asset", {"copyright", "generator", "version", "minVersion"}},
      {"accessors",
       {"bufferView", "byteOffset", "componentType", "normalized", "count", "type", "max", "min",
        "sparse", "name"}},
      {"animations", {"channels", "samplers", "name"}},
      {"animations/channels", {"sampler", "target"}},
      {"animations/samplers", {"input", "interpolation", "output"}},
      {"buffers", {"uri", "byteLength", "name"}},
      {"bufferViews", {"buffer", "byteOffset", "byteLength", "byteStride", "target", "name"}},
      {"cameras", {"orthographic", "perspective", "type", "name"}},
      {"images", {"uri", "mimeType", "bufferView", "name"}},
      {"materials",
       {"name", "pbrMetallicRoughness", "normalTexture", "occlusionTexture", "emissiveTexture",
        "emissiveFactor", "alphaMode", "alphaCutoff", "doubleSided"}},
      {"meshes", {"primitives", "weights", "name"}},
      {"meshes/primitives", {"attributes", "indices", "material", "mode", "targets"}},
      {"nodes",
       {"camera", "children", "skin", "matrix", "mesh", "rotation", "scale", "translation",
        "weights", "name"}},
      {"samplers", {"magFilter", "minFilter", "wrapS", "wrapT", "name"}},
      {"scenes", {"nodes", "name"}},
      {"skins", {"inverseBindMatrices", "skeleton", "joints", "name"}},
      {"textures", {"sampler", "source", "name"}},
  };
  return table;
}

// A covered object: its path ("nodes/3") and its kind ("nodes"), or an empty kind.
struct Place {
  std::string path;
  std::string kind;
  bool covered = false;
};

// Where the value of member `name` (of an object at `parent`), or element `index` of the array
// member `name`, lies.
Place object_place(const Place& parent, const std::string& name, int index) {
  Place p;
  if (!parent.covered) return p;
  if (parent.kind.empty() && index < 0 && name == "asset") p = {"asset", "asset", true};
  if (parent.kind.empty() && index >= 0 && known_members().count(name) && name != "asset")
    p = {name + "/" + std::to_string(index), name, true};
  const std::string nested = parent.kind + "/" + name;
  if (index >= 0 && (nested == "meshes/primitives" || nested == "animations/channels" ||
                     nested == "animations/samplers"))
    p = {parent.path + "/" + name + "/" + std::to_string(index), nested, true};
  return p;
}

// A small JSON scanner: walks the text, reporting each covered object's members and its end.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  // f(place, name, value_begin, value_end) per member of a covered object; g(place, close) at
  // each covered object's closing brace. False on malformed JSON.
  template <typename F, typename G>
  bool run(F&& member, G&& close) {
    skip_space();
    Place root{"", "", true};
    if (at_ >= s_.size() || s_[at_] != '{') return false;
    return value(root, member, close) && (skip_space(), at_ == s_.size());
  }

 private:
  void skip_space() {
    while (at_ < s_.size() &&
           (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\r' || s_[at_] == '\t'))
      ++at_;
  }
  bool string(std::string* out) {
    if (at_ >= s_.size() || s_[at_] != '"') return false;
    const size_t begin = ++at_;
    while (at_ < s_.size() && s_[at_] != '"') at_ += s_[at_] == '\\' ? 2 : 1;
    if (at_ >= s_.size()) return false;
    if (out) *out = std::string(s_.substr(begin, at_ - begin));
    ++at_;
    return true;
  }
  template <typename F, typename G>
  bool value(const Place& place, F& member, G& close) {
    skip_space();
    if (at_ >= s_.size()) return false;
    const char c = s_[at_];
    if (c == '"') return string(nullptr);
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      ++at_;
      skip_space();
      const char end = object ? '}' : ']';
      for (int index = 0; at_ < s_.size() && s_[at_] != end; ++index) {
        std::string name;
        if (object) {
          if (!string(&name)) return false;
          skip_space();
          if (at_ >= s_.size() || s_[at_++] != ':') return false;
          skip_space();
        }
        const size_t begin = at_;
        // An element of an array member of a covered object is placed by the array's name.
        const Place inner =
            object ? object_place(place, name, -1) : object_place(parent_, array_name_, index);
        const Place saved_parent = parent_;
        const std::string saved_name = array_name_;
        if (object) {
          parent_ = place, array_name_ = name;
        } else {
          parent_ = Place{};  // an array in an array places nothing
        }
        if (!value(inner, member, close)) return false;
        parent_ = saved_parent, array_name_ = saved_name;
        if (object && place.covered) member(place, name, begin, at_);
        skip_space();
        if (at_ < s_.size() && s_[at_] == ',') ++at_, skip_space();
      }
      if (at_ >= s_.size()) return false;
      if (object && place.covered) close(place, at_);
      ++at_;
      return true;
    }
    // A number or a literal: up to the next delimiter.
    const size_t begin = at_;
    while (at_ < s_.size() && s_[at_] != ',' && s_[at_] != '}' && s_[at_] != ']' &&
           s_[at_] != ' ' && s_[at_] != '\n' && s_[at_] != '\r' && s_[at_] != '\t')
      ++at_;
    return at_ > begin;
  }

  std::string_view s_;
  size_t at_ = 0;
  Place parent_;            // the object holding the array being walked
  std::string array_name_;  // that array's member name
};

}  // namespace

std::vector<UnknownMember> find_unknown_members(std::string_view json) {
  std::vector<UnknownMember> found;
  Scanner scanner(json);
  const bool ok = scanner.run(
      [&](const Place& place, const std::string& name, size_t begin, size_t end) {
        const auto& known = known_members().at(place.kind);
        if (name == "extensions" || name == "extras" || known.count(name)) return;
        found.push_back({place.path, name, std::string(json.substr(begin, end - begin))});
      },
      [](const Place&, size_t) {});
  if (!ok) found.clear();
  return found;
}

std::string insert_unknown_members(const std::string& json,
                                   const std::vector<UnknownMember>& members,
                                   const std::vector<std::string>& skip_arrays) {
  if (members.empty()) return json;
  std::map<std::string, std::pair<size_t, bool>> closing;  // path → closing brace, has members
  std::map<std::string, bool> has_member;
  Scanner scanner(json);
  const bool ok = scanner.run([&](const Place& place, const std::string&, size_t,
                                  size_t) { has_member[place.path] = true; },
                              [&](const Place& place, size_t at) {
                                closing[place.path] = {at, has_member[place.path]};
                              });
  if (!ok) return json;
  // Text to insert before each closing brace, then inserted from the last brace back.
  std::map<size_t, std::string, std::greater<>> inserts;
  for (const UnknownMember& m : members) {
    const std::string array = m.object.substr(0, m.object.find('/'));
    if (std::find(skip_arrays.begin(), skip_arrays.end(), array) != skip_arrays.end()) continue;
    const auto it = closing.find(m.object);
    if (it == closing.end()) continue;
    auto& [at, nonempty] = it->second;
    inserts[at] += std::string(nonempty ? "," : "") + "\"" + m.name + "\":" + m.value;
    nonempty = true;
  }
  std::string out = json;
  for (const auto& [at, text] : inserts) out.insert(at, text);
  return out;
}

}  // namespace rig::write
