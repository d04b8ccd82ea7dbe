// The Posing panel (layers, IK chains, feet on the ground, look-at, root motion), the foot
// contact marks under the timeline, the crossfade graph, and the posing self-test steps
// (RIGVIEW_VIEWER_POSING). Edits go through the document's Posing (viewer/posing.h).
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "viewer/document.h"
#include "viewer/pose_handles.h"
#include "viewer/viewer_state.h"

namespace rigview {

void draw_posing_panel(ViewerState& state, Document& doc);

// Under the timeline slider just drawn (the last ImGui item): one row of marks per foot where
// feet on the ground holds it planted in the current clip (nothing when feet are off).
void draw_contact_marks(const Document& doc);

// The crossfade as a graph: the source's and the target's weights over the fade as curves, the
// current point of the fade, both clips' playheads, and each layer's weight.
void draw_crossfade_graph(const ViewerState& state, const Document& doc);

// The steps of RIGVIEW_VIEWER_POSING (viewer/self_test.h) on `posing` (doc's, or a trial one),
// run through the same calls as the panel and the handles. `display`: window size. No
// `handles`: drags are skipped (a trial run that checks the steps before the window opens).
// false + one-line error on a bad step.
bool apply_posing_steps(const std::string& steps, ViewerState& state, const Document& doc,
                        Posing& posing, PoseHandles* handles, glm::vec2 display,
                        std::string& error);

}  // namespace rigview
