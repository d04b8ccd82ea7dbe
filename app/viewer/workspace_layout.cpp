#include "viewer/workspace_layout.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace rigview {

namespace {

constexpr std::array<const char*, kInspectorTabCount> kTabNames = {
    "Display", "Artefacts", "Compression", "Rig health", "Posing",
    "Joint",   "Vertex",    "Weights",     "Learn"};

// Keeps `value` in [lo, hi], or at lo when the window leaves no room above it.
float clamp_to(float value, float lo, float hi) {
  if (!std::isfinite(value)) value = lo;
  return std::clamp(value, lo, std::max(lo, hi));
}

}  // namespace

const char* inspector_tab_name(InspectorTab tab) {
  const size_t i = static_cast<size_t>(tab);
  return i < kTabNames.size() ? kTabNames[i] : kTabNames[0];
}

WorkspaceLayout clamp_layout(const WorkspaceLayout& layout, float width, float height) {
  WorkspaceLayout out = layout;
  width = std::max(width, 0.0f);
  height = std::max(height, 0.0f);
  out.timeline_height =
      clamp_to(layout.timeline_height, kMinTimelineHeight, height - kMinViewport - kSplitterSize);
  out.clip_list_height = clamp_to(layout.clip_list_height, kMinClipListHeight,
                                  height - kMinSkeletonHeight - kSplitterSize);
  // The side panels share what the viewport's minimum leaves; the inspector gives way first.
  const float room = width - kMinViewport - 2.0f * kSplitterSize;
  out.outliner_width =
      clamp_to(layout.outliner_width, kMinOutlinerWidth, room - kMinInspectorWidth);
  out.inspector_width =
      clamp_to(layout.inspector_width, kMinInspectorWidth, room - out.outliner_width);
  const float sides = out.outliner_width + out.inspector_width;
  if (sides > room) {  // even the minima do not fit: both shrink in proportion
    const float scale = std::max(room, 0.0f) / sides;
    out.outliner_width *= scale;
    out.inspector_width *= scale;
  }
  // A window lower than the minima: the timeline and the viewport share it.
  if (out.timeline_height + kSplitterSize > height)
    out.timeline_height = std::max(0.5f * (height - kSplitterSize), 0.0f);
  if (out.clip_list_height + kSplitterSize > height)
    out.clip_list_height = std::max(0.5f * (height - kSplitterSize), 0.0f);
  if (static_cast<int>(out.tab) < 0 || static_cast<int>(out.tab) >= kInspectorTabCount)
    out.tab = InspectorTab::Display;
  return out;
}

WorkspaceRegions workspace_regions(const WorkspaceLayout& layout, float width, float height,
                                   bool panels_hidden) {
  WorkspaceRegions r;
  width = std::max(width, 0.0f);
  height = std::max(height, 0.0f);
  if (panels_hidden) {
    r.viewport = {0.0f, 0.0f, width, height};
    return r;
  }
  const WorkspaceLayout l = clamp_layout(layout, width, height);
  const float s = kSplitterSize;
  r.outliner = {0.0f, 0.0f, l.outliner_width, height};
  r.outliner_splitter = {l.outliner_width, 0.0f, s, height};
  r.inspector = {width - l.inspector_width, 0.0f, l.inspector_width, height};
  r.inspector_splitter = {r.inspector.x - s, 0.0f, s, height};
  const float middle_x = r.outliner_splitter.right();
  const float middle_width = std::max(r.inspector_splitter.x - middle_x, 0.0f);
  const float viewport_height = std::max(height - l.timeline_height - s, 0.0f);
  r.viewport = {middle_x, 0.0f, middle_width, viewport_height};
  r.timeline_splitter = {middle_x, viewport_height, middle_width, s};
  r.timeline = {middle_x, viewport_height + s, middle_width, l.timeline_height};
  r.clip_list = {0.0f, 0.0f, l.outliner_width, l.clip_list_height};
  r.clip_list_splitter = {0.0f, l.clip_list_height, l.outliner_width, s};
  r.skeleton = {0.0f, l.clip_list_height + s, l.outliner_width,
                std::max(height - l.clip_list_height - s, 0.0f)};
  return r;
}

std::string format_layout(const WorkspaceLayout& layout) {
  char text[256];
  std::snprintf(text, sizeof text,
                "outliner_width %.0f\ninspector_width %.0f\ntimeline_height %.0f\n"
                "clip_list_height %.0f\ntab %s\n",
                double(layout.outliner_width), double(layout.inspector_width),
                double(layout.timeline_height), double(layout.clip_list_height),
                inspector_tab_name(layout.tab));
  return text;
}

WorkspaceLayout parse_layout(std::string_view text, const WorkspaceLayout& fallback) {
  WorkspaceLayout out = fallback;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, space), value = line.substr(space + 1);
    if (key == "tab") {
      for (size_t i = 0; i < kTabNames.size(); ++i)
        if (value == kTabNames[i]) out.tab = static_cast<InspectorTab>(i);
      continue;
    }
    float number = 0.0f;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    // A size must be a finite, plausible number of pixels; anything else keeps the fallback.
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(number) ||
        number < 0.0f || number > 16384.0f)
      continue;
    if (key == "outliner_width") out.outliner_width = number;
    if (key == "inspector_width") out.inspector_width = number;
    if (key == "timeline_height") out.timeline_height = number;
    if (key == "clip_list_height") out.clip_list_height = number;
  }
  return out;
}

}  // namespace rigview
