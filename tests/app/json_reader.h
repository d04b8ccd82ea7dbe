// A small JSON reader for the command-line tests: enough of RFC 8259 to read rigview's own
// reports (objects, arrays, numbers, strings with the escapes rigview writes, true, false,
// null). A malformed document fails the test that reads it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rig::test {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0.0;
  std::string text;  // String; for Number, its digits as written
  std::vector<Json> items;
  std::map<std::string, Json> members;

  bool is_null() const { return kind == Kind::Null; }
  const Json& operator[](const std::string& key) const {
    static const Json missing;
    const auto it = members.find(key);
    EXPECT_TRUE(kind == Kind::Object && it != members.end()) << "no member '" << key << "'";
    return it == members.end() ? missing : it->second;
  }
  const Json& operator[](size_t i) const {
    static const Json missing;
    EXPECT_LT(i, items.size());
    return i < items.size() ? items[i] : missing;
  }
  size_t size() const { return kind == Kind::Object ? members.size() : items.size(); }
  double num() const {
    EXPECT_EQ(int(kind), int(Kind::Number)) << "not a number";
    return number;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}
  bool parse(Json& out) {
    if (!value(out)) return false;
    space();
    return at_ == s_.size();
  }

 private:
  void space() {
    while (at_ < s_.size() &&
           (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\r' || s_[at_] == '\t'))
      ++at_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }
  bool string(std::string& out) {
    if (at_ >= s_.size() || s_[at_] != '"') return false;
    ++at_;
    while (at_ < s_.size() && s_[at_] != '"') {
      char c = s_[at_++];
      if (c == '\\') {
        if (at_ >= s_.size()) return false;
        const char e = s_[at_++];
        if (e == 'n')
          c = '\n';
        else if (e == 't')
          c = '\t';
        else if (e == 'r')
          c = '\r';
        else if (e == 'u') {
          if (at_ + 4 > s_.size()) return false;
          c = char(std::strtol(s_.substr(at_, 4).c_str(), nullptr, 16));
          at_ += 4;
        } else
          c = e;
      }
      out += c;
    }
    if (at_ >= s_.size()) return false;
    ++at_;
    return true;
  }
  bool value(Json& out) {
    space();
    if (at_ >= s_.size()) return false;
    const char c = s_[at_];
    if (c == '{') {
      out.kind = Json::Kind::Object;
      ++at_;
      space();
      if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
      while (true) {
        space();
        std::string key;
        if (!string(key)) return false;
        space();
        if (at_ >= s_.size() || s_[at_++] != ':') return false;
        if (!value(out.members[key])) return false;
        space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        return at_ < s_.size() && s_[at_++] == '}';
      }
    }
    if (c == '[') {
      out.kind = Json::Kind::Array;
      ++at_;
      space();
      if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
      while (true) {
        out.items.emplace_back();
        if (!value(out.items.back())) return false;
        space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        return at_ < s_.size() && s_[at_++] == ']';
      }
    }
    if (c == '"') {
      out.kind = Json::Kind::String;
      return string(out.text);
    }
    if (literal("true")) return out.kind = Json::Kind::Bool, out.boolean = true, true;
    if (literal("false")) return out.kind = Json::Kind::Bool, true;
    if (literal("null")) return out.kind = Json::Kind::Null, true;
    const char* begin = s_.c_str() + at_;
    char* end = nullptr;
    out.number = std::strtod(begin, &end);
    if (end == begin) return false;
    out.kind = Json::Kind::Number;
    out.text.assign(begin, size_t(end - begin));
    at_ += size_t(end - begin);
    return true;
  }

  const std::string& s_;
  size_t at_ = 0;
};

// Parses `text`; a malformed document is a test failure (and gives null).
inline Json parse_json(const std::string& text) {
  Json out;
  EXPECT_TRUE(JsonParser(text).parse(out)) << "malformed JSON: " << text.substr(0, 200);
  return out;
}

}  // namespace rig::test
