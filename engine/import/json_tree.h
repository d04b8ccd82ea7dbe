// A small JSON tree for the parts of a glTF document tinygltf does not hand over (the
// KHR_animation_pointer channel targets: tinygltf 2.7 drops channels without target.node). Only
// the one top-level member asked for is built; the rest of the text is skipped without storing.
// The text has already passed tinygltf's parser and the shape limits (import/gltf_file.cpp), but
// this parser checks everything again itself: it never reads past the text, and nests no deeper
// than `max_depth`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rig::import {

struct JsonMember;

struct JsonValue {
  enum class Type : uint8_t { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0.0;
  std::string text;              // String: the decoded contents
  std::vector<JsonValue> items;  // Array
  // Object, in file order. A named struct, not std::pair: a pair of an incomplete type is
  // rejected by libstdc++ under clang.
  std::vector<JsonMember> members;

  // The member named `key` of an object, nullptr when absent or not an object.
  const JsonValue* get(std::string_view key) const;
  bool is_string() const { return type == Type::String; }
  bool is_number() const { return type == Type::Number; }
};

struct JsonMember {
  std::string name;
  JsonValue value;
};

// The value of member `name` of the root object of `text` into `out`; false with `error` for
// text that is not a JSON object or is malformed; true with `found` false when the member is
// absent.
bool parse_json_member(std::string_view text, std::string_view name, uint32_t max_depth,
                       JsonValue& out, bool& found, std::string& error);

}  // namespace rig::import
