// The timeline's arithmetic, apart from drawing: where a time sits on the scrub bar and back, the
// time and frame read-out, and which pixel columns carry a key of the clip. Pure (no ImGui), so
// tests check it without a window.
#pragma once

#include <cstddef>
#include <span>

#include "model/model.h"

namespace rigview {

// x (window pixels) on a bar [left, left + width) of the clip range [start, end] → its time,
// clamped to the range; and back. A zero-length range maps everything to start.
float timeline_time_at(float x, float left, float width, float start, float end);
float timeline_x_at(float time, float left, float width, float start, float end);

// "0.033 / 0.033 s   frame 1 / 1": the time within the clip (clamped to it, so a frame step past
// a one-frame pose clip's end still reads its end) over the clip's length, and the frame (1-based)
// of `frames`. Returns `out`.
const char* format_time_readout(char* out, size_t size, float time, float start, float end,
                                int frame_index, int frames);

// Sets columns[i] to 1 where a key of `clip` falls in pixel column i of a bar `columns.size()`
// pixels wide over [clip.start, clip.end], 0 elsewhere. Returns how many columns are marked.
// Long channels are skipped a column at a time, so the cost follows the bar's width, not the key
// count; allocates nothing.
size_t mark_key_columns(const rig::Clip& clip, std::span<unsigned char> columns);

}  // namespace rigview
