#include "import/json_tree.h"

#include <cstdlib>

namespace rig::import {
namespace {

class Parser {
 public:
  Parser(std::string_view text, uint32_t max_depth) : text_(text), max_depth_(max_depth) {}

  // Parses one value into `out`, or skips it when `out` is null (nothing stored).
  bool value(JsonValue* out, uint32_t depth) {
    space();
    if (at_ >= text_.size()) return fail("unexpected end of the JSON");
    const char c = text_[at_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) return fail("JSON nested too deeply");
      return c == '{' ? object(out, depth + 1) : array(out, depth + 1);
    }
    if (c == '"') {
      std::string s;
      if (!string(out ? &s : nullptr)) return false;
      if (out) {
        out->type = JsonValue::Type::String;
        out->text = std::move(s);
      }
      return true;
    }
    if (literal("true") || literal("false") || literal("null")) {
      if (out) {
        out->type = c == 'n' ? JsonValue::Type::Null : JsonValue::Type::Bool;
        out->boolean = c == 't';
      }
      return true;
    }
    return number(out);
  }

  // Walks the root object; the member `name` is parsed into `out`, the others skipped.
  bool root(std::string_view name, JsonValue& out, bool& found) {
    found = false;
    space();
    if (at_ >= text_.size() || text_[at_] != '{') return fail("the JSON is not an object");
    ++at_;
    space();
    if (at_ < text_.size() && text_[at_] == '}') return true;
    for (;;) {
      std::string key;
      space();
      if (!string(&key) || !colon()) return false;
      const bool wanted = !found && key == name;
      if (!value(wanted ? &out : nullptr, 1)) return false;
      found = found || wanted;
      space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') return true;
      return fail("expected ',' or '}' in the JSON");
    }
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(const char* what) {
    error_ = std::string(what) + " (at byte " + std::to_string(at_) + ")";
    return false;
  }
  void space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t'))
      ++at_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }
  bool colon() {
    space();
    if (at_ >= text_.size() || text_[at_] != ':') return fail("expected ':' in the JSON");
    ++at_;
    return true;
  }
  static void append_utf8(std::string& s, uint32_t code) {
    if (code < 0x80) {
      s += char(code);
    } else if (code < 0x800) {
      s += char(0xC0 | (code >> 6));
      s += char(0x80 | (code & 0x3F));
    } else {
      s += char(0xE0 | (code >> 12));
      s += char(0x80 | ((code >> 6) & 0x3F));
      s += char(0x80 | (code & 0x3F));
    }
  }
  bool string(std::string* out) {
    if (at_ >= text_.size() || text_[at_] != '"') return fail("expected a string in the JSON");
    ++at_;
    while (at_ < text_.size()) {
      const char c = text_[at_++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out) *out += c;
        continue;
      }
      if (at_ >= text_.size()) break;
      const char e = text_[at_++];
      char plain = 0;
      switch (e) {
        case '"':
          plain = '"';
          break;
        case '\\':
          plain = '\\';
          break;
        case '/':
          plain = '/';
          break;
        case 'b':
          plain = '\b';
          break;
        case 'f':
          plain = '\f';
          break;
        case 'n':
          plain = '\n';
          break;
        case 'r':
          plain = '\r';
          break;
        case 't':
          plain = '\t';
          break;
        case 'u': {
          if (at_ + 4 > text_.size()) return fail("truncated \\u escape in the JSON");
          uint32_t code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[at_++];
            code <<= 4;
            if (h >= '0' && h <= '9')
              code |= uint32_t(h - '0');
            else if (h >= 'a' && h <= 'f')
              code |= uint32_t(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
              code |= uint32_t(h - 'A' + 10);
            else
              return fail("bad \\u escape in the JSON");
          }
          // Surrogate halves are kept as they are: glTF names and pointers are ASCII in practice.
          if (out) append_utf8(*out, code);
          continue;
        }
        default:
          return fail("bad escape in the JSON");
      }
      if (out) *out += plain;
    }
    return fail("unterminated string in the JSON");
  }
  bool number(JsonValue* out) {
    const size_t begin = at_;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')
        ++at_;
      else
        break;
    }
    if (at_ == begin) return fail("unexpected character in the JSON");
    if (out) {
      const std::string digits(text_.substr(begin, at_ - begin));
      char* end = nullptr;
      out->number = std::strtod(digits.c_str(), &end);
      if (end != digits.c_str() + digits.size()) return fail("malformed number in the JSON");
      out->type = JsonValue::Type::Number;
    }
    return true;
  }
  bool array(JsonValue* out, uint32_t depth) {
    ++at_;  // '['
    if (out) out->type = JsonValue::Type::Array;
    space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return true;
    }
    for (;;) {
      JsonValue* item = nullptr;
      if (out) item = &out->items.emplace_back();
      if (!value(item, depth)) return false;
      space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return true;
      }
      return fail("expected ',' or ']' in the JSON");
    }
  }
  bool object(JsonValue* out, uint32_t depth) {
    ++at_;  // '{'
    if (out) out->type = JsonValue::Type::Object;
    space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return true;
    }
    for (;;) {
      std::string key;
      space();
      if (!string(out ? &key : nullptr) || !colon()) return false;
      JsonValue* member = nullptr;
      if (out) member = &out->members.emplace_back(JsonMember{std::move(key), JsonValue{}}).value;
      if (!value(member, depth)) return false;
      space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return true;
      }
      return fail("expected ',' or '}' in the JSON");
    }
  }

  std::string_view text_;
  uint32_t max_depth_;
  size_t at_ = 0;
  std::string error_;
};

}  // namespace

const JsonValue* JsonValue::get(std::string_view key) const {
  if (type != Type::Object) return nullptr;
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

bool parse_json_member(std::string_view text, std::string_view name, uint32_t max_depth,
                       JsonValue& out, bool& found, std::string& error) {
  out = JsonValue{};
  Parser parser(text, max_depth);
  if (parser.root(name, out, found)) return true;
  error = parser.error();
  return false;
}

}  // namespace rig::import
