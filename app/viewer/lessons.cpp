#include "viewer/lessons.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <glm/trigonometric.hpp>

#include "analysis/simulated_bugs.h"
#include "anim/joint_mask.h"
#include "learn_pose.h"
#include "model/model.h"
#include "twist_ring.h"
#include "viewer/actions.h"
#include "viewer/mistakes.h"

namespace rigview {

namespace {

constexpr uint8_t kLbs = 1u << 0, kDqs = 1u << 1, kCor = 1u << 2;

// The texts are plain ASCII: the viewer's font has no Greek letters or sums.
constexpr std::array<Lesson, 12> kLessons = {{
    {"Skeleton and hierarchy",
     "A skeleton is a tree of joints. Each joint keeps its transform relative to its parent (its "
     "local pose), and its world matrix is its parent's world matrix times its local matrix, "
     "worked out from the root down. So a turning shoulder carries the elbow and the hand: every "
     "descendant's world matrix contains the shoulder's.",
     LessonModel::Mannequin, "Wave", 1.0f, 0, 0, SurfaceView::Off, nullptr, true, false, nullptr,
     false, 0.0f, 0.0f, nullptr},
    {"Bind pose and inverse bind matrices",
     "The bind pose is the pose the mesh was modelled in. A joint's inverse bind matrix is the "
     "inverse of its world matrix in that pose: it takes a vertex from model space into the "
     "joint's own frame, from where the joint can carry it. The Joint tab shows the selected "
     "joint's world, inverse bind and skinning matrices.",
     LessonModel::Mannequin, nullptr, 0.0f, 0, 0, SurfaceView::SelectedJoint, "LeftForeArm", true,
     false, nullptr, false, 0.0f, 0.0f, nullptr},
    {"Skinning matrix",
     "A joint's skinning matrix is its world matrix times its inverse bind matrix: the bind pose "
     "taken out, the current pose put in. In the bind pose the two cancel, every skinning matrix "
     "is the identity and the mesh stays as modelled (R shows the rest pose). The colours are the "
     "selected joint's weights: the vertices its skinning matrix moves.",
     LessonModel::Mannequin, "Bend", 0.75f, 0, 0, SurfaceView::SelectedJoint, "LeftForeArm", true,
     false, nullptr, false, 0.0f, 0.0f, nullptr},
    {"Linear blend skinning (LBS)",
     "LBS moves each vertex by the weighted sum of its joints' skinning matrices, "
     "v' = (w1 M1 + w2 M2 + ...) v, the weights summing to 1. It is one small matrix blend per "
     "vertex, which the GPU runs in the vertex shader; where the weights fall off smoothly the "
     "skin bends smoothly from one joint to the next.",
     LessonModel::Mannequin, "Walk", 0.3f, 0, 0, SurfaceView::SelectedJoint, "LeftLeg", false,
     false, nullptr, false, 0.0f, 0.0f, nullptr},
    {"Candy wrapper",
     "Twist a joint and LBS averages two rotation matrices, and an average of rotations is not a "
     "rotation: it shrinks. The middle ring, weighted half and half, shrinks to r cos(angle/2) "
     "and collapses onto the bone at 180 degrees: the candy wrapper. Drag the twist slider and "
     "watch the LBS column and the cross-section.",
     LessonModel::TwistArm, nullptr, 0.0f, 0, kLbs | kDqs, SurfaceView::Deflation, "ArmTwist",
     false, true, nullptr, true, 150.0f, 0.0f, nullptr},
    {"Dual quaternion skinning (DQS)",
     "DQS turns each skinning matrix into a unit dual quaternion, blends those and normalizes the "
     "sum: the result is always a rigid motion, so the twisted ring keeps its radius. q and -q are "
     "the same rotation, so each is first flipped into the first one's hemisphere, or the blend "
     "would cancel. The price is a bulge where the joint bends (colours: LBS-DQS difference).",
     LessonModel::TwistArm, nullptr, 0.0f, 1, kLbs | kDqs, SurfaceView::Difference, "ArmTwist",
     false, true, nullptr, true, 150.0f, 0.0f, nullptr},
    {"Centres of rotation (CoR)",
     "Skinning with optimized centres of rotation finds, once per model, a centre for each vertex "
     "from how alike its weights are to its neighbours'. Per frame it blends the rotations as "
     "quaternions (no collapse, like DQS) and turns the vertex about that centre, whose position "
     "is blended linearly (no bulge, like LBS). The centres take a moment after a model opens.",
     LessonModel::Mannequin, "Bend", 0.75f, 2, kLbs | kDqs | kCor, SurfaceView::Deflation,
     "LeftForeArm", false, false, nullptr, false, 0.0f, 0.0f, nullptr},
    {"Crossfade",
     "A crossfade blends two clips' local poses, lerping translations and slerping rotations with "
     "a weight that ramps from 0 to 1 over a short time, and runs the rest of the pipeline on "
     "that one pose. Averaging the finished world or skinning matrices instead shrinks the limbs "
     "half way, as LBS does. The Posing tab's Crossfade starts one from this clip.",
     LessonModel::Mannequin, "Walk", 0.0f, 0, 0, SurfaceView::Off, nullptr, true, false, nullptr,
     false, 0.0f, 0.0f, nullptr},
    {"Layers and IK",
     "Layers stack clips on the base: an override layer replaces the joints under its mask, an "
     "additive layer adds its clip's difference from a reference pose. Two-bone IK then turns a "
     "chain (upper arm, forearm, hand) so the hand reaches a target, the elbow towards a pole. "
     "Both are in the Posing tab; drag their handles in the view.",
     LessonModel::Mannequin, "Walk", 0.5f, 0, 0, SurfaceView::Off, nullptr, true, false, nullptr,
     false, 0.0f, 0.0f, nullptr},
    {"Compression",
     "A clip stores keys per joint. Compression drops the keys that interpolation rebuilds within "
     "a tolerance and stores the rest in fewer bits (a unit quaternion needs three of its four "
     "numbers). The Compression tab sets the tolerance and colours each vertex by its "
     "displacement between raw and compressed playback.",
     LessonModel::Mannequin, "Run", 0.3f, 0, 0, SurfaceView::Off, nullptr, false, false, nullptr,
     false, 0.0f, 0.0f, nullptr},
    {"Classic bugs",
     "The exploding character: a skinning matrix without the inverse bind matrix applies the bind "
     "offset twice and the mesh flies apart; shown here. Its relatives: an inverse that only "
     "negates the translation, the product in the wrong order (inverse bind x world) and joint "
     "indices off by one; Rig health's Teaching aids simulate them and its findings name them.",
     LessonModel::Mannequin, "Walk", 0.3f, 0, 0, SurfaceView::Off, nullptr, false, false, "no-ibm",
     false, 0.0f, 0.0f, nullptr},
    {"Weights that do not sum to 1",
     "Every vertex's weights must sum to 1. This arm's middle vertices have 0.7 and 0.5 (1.2), "
     "the rigging chapter's example, which the glTF validator rejects. Renormalized (0.58 and "
     "0.42) they bend as drawn on the left; used raw, LBS scales them 1.2 times about the origin.",
     LessonModel::RawWeights, "Bend", 0.5f, 0, 0, SurfaceView::Off, nullptr, false, false, nullptr,
     false, 0.0f, 0.0f, "raw-weights"},
}};

// A key row of the action table applied, as if pressed.
void press(ViewerState& state, int key) {
  if (const ViewerAction* a = find_key_action(key, false); a && a->apply) a->apply(state);
}

int compare_key() { return '1' + static_cast<int>(rig::kSkinningMethodCount); }

int find_clip(const Document& doc, const char* name) {
  for (size_t i = 0; i < doc.clip_labels.size(); ++i)
    if (doc.clip_labels[i] == name) return int(i);
  return -1;
}

bool ends_with(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0 &&
         (s.size() == n || s[s.size() - n - 1] == '/');
}

}  // namespace

const char* lesson_model_file(LessonModel model) {
  switch (model) {
    case LessonModel::TwistArm:
      return "twist_arm.glb";
    case LessonModel::RawWeights:
      return "raw_weights_example.glb";
    case LessonModel::Mannequin:
      break;
  }
  return "mannequin.glb";
}

std::span<const Lesson> lessons() { return kLessons; }

bool operator==(const LessonSnapshot& a, const LessonSnapshot& b) {
  const rig::render::OrbitCamera &c = a.camera, &d = b.camera;
  return a.model_path == b.model_path && a.simulated_bug == b.simulated_bug && a.clip == b.clip &&
         a.time == b.time && a.playing == b.playing && a.method == b.method &&
         a.compare_methods == b.compare_methods && a.compare == b.compare &&
         a.rest_pose == b.rest_pose && a.show_skeleton == b.show_skeleton &&
         a.show_wireframe == b.show_wireframe && a.surface_view == b.surface_view &&
         a.selected_node == b.selected_node && a.twist_edit == b.twist_edit &&
         a.twist_rotation == b.twist_rotation && a.mistake == b.mistake && c.target == d.target &&
         c.distance == d.distance && c.yaw == d.yaw && c.pitch == d.pitch && c.fov_y == d.fov_y &&
         c.scene_radius == d.scene_radius && c.floor == d.floor;
}

bool document_has_lesson_model(const Document& doc, const Lesson& lesson) {
  return ends_with(doc.path, lesson_model_file(lesson.model));
}

int twist_arm_node(const Document& doc) {
  if (!doc.model) return -1;
  const int root = rig::find_node(*doc.model, "ArmRoot");
  const int twist = rig::find_node(*doc.model, "ArmTwist");
  return root >= 0 && twist >= 0 && doc.model->nodes[size_t(twist)].parent == root ? twist : -1;
}

LessonSnapshot capture_lesson_state(const ViewerState& state, const Document& doc) {
  LessonSnapshot s;
  s.model_path = doc.path;
  s.simulated_bug = doc.simulated_bug;
  s.clip = doc.playback.clip();
  s.time = doc.playback.time();
  s.playing = doc.playback.playing();
  s.method = state.method;
  s.compare_methods = state.compare_methods;
  s.compare = state.compare;
  s.rest_pose = state.rest_pose;
  s.show_skeleton = state.show_skeleton;
  s.show_wireframe = state.show_wireframe;
  s.surface_view = static_cast<int>(state.surface_view);
  s.selected_node = state.selected_node;
  s.camera = state.camera;
  s.mistake = state.learn.mistake;
  if (const int node = twist_arm_node(doc); node >= 0 && doc.posing) {
    s.twist_edit = doc.posing->has_joint_rotation(node);
    s.twist_rotation = doc.posing->joint_rotation(node);
  }
  return s;
}

void apply_lesson(ViewerState& state, Document& doc, const Lesson& lesson) {
  // A simulated bug, or the file as it is: the frame loop swaps the document, keeping the
  // camera and the playback position set below.
  int bug = -1;
  if (lesson.bug)
    if (const auto b = rig::find_simulated_bug(lesson.bug)) bug = static_cast<int>(*b);
  if (doc.simulated_bug != bug) state.requests.simulate_bug = bug;

  const int clip = lesson.clip ? find_clip(doc, lesson.clip) : -1;
  if (state.rest_pose != (clip < 0)) press(state, 'R');
  if (clip >= 0) {
    doc.playback.select_clip(clip);
    doc.playback.set_time((*doc.playback.clips())[size_t(clip)].start + lesson.time);
  }
  doc.playback.set_playing(false);

  // The method's digit, then the compare columns and the compare key.
  press(state, '1' + lesson.method);
  if (lesson.compare) {
    state.compare_methods.clear();
    for (const rig::SkinningMethod m : rig::all_skinning_methods())
      if ((lesson.compare >> static_cast<int>(m)) & 1u) state.compare_methods.push_back(m);
    if (!state.compare) press(state, compare_key());
  }
  for (int i = 0; i < kSurfaceViewCount && state.surface_view != lesson.surface; ++i)
    press(state, 'V');
  if (state.show_skeleton != lesson.bones) press(state, 'B');
  if (state.show_wireframe != lesson.wireframe) press(state, 'W');

  const int mistake = lesson.mistake ? find_mistake(lesson.mistake) : -1;
  if (state.learn.mistake != mistake) toggle_mistake(state, mistake);

  if (lesson.sliders) {
    state.learn.twist_deg = lesson.twist;
    state.learn.bend_deg = lesson.bend;
  }

  const int joint = lesson.joint && doc.model ? rig::find_node(*doc.model, lesson.joint) : -1;
  state.selected_node = joint;
  state.reveal_selection = joint >= 0;
  if (joint >= 0)
    state.requests.frame_node = joint;
  else
    press(state, 'F');
}

void apply_twist_sliders(const ViewerState& state, Document& doc) {
  const int active = state.learn.active;
  if (active < 0 || size_t(active) >= kLessons.size() || !kLessons[size_t(active)].sliders) return;
  const int node = twist_arm_node(doc);
  if (node < 0 || !doc.posing) return;
  rig::Transform local = doc.model->nodes[size_t(node)].rest;
  local.rotation = twist_arm_rotation(local.rotation, glm::radians(state.learn.twist_deg),
                                      glm::radians(state.learn.bend_deg));
  doc.posing->set_joint_override(node, local);
}

float largest_skinning_deviation(const Document& doc) {
  float worst = 0.0f;
  if (!doc.model || !doc.character) return worst;
  for (size_t s = 0; s < doc.model->skins.size(); ++s)
    for (const glm::mat4& m : doc.character->skinning_matrices(int(s)))
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          worst = std::max(worst, std::abs(m[c][r] - (c == r ? 1.0f : 0.0f)));
  return worst;
}

int demo_bin(float degrees) {
  const int bin =
      static_cast<int>(std::lround((std::clamp(degrees, -180.0f, 180.0f) + 180.0f) / 5.0f));
  return std::clamp(bin, 0, kDemoBins - 1);
}

void update_twist_demo(LearnState& learn, const Document& doc) {
  const int active = learn.active;
  if (active < 0 || size_t(active) >= kLessons.size() || !kLessons[size_t(active)].sliders ||
      !doc.model || !doc.character || twist_arm_node(doc) < 0)
    return;
  TwistDemoView& v = learn.demo;
  if (v.model != doc.model.get()) {
    v = TwistDemoView{};
    v.model = doc.model.get();
    std::string error;
    v.valid = find_twist_ring(*doc.model, doc.character->skin_layer(), "Learn", v.ring, error) == 0;
    if (!v.valid) return;
    v.bind_radius = radius_stats(v.ring.bind_points).mean;
    for (auto& p : v.points) p.resize(v.ring.ring.size());
    v.twist_radius.fill(-1.0f);
    for (auto& b : v.bend_reach) b.fill(-1.0f);
  }
  if (!v.valid) return;
  v.twist_deg = learn.twist_deg;
  v.bend_deg = learn.bend_deg;
  const RingFrame frame = posed_ring_frame(v.ring, *doc.character);
  TwistRing& ring = v.ring;
  for (int m = 0; m < kDemoMethods; ++m) {
    measure_ring(ring, *doc.model, *doc.character, static_cast<rig::SkinningMethod>(m), frame,
                 v.points[size_t(m)]);
    v.radius[size_t(m)] = radius_stats(v.points[size_t(m)]);
    v.reach[size_t(m)] = ring_outer_reach(ring, *doc.character, learn.bend_deg);
  }
  // A pure twist fills the twist curve, a pure bend the bend curve.
  if (learn.bend_deg == 0.0f) v.twist_radius[size_t(demo_bin(learn.twist_deg))] = v.radius[0].mean;
  if (learn.twist_deg == 0.0f)
    for (int m = 0; m < kDemoMethods; ++m)
      v.bend_reach[size_t(demo_bin(learn.bend_deg))][size_t(m)] = v.reach[size_t(m)];
}

void restore_lesson_state(ViewerState& state, Document& doc, const LessonSnapshot& snap) {
  if (doc.simulated_bug != snap.simulated_bug) state.requests.simulate_bug = snap.simulated_bug;
  if (snap.clip >= 0) {
    doc.playback.select_clip(snap.clip);
    doc.playback.set_time(snap.time);
  }
  doc.playback.set_playing(snap.playing);
  state.method = snap.method;
  state.compare_methods = snap.compare_methods;
  state.compare = snap.compare;
  state.rest_pose = snap.rest_pose;
  state.show_skeleton = snap.show_skeleton;
  state.show_wireframe = snap.show_wireframe;
  state.surface_view = static_cast<SurfaceView>(snap.surface_view);
  state.selected_node = snap.selected_node;
  state.camera = snap.camera;
  if (state.learn.mistake != snap.mistake) toggle_mistake(state, snap.mistake);
  state.requests.frame_node = -1;
  state.requests.frame_model = false;
  if (const int node = twist_arm_node(doc); node >= 0 && doc.posing) {
    doc.posing->reset_joint(node);
    if (snap.twist_edit) doc.posing->set_joint_rotation(node, snap.twist_rotation);
  }
}

}  // namespace rigview
