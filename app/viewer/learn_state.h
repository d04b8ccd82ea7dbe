// The Learn tab's state as plain data (no ImGui, no GL): the lesson shown, the requests its
// buttons post, what the viewer looked like before the first Show me (put back by Leave lesson),
// and the twist arm's demonstration: the twist and bend sliders and the cross-section's
// measures. viewer/lessons.h fills and restores it; viewer/viewer_learn.cpp serves it.
#pragma once

#include <array>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "render/camera.h"
#include "skin/skinning_method.h"
#include "twist_ring.h"

namespace rigview {

// What a lesson may change, read back from the viewer: Leave lesson restores exactly this.
struct LessonSnapshot {
  std::string model_path;
  int simulated_bug = -1;
  int clip = -1;
  float time = 0.0f;
  bool playing = false;
  rig::SkinningMethod method = rig::SkinningMethod::Linear;
  std::vector<rig::SkinningMethod> compare_methods;
  bool compare = false;
  bool rest_pose = false;
  bool show_skeleton = false;
  bool show_wireframe = false;
  int surface_view = 0;  // SurfaceView
  int selected_node = -1;
  rig::render::OrbitCamera camera;
  // The twist arm's ArmTwist hand rotation (the Joint tab's), which the sliders replace.
  bool twist_edit = false;
  glm::quat twist_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  int mistake = -1;  // the Mistakes switch on (viewer/mistakes.h), -1: none
};
// Every field, the camera's field by field.
bool operator==(const LessonSnapshot& a, const LessonSnapshot& b);
inline bool operator!=(const LessonSnapshot& a, const LessonSnapshot& b) { return !(a == b); }

// The twist arm's cross-section as the Learn tab plots it: the middle ring (found once per
// model) under LBS, DQS and CoR at the sliders' pose, and per 5-degree step of the sliders the
// values measured there so far: the LBS ring's mean radius against the twist, and each method's
// outer reach (the ring's farthest point along the bend's outer bisector) against the bend.
// Buffers are sized when the ring is found; a frame allocates nothing.
inline constexpr int kDemoMethods = 3;  // LBS, DQS, CoR: the skinning-method table's first three
inline constexpr int kDemoBins = 73;    // -180..180 degrees in steps of 5
struct TwistDemoView {
  const void* model = nullptr;  // the model `ring` was found on; null: none
  bool valid = false;
  TwistRing ring;
  float bind_radius = 0.0f;
  std::array<std::vector<glm::vec2>, kDemoMethods> points;
  std::array<RadiusStats, kDemoMethods> radius{};
  std::array<float, kDemoMethods> reach{};
  std::array<float, kDemoBins> twist_radius{};                          // LBS mean; < 0: unmeasured
  std::array<std::array<float, kDemoMethods>, kDemoBins> bend_reach{};  // < 0: unmeasured
  float twist_deg = 0.0f, bend_deg = 0.0f;                              // the pose measured
};
int demo_bin(float degrees);  // the 5-degree step of an angle in [-180, 180]

struct LearnState {
  int active = -1;     // the lesson shown (index in lessons()); -1: none
  int show = -1;       // Show me was pressed on this lesson (a request)
  bool leave = false;  // Leave lesson was pressed (a request)
  // The lesson whose model is being opened (the open may wait for the unsaved-edits question);
  // whether leaving waits for the user's model to open again.
  int pending = -1;
  bool restoring = false;
  bool saved_valid = false;
  LessonSnapshot saved;
  std::string message;  // why a lesson could not be shown, until the next Show me
  // The twist arm's sliders (degrees, -180..180), driving ArmTwist while a lesson with sliders
  // is shown: rotation = rest * q_Z(bend) * q_X(twist), as --twist-demo and --bend-demo.
  float twist_deg = 0.0f;
  float bend_deg = 0.0f;
  TwistDemoView demo;
  // The Mistakes switch on (index in viewer/mistakes.h's table; -1: none, one at a time) and
  // its two compare columns' method (methods_shown returns them while one is on).
  int mistake = -1;
  std::array<rig::SkinningMethod, 2> mistake_columns{};
  // The exercises (viewer/exercises.h): what the user entered and the last check's verdict.
  float slerp_answer_deg = 0.0f;
  int slerp_verdict = 0;  // 0: not checked, 1: right, -1: wrong
  float slerp_expected_deg = 0.0f;
  int order_choice = -1;  // 0: parent * local, 1: local * parent; -1: not chosen
};

}  // namespace rigview
