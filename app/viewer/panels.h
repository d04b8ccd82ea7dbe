// The viewer's Dear ImGui panels and overlays: free functions over the ViewerState and the open
// Document. They change the state (and the document's playback) and post requests
// (state.requests); they never call the renderer or the window.
#pragma once

#include "viewer/document.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {

// The side panel ("rigview"): error line, then every section below, and the Help button.
void draw_side_panel(ViewerState& state, Document& doc, const ViewerSettings& settings);

void draw_file_panel(ViewerState& state, const Document& doc, const ViewerSettings& settings);
void draw_animation_panel(ViewerState& state, Document& doc);  // clips, timeline, playback
void draw_crossfade_panel(ViewerState& state, Document& doc);
void draw_display_panel(ViewerState& state, const Document& doc);  // skinning, display, weights
void draw_skeleton_panel(ViewerState& state, Document& doc);       // joint tree and selection
// Skinning artefacts of the current pose and clip (viewer/artefacts_panel.cpp). Sets
// state.artefacts_open, which makes the frame loop measure (doc.artefacts) every frame.
void draw_artefacts_panel(ViewerState& state, Document& doc);
// Animation compression of every clip (viewer/artefacts_panel.cpp): tolerance, ratios, errors,
// raw or compressed playback. Sets state.compression_open.
void draw_compression_panel(ViewerState& state, Document& doc);

// The rig doctor's findings (viewer/rig_health_panel.cpp): a traffic light per finding and one
// for the whole rig in the header; a click selects the finding's first joint (its others are
// highlighted while it stays selected: viewer_render.cpp), frames all its joints and shows its
// vertices in the "affected vertices" view (SurfaceView::RigFindings).
void draw_rig_health_panel(ViewerState& state, Document& doc);
// What a click on Rig health row `finding` does (also the self-test's RIGVIEW_VIEWER_FINDING).
void select_finding(ViewerState& state, Document& doc, int finding);
// Teaching aids (viewer/rig_health_panel.cpp): the classic rigging bugs, simulated on a copy of
// the file's model (state.requests.simulate_bug); None restores the file exactly.
void draw_teaching_aids_panel(ViewerState& state, const Document& doc);

// Overlays over the 3D view. gpu_ms < 0: not measured yet.
void draw_stats_overlay(ViewerState& state, const Document& doc, double gpu_ms);
void draw_weight_legend(const ViewerState& state, const Document& doc);
void draw_compare_labels(const ViewerState& state);
// Every row of viewer_actions() (viewer/actions.h).
void draw_help_panel(ViewerState& state, const ViewerSettings& settings);

// All of the above, unless the panels are hidden (Tab).
void draw_ui(ViewerState& state, Document& doc, const ViewerSettings& settings, double gpu_ms);

// Tooltip naming the hovered joint (state.hovered_node), if any.
void draw_hover_tooltip(const ViewerState& state, const Document& doc);

}  // namespace rigview
