// What the viewer shows and how, as plain data: no GLFW, no ImGui, no GL. Key actions
// (viewer/actions.h) and panels (viewer/panels.h) read and change it; the frame loop
// (viewer/viewer.cpp) turns it into renderer calls and serves its requests.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/vertex_inspection.h"
#include "anim/playback.h"
#include "options.h"
#include "render/renderer.h"
#include "render/skinning_cost.h"
#include "skin/skinning_method.h"
#include "skin_edits.h"
#include "viewer/bind_pose_ghost.h"
#include "viewer/learn_state.h"
#include "viewer/look_state.h"
#include "viewer/vertex_picking.h"
#include "viewer/workspace_layout.h"

namespace rigview {

// What colours the skinned surfaces (V cycles through them): the skin weights of the selected
// joint, the influence count, and the artefact heat maps: deflation of each view's own method,
// and the difference between the first two methods of the table (LBS vs DQS).
// Then the displacement between the raw and the compressed clip (Compression panel). Last, the
// rig doctor's affected vertices (Rig health panel: every error and warning, or the clicked
// finding).
enum class SurfaceView {
  Off,
  SelectedJoint,
  InfluenceCount,
  Deflation,
  Difference,
  Compression,
  RigFindings
};
inline constexpr int kSurfaceViewCount = 7;

// One-shot requests that need the window, the camera's view size or the file system; the frame
// loop serves and clears them.
struct ViewerRequests {
  bool frame_model = false;       // fit the camera to the model (F)
  bool reset_camera = false;      // the start view (Reset camera)
  bool focus_open_field = false;  // keyboard focus to the Open field (O)
  bool quit = false;              // close the window (Ctrl+Q)
  std::string open_path;          // open this file next frame (Open, recent files, drop)
  std::string add_clips_path;     // add this file's clips next frame (Add clips, Shift+drop)
  int frame_node = -1;            // frame the camera on this joint's part of the mesh
  bool measure_cost = false;      // measure every method's skinning cost (Measure cost)
  int frame_finding = -1;         // frame the joints of this Rig health row (finding index)
  // Teaching aids: simulate this bug (index in rig::kSimulatedBugs; -1 turns it off) on a copy
  // of the pristine model. kNoBugRequest: nothing asked.
  static constexpr int kNoBugRequest = -2;
  int simulate_bug = kNoBugRequest;
  // Posing: an IK chain ending at this joint (Skeleton tree), and unfolding the Posing panel
  // once (after a new chain, and for its self-test). Served by the Posing panel.
  int make_ik_chain = -1;
  bool open_posing_panel = false;
  // Skin edits (Weights tab, Rig health's Repair, keys), served by viewer/skin_editing.h: one
  // weights operation (the command line's --weights-op rows), an IBM repair, undo, redo, Save
  // (to the file's save path) and Save As (to `save_as`).
  bool weights_op = false;
  WeightsOp op;
  // The Rig health panel's buttons: rest pose (rig::InverseBindRepairScope::Flagged) or what the
  // broken matrices keep (Recover).
  bool repair_ibm = false;
  bool recover_ibm = false;
  bool undo = false, redo = false, save = false;
  // The Bone map window's Remap / Unmap / Pair: in added file `remap_file`'s map, source joint
  // `remap_source` drives target joint `remap_target` (-1 unmaps). One undoable edit.
  int remap_file = -1, remap_source = -1, remap_target = -1;
  // Fix this joint: start the search for the selected joint (or the worst) over the current
  // clip; cancel it.
  bool fix_joint = false, cancel_fix_joint = false;
  // Cancel the weights operation running in the background (Limit with refit).
  bool cancel_weights_op = false;
  // The Joint tab's Sweep of the selected joint; its cancel; a click on its curves (pose the
  // angle: SweepView::posed_axis / posed_angle); Play.
  bool sweep = false, cancel_sweep = false, pose_sweep = false, play_sweep = false;
  std::string save_as;
  // The answers to the questions the viewer asks (EditStatus): recover the journal or not; what
  // to do with unsaved edits before opening another file or quitting.
  enum class Answer { None, Yes, No, Cancel };
  Answer recover = Answer::None;
  Answer unsaved = Answer::None;  // Yes: save first; No: discard; Cancel: stay
};

// What the Weights tab's tools are set to.
struct WeightTools {
  float clean_threshold = 0.01f;
  int limit = 4;
  bool refit = true;
  float smooth_factor = 0.5f;
  int smooth_iterations = 10;
  bool smooth_selected_joint = false;  // only the selected joint's weights (else every joint)
  std::string save_as_field;
  // The paint brush (skin/weight_brush.h) on the selected joint: a left drag on the surface
  // paints while `paint` is on. Radius: a fraction of the skin's bind-space diagonal.
  bool paint = false;
  int brush_mode = 0;     // rig::BrushMode
  int brush_falloff = 0;  // rig::BrushFalloff
  float brush_radius = 0.05f;
  float brush_strength = 0.3f;
  float brush_value = 1.0f;
  bool brush_mirror = false;
  bool painting = false;        // a stroke is under way (the frame loop's)
  glm::vec2 brush_pixel{0.0f};  // the brush circle: centre and radius in pixels (0: none)
  float brush_pixel_radius = 0.0f;
};

// The document's edit state as the frame loop last saw it (viewer/skin_editing.h), for the
// panels, the title and the questions.
struct EditStatus {
  bool modified = false;
  std::string undo_label, redo_label;  // empty: nothing to undo / redo
  std::string save_path;
  std::string message;  // the last edit's or save's one line ("Saved …", an error)
  // A journal of unsaved edits to this file was found: ask (its one-line summary).
  std::string recover_prompt;
  // Opening `pending_open` or quitting (pending_quit) waits for the unsaved-edits answer.
  std::string pending_open;
  bool pending_quit = false;
  // Fix this joint: its search runs (progress in [0, 1]).
  bool fix_running = false;
  float fix_progress = 0.0f;
  // A weights operation (Limit with refit) runs in the background (progress in [0, 1]).
  bool op_running = false;
  float op_progress = 0.0f;
  // Where the open question's buttons were drawn (window pixels x, y, width, height): Recover or
  // Save, Discard, Cancel; all zero when no question is open (the X-event tests click them).
  float question_buttons[3][4] = {};
};

// The Joint tab's Sweep (range of motion): the selected joint turned about each local axis, every
// step measured per method; then played back (the joint's hand rotation through the angles) with
// a playhead on the curves, and a click on a curve poses that angle.
struct SweepView {
  int node = -1;  // the swept joint; -1: no sweep
  bool running = false;
  float progress = 0.0f;
  std::string error;
  float degrees = 120.0f;
  int steps = 25;
  std::vector<rig::SkinningMethod> methods;
  std::vector<float> scores;  // per axis, step, method: score (NaN: none)
  float score_max = 0.0f;
  // Playback of the sweep: the position in [0, 3) (axis + fraction of its range); < 0: stopped.
  float play = -1.0f;
  int posed_axis = -1;  // a curve clicked: this axis at posed_angle
  float posed_angle = 0.0f;
  float score(int axis, int step, size_t method) const {
    return scores[(size_t(axis) * size_t(steps) + size_t(step)) * methods.size() + method];
  }
};

// The Vertex tab: the picked vertex, its inspection (analysis/vertex_inspection.h) at the pose it
// was made at, and its influences' opinions under the current pose (drawn every frame).
struct VertexInspectorState {
  PickedVertex picked;   // primitive -1: none picked
  bool inspect = false;  // inspect at this frame's pose (a pick, Refresh, playback paused)
  bool valid = false;
  rig::VertexInspection inspection;
  std::string error;
  int clip = -1;  // the pose the inspection was made at (clip -1: rest pose)
  float time = 0.0f;
  LiveOpinions live;
  bool live_valid = false;
  std::array<int, 8> joints{};  // the inspection's influences, for the live opinions
  std::array<float, 8> weights{};
  int count = 0;
};

struct ViewerState {
  // Skinning: the single view's method, the compare list (at least two, left to right) and
  // whether the compare list is shown instead. See methods_shown().
  rig::SkinningMethod method = rig::SkinningMethod::Linear;
  std::vector<rig::SkinningMethod> compare_methods;
  bool compare = false;
  // Bit per table row: the method's per-model data (centres of rotation) is still being
  // prepared in the background, so selecting it keeps the current method and says so.
  uint32_t methods_preparing = 0;
  float preparing_progress = 0.0f;  // of that background job, in [0, 1]
  std::string skinning_notice;      // "preparing CoR…" after such a selection; cleared when ready

  bool rest_pose = false;
  bool show_skeleton = false;  // bones
  bool show_surfaces = true;
  bool show_wireframe = false;
  bool show_grid = true;
  bool show_shadows = true;  // the key light's shadow on the character and the ground
  SurfaceView surface_view = SurfaceView::Off;
  ViewerLook look;  // studio or classic, the environment and its load (viewer/look_state.h)

  int selected_node = -1;  // joint node selected (tree, click, --weights JOINT); -1: none
  int hovered_node = -1;
  bool reveal_selection = false;  // open the joint tree down to the selection once
  int tree_skin = 0;

  bool show_help = false;
  bool panels_hidden = false;  // Tab

  // The open document's playback (null before one is open): play, step, loop, crossfade.
  rig::Playback* playback = nullptr;
  rig::render::OrbitCamera camera;

  // Crossfade panel.
  int fade_target = 0;
  float fade_duration = 0.5f;
  bool fade_phase_sync = false;

  // File panel.
  std::string open_field;      // text of the Open field
  std::string error_message;   // last failed open, shown until dismissed
  std::string clip_filter;     // the outliner's clip filter (substring, any case)
  std::string joint_search;    // the skeleton tree's search: matching joints as a flat list
  bool scroll_to_clip = true;  // bring the current clip into the list's view after a load
  bool scrubbing = false;      // the timeline slider is held: playback does not advance

  // Artefacts panel: open (its measures run every frame while it is), and the method whose
  // ranked joints it lists.
  bool artefacts_open = false;
  rig::SkinningMethod artefact_method = rig::SkinningMethod::Linear;
  // Compression panel: open (the clips are compressed in the background while it is), the
  // tolerance, and whether playback samples the compressed clips. The slider edits tolerance_cm
  // itself; while it is held (tolerance_editing) nothing is recompressed, on release it is.
  bool compression_open = false;
  float tolerance_cm = 0.01f;
  bool tolerance_editing = false;
  bool play_compressed = false;

  // Skinning cost (Measure cost, render/skinning_cost.h): draws per measurement, and the last
  // result or its one-line error.
  int cost_draws = 20;
  rig::render::SkinningCostReport cost;
  std::string cost_error;
  // Posing panel (viewer/posing_panel.cpp): its last one-line error.
  std::string posing_error;

  ViewerRequests requests;

  // Measured by the frame loop, shown by the stats overlay.
  double frame_ms = 0.0;
  double animation_cpu_ms = 0.0;
  // --crowd N: the crowd drawn instead of the single character (0: none) and its figures.
  int crowd_count = 0;
  int crowd_threads = 0;
  double crowd_update_ms = 0.0;      // wall clock, all threads working
  double crowd_update_cpu_ms = 0.0;  // CPU time summed over those threads
  double crowd_upload_ms = 0.0;      // palettes to the GPU
  double crowd_gpu_ms = -1.0;        // the instanced draw (< 0: no result yet)
  // The workspace: splitters and the open inspector tab (kept between runs), and the stats
  // overlay's height as last drawn (the weight legend sits above it).
  WorkspaceLayout layout;
  float stats_height = 50.0f;
  // Where the Teaching aids' first choice was last drawn, from its window's top (tests check it
  // stays put when a bug is chosen).
  float teaching_choices_y = 0.0f;
  // The Joint tab's angle fields: the hand rotation of joint_euler_node as local Euler X, Y, Z
  // in degrees (q = q_X · q_Y · q_Z, as --pose-joint), kept as typed so that a field never jumps
  // to another equivalent triple; re-read from the rotation when another joint is selected.
  int joint_euler_node = -1;
  // The Joint tab's bind-pose ghost (viewer/bind_pose_ghost.h): shown over the view, and the
  // joints it compares, cached per skin layer revision.
  bool show_bind_ghost = false;
  // The Bone map window (viewer/retarget_panel.cpp): which added file it shows, the pair picked
  // for a remap, a source joint waiting for its target, and the source ghost beside the
  // character.
  struct BoneMapView {
    bool open = false;
    int file = 0;
    int pair = -1;
    int pending_source = -1;
    bool ghost = true;
    std::string message;  // the last remap's one line
  } bone_map;
  BindPoseGhost bind_ghost;
  float joint_euler_deg[3] = {0.0f, 0.0f, 0.0f};
  WeightTools weight_tools;
  EditStatus edits;
  VertexInspectorState vertex;
  SweepView sweep;
  // The Learn tab (viewer/learn_state.h).
  LearnState learn;
};

// The start state for the command line: skinning methods and compare, rest pose, bones.
ViewerState initial_viewer_state(const Options& options);

// The methods drawn, left to right: a Learn mistake's two columns while one is on, else the
// compare list, or the single view's method.
std::span<const rig::SkinningMethod> methods_shown(const ViewerState& state);

// Key N (1-based) of the skinning keys: method N-1 alone (compare off); a method still being
// prepared (methods_preparing) keeps the current one and sets skinning_notice.
void select_method(ViewerState& state, size_t table_index);
void toggle_compare(ViewerState& state);
// Off → selected joint → influence count → Off.
void cycle_surface_view(ViewerState& state);

// The 3D view's rectangle (window pixels) in a window of that size: the workspace's middle
// region, or the whole window with the panels hidden (Tab). In compare mode it is what is split
// into the views. The renderer's viewport, picking, the handles and the overlays all use it.
Rect scene_view(const ViewerState& state, float window_width, float window_height);

// How far the crowd's clock moves this frame, so the crowd follows the timeline as the single
// character does: while playing (and not scrubbing), by the frame's playback time dt·speed, so
// it plays on smoothly where the single clip loops; otherwise by however far the timeline's
// time moved (a scrub, a frame step, Home or End; 0 while paused), unless the clip changed
// (a new clip's time says nothing about the crowd's). 0 in the rest pose.
struct TimelineFrame {
  int clip = -1;
  float time = 0.0f;
};
double crowd_clock_step(bool playing, bool scrubbing, bool rest_pose, float dt, float speed,
                        TimelineFrame before, TimelineFrame now);

}  // namespace rigview
