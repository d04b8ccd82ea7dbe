// Markdown table cells for the generated README sections (a literal '|' would split the column),
// and the plain text of the same rows for the viewer's Help.
#pragma once

#include <string>

namespace rigview {

inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// The same text as a person reads it on screen (the viewer's Help): Markdown code spans lose
// their backticks.
inline std::string markdown_plain(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != '`') out += c;
  return out;
}

}  // namespace rigview
