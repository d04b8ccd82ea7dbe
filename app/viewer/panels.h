// The viewer's Dear ImGui panels and overlays: free functions over the ViewerState and the open
// Document. They change the state (and the document's playback) and post requests
// (state.requests); they never call the renderer or the window.
#pragma once

#include "viewer/document.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {

// The workspace (viewer/workspace_layout.h): the outliner on the left, the inspector on the right,
// the timeline under the viewport, each a fixed window on its region, and the splitters between
// them (viewer/inspector_panel.cpp). Reads and changes state.layout.
void draw_workspace(ViewerState& state, Document& doc, const ViewerSettings& settings);

// The outliner's parts (viewer/outliner_panel.cpp): the Open field and recent files, the clip
// list with its filter, and the skeleton tree with search, selection and the mix's checkboxes.
void draw_file_panel(ViewerState& state, const Document& doc, const ViewerSettings& settings);
void draw_clip_list(ViewerState& state, Document& doc);
void draw_skeleton_panel(ViewerState& state, Document& doc);
// The timeline (viewer/timeline_panel.cpp): play controls, speed, the scrub bar with key times,
// and the rows under it (foot contacts, crossfade and layer weights, artefact curves).
void draw_timeline_panel(ViewerState& state, Document& doc);

// The inspector's tabs' bodies.
void draw_crossfade_panel(ViewerState& state, Document& doc);
void draw_display_panel(ViewerState& state, const Document& doc);  // skinning, display, weights
// The Display tab's Look section (viewer/look_panel.cpp): studio or classic and the studio
// look's environment and settings (state.look).
void draw_look_section(ViewerState& state);
// Skinning artefacts of the current pose and clip (viewer/artefacts_panel.cpp). The frame loop
// measures (doc.artefacts) every frame while state.artefacts_open (its tab is open).
void draw_artefacts_panel(ViewerState& state, Document& doc);
// Animation compression of every clip (viewer/artefacts_panel.cpp): tolerance, ratios, errors,
// raw or compressed playback. Its tolerance slider edits state.tolerance_cm and, on release,
// asks the document's compression for that tolerance.
void draw_compression_panel(ViewerState& state, Document& doc);
// The colour of a method's artefact curve (Artefacts tab and timeline).
unsigned artefact_curve_color(rig::SkinningMethod method);

// The rig doctor's findings (viewer/rig_health_panel.cpp): a traffic light per finding and one
// for the whole rig in the header; a click selects the finding's first joint (its others are
// highlighted while it stays selected: viewer_render.cpp), frames all its joints and shows its
// vertices in the "affected vertices" view (SurfaceView::RigFindings).
void draw_rig_health_panel(ViewerState& state, Document& doc);
// The inspector's Rig health tab: the teaching aids, then the rig health panel.
void draw_rig_health_tab(ViewerState& state, Document& doc);
// What a click on Rig health row `finding` does (also the self-test's RIGVIEW_VIEWER_FINDING).
void select_finding(ViewerState& state, Document& doc, int finding);
// Teaching aids (viewer/rig_health_panel.cpp): the classic rigging bugs, simulated on a copy of
// the file's model (state.requests.simulate_bug); None restores the file exactly.
void draw_teaching_aids_panel(ViewerState& state, const Document& doc);

// The selected joint (viewer/joint_panel.cpp): its hand rotation as local Euler angles and
// quaternion, reset, and its local TRS, world, inverse bind and skinning matrices as numbers.
void draw_joint_tab(ViewerState& state, Document& doc);
// The Weights tab (viewer/weights_panel.cpp): the weight operations, Undo / Redo, Save / Save
// As, all posted as requests; and the questions about unsaved edits (a journal to recover,
// saving before opening another file or quitting), drawn even with the panels hidden.
void draw_weights_tab(ViewerState& state, Document& doc);
void draw_edit_questions(ViewerState& state, const Document& doc);
// The Joint tab's Sweep (viewer/sweep_panel.cpp): the button (progress and Cancel while it
// runs), then per local axis the score curve of each method against the angle with the playback's
// playhead; a click on a curve poses that angle, Play runs the sweep again.
void draw_sweep_section(ViewerState& state, const Document& doc);
// The Vertex tab (viewer/vertex_panel.cpp): click the surface to pick a vertex; its primitive
// and index, bind position, influences (joint, weight, opinion M_j · v), every method's result,
// the CoR centre and h per method; and the opinions drawn over the view as points joined to the
// vertex.
void draw_vertex_tab(ViewerState& state, Document& doc);
void draw_vertex_overlay(const ViewerState& state);
// The Joint tab's bind-pose ghost over the single view: the IBM-implied skeleton (orange) and
// the node rest pose (white).
void draw_bind_ghost_overlay(const ViewerState& state);
// The Bone map window of a retargeted clip file (viewer/retarget_panel.cpp): the pairs side by
// side, unmapped joints in red, per clip its measures, remapping by picking.
void draw_bone_map_window(ViewerState& state, Document& doc);
// The source skeleton playing its clip beside the character while a retargeted clip plays, and
// with the Bone map window open the character's unmapped joints circled.
void draw_source_ghost_overlay(const ViewerState& state, const Document& doc);

// The Learn tab (viewer/learn_panel.cpp): the lessons (viewer/lessons.h) with Show me and
// Leave lesson, and on the twist arm the twist and bend sliders with the cross-section plot.
void draw_learn_tab(ViewerState& state, Document& doc);

// The glossary's definition of `term` (viewer/glossary.h) as the last item's tooltip while it
// is hovered; nothing for a term the glossary lacks.
void glossary_tooltip(const char* term);

// Overlays over the 3D view. gpu_ms < 0: not measured yet.
void draw_stats_overlay(ViewerState& state, const Document& doc, double gpu_ms);
void draw_weight_legend(const ViewerState& state, const Document& doc);
void draw_compare_labels(const ViewerState& state);
// Every row of viewer_actions() (viewer/actions.h).
void draw_help_panel(ViewerState& state, const ViewerSettings& settings);

// A failed open's message over the top of the viewport, with Dismiss: the panels stay put.
void draw_error_banner(ViewerState& state);

// The workspace and the overlays (the workspace unless the panels are hidden, Tab).
void draw_ui(ViewerState& state, Document& doc, const ViewerSettings& settings, double gpu_ms);

// Tooltip naming the hovered joint (state.hovered_node), if any.
void draw_hover_tooltip(const ViewerState& state, const Document& doc);

}  // namespace rigview
