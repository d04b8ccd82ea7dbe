// The command-line flags of clips from other files and retargeting: --clips (another glTF's
// animations added to the clip set, retargeted when its skeleton differs), --bone-map (the
// source → target joint pairs that override the automatic map), --retarget-report and
// --retarget-feet. Their rows of the flag table and their parsing live here, reached through
// workbench_options.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "workbench_options.h"

namespace rigview {

// Appends the retargeting rows to the flag table (--help and the README's table).
void add_retarget_flags(std::vector<FlagInfo>& flags);

// Parses `flag` when it is a retargeting flag: 1 parsed, 0 not one, -1 a usage error (one line
// in `error`).
int parse_retarget_flag(std::string_view flag, const FlagValue& value, Options& o,
                        std::string& error);

// The checks between flags once every flag is parsed. false + one-line error.
bool check_retarget_options(const Options& o, std::string& error);

}  // namespace rigview
