// What the last frame drew beyond the room it was given: the check behind "no clipped text in any
// label". Dear ImGui reports each item's extent as it lays it out (a window's cursor reach, a
// table column's content reach); comparing that with the window's or column's clip rectangle
// finds any label, value or header that was cut off, whatever widget drew it.
#pragma once

#include <string>
#include <vector>

namespace rigview {

struct ClippedContent {
  std::string where;    // the window's name, or "<window> table column N"
  float pixels = 0.0f;  // how far its content reaches past the edge
};

// Appends every place of the frame just ended whose content reaches more than half a pixel past
// its clip edge: windows active this frame (to the right unless they scroll sideways; below as
// well when they have no vertical scrollbar, where nothing could bring it into view) and the
// columns of the tables drawn this frame. Call between ImGui::Render and the next NewFrame.
void find_clipped_content(std::vector<ClippedContent>& out);

}  // namespace rigview
