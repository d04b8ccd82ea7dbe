// The interactive viewer: the open Document, the ViewerState, the platform window
// (viewer/platform_glfw.h), the renderer (scene drawing and uploads in viewer/viewer_render.cpp;
// the document's new skin meshes and the crowd's frames are handed to it in
// viewer/viewer_document.cpp), key actions (viewer/actions.h) and panels (viewer/panels.h).
// Self-test hooks: viewer/self_test.h. The class is split over three files: viewer.cpp (start-up
// and the frame loop), viewer_document.cpp (opening files and the document's derived products)
// and viewer_input.cpp (camera, keyboard, mouse, picking, posing).
#pragma once
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "character/crowd.h"
#include "leak_check.h"
#include "look_environment.h"
#include "modes.h"
#include "pose_options.h"
#include "posed_character.h"
#include "render/crowd_renderer.h"
#include "render/renderer.h"
#include "render/weight_view.h"
#include "skin/weight_brush.h"
#include "sweep_job.h"
#include "viewer/actions.h"
#include "viewer/camera_controls.h"
#include "viewer/document.h"
#include "viewer/first_view.h"
#include "viewer/panels.h"
#include "viewer/platform_glfw.h"
#include "viewer/pose_handles.h"
#include "viewer/posing_panel.h"
#include "viewer/rotation_rings.h"
#include "viewer/self_test.h"
#include "viewer/skin_editing.h"
#include "viewer/soak.h"
#include "viewer/viewer_render.h"
#include "viewer/viewer_settings.h"
#include "viewer/viewer_state.h"

namespace rigview {

inline constexpr float kPickRadiusPixels = 8.0f;
inline constexpr float kVertexPickPixels = 12.0f;
inline constexpr float kFixedTestStep = 1.0f / 30.0f;

class Viewer {
 public:
  explicit Viewer(const Options& options)
      : options_(options), state_(initial_viewer_state(options)) {}
  ~Viewer();

  // Loads the first model and applies the command-line pose and --weights. 0, or the exit
  // status after printing one line (1: the model, 2: a usage error).
  int load_initial(const std::string& path);
  // Window, GL, ImGui, renderer. Returns 0, or the exit status after printing one line.
  int open_window();
  int run();

 private:
  // Opens `path` as the new document; on failure the current one stays and the error is shown.
  void open_model(const std::string& path);
  // Adds another file's clips to the clip set (retargeted when its skeleton differs); a file
  // that cannot be used leaves the clips as they were and says why in the error line.
  void add_clip_file(const std::string& path);
  void remap_bone_pair(size_t file, int source_node, int target_node);
  void frame_joint(int node);
  void frame_finding(int finding);
  // Teaching aids: replaces the document by one derived from its pristine model with `bug`
  // (-1: none), keeping the camera and the playback position, so the change is seen in place.
  void simulate_bug(int bug);
  bool write_rig_health(const std::string& path) const;
  void update_artefacts();
  void update_compression();
  void update_rotation_centers();
  // The Look section's requests and drops of .hdr files: starts, cancels and takes the
  // environment job (viewer.cpp). No allocation unless a load starts or finishes.
  void update_look();
  void frame_model(bool character_view = false);
  void reset_camera();
  void serve_requests();
  // The Learn tab's Show me and Leave lesson (viewer/viewer_learn.cpp).
  void serve_learn();
  // The Learn mistake on, posed and skinned after the frame's pose; the renderer's CPU skinning
  // on while one is (viewer_learn.cpp).
  void update_mistake(const rig::PoseSelection& selection);
  // --crowd: (re)makes the crowd for doc_ and the first method on screen. false + error.
  bool rebuild_crowd(std::string& error);
  // Per frame: moves the crowd's clock with the timeline (crowd_clock_step) and uploads the
  // crowd (rebuilt first when the method on screen or an input it read changed: user actions,
  // not every frame).
  void update_crowd(float dt);

  // Skin edits (viewer/viewer_edits.cpp): the requests of the Weights tab, Rig health's Repair,
  // the keys and the questions; the status the panels and the title show.
  void serve_edit_requests();
  void refresh_edit_status();
  void run_weights_op(const WeightsOp& op);
  void finish_weights_op();
  void run_ibm_repair(bool recover);
  void start_fix_joint();
  void finish_fix_joint();
  bool save_to(const std::string& path);
  bool close_allowed();

  // The Joint tab's Sweep (viewer/viewer_sweep.cpp).
  void update_sweep(float dt);
  void stop_sweep();
  void restore_swept_joint();
  // The Weights tab's paint brush (viewer/viewer_paint.cpp): true when it took the left button.
  bool handle_paint(glm::vec2 mouse, bool pressed);
  // The Vertex tab (viewer/viewer_vertex.cpp).
  void pick_vertex_at(glm::vec2 pointer);
  void update_vertex_inspector();

  void handle_keyboard();
  void handle_mouse();
  void update_hover();
  void evaluate_pose(const rig::PoseSelection& selection);
  // RIGVIEW_VIEWER_EXPORT_POSE: the pose as --export-pose writes it, and the posing targets.
  bool export_self_test_pose();
  // RIGVIEW_VIEWER_STATE: what the X-event tests read back, after frame `frame` (viewer_probe.cpp).
  bool write_self_test_state(int frame);

  Options options_;
  SelfTest self_test_;
  ViewerSettings settings_;
  ViewerState state_;
  Document doc_;
  Document pending_doc_;              // scratch for loads, so a failed load leaves doc_ alone
  std::vector<int> test_bugs_;        // RIGVIEW_VIEWER_BUGS, parsed
  PoseHandles handles_;               // IK / look-at handles over the 3D view
  RotationRings rings_;               // the selected joint's rotation rings (Joint tab)
  SkinEditing editing_;               // undo, redo, journal and saving of doc_'s skin edits
  VertexPickScratch vertex_scratch_;  // the Vertex tab's picking buffers
  rig::WeightBrush brush_;            // the paint brush, prepared per skin layer
  const rig::Model* brush_model_ = nullptr;
  float brush_diagonal_ = 1.0f;          // that model's skinned bind-space diagonal
  uint64_t vertex_layer_revision_ = 0;   // the skin layer the inspection was made with
  bool title_modified_ = false;          // the window title shows the unsaved-edits mark
  bool quit_confirmed_ = false;          // the unsaved-edits question was answered: close
  PointerDrag left_drag_, middle_drag_;  // orbit (pan with Shift) and pan
  Soak soak_;                            // RIGVIEW_VIEWER_SOAK
  double soak_start_ = 0.0;
  uint64_t soak_gl_errors_ = 0, soak_gl_errors_seen_ = 0;
  GlfwPlatform platform_;
  bool window_open_ = false;
  // Declared after the platform: destroyed first, while the GL context still exists.
  std::unique_ptr<rig::render::Renderer> renderer_;
  std::unique_ptr<rig::render::CrowdRenderer> crowd_renderer_;  // --crowd only
  // The studio look's environment, prefiltered in the background (state_.look's requests);
  // look_pending_ until its result is taken (update_look).
  LookEnvironmentJob look_job_;
  bool look_pending_ = false;
  uint64_t probe_gl_errors_ = 0;  // GL errors the state file's writer drained (release builds)
  std::unique_ptr<rig::Crowd> crowd_;
  // What the crowd was made from (document inputs it reads). The renderer follows the skin
  // layer's own revision (Renderer::update uploads its edits).
  rig::RevisionStamp crowd_made_{kCrowdInputs};
  rig::RevisionStamp crowd_amounts_{kCrowdAmountsInputs};
  TimelineFrame crowd_timeline_;  // the timeline the crowd's clock last followed
  // The Joint tab's Sweep: declared after doc_, so destroyed (cancelled, joined) first; what it
  // read; the swept joint's hand rotation before the sweep played (put back after).
  std::unique_ptr<SweepJob> sweep_;
  // The Learn tab's Mistakes: the right and wrong characters of the switch on (after doc_ and
  // the renderer: destroyed first).
  MistakeView mistakes_;
  rig::RevisionStamp sweep_made_{kSweepInputs};
  glm::quat sweep_saved_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  bool sweep_had_rotation_ = false;
};

}  // namespace rigview
