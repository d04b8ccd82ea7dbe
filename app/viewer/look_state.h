// The viewer's look (README "The look"): studio or classic, the studio look's settings, the
// environment shown and the state of its background load (LookEnvironmentJob,
// app/look_environment.h). The Look section (viewer/look_panel.cpp) edits it, drops of a .hdr
// file ask for a load, and the settings persist between runs (viewer/viewer_settings.h) as
// "key value" lines (format_look / parse_look).
#pragma once

#include <string>

#include "render/look.h"

namespace rigview {

struct ViewerLook {
  bool studio = true;  // the studio look; false: the classic look
  rig::render::LookSettings settings;
  std::string environment;  // the .hdr file lit by (absolute); empty: the bundled studio
  // Background load: running, its progress in [0, 1] and the last failure (one line, kept
  // until the next load; the previous environment stays).
  bool loading = false;
  float progress = 0.0f;
  std::string error;
  // Requests from the panel and drops: load `load_path` (empty: the bundled studio); cancel.
  bool load_requested = false, cancel_requested = false;
  std::string load_path;
};

// Whether `path` names a Radiance file (.hdr, any case): a drop of it loads an environment.
bool is_environment_file(const std::string& path);

// The persisted part (studio, settings, environment) as text, and back: unknown keys and
// out-of-range values are ignored (each keeps `defaults`' value).
std::string format_look(const ViewerLook& look);
ViewerLook parse_look(const std::string& text, const ViewerLook& defaults);

}  // namespace rigview
