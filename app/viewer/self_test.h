// The viewer's self-test hooks: environment variables read once at start-up, for
// tests/app/viewer_smoke_test.cpp (not part of the command line). kSelfTestHooks below is their
// one description; the README lists it through `rigview --print-controls-markdown`.
#pragma once

#include <array>
#include <string>

namespace rigview {

struct SelfTestHookInfo {
  const char* name;
  const char* meaning;
};
inline constexpr std::array<SelfTestHookInfo, 19> kSelfTestHooks = {{
    {"RIGVIEW_VIEWER_FRAMES=N", "render N frames with a fixed 1/30 s step, then exit 0"},
    {"RIGVIEW_VIEWER_SCREENSHOT=F", "write the last frame (UI included) to the PNG F"},
    {"RIGVIEW_VIEWER_DROP=PATH", "on frame 2, open PATH as if it had been dropped on the window"},
    {"RIGVIEW_VIEWER_ADD_CLIPS=PATH",
     "on frame 2, add PATH's clips as if it had been dropped with Shift held"},
    {"RIGVIEW_VIEWER_HELP=1", "start with the Help panel open"},
    {"RIGVIEW_VIEWER_HIDE_UI=1", "start with the panels hidden (as after Tab)"},
    {"RIGVIEW_VIEWER_KEYS=KEYS", "on frame 2, press these shortcut keys (letters, digits)"},
    {"RIGVIEW_VIEWER_MEASURE_COST=N",
     "on frame 2, press Measure cost with N draws and print each method's line on stdout"},
    {"RIGVIEW_VIEWER_SOAK=SECONDS",
     "soak run (tests/soak): switch clips, fades, methods, colours and models for that long, "
     "print one summary line, fail on memory growth, GL errors or frame-time creep; measuring "
     "starts after a warm-up (every model reopened three times), and a slow machine's run is "
     "extended until it has measured max(20 s, 40% of SECONDS) after it"},
    {"RIGVIEW_VIEWER_SOAK_MODELS=A:B:...", "the models the soak run reopens in turn"},
    {"RIGVIEW_VIEWER_BUGS=A,B,...",
     "from frame 2, one per frame: choose that Teaching aids bug (`--simulate-bug` names, or "
     "`none` to restore the file)"},
    {"RIGVIEW_VIEWER_FINDING=N",
     "on the frame after the last of RIGVIEW_VIEWER_BUGS (else frame 2), click Rig health row N "
     "(0-based)"},
    {"RIGVIEW_VIEWER_RIG_HEALTH=F",
     "on the last frame, write what the Rig health panel lists to F (summary, simulated bug, "
     "selected joint, one line per finding)"},
    {"RIGVIEW_VIEWER_POSING=STEPS",
     "on frame 2, posing steps separated by `;`: `layer=CLIP,WEIGHT[,additive][,JOINT][,time=T]` "
     "(mask: JOINT and below; T: the layer's time), `ik=JOINT`, `drag=DX,DY` and `depth=PIXELS` "
     "(a drag of the last chain's target from its handle), `pole=DX,DY`, `weight=W` and `keep` "
     "(the last chain's weight, and its end keeping its world rotation), `mouse=DX,DY` (that drag "
     "fed to the mouse input on frames 3-5: press, move, release), `feet`, `look=camera|handle` "
     "(head), `root=in-place|extract`, `follow`"},
    {"RIGVIEW_VIEWER_EXPORT_POSE=F",
     "on the last frame, write the pose as --export-pose does and print each IK target, the "
     "look-at target and the camera's yaw and pitch on stdout"},
    {"RIGVIEW_VIEWER_STATE=F",
     "after every frame, replace F with what a test reads back (frame number, window, camera, "
     "selection, clip, Open field, the look's environment and its load (running, progress, "
     "last error), IK targets and their handles' pixels, per compare column its "
     "span and the box of the projected joints, the inspector's region and open tab, the "
     "compression tolerance and what was asked, the simulated bug and where its choices start, "
     "the GL error count, the skin edits' state (unsaved or not, undo and redo depth, the "
     "questions asked, the last message), the Learn mistake on (its name, whether drawn, the "
     "largest distance between its wrong and right vertices, each column's label and its "
     "caption), and every window or table column whose content reaches past its edge), for the "
     "X-event tests (`tests/app/viewer_xevents_test.cpp`, "
     "`viewer_xevents_tour_test.cpp`, `viewer_drop_xevents_test.cpp`)"},
    {"RIGVIEW_VIEWER_FRAME_MS=N",
     "make each frame last at least N ms, as Mesa llvmpipe's 3 to 14 frames per second do, so "
     "input events pile up between frames"},
    {"RIGVIEW_VIEWER_OPEN_FIELD=PATH", "start with PATH in the Open field"},
    {"RIGVIEW_VIEWER_WEIGHTS_OPS=OPS",
     "on frame 2, apply these `--weights-op` values (separated by `;`) as the Weights tab does: "
     "each one undoable skin edit; `fix` presses Fix this joint, `sweep` the Joint tab's Sweep "
     "(of the selected joint), `paint` ticks the Weights tab's Paint"},
}};

struct SelfTest {
  int frames = 0;  // > 0: a self-test run (fixed step, no vsync, window size from the options)
  std::string screenshot, drop, keys;
  std::string add_clips;            // RIGVIEW_VIEWER_ADD_CLIPS
  std::string posing, export_pose;  // RIGVIEW_VIEWER_POSING, RIGVIEW_VIEWER_EXPORT_POSE
  bool help = false;
  bool hide_ui = false;
  int measure_cost_draws = 0;  // > 0: Measure cost on frame 2 with that many draws
  double soak_seconds = 0.0;   // > 0: a soak run (real time), see viewer/soak.h
  std::string soak_models;     // ':'-separated
  std::string bugs;            // ','-separated Teaching aids choices
  int finding = -1;            // Rig health row to click
  std::string rig_health;      // file for the Rig health panel's content
  std::string state;           // RIGVIEW_VIEWER_STATE: file rewritten after every frame
  int frame_ms = 0;            // RIGVIEW_VIEWER_FRAME_MS: shortest frame
  std::string open_field;      // RIGVIEW_VIEWER_OPEN_FIELD
  std::string weights_ops;     // RIGVIEW_VIEWER_WEIGHTS_OPS: ';'-separated
  bool active() const { return frames > 0; }
};

SelfTest self_test_from_environment();

}  // namespace rigview
