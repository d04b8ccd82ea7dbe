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
};
// Every field, the camera's field by field.
bool operator==(const LessonSnapshot& a, const LessonSnapshot& b);
inline bool operator!=(const LessonSnapshot& a, const LessonSnapshot& b) { return !(a == b); }

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
};

}  // namespace rigview
