// The viewer's action table (app/viewer/actions.h) driven on a ViewerState, no window (suites
// KeyActions, ControlsTable: no "Viewer" in their names, which marks tests that open a window):
// the exact effect of every key, the modifiers/auto-repeat/typing rules, the Help/README agreement.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "import/gltf_import.h"
#include "test_support.h"
#include "viewer/actions.h"
#include "viewer/viewer_state.h"

namespace {

using rigview::KeyPress;
using rigview::SurfaceView;
using rigview::ViewerState;
using Method = rig::SkinningMethod;

// Every plain field of the state an action may touch, so a test can say "this one changed, to
// this value, and nothing else did".
struct Snapshot {
  Method method;
  std::vector<Method> compare_methods;
  bool compare, rest_pose, show_skeleton, show_surfaces, show_wireframe, show_grid;
  SurfaceView surface_view;
  int selected_node;
  bool show_help, panels_hidden;
  bool frame_model, reset_camera, focus_open_field, quit;
  std::string open_path;
  bool playing, looping;
  float time;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const ViewerState& s) {
  return {s.method,
          s.compare_methods,
          s.compare,
          s.rest_pose,
          s.show_skeleton,
          s.show_surfaces,
          s.show_wireframe,
          s.show_grid,
          s.surface_view,
          s.selected_node,
          s.show_help,
          s.panels_hidden,
          s.requests.frame_model,
          s.requests.reset_camera,
          s.requests.focus_open_field,
          s.requests.quit,
          s.requests.open_path,
          s.playback ? s.playback->playing() : false,
          s.playback ? s.playback->looping() : false,
          s.playback ? s.playback->time() : 0.0f};
}

std::string describe(const Snapshot& s) {
  std::ostringstream o;
  o << "method " << int(s.method) << " compare " << s.compare << " rest " << s.rest_pose
    << " bones " << s.show_skeleton << " surfaces " << s.show_surfaces << " wire "
    << s.show_wireframe << " grid " << s.show_grid << " weights " << int(s.surface_view) << " sel "
    << s.selected_node << " help " << s.show_help << " hidden " << s.panels_hidden << " frame "
    << s.frame_model << " reset " << s.reset_camera << " focus " << s.focus_open_field << " quit "
    << s.quit << " open '" << s.open_path << "' playing " << s.playing << " loop " << s.looping
    << " time " << s.time;
  return o.str();
}

class KeyActions : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(
        rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model_, error))
        << error;
    ASSERT_GE(model_.clips.size(), 2u);
    playback_ = rig::Playback(model_);
    playback_.select_clip(1);
    state_ = rigview::initial_viewer_state(rigview::Options{});
    state_.playback = &playback_;
  }

  // Presses `key` once and checks the state is `before` with `change` applied, nothing else.
  template <typename Change>
  void expect_press(int key, Change change, const char* what) {
    Snapshot expected = snapshot(state_);
    change(expected);
    EXPECT_TRUE(rigview::apply_key(state_, KeyPress{key}, false)) << what;
    const Snapshot got = snapshot(state_);
    EXPECT_EQ(got, expected) << what << "\n  got      " << describe(got) << "\n  expected "
                             << describe(expected);
  }

  rig::Model model_;
  rig::Playback playback_{model_};
  ViewerState state_;
};

TEST_F(KeyActions, TheStartStateFollowsTheDefaultCommandLine) {
  const Snapshot s = snapshot(state_);
  EXPECT_EQ(s.method, Method::Linear);
  const auto all = rig::all_skinning_methods();
  EXPECT_EQ(s.compare_methods, std::vector<Method>(all.begin(), all.end()));
  EXPECT_FALSE(s.compare);
  EXPECT_FALSE(s.show_skeleton);
  EXPECT_FALSE(s.rest_pose);
  EXPECT_FALSE(s.show_wireframe);
  EXPECT_TRUE(s.show_grid);
  EXPECT_TRUE(s.show_surfaces);
  EXPECT_EQ(s.surface_view, SurfaceView::Off);
  EXPECT_TRUE(s.playing);
  EXPECT_TRUE(s.looping);
}

TEST_F(KeyActions, DigitKeysSelectEachTableMethodAndTheNextDigitTogglesCompare) {
  const auto table = rig::skinning_methods();
  ASSERT_GE(table.size(), 2u);
  std::vector<Method> all;
  for (const rig::SkinningMethodInfo& m : table) all.push_back(m.method);
  const int compare_key = '1' + static_cast<int>(table.size());
  // Every row's digit, last row first (the start state is row 0).
  for (size_t i = table.size(); i-- > 0;) {
    const Method m = table[i].method;
    expect_press(
        '1' + static_cast<int>(i), [m](Snapshot& s) { s.method = m; }, table[i].name);
  }
  expect_press(
      compare_key, [](Snapshot& s) { s.compare = true; }, "compare on");
  const std::span<const Method> shown = rigview::methods_shown(state_);
  EXPECT_EQ(std::vector<Method>(shown.begin(), shown.end()), all);
  expect_press(
      compare_key, [](Snapshot& s) { s.compare = false; }, "compare off");
  ASSERT_EQ(rigview::methods_shown(state_).size(), 1u);
  EXPECT_EQ(rigview::methods_shown(state_)[0], table[0].method);
  // A method key leaves compare for that method alone.
  expect_press(
      compare_key, [](Snapshot& s) { s.compare = true; }, "compare on again");
  const Method last = table.back().method;
  expect_press(
      '0' + static_cast<int>(table.size()),
      [last](Snapshot& s) {
        s.compare = false;
        s.method = last;
      },
      "last method from compare");
  // No digit past compare.
  EXPECT_FALSE(rigview::apply_key(state_, KeyPress{compare_key + 1}, false));
}

TEST_F(KeyActions, AMethodStillBeingPreparedKeepsTheCurrentOneAndSaysSo) {
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    if (!m.uses_rotation_centers) continue;
    state_.methods_preparing = 1u << static_cast<uint32_t>(m.method);
    const int key = '1' + static_cast<int>(m.method);
    EXPECT_TRUE(rigview::apply_key(state_, KeyPress{key}, false));
    EXPECT_EQ(state_.method, Method::Linear) << m.name;
    EXPECT_EQ(state_.skinning_notice, std::string("preparing ") + m.label + "...");
    state_.methods_preparing = 0;
    EXPECT_TRUE(rigview::apply_key(state_, KeyPress{key}, false));
    EXPECT_EQ(state_.method, m.method) << m.name;
    rigview::select_method(state_, 0);
  }
}

TEST_F(KeyActions, CompareListFromTheCommandLineIsWhatTheCompareKeyShows) {
  rigview::Options o;
  o.skinning_methods = {Method::DualQuaternion, Method::Linear};
  o.compare = true;
  ViewerState s = rigview::initial_viewer_state(o);
  EXPECT_TRUE(s.compare);
  EXPECT_EQ(s.method, Method::DualQuaternion);
  const auto shown = rigview::methods_shown(s);
  EXPECT_EQ(std::vector<Method>(shown.begin(), shown.end()),
            (std::vector<Method>{Method::DualQuaternion, Method::Linear}));
  EXPECT_TRUE(rigview::apply_key(
      s, KeyPress{'1' + static_cast<int>(rig::skinning_methods().size())}, false));  // compare
  ASSERT_EQ(rigview::methods_shown(s).size(), 1u);
  EXPECT_EQ(rigview::methods_shown(s)[0], Method::DualQuaternion);
}

TEST_F(KeyActions, BRWFLSpaceChangeExactlyTheirOwnState) {
  expect_press(
      'B', [](Snapshot& s) { s.show_skeleton = true; }, "B on");
  expect_press(
      'B', [](Snapshot& s) { s.show_skeleton = false; }, "B off");
  expect_press(
      'R', [](Snapshot& s) { s.rest_pose = true; }, "R on");
  expect_press(
      'R', [](Snapshot& s) { s.rest_pose = false; }, "R off");
  expect_press(
      'W', [](Snapshot& s) { s.show_wireframe = true; }, "W on");
  expect_press(
      'W', [](Snapshot& s) { s.show_wireframe = false; }, "W off");
  expect_press(
      'G', [](Snapshot& s) { s.show_grid = false; }, "G off");
  expect_press(
      'F', [](Snapshot& s) { s.frame_model = true; }, "F");
  state_.requests.frame_model = false;
  expect_press(
      'L', [](Snapshot& s) { s.looping = false; }, "L off");
  expect_press(
      'L', [](Snapshot& s) { s.looping = true; }, "L on");
  expect_press(
      ' ', [](Snapshot& s) { s.playing = false; }, "space pauses");
  expect_press(
      ' ', [](Snapshot& s) { s.playing = true; }, "space plays");
}

TEST_F(KeyActions, StepAndJumpKeysMoveThePlaybackByItsFrameGrid) {
  const rig::Clip& clip = model_.clips[1];
  const float frame = playback_.frame_duration(1);
  ASSERT_GT(clip.end - clip.start, 2.0f * frame);
  expect_press(
      '.', [&](Snapshot& s) { s.time = clip.start + frame, s.playing = false; }, ".");
  expect_press(
      ',', [&](Snapshot& s) { s.time = clip.start; }, ",");
  expect_press(
      rigview::kKeyEnd, [&](Snapshot& s) { s.time = clip.end; }, "End");
  expect_press(
      rigview::kKeyHome, [&](Snapshot& s) { s.time = clip.start; }, "Home");
}

TEST_F(KeyActions, OtherKeysChangeExactlyTheirOwnState) {
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::SelectedJoint; }, "V 1");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::InfluenceCount; }, "V 2");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::Deflation; }, "V 3");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::Difference; }, "V 4");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::Compression; }, "V 5");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::RigFindings; }, "V 6");
  expect_press(
      'V', [](Snapshot& s) { s.surface_view = SurfaceView::Off; }, "V 7");
  state_.selected_node = 7;
  expect_press(
      rigview::kKeyEscape, [](Snapshot& s) { s.selected_node = -1; }, "Esc");
  expect_press(
      'H', [](Snapshot& s) { s.show_help = true; }, "H");
  expect_press(
      rigview::kKeyF1, [](Snapshot& s) { s.show_help = false; }, "F1");
  expect_press(
      'O', [](Snapshot& s) { s.focus_open_field = true; }, "O");
  expect_press(
      rigview::kKeyTab, [](Snapshot& s) { s.panels_hidden = true; }, "Tab");
  KeyPress quit{'Q'};
  quit.ctrl = true;
  const Snapshot before = snapshot(state_);
  EXPECT_FALSE(rigview::apply_key(state_, KeyPress{'Q'}, false));  // Q alone: nothing
  EXPECT_EQ(snapshot(state_), before);
  EXPECT_TRUE(rigview::apply_key(state_, quit, false));
  EXPECT_TRUE(state_.requests.quit);
}

TEST_F(KeyActions, RepeatTypingAndModifiersFollowTheRow) {
  const Snapshot before = snapshot(state_);
  KeyPress held{'W'};
  held.repeat = true;
  EXPECT_FALSE(rigview::apply_key(state_, held, false));          // toggles do not auto-repeat
  EXPECT_FALSE(rigview::apply_key(state_, KeyPress{'W'}, true));  // typing into a field
  KeyPress alt{'W'};
  alt.other_modifier = true;
  EXPECT_FALSE(rigview::apply_key(state_, alt, false));
  KeyPress ctrl{'W'};
  ctrl.ctrl = true;
  EXPECT_FALSE(rigview::apply_key(state_, ctrl, false));
  EXPECT_EQ(snapshot(state_), before);
  // Stepping repeats while held; Ctrl+Q works while typing.
  KeyPress step{'.'};
  step.repeat = true;
  EXPECT_TRUE(rigview::apply_key(state_, step, false));
  EXPECT_FLOAT_EQ(playback_.time(), model_.clips[1].start + playback_.frame_duration(1));
  KeyPress quit{'Q'};
  quit.ctrl = true;
  EXPECT_TRUE(rigview::apply_key(state_, quit, true));
  EXPECT_TRUE(state_.requests.quit);
}

TEST_F(KeyActions, WithoutAPlaybackThePlaybackKeysDoNothing) {
  state_.playback = nullptr;
  const Snapshot before = snapshot(state_);
  for (int key :
       {int(' '), int(','), int('.'), int('L'), int(rigview::kKeyHome), int(rigview::kKeyEnd)})
    EXPECT_TRUE(rigview::apply_key(state_, KeyPress{key}, false)) << key;
  EXPECT_EQ(snapshot(state_), before);
}

TEST(ControlsTable, KeyRowsHaveAFunctionPointerRowsNoneAndNoChordIsTaken) {
  std::set<std::tuple<int, bool, bool>> chords;
  for (const rigview::ViewerAction& a : rigview::viewer_actions()) {
    EXPECT_FALSE(a.input.empty());
    EXPECT_FALSE(a.description.empty()) << a.input;
    EXPECT_EQ(a.keys.empty(), !a.apply) << a.input;
    for (const rigview::KeyChord& k : a.keys)
      EXPECT_TRUE(chords.insert({k.key, k.ctrl, k.ctrl && k.shift}).second)
          << a.input << " reuses a key";
    EXPECT_EQ(a.input.find('\n'), std::string::npos);
  }
  // Every skinning-method row gets its digit, plus one for compare.
  for (size_t i = 0; i <= rig::skinning_methods().size(); ++i)
    EXPECT_NE(rigview::find_key_action('1' + static_cast<int>(i), false), nullptr) << i;
}

// Shift tells Ctrl+Z (undo) from Ctrl+Shift+Z (redo); a plain key ignores it.
TEST(ControlsTable, ShiftTellsUndoFromRedo) {
  rigview::ViewerState state;
  rigview::KeyPress press;
  press.key = 'Z';
  press.ctrl = true;
  EXPECT_TRUE(rigview::apply_key(state, press, false));
  EXPECT_TRUE(state.requests.undo);
  EXPECT_FALSE(state.requests.redo);
  state.requests.undo = false;
  press.shift = true;
  EXPECT_TRUE(rigview::apply_key(state, press, false));
  EXPECT_TRUE(state.requests.redo);
  EXPECT_FALSE(state.requests.undo);
  // Not while typing: a text field's own Ctrl+Z.
  state.requests.redo = false;
  EXPECT_FALSE(rigview::apply_key(state, press, true));
  // Shift+R is still R.
  rigview::KeyPress r;
  r.key = 'R';
  r.shift = true;
  const bool rest = state.rest_pose;
  EXPECT_TRUE(rigview::apply_key(state, r, false));
  EXPECT_NE(state.rest_pose, rest);
}

// README.md's section between the controls markers is the generated text, byte for byte.
TEST(ControlsTable, ReadmeControlsSectionIsTheGeneratedText) {
  std::ifstream in(std::string(RIGVIEW_SOURCE_DIR) + "/README.md", std::ios::binary);
  ASSERT_TRUE(in) << "README.md";
  const std::string readme((std::istreambuf_iterator<char>(in)), {});
  const std::string begin = "<!-- controls:begin -->\n", end = "<!-- controls:end -->";
  const size_t b = readme.find(begin);
  ASSERT_NE(b, std::string::npos) << "README.md has no " << begin;
  const size_t e = readme.find(end, b);
  ASSERT_NE(e, std::string::npos) << "README.md has no " << end;
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), rigview::controls_markdown())
      << "README.md's controls section is stale: replace it with the output of "
         "`rigview --print-controls-markdown`";
}

TEST(ControlsTable, PrintControlsMarkdownPrintsTheGeneratedText) {
  rig::test::RunResult r = rig::test::run_rigview("--print-controls-markdown");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, rigview::controls_markdown());
  EXPECT_EQ(r.err, "");
}

}  // namespace
