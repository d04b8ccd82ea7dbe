// The Learn tab's lessons as one table of plain data, in the order the material teaches them,
// and what "Show me" and "Leave lesson" do to the viewer: a lesson's setup goes through the key
// rows of the action table (viewer/actions.h: a method's digit, compare, B, R, W, V, F) and a
// few state settings (clip, time, compare columns, selected joint); leaving puts back every
// field a lesson can set, from a snapshot taken before the first Show me. No ImGui, no GL: the
// Learn tab (viewer/learn_panel.cpp) draws it, the frame loop (viewer/viewer_learn.cpp) opens a
// lesson's model through the normal open path, and tests/app/lessons_test.cpp checks it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "render/camera.h"
#include "skin/skinning_method.h"
#include "viewer/document.h"
#include "viewer/viewer_state.h"

namespace rigview {

// The bundled model a lesson shows (assets/).
enum class LessonModel : uint8_t { Mannequin, TwistArm, RawWeights };
// "mannequin.glb", "twist_arm.glb", "raw_weights_example.glb"
const char* lesson_model_file(LessonModel model);

struct Lesson {
  const char* title;
  const char* text;  // two or three sentences
  LessonModel model;
  const char* clip;  // the clip's name; nullptr: the rest pose (no clip)
  float time;        // seconds after the clip's start, paused there
  int method;        // the single view's method (skinning-method table row: its digit key - 1)
  uint8_t compare;   // bit per table row: the compare columns, left to right; 0: single view
  SurfaceView surface;
  const char* joint;  // selected and framed; nullptr: the whole model framed
  bool bones;
  bool wireframe;
  const char* bug;      // a simulated rigging bug by its command-line name; nullptr: none
  bool sliders;         // the twist arm's twist and bend sliders drive ArmTwist (rest pose)
  float twist, bend;    // the sliders' start (degrees)
  const char* mistake;  // a Learn mistake switched on (viewer/mistakes.h) by name; nullptr: none
};

std::span<const Lesson> lessons();

LessonSnapshot capture_lesson_state(const ViewerState& state, const Document& doc);

// The lesson's setup on `doc`, which already holds the lesson's model (the frame loop opens it
// first): clip and time (paused), method and compare columns, surface colours, bones,
// wireframe, the selected joint, a camera request (frame the joint or the model) and a simulated
// bug request when the document's differs, and the lesson's Learn mistake switched on (any other
// off). Unknown clip or joint names are skipped.
void apply_lesson(ViewerState& state, Document& doc, const Lesson& lesson);

// Puts back what `snap` holds on `doc` (already the snapshot's model): everything but the model
// path; a different simulated bug is requested (state.requests.simulate_bug), which keeps the
// camera and playback position.
void restore_lesson_state(ViewerState& state, Document& doc, const LessonSnapshot& snap);

// The twist arm's ArmTwist node (child of ArmRoot), -1 when `doc` has none.
int twist_arm_node(const Document& doc);

// While the shown lesson has sliders: ArmTwist's rotation set to rest * q_Z(bend) * q_X(twist)
// from state.learn's sliders (an override of the Posing layer's hand rotations; no allocation
// once the edit exists). Nothing otherwise.
void apply_twist_sliders(const ViewerState& state, Document& doc);

// After the frame's pose: while a lesson with sliders is shown on the twist arm, the
// cross-section (state.learn.demo) measured at that pose, the ring found first when the model
// is new (allocating then only). Nothing otherwise.
void update_twist_demo(LearnState& learn, const Document& doc);

// The exercise "in the bind pose every skinning matrix is the identity": the largest
// |S[c][r] - I[c][r]| over every skin's skinning matrices under the character's current pose.
float largest_skinning_deviation(const Document& doc);

// Whether `doc` is the lesson's model (its file name).
bool document_has_lesson_model(const Document& doc, const Lesson& lesson);

}  // namespace rigview
