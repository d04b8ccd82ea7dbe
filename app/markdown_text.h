// Markdown table cells for the generated README sections: a literal '|' would split the column.
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

}  // namespace rigview
