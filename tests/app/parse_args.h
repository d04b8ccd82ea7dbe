// In-process command-line parsing for the app's tests: rigview::parse_options on an argument list
// (the program name is added), with its result, options and one-line error.
#pragma once

#include <string>
#include <vector>

#include "options.h"

namespace rig::test {

struct Parsed {
  bool ok = false;
  rigview::Options options;
  std::string error;
};

inline Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "rigview");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  Parsed p;
  p.ok = rigview::parse_options(static_cast<int>(argv.size()), argv.data(), p.options, p.error);
  return p;
}

}  // namespace rig::test
