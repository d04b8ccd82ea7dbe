// The Learn tab's lessons (app/viewer/lessons.h) on a ViewerState and a loaded Document, no
// window (suite Lessons: no "Viewer" in the name, which marks tests that open one): each Show me
// gives the state the README's lessons table documents, through the action table's key rows,
// and leaving puts back every field a lesson sets, exactly.
#include "viewer/lessons.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/simulated_bugs.h"
#include "anim/joint_mask.h"
#include "model/model.h"
#include "viewer/document.h"
#include "viewer/glossary.h"
#include "viewer/viewer_state.h"

namespace rigview {
namespace {

using Method = rig::SkinningMethod;

std::string asset(const char* file) { return std::string(RIGVIEW_SOURCE_DIR) + "/assets/" + file; }

void load(Document& doc, const char* file) {
  std::string error;
  ASSERT_TRUE(load_document(asset(file), Options{}, doc, error)) << error;
  doc.stop_background_work();
}

// The README's lessons table, written out by hand: model, clip (empty: rest pose), seconds into
// it, the methods drawn left to right, surface colours, selected joint (empty: none, the model
// framed), bones, wireframe, simulated bug (empty: none).
struct Documented {
  const char* title;
  const char* model;
  const char* clip;
  float time;
  std::vector<Method> shown;
  SurfaceView surface;
  const char* joint;
  bool bones, wireframe;
  const char* bug;
};

const std::vector<Documented>& documented() {
  static const std::vector<Documented> rows = {
      {"Skeleton and hierarchy",
       "mannequin.glb",
       "Wave",
       1.0f,
       {Method::Linear},
       SurfaceView::Off,
       "",
       true,
       false,
       ""},
      {"Bind pose and inverse bind matrices",
       "mannequin.glb",
       "",
       0.0f,
       {Method::Linear},
       SurfaceView::SelectedJoint,
       "LeftForeArm",
       true,
       false,
       ""},
      {"Skinning matrix",
       "mannequin.glb",
       "Bend",
       0.75f,
       {Method::Linear},
       SurfaceView::SelectedJoint,
       "LeftForeArm",
       true,
       false,
       ""},
      {"Linear blend skinning (LBS)",
       "mannequin.glb",
       "Walk",
       0.3f,
       {Method::Linear},
       SurfaceView::SelectedJoint,
       "LeftLeg",
       false,
       false,
       ""},
      {"Candy wrapper",
       "twist_arm.glb",
       "",
       0.0f,
       {Method::Linear, Method::DualQuaternion},
       SurfaceView::Deflation,
       "ArmTwist",
       false,
       true,
       ""},
      {"Dual quaternion skinning (DQS)",
       "twist_arm.glb",
       "",
       0.0f,
       {Method::Linear, Method::DualQuaternion},
       SurfaceView::Difference,
       "ArmTwist",
       false,
       true,
       ""},
      {"Centres of rotation (CoR)",
       "mannequin.glb",
       "Bend",
       0.75f,
       {Method::Linear, Method::DualQuaternion, Method::CentersOfRotation},
       SurfaceView::Deflation,
       "LeftForeArm",
       false,
       false,
       ""},
      {"Crossfade",
       "mannequin.glb",
       "Walk",
       0.0f,
       {Method::Linear},
       SurfaceView::Off,
       "",
       true,
       false,
       ""},
      {"Layers and IK",
       "mannequin.glb",
       "Walk",
       0.5f,
       {Method::Linear},
       SurfaceView::Off,
       "",
       true,
       false,
       ""},
      {"Compression",
       "mannequin.glb",
       "Run",
       0.3f,
       {Method::Linear},
       SurfaceView::Off,
       "",
       false,
       false,
       ""},
      {"Classic bugs",
       "mannequin.glb",
       "Walk",
       0.3f,
       {Method::Linear},
       SurfaceView::Off,
       "",
       false,
       false,
       "no-ibm"},
      {"Weights that do not sum to 1",
       "raw_weights_example.glb",
       "Bend",
       0.5f,
       {Method::Linear, Method::Linear},  // the raw-weights mistake's right and wrong columns
       SurfaceView::Off,
       "",
       false,
       false,
       ""},
  };
  return rows;
}

// A user's state far from every lesson's: another clip mid-way and playing, compare on with a
// list of their own, influence colours, a joint selected, the camera moved.
void set_user_state(ViewerState& state, Document& doc) {
  state.playback = &doc.playback;
  doc.playback.select_clip(int(doc.clip_labels.size()) - 1);
  doc.playback.set_time((*doc.playback.clips())[doc.clip_labels.size() - 1].start + 0.37f);
  doc.playback.set_playing(true);
  state.method = Method::Mix;
  state.compare_methods = {Method::Mix, Method::CentersOfRotation};
  state.compare = true;
  state.surface_view = SurfaceView::InfluenceCount;
  state.show_skeleton = false;
  state.show_wireframe = false;
  state.selected_node = doc.joint_nodes.back();
  state.camera.yaw = 1.234f;
  state.camera.pitch = -0.1f;
  state.camera.distance = 7.5f;
  state.camera.target = glm::vec3(0.1f, 0.2f, 0.3f);
}

TEST(Lessons, TheTableIsTheMaterialsOrder) {
  ASSERT_EQ(lessons().size(), documented().size());
  for (size_t i = 0; i < lessons().size(); ++i)
    EXPECT_STREQ(lessons()[i].title, documented()[i].title);
}

TEST(Lessons, ShowMeGivesTheDocumentedState) {
  for (size_t i = 0; i < lessons().size(); ++i) {
    const Lesson& lesson = lessons()[i];
    const Documented& want = documented()[i];
    SCOPED_TRACE(lesson.title);
    Document doc;
    load(doc, want.model);
    EXPECT_TRUE(document_has_lesson_model(doc, lesson));
    ViewerState state;
    set_user_state(state, doc);
    apply_lesson(state, doc, lesson);

    if (*want.clip) {
      EXPECT_FALSE(state.rest_pose);
      ASSERT_GE(doc.playback.clip(), 0);
      EXPECT_EQ(doc.clip_labels[size_t(doc.playback.clip())], want.clip);
      EXPECT_FLOAT_EQ(doc.playback.time(),
                      (*doc.playback.clips())[size_t(doc.playback.clip())].start + want.time);
    } else {
      EXPECT_TRUE(state.rest_pose);
    }
    EXPECT_FALSE(doc.playback.playing());
    const std::span<const Method> shown = methods_shown(state);
    EXPECT_EQ(std::vector<Method>(shown.begin(), shown.end()), want.shown);
    EXPECT_EQ(state.surface_view, want.surface);
    EXPECT_EQ(state.show_skeleton, want.bones);
    EXPECT_EQ(state.show_wireframe, want.wireframe);
    if (*want.joint) {
      ASSERT_GE(state.selected_node, 0);
      EXPECT_EQ(doc.model->nodes[size_t(state.selected_node)].name, want.joint);
      EXPECT_EQ(state.requests.frame_node, state.selected_node);  // the camera frames it
    } else {
      EXPECT_EQ(state.selected_node, -1);
      EXPECT_TRUE(state.requests.frame_model);  // F: the model framed
    }
    if (*want.bug)
      EXPECT_EQ(state.requests.simulate_bug, static_cast<int>(*rig::find_simulated_bug(want.bug)));
    else
      EXPECT_EQ(state.requests.simulate_bug, ViewerRequests::kNoBugRequest);
  }
}

TEST(Lessons, LeavingRestoresEveryFieldExactly) {
  for (size_t i = 0; i < lessons().size(); ++i) {
    const Lesson& lesson = lessons()[i];
    SCOPED_TRACE(lesson.title);
    Document doc;
    load(doc, lesson_model_file(lesson.model));
    ViewerState state;
    set_user_state(state, doc);
    const int twist = twist_arm_node(doc);
    if (twist >= 0)  // a hand rotation of the Joint tab's, which the sliders replace
      doc.posing->set_joint_rotation(twist, glm::angleAxis(0.3f, glm::vec3(0.0f, 1.0f, 0.0f)));
    const LessonSnapshot before = capture_lesson_state(state, doc);

    apply_lesson(state, doc, lesson);
    state.learn.active = int(i);
    state.learn.twist_deg = 90.0f;
    apply_twist_sliders(state, doc);
    EXPECT_NE(capture_lesson_state(state, doc), before);
    state.requests = ViewerRequests{};  // as the frame loop serves them: the camera framed
    state.camera.yaw = 0.0f;
    state.camera.distance = 2.0f;

    restore_lesson_state(state, doc, before);
    const LessonSnapshot after = capture_lesson_state(state, doc);
    EXPECT_EQ(after, before);
    // The fields one by one where == could hide a slip.
    EXPECT_EQ(after.time, before.time);
    EXPECT_EQ(after.camera.yaw, 1.234f);
    EXPECT_EQ(after.compare_methods, (std::vector<Method>{Method::Mix, Method::CentersOfRotation}));
    EXPECT_TRUE(doc.playback.playing());
    if (twist >= 0) {
      EXPECT_TRUE(doc.posing->has_joint_rotation(twist));
      EXPECT_EQ(doc.posing->joint_rotation(twist),
                glm::angleAxis(0.3f, glm::vec3(0.0f, 1.0f, 0.0f)));
    }
    EXPECT_EQ(state.requests.simulate_bug, ViewerRequests::kNoBugRequest);
  }
}

// The snapshot's comparison sees each field: one change anywhere makes it differ.
TEST(Lessons, SnapshotComparisonSeesEachField) {
  const LessonSnapshot a;
  std::vector<LessonSnapshot> changed(16, a);
  changed[0].model_path = "x";
  changed[1].simulated_bug = 0;
  changed[2].clip = 1;
  changed[3].time = 0.5f;
  changed[4].playing = true;
  changed[5].method = Method::DualQuaternion;
  changed[6].compare_methods = {Method::Linear};
  changed[7].compare = true;
  changed[8].rest_pose = true;
  changed[9].show_skeleton = true;
  changed[10].surface_view = 2;
  changed[11].selected_node = 4;
  changed[12].camera.yaw += 0.25f;
  changed[13].twist_edit = true;
  changed[14].camera.floor = 0.0f;
  changed[15].mistake = 3;
  for (size_t i = 0; i < changed.size(); ++i) EXPECT_NE(changed[i], a) << i;
}

}  // namespace
}  // namespace rigview

namespace rigview {
namespace {

// The twist arm's sliders pose ArmTwist, and the viewer's cross-section (the code behind
// --cross-section) measures the LBS ring at r cos(angle/2) and the DQS ring at r; for a bend, the
// LBS ring's outer reach is r cos(angle/2) too (the outermost point is averaged with its turned
// copy) and DQS keeps r (the ring turns rigidly by half the angle).
TEST(Lessons, TwistSliderShrinksTheLinearBlendRingByTheClosedForm) {
  Document doc;
  load(doc, "twist_arm.glb");
  ViewerState state;
  state.playback = &doc.playback;
  size_t candy = 0;
  while (std::strcmp(lessons()[candy].title, "Candy wrapper") != 0) ++candy;
  apply_lesson(state, doc, lessons()[candy]);
  state.learn.active = int(candy);
  const float r = 0.08f;  // the twist arm's radius (assets/generator/twist_arm.cpp)
  for (const float twist : {0.0f, 30.0f, 90.0f, 150.0f, 180.0f}) {
    SCOPED_TRACE(twist);
    state.learn.twist_deg = twist;
    state.learn.bend_deg = 0.0f;
    apply_twist_sliders(state, doc);
    doc.posing->evaluate(rig::PoseSelection{}, glm::vec3(0.0f, 0.0f, 3.0f), false, 1.0f);
    update_twist_demo(state.learn, doc);
    const TwistDemoView& v = state.learn.demo;
    ASSERT_TRUE(v.valid);
    EXPECT_EQ(v.ring.ring.size(), 32u);
    EXPECT_NEAR(v.bind_radius, r, 1e-6f);
    EXPECT_NEAR(v.radius[0].mean, r * std::cos(0.5f * twist * 3.14159265f / 180.0f), 2e-6f);
    EXPECT_NEAR(v.radius[1].mean, r, 2e-6f);
    EXPECT_NEAR(v.twist_radius[size_t(demo_bin(twist))], v.radius[0].mean, 0.0f);
  }
  for (const float bend : {30.0f, 90.0f, -60.0f}) {
    SCOPED_TRACE(bend);
    state.learn.twist_deg = 0.0f;
    state.learn.bend_deg = bend;
    apply_twist_sliders(state, doc);
    doc.posing->evaluate(rig::PoseSelection{}, glm::vec3(0.0f, 0.0f, 3.0f), false, 1.0f);
    update_twist_demo(state.learn, doc);
    const TwistDemoView& v = state.learn.demo;
    EXPECT_NEAR(v.reach[0], r * std::cos(0.5f * bend * 3.14159265f / 180.0f), 2e-6f);
    EXPECT_NEAR(v.reach[1], r, 2e-6f);
  }
}

}  // namespace
}  // namespace rigview

namespace rigview {
namespace {

// Help lists the glossary and the Display tab's method buttons show their term's definition:
// every skinning method but the mix (a per-joint choice of two, not a term of the material) has
// one, and each term is listed once.
TEST(Lessons, GlossaryDefinesTheMethodsAndEachTermOnce) {
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    EXPECT_EQ(glossary_definition(m.label) != nullptr, m.method != rig::SkinningMethod::Mix)
        << m.label;
  EXPECT_EQ(glossary_definition("no such term"), nullptr);
  for (size_t i = 0; i < glossary().size(); ++i)
    for (size_t j = i + 1; j < glossary().size(); ++j)
      EXPECT_STRNE(glossary()[i].term, glossary()[j].term);
}

}  // namespace
}  // namespace rigview

namespace rigview {
namespace {

// The exercise's readout: in the bind pose world = inverse(inverse bind), so every skinning
// matrix is the identity; a clip's pose moves them well away from it.
TEST(Lessons, SkinningMatricesAreTheIdentityInTheBindPose) {
  Document doc;
  load(doc, "mannequin.glb");
  doc.character->evaluate(rig::PoseSelection{});
  EXPECT_LT(largest_skinning_deviation(doc), 1e-5f);
  rig::PoseSelection walk;
  for (size_t i = 0; i < doc.clip_labels.size(); ++i)
    if (doc.clip_labels[i] == "Walk") walk.clip = int(i);
  ASSERT_GE(walk.clip, 0);
  walk.time = (*doc.playback.clips())[size_t(walk.clip)].start + 0.3f;
  doc.character->evaluate(walk);
  EXPECT_GT(largest_skinning_deviation(doc), 0.05f);
}

}  // namespace
}  // namespace rigview
