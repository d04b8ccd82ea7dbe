// Per-user viewer state kept between runs: ImGui's own settings (imgui.ini), the recent files,
// the window geometry and the workspace layout (splitters and the open inspector tab), all in one
// folder ($XDG_CONFIG_HOME/rigview, else ~/.config/rigview).
#pragma once

#include <string>
#include <vector>

#include "viewer/look_state.h"
#include "viewer/workspace_layout.h"

namespace rigview {

struct WindowGeometry {
  int x = -1, y = -1;  // -1: let the window manager place it
  int width = 0, height = 0;
};

class ViewerSettings {
 public:
  static constexpr size_t kMaxRecent = 10;

  // Finds (and creates) the settings folder and reads recent files and window geometry.
  // Without a usable folder everything still works, only nothing is remembered.
  void load();

  bool persistent() const { return !folder_.empty(); }
  // Path for ImGui's io.IniFilename; empty when not persistent. Stable for the object's life.
  const std::string& imgui_ini_path() const { return imgui_ini_; }

  const std::vector<std::string>& recent_files() const { return recent_; }
  // Moves `path` (made absolute) to the front of the recent list and saves the list.
  void add_recent(const std::string& path);

  const WindowGeometry& window() const { return window_; }
  void save_window(const WindowGeometry& geometry);

  // The workspace as last saved (defaults when never saved); save_layout writes it.
  const WorkspaceLayout& layout() const { return layout_; }
  void save_layout(const WorkspaceLayout& layout);

  // The look as last saved (look.txt: viewer/look_state.h's text; empty when never saved).
  const std::string& look_text() const { return look_text_; }
  void save_look(const ViewerLook& look);

 private:
  void save_recent() const;

  std::string folder_, imgui_ini_, recent_file_, window_file_, layout_file_, look_file_;
  std::string look_text_;
  std::vector<std::string> recent_;
  WindowGeometry window_;
  WorkspaceLayout layout_;
};

}  // namespace rigview
