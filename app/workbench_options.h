// The rig workbench's command-line flags: --pose-joint, --range-of-motion with --rom-degrees,
// --rom-steps and --rom-report, and --inspect-vertex. Their rows of the flag table and their
// parsing live here, called from options.cpp, which holds the rest of the table.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "options.h"

namespace rigview {

// Appends the workbench's rows to the flag table (--help and the README's table).
void add_workbench_flags(std::vector<FlagInfo>& flags);

// Fetches the value of the flag being parsed (false with `error` set when there is none).
using FlagValue = std::function<bool(std::string_view&)>;

// Parses `flag` when it is a workbench flag: 1 parsed, 0 not a workbench flag, -1 a usage error
// (one line in `error`).
int parse_workbench_flag(std::string_view flag, const FlagValue& value, Options& o,
                         std::string& error);

// The checks between flags once every flag is parsed. false + one-line error.
bool check_workbench_options(const Options& o, std::string& error);

}  // namespace rigview
