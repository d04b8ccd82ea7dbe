#include "viewer/actions.h"

#include "markdown_text.h"
#include "viewer/mistakes.h"
#include "viewer/self_test.h"

namespace rigview {

namespace {

// Digits 1..9 are the skinning keys: one per method, then compare.
static_assert(rig::kSkinningMethodCount + 1 <= 9, "more skinning methods than digit keys");
static_assert(kMistakeCount <= 9, "more Learn mistakes than Ctrl+digit keys");

void with_playback(ViewerState& s, void (*f)(rig::Playback&)) {
  if (s.playback) f(*s.playback);
}

ViewerAction pointer(std::string input, std::string description) {
  ViewerAction a;
  a.input = std::move(input);
  a.description = std::move(description);
  return a;
}

ViewerAction key(std::string input, std::vector<KeyChord> keys, std::string description,
                 std::function<void(ViewerState&)> apply, bool repeats = false) {
  ViewerAction a;
  a.input = std::move(input);
  a.description = std::move(description);
  a.keys = std::move(keys);
  a.apply = std::move(apply);
  a.repeats = repeats;
  return a;
}

std::vector<ViewerAction> build_actions() {
  std::vector<ViewerAction> rows;
  rows.push_back(pointer("left drag", "orbit"));
  rows.push_back(pointer("middle drag, or shift + left drag", "pan"));
  rows.push_back(pointer("wheel", "zoom"));
  rows.push_back(pointer("left drag on a handle",
                         "move an IK target (circle), pole (diamond) or look-at handle (square) "
                         "on the plane facing the camera (Posing panel)"));
  rows.push_back(pointer("ctrl + left drag on a handle", "move it in depth (up: away)"));
  rows.push_back(key("F", {{'F'}}, "frame the model (Reset camera restores the start view)",
                     [](ViewerState& s) { s.requests.frame_model = true; }));
  rows.push_back(key("Space", {{' '}}, "play / pause", [](ViewerState& s) {
    with_playback(s, [](rig::Playback& p) { p.toggle_playing(); });
  }));
  rows.push_back(key(
      ",", {{','}}, "step one frame back (repeats while held)",
      [](ViewerState& s) { with_playback(s, [](rig::Playback& p) { p.step_frames(-1); }); }, true));
  rows.push_back(key(
      ".", {{'.'}}, "step one frame forward (repeats while held)",
      [](ViewerState& s) { with_playback(s, [](rig::Playback& p) { p.step_frames(1); }); }, true));
  rows.push_back(key("Home", {{kKeyHome}}, "jump to the clip's start", [](ViewerState& s) {
    with_playback(s, [](rig::Playback& p) { p.jump_to_start(); });
  }));
  rows.push_back(key("End", {{kKeyEnd}}, "jump to the clip's end", [](ViewerState& s) {
    with_playback(s, [](rig::Playback& p) { p.jump_to_end(); });
  }));
  rows.push_back(key("L", {{'L'}}, "loop on / off", [](ViewerState& s) {
    with_playback(s, [](rig::Playback& p) { p.set_looping(!p.looping()); });
  }));
  // The skinning keys, from the skinning-method table.
  const std::span<const rig::SkinningMethodInfo> methods = rig::skinning_methods();
  std::string compare_list;
  for (size_t i = 0; i < methods.size(); ++i) {
    const std::string digit(1, static_cast<char>('1' + i));
    rows.push_back(key(digit, {{'1' + static_cast<int>(i)}},
                       std::string(methods[i].label) + " (" + methods[i].description + ")",
                       [i](ViewerState& s) { select_method(s, i); }));
    compare_list += (i == 0 ? "" : ", then ") + std::string(methods[i].label);
  }
  rows.push_back(key(std::string(1, static_cast<char>('1' + methods.size())),
                     {{'1' + static_cast<int>(methods.size())}},
                     "compare on / off: the methods side by side (" + compare_list +
                         ", left to right; `--skinning compare=LIST` picks them)",
                     toggle_compare));
  rows.push_back(key("B", {{'B'}}, "bones on / off (hover a joint for its name, click to select)",
                     [](ViewerState& s) { s.show_skeleton = !s.show_skeleton; }));
  rows.push_back(
      key("R", {{'R'}}, "rest pose on / off", [](ViewerState& s) { s.rest_pose = !s.rest_pose; }));
  rows.push_back(key("V", {{'V'}},
                     "surface colours: off / selected joint's weights / influence count / "
                     "deflation per method / LBS-DQS difference / compression error / "
                     "rig-doctor findings",
                     cycle_surface_view));
  rows.push_back(key("W", {{'W'}}, "wireframe on / off",
                     [](ViewerState& s) { s.show_wireframe = !s.show_wireframe; }));
  rows.push_back(
      key("G", {{'G'}}, "grid on / off", [](ViewerState& s) { s.show_grid = !s.show_grid; }));
  rows.push_back(key("S", {{'S'}}, "key-light shadow on / off",
                     [](ViewerState& s) { s.show_shadows = !s.show_shadows; }));
  rows.push_back(key("O", {{'O'}}, "focus the Open field",
                     [](ViewerState& s) { s.requests.focus_open_field = true; }));
  rows.push_back(key("Esc", {{kKeyEscape}}, "clear the joint selection",
                     [](ViewerState& s) { s.selected_node = -1; }));
  rows.push_back(key("H or F1", {{'H'}, {kKeyF1}}, "Help panel on / off",
                     [](ViewerState& s) { s.show_help = !s.show_help; }));
  rows.push_back(key("Tab", {{kKeyTab}}, "hide / show the panels",
                     [](ViewerState& s) { s.panels_hidden = !s.panels_hidden; }));
  rows.push_back(key("Ctrl+Z", {{'Z', true}},
                     "undo the last edit (Weights tab, IBM repair, added clips, Bone map; the "
                     "title's * marks unsaved edits)",
                     [](ViewerState& s) { s.requests.undo = true; }));
  rows.push_back(key("Ctrl+Shift+Z or Ctrl+Y", {{'Z', true, true}, {'Y', true}},
                     "redo the edit undone last", [](ViewerState& s) { s.requests.redo = true; }));
  ViewerAction save =
      key("Ctrl+S", {{'S', true}}, "save the file with the skin edits (Save As: the Weights tab)",
          [](ViewerState& s) { s.requests.save = true; });
  save.while_typing = true;
  rows.push_back(std::move(save));
  ViewerAction quit =
      key("Ctrl+Q", {{'Q', true}}, "quit (window size and layout are kept in `~/.config/rigview/`)",
          [](ViewerState& s) { s.requests.quit = true; });
  quit.while_typing = true;
  rows.push_back(std::move(quit));
  // The Learn tab's Mistakes, one chord each, so tests and the keyboard reach every switch.
  const std::span<const Mistake> all = mistakes();
  for (size_t i = 0; i < all.size(); ++i) {
    const int digit = '1' + static_cast<int>(i);
    rows.push_back(key("Ctrl+" + std::string(1, static_cast<char>(digit)), {{digit, true}},
                       std::string("Learn mistake `") + all[i].name +
                           "` on / off: right and wrong side by side (one at a time)",
                       [i](ViewerState& s) { toggle_mistake(s, static_cast<int>(i)); }));
  }
  rows.push_back(pointer("drop a `.gltf`/`.glb`", "open it"));
  rows.push_back(pointer("Shift+drop a `.gltf`/`.glb`",
                         "add its animations to the clip list (retargeted when its skeleton "
                         "differs; File panel: Add clips from file)"));
  rows.push_back(pointer("drop a `.hdr`",
                         "light the studio look with this Radiance environment (prefiltered in "
                         "the background; Display tab: Look)"));
  for (ViewerAction& row : rows) {
    row.help_input = markdown_plain(row.input);
    row.help_description = markdown_plain(row.description);
  }
  return rows;
}

}  // namespace

const std::vector<ViewerAction>& viewer_actions() {
  static const std::vector<ViewerAction> actions = build_actions();
  return actions;
}

const ViewerAction* find_key_action(int key, bool ctrl, bool shift) {
  for (const ViewerAction& a : viewer_actions())
    for (const KeyChord& chord : a.keys)
      if (chord.key == key && chord.ctrl == ctrl && (!ctrl || chord.shift == shift)) return &a;
  return nullptr;
}

bool apply_key(ViewerState& state, const KeyPress& press, bool typing) {
  if (press.other_modifier) return false;
  const ViewerAction* a = find_key_action(press.key, press.ctrl, press.shift);
  if (!a || !a->apply) return false;
  if (typing && !a->while_typing) return false;
  if (press.repeat && !a->repeats) return false;
  a->apply(state);
  return true;
}

std::string controls_markdown() {
  const auto cell = markdown_cell;
  std::string md =
      "<!-- generated by `rigview --print-controls-markdown` from app/viewer/actions.cpp and "
      "app/viewer/self_test.cpp; tests/app/viewer_actions_test.cpp checks this copy -->\n"
      "| input | action |\n|---|---|\n";
  for (const ViewerAction& a : viewer_actions())
    md += "| " + cell(a.input) + " | " + cell(a.description) + " |\n";
  md +=
      "\nSelf-test hooks (environment variables the viewer reads at start-up, for "
      "`tests/app/viewer_smoke_test.cpp` and `tests/app/viewer_posing_test.cpp`; not part of the "
      "command line):\n\n";
  for (const SelfTestHookInfo& h : kSelfTestHooks)
    md += "- `" + std::string(h.name) + "`: " + h.meaning + "\n";
  return md;
}

}  // namespace rigview
