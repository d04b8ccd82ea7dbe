// Learn mode's Mistakes and exercises (app/viewer/mistakes.h, exercises.h) on a ViewerState and a
// loaded Document, no window: the switches through the action table's Ctrl+digit rows (on, then
// off gives back the state exactly), the right and wrong characters against hand-worked
// expectations, and the exercise checks against hand-computed slerps.
#include "viewer/mistakes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analysis/simulated_bugs.h"
#include "anim/joint_mask.h"
#include "model/model.h"
#include "skin/pitfalls.h"
#include "test_support.h"
#include "viewer/actions.h"
#include "viewer/document.h"
#include "viewer/exercises.h"
#include "viewer/lessons.h"

namespace rigview {
namespace {

using Method = rig::SkinningMethod;

std::string asset(const char* file) { return std::string(RIGVIEW_SOURCE_DIR) + "/assets/" + file; }

void load(Document& doc, const char* file) {
  std::string error;
  ASSERT_TRUE(load_document(asset(file), Options{}, doc, error)) << error;
  doc.stop_background_work();
}

bool press_ctrl(ViewerState& state, int digit) {
  KeyPress press;
  press.key = '0' + digit;
  press.ctrl = true;
  return apply_key(state, press, false);
}

// The table: the five pitfalls by their --pitfall names in skin/pitfalls.h's order, then the four
// simulated bugs by their --simulate-bug names.
TEST(Mistakes, TheTableNamesEveryPitfallAndEverySimulatedBug) {
  ASSERT_EQ(mistakes().size(), 9u);
  for (int p = 0; p < rig::kPitfallCount; ++p) {
    EXPECT_EQ(mistakes()[size_t(p)].name, rig::pitfall_name(rig::Pitfall(p)));
    EXPECT_EQ(mistakes()[size_t(p)].kind, MistakeKind::Pitfall);
  }
  for (size_t b = 0; b < 4; ++b) {
    EXPECT_STREQ(mistakes()[5 + b].name, rig::simulated_bug_name(rig::kSimulatedBugs[b]));
    EXPECT_EQ(mistakes()[5 + b].kind, MistakeKind::Bug);
  }
  for (const Mistake& m : mistakes()) {
    EXPECT_EQ(find_mistake(m.name), &m - mistakes().data());
    EXPECT_EQ(std::string(m.caption).find('\n'), std::string::npos) << m.name;  // one line
  }
  EXPECT_EQ(find_mistake("bogus"), -1);
}

// Each Ctrl+digit row switches its mistake on (two columns, right and wrong) and, pressed again,
// off: the lesson snapshot (every field a lesson or mistake may change) and the methods drawn
// are what they were, field for field.
TEST(Mistakes, CtrlDigitSwitchesOnAndOffRestoresTheStateExactly) {
  Document doc;
  load(doc, "mannequin.glb");
  ViewerState state;
  state.playback = &doc.playback;
  state.method = Method::Mix;
  state.compare_methods = {Method::Linear, Method::CentersOfRotation};
  state.compare = true;
  state.surface_view = SurfaceView::InfluenceCount;
  state.camera.yaw = 0.75f;
  const LessonSnapshot before = capture_lesson_state(state, doc);
  const std::vector<Method> shown_before(methods_shown(state).begin(), methods_shown(state).end());
  for (int i = 0; i < kMistakeCount; ++i) {
    SCOPED_TRACE(mistakes()[size_t(i)].name);
    ASSERT_TRUE(press_ctrl(state, i + 1));
    EXPECT_EQ(state.learn.mistake, i);
    ASSERT_EQ(methods_shown(state).size(), 2u);
    const Method m = methods_shown(state)[0];
    EXPECT_EQ(methods_shown(state)[1], m);
    EXPECT_EQ(m, i == int(rig::Pitfall::NoHemisphere) ? Method::DualQuaternion : Method::Linear);
    EXPECT_NE(capture_lesson_state(state, doc), before);
    ASSERT_TRUE(press_ctrl(state, i + 1));
    EXPECT_EQ(state.learn.mistake, -1);
    EXPECT_EQ(capture_lesson_state(state, doc), before);
    const std::span<const Method> shown = methods_shown(state);
    EXPECT_EQ(std::vector<Method>(shown.begin(), shown.end()), shown_before);
  }
  // One at a time: another switch replaces the one on.
  press_ctrl(state, 1);
  press_ctrl(state, 8);
  EXPECT_EQ(state.learn.mistake, 7);
  toggle_mistake(state, -1);
  EXPECT_EQ(state.learn.mistake, -1);
}

// raw-weights on the bundled example: LBS without renormalizing is s times the renormalized
// blend, s the file's weight sum (1.2 where two joints share a vertex, 1 elsewhere), so every
// wrong vertex is exactly s times its right one, and DQS-free: both columns are LBS.
TEST(Mistakes, RawWeightsScalesEachVertexByItsFileSum) {
  Document doc;
  load(doc, "raw_weights_example.glb");
  const rig::Primitive& prim = doc.model->meshes[0].primitives[0];
  ASSERT_EQ(prim.weight_sums.size(), prim.vertex_count());
  MistakeView view;
  view.prepare(doc, find_mistake("raw-weights"));
  ASSERT_TRUE(view.active());
  const rig::PoseSelection at{0, 0.5f};
  view.update(doc, at, Method::Mix);
  EXPECT_EQ(view.method(), Method::Linear);
  size_t shared = 0;
  for (size_t v = 0; v < prim.vertex_count(); ++v) {
    const float s = prim.weight_sums[v];
    if (std::abs(s - 1.2f) < 1e-6f) ++shared;
    const glm::vec3 right = view.positions(0, 0)[v], wrong = view.positions(1, 0)[v];
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(wrong[k], s * right[k], 2e-6f) << v;
  }
  EXPECT_GT(shared, 100u);
  EXPECT_EQ(view.error_field(), nullptr);
  // The right column is the document's own character at that pose (its CPU skinning).
  doc.character->evaluate(at);
  std::vector<glm::vec3> p(prim.vertex_count()), n(prim.vertex_count());
  doc.character->skin_draw_item(doc.model->draws[0], Method::Linear, p, n);
  for (size_t v = 0; v < p.size(); ++v) ASSERT_EQ(view.positions(0, 0)[v], p[v]) << v;
}

// average-matrices with no crossfade running adds one to the next clip at weight 0.5; the wrong
// column then differs from the right one.
TEST(Mistakes, AverageMatricesAddsAHalfwayCrossfade) {
  Document doc;
  load(doc, "mannequin.glb");
  MistakeView view;
  view.prepare(doc, find_mistake("average-matrices"));
  view.update(doc, rig::PoseSelection{1, 0.3f}, Method::Linear);
  EXPECT_EQ(view.added_blend_clip(), 2);
  EXPECT_GT(view.largest_difference(), 1e-3f);
  // The rest pose has nothing to blend: no crossfade, right and wrong the same.
  view.update(doc, rig::PoseSelection{}, Method::Linear);
  EXPECT_EQ(view.added_blend_clip(), -1);
  EXPECT_EQ(view.largest_difference(), 0.0f);
}

// four-influences: the heat map is the per-vertex distance between the two columns, its range
// the largest of them.
TEST(Mistakes, FourInfluencesHeatMapIsThePerVertexError) {
  Document doc;
  load(doc, "mannequin.glb");
  MistakeView view;
  view.prepare(doc, find_mistake("four-influences"));
  view.update(doc, rig::PoseSelection{1, 0.3f}, Method::Linear);
  const rig::analysis::ScalarField* field = view.error_field();
  ASSERT_NE(field, nullptr);
  float largest = 0.0f;
  for (size_t d = 0; d < view.draw_count(); ++d) {
    if (field->values[d].empty()) continue;
    for (size_t v = 0; v < field->values[d].size(); ++v) {
      const float want = glm::length(view.positions(1, d)[v] - view.positions(0, d)[v]);
      ASSERT_EQ(field->values[d][v], want);
      largest = std::max(largest, want);
    }
  }
  EXPECT_EQ(view.largest_error(), largest);
  EXPECT_EQ(field->max, std::max(largest, 1e-4f));
}

// On a model with more than 4 influences (the corpus's quad_skin.glb: three of its four vertices),
// each joint turned by a hand edit: the vertices with at most 4 influences keep error 0 exactly,
// the others move.
TEST(Mistakes, CorpusFourInfluencesMovesOnlyTheVerticesWithMore) {
  RIG_REQUIRE_CORPUS(corpus);
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document((corpus / "assimp_skin_edge_cases/quad_skin.glb").string(), Options{},
                            doc, error))
      << error;
  doc.stop_background_work();
  ASSERT_TRUE(doc.posing);
  const rig::Skin& skin = doc.model->skins[0];
  for (size_t j = 0; j < skin.joints.size(); ++j)
    doc.posing->set_joint_rotation(
        skin.joints[j], glm::angleAxis(0.2f * float(j + 1), glm::normalize(glm::vec3(1, 2, 3))));
  MistakeView view;
  view.prepare(doc, find_mistake("four-influences"));
  view.update(doc, rig::PoseSelection{}, Method::Linear);
  const rig::Primitive& prim = doc.model->meshes[0].primitives[0];
  const rig::SkinMesh& mesh = doc.skin->meshes().primitives[0];
  ASSERT_NE(view.error_field(), nullptr);
  const std::vector<float>& error_of = view.error_field()->values[0];
  ASSERT_EQ(error_of.size(), prim.vertex_count());
  size_t more = 0;
  for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
    int influences = 0;
    for (uint32_t k = 0; k < mesh.influences; ++k)
      influences += mesh.weights[size_t(v) * mesh.influences + k] > 0.0f;
    if (influences > 4) {
      ++more;
      EXPECT_GT(error_of[v], 1e-3f) << v;
    } else {
      EXPECT_EQ(error_of[v], 0.0f) << v;
    }
  }
  EXPECT_EQ(more, 3u);  // the other three of its four vertices
}

// A simulated bug's wrong column is the bug's model posed the same way: no-ibm at the rest pose
// puts every skinned vertex at world · bind position, here far from the right one.
TEST(Mistakes, SimulatedBugColumnIsTheBuggedModel) {
  Document doc;
  load(doc, "mannequin.glb");
  MistakeView view;
  view.prepare(doc, find_mistake("reversed-multiply"));
  // In the bind pose IBM · world = world · IBM = the identity: nothing to see.
  view.update(doc, rig::PoseSelection{}, Method::Linear);
  EXPECT_LT(view.largest_difference(), 1e-4f);
  view.update(doc, rig::PoseSelection{1, 0.3f}, Method::Linear);
  EXPECT_GT(view.largest_difference(), 1e-2f);
  view.prepare(doc, find_mistake("no-ibm"));
  view.update(doc, rig::PoseSelection{}, Method::Linear);
  EXPECT_GT(view.largest_difference(), 0.1f);
}

// On a document already showing a Teaching aids bug (no-ibm), a bug switch's right column is the
// file as opened: at the rest pose reversed-multiply equals it, where the no-ibm document's own
// vertices stand far off.
TEST(Mistakes, BugSwitchOnABuggedDocumentComparesWithTheFileAsOpened) {
  Options options;
  options.simulate_bug = "no-ibm";
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(asset("mannequin.glb"), options, doc, error)) << error;
  doc.stop_background_work();
  ASSERT_GE(doc.simulated_bug, 0);
  MistakeView view;
  view.prepare(doc, find_mistake("reversed-multiply"));
  ASSERT_TRUE(view.active());
  view.update(doc, rig::PoseSelection{}, Method::Linear);
  EXPECT_LT(view.largest_difference(), 1e-4f);
  doc.character->evaluate(rig::PoseSelection{});
  const rig::Primitive& prim = doc.model->meshes[size_t(doc.model->draws[0].mesh)]
                                   .primitives[size_t(doc.model->draws[0].primitive)];
  std::vector<glm::vec3> p(prim.vertex_count()), n(prim.vertex_count());
  doc.character->skin_draw_item(doc.model->draws[0], Method::Linear, p, n);
  float off = 0.0f;
  for (size_t v = 0; v < p.size(); ++v)
    off = std::max(off, glm::length(p[v] - view.positions(0, 0)[v]));
  EXPECT_GT(off, 0.1f);  // the bugged document's own skin is not what the right column draws
}

// The slerp exercise: identity to 120 degrees about X at t = 0.25 is 30 degrees (slerp turns at
// a constant rate); lerping the components and normalizing would give
// 2 acos(0.875 / sqrt(0.8125)) = 27.7958 degrees.
TEST(Exercises, SlerpCheckIsTheSamplersAngle) {
  const glm::quat q = sample_exercise_keys(0.25f);
  EXPECT_NEAR(q.w, std::cos(glm::radians(15.0f)), 1e-6f);
  EXPECT_NEAR(q.x, std::sin(glm::radians(15.0f)), 1e-6f);
  EXPECT_NEAR(q.y, 0.0f, 1e-7f);
  EXPECT_NEAR(q.z, 0.0f, 1e-7f);
  const glm::quat half = sample_exercise_keys(0.5f);
  EXPECT_NEAR(half.w, std::cos(glm::radians(30.0f)), 1e-6f);

  const SlerpCheck right = check_slerp_answer(30.0f);
  EXPECT_TRUE(right.right);
  EXPECT_NEAR(right.sampled_degrees, 30.0f, 1e-3f);
  EXPECT_NEAR(right.normalized_lerp_degrees, 27.7958f, 1e-3f);
  EXPECT_TRUE(check_slerp_answer(30.4f).right);
  EXPECT_FALSE(check_slerp_answer(27.8f).right);  // the normalized lerp's answer
  EXPECT_FALSE(check_slerp_answer(30.6f).right);
  EXPECT_FALSE(check_slerp_answer(120.0f * 0.25f * 2.0f).right);
}

// The order exercise: the character's world matrix is parent x local (to float rounding) and not
// local x parent; picking local x parent shows the reversed-multiply mistake, parent x local
// turns it off.
TEST(Exercises, MultiplicationOrderIsParentTimesLocal) {
  Document doc;
  load(doc, "mannequin.glb");
  doc.character->evaluate(rig::PoseSelection{1, 0.3f});
  const int forearm = rig::find_node(*doc.model, "LeftForeArm");
  ASSERT_GE(forearm, 0);
  const OrderCheck right = check_multiplication_order(*doc.character, forearm, 0);
  EXPECT_TRUE(right.right);
  EXPECT_EQ(right.node, forearm);
  EXPECT_LT(right.parent_local_error, 1e-5f);
  EXPECT_GT(right.local_parent_error, 1e-2f);
  EXPECT_FALSE(check_multiplication_order(*doc.character, forearm, 1).right);

  ViewerState state;
  choose_multiplication_order(state, 1);
  EXPECT_EQ(state.learn.mistake, find_mistake("reversed-multiply"));
  EXPECT_EQ(state.learn.order_choice, 1);
  choose_multiplication_order(state, 0);
  EXPECT_EQ(state.learn.mistake, -1);
}

}  // namespace
}  // namespace rigview
