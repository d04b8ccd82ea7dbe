// The viewer's workspace as rectangles: the outliner on the left and the inspector on the right,
// both the window's full height, the timeline along the bottom between them, and the 3D viewport
// in the middle. Pure maths over the window size and the splitter positions (no ImGui, no GL), so
// the panels, the renderer's viewport and mouse picking all read the same regions and tests can
// check them without a window.
#pragma once

#include <string>
#include <string_view>

namespace rigview {

// A rectangle in window pixels, origin top left.
struct Rect {
  float x = 0.0f, y = 0.0f, width = 0.0f, height = 0.0f;
  float right() const { return x + width; }
  float bottom() const { return y + height; }
  bool contains(float px, float py) const {
    return px >= x && px < x + width && py >= y && py < y + height;
  }
};

// The inspector's tabs, in the order shown. A new tab (Weights, Vertex, Joint, Learn) is a new
// row here and in the inspector's table (viewer/inspector_panel.cpp).
enum class InspectorTab {
  Display,
  Artefacts,
  Compression,
  RigHealth,
  Posing,
  Joint,
  Vertex,
  Weights,
  Learn
};
inline constexpr int kInspectorTabCount = 9;
// The tab's label, also its name in the saved layout.
const char* inspector_tab_name(InspectorTab tab);

// What the user sets by dragging the splitters (window pixels) and the open tab: kept between
// runs (viewer/viewer_settings.h). Clamped to the window by clamp_layout before use.
struct WorkspaceLayout {
  float outliner_width = 300.0f;
  float inspector_width = 400.0f;
  float timeline_height = 190.0f;
  // Inside the outliner: the clip list's height above the skeleton tree (its own splitter).
  float clip_list_height = 260.0f;
  InspectorTab tab = InspectorTab::Display;
};

// Limits the splitters keep to: each panel stays usable and the viewport keeps at least
// kMinViewport pixels each way. A window too small for all of them shrinks the side panels
// (inspector first) before the viewport goes below its minimum.
inline constexpr float kSplitterSize = 5.0f;  // the gap a splitter occupies
inline constexpr float kMinOutlinerWidth = 160.0f;
inline constexpr float kMinInspectorWidth = 240.0f;
inline constexpr float kMinTimelineHeight = 110.0f;
inline constexpr float kMinClipListHeight = 80.0f;
inline constexpr float kMinSkeletonHeight = 120.0f;
inline constexpr float kMinViewport = 160.0f;

// `layout` with every size within its limits for a window of width x height.
WorkspaceLayout clamp_layout(const WorkspaceLayout& layout, float width, float height);

struct WorkspaceRegions {
  Rect outliner, inspector, timeline, viewport;
  Rect clip_list, skeleton;  // the outliner's two parts
  // The splitters' handles: between outliner and the middle, the middle and the inspector, the
  // viewport and the timeline, and the clip list and the skeleton tree.
  Rect outliner_splitter, inspector_splitter, timeline_splitter, clip_list_splitter;
};

// The regions of a width x height window for `layout` (clamped first). `panels_hidden` (Tab):
// the viewport is the whole window and every other region is empty.
WorkspaceRegions workspace_regions(const WorkspaceLayout& layout, float width, float height,
                                   bool panels_hidden = false);

// The saved form: one "key value" line per size and the tab by name. parse_layout starts from
// `fallback` and takes each line it understands, so an old or damaged file never loses more
// than the lines it spoils.
std::string format_layout(const WorkspaceLayout& layout);
WorkspaceLayout parse_layout(std::string_view text, const WorkspaceLayout& fallback = {});

}  // namespace rigview
