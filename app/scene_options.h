// The reference scene's flags for `--output` renders (shared reference-scene.md; README
// "Reference scene renders"): --resolution, --camera, --background, --no-grid, --msaa (the
// viewer's window too), --lights and --shadows; and the studio look's (README "The look"):
// --environment, --environment-rotation, --environment-intensity, --key-light, --tone-mapping,
// --exposure. Their rows of the flag table and their parsing live here, called from options.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "workbench_options.h"

namespace rigview {

// Appends --resolution and the reference scene's rows to the flag table.
void add_scene_flags(std::vector<FlagInfo>& flags);

// Parses `flag` when it is one of these: 1 parsed, 0 not one of them, -1 a usage error (one
// line in `error`).
int parse_scene_flag(std::string_view flag, const FlagValue& value, Options& o, std::string& error);

// The checks between flags once every flag is parsed. false + one-line error.
bool check_scene_options(const Options& o, std::string& error);

// Parses "ex,ey,ez;tx,ty,tz;yfov_deg[;near;far]". false + one-line error.
bool parse_scene_camera(std::string_view text, SceneCamera& out, std::string& error);

}  // namespace rigview
