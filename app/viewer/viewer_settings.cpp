#include "viewer/viewer_settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rigview {

namespace fs = std::filesystem;

namespace {

fs::path settings_folder() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg && fs::path(xdg).is_absolute()) return fs::path(xdg) / "rigview";
  const char* home = std::getenv("HOME");
  if (home && *home) return fs::path(home) / ".config" / "rigview";
  return {};
}

}  // namespace

void ViewerSettings::load() {
  fs::path folder = settings_folder();
  std::error_code ec;
  if (folder.empty() || (!fs::create_directories(folder, ec) && ec)) return;
  folder_ = folder.string();
  imgui_ini_ = (folder / "imgui.ini").string();
  recent_file_ = (folder / "recent_files.txt").string();
  window_file_ = (folder / "window.txt").string();
  layout_file_ = (folder / "layout.txt").string();
  look_file_ = (folder / "look.txt").string();

  std::ifstream recent(recent_file_);
  for (std::string line; std::getline(recent, line) && recent_.size() < kMaxRecent;) {
    if (!line.empty()) recent_.push_back(line);
  }
  std::ifstream window(window_file_);
  WindowGeometry g;
  // Sizes outside a sane range (a corrupt file) are ignored rather than trusted.
  if (window >> g.x >> g.y >> g.width >> g.height && g.width >= 200 && g.height >= 150 &&
      g.width <= 16384 && g.height <= 16384) {
    window_ = g;
  }
  std::ifstream layout(layout_file_);
  std::stringstream text;
  text << layout.rdbuf();
  layout_ = parse_layout(text.str());
  std::ifstream look(look_file_);
  std::stringstream look_text;
  look_text << look.rdbuf();
  look_text_ = look_text.str();
}

void ViewerSettings::save_look(const ViewerLook& look) {
  look_text_ = format_look(look);
  if (!persistent()) return;
  std::ofstream out(look_file_, std::ios::trunc);
  out << look_text_;
}

void ViewerSettings::add_recent(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  const std::string entry = ec ? path : absolute.lexically_normal().string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), entry), recent_.end());
  recent_.insert(recent_.begin(), entry);
  if (recent_.size() > kMaxRecent) recent_.resize(kMaxRecent);
  save_recent();
}

void ViewerSettings::save_recent() const {
  if (!persistent()) return;
  std::ofstream out(recent_file_, std::ios::trunc);
  for (const std::string& path : recent_) out << path << '\n';
}

void ViewerSettings::save_window(const WindowGeometry& geometry) {
  window_ = geometry;
  if (!persistent()) return;
  std::ofstream out(window_file_, std::ios::trunc);
  out << geometry.x << ' ' << geometry.y << ' ' << geometry.width << ' ' << geometry.height << '\n';
}

void ViewerSettings::save_layout(const WorkspaceLayout& layout) {
  layout_ = layout;
  if (!persistent()) return;
  std::ofstream out(layout_file_, std::ios::trunc);
  out << format_layout(layout);
}

}  // namespace rigview
