// Learn mode's command-line flags: --pitfall NAME (the classic skinning mistakes of
// skin/pitfalls.h applied to every output), --twist-demo and --bend-demo (the twist arm's joint
// set directly) and --cross-section (the twist arm's middle ring per method). Their rows of the
// flag table and their parsing live here, reached through workbench_options.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "workbench_options.h"

namespace rigview {

// Appends Learn mode's rows to the flag table (--help and the README's table).
void add_learn_flags(std::vector<FlagInfo>& flags);

// Parses `flag` when it is a Learn flag: 1 parsed, 0 not a Learn flag, -1 a usage error (one
// line in `error`).
int parse_learn_flag(std::string_view flag, const FlagValue& value, Options& o, std::string& error);

// The checks between flags once every flag is parsed. false + one-line error.
bool check_learn_options(const Options& o, std::string& error);

// "lerp-quaternions|average-matrices|..." joined by `separator`.
std::string pitfall_names(const char* separator);

}  // namespace rigview
