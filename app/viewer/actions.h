// The viewer's controls as ONE table. Each row is an input (a key, or a pointer gesture the
// mouse code handles), what it does, and for keys the function it applies to the ViewerState.
// The key handling (viewer.cpp), the Help panel (panels.cpp) and the README's "Viewer controls"
// table (`rigview --print-controls-markdown`, checked by tests/app/viewer_actions_test.cpp) all
// read this table, so they cannot disagree.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "viewer/viewer_state.h"

namespace rigview {

// Keys, independent of GLFW (viewer/platform_glfw.cpp maps them): a printable key is its
// upper-case ASCII code ('A', '1', ' ', ',', '.'); the others are these.
enum Key : int {
  kKeyNone = 0,
  kKeyEscape = 256,
  kKeyTab,
  kKeyHome,
  kKeyEnd,
  kKeyF1,
};

struct KeyChord {
  int key = kKeyNone;
  bool ctrl = false;
  bool shift = false;  // told apart only with Ctrl (Ctrl+Z vs Ctrl+Shift+Z); plain keys ignore it
};

struct ViewerAction {
  std::string input;        // as Help and the README show it: "Space", "H or F1", "left drag"
  std::string description;  // what it does (Markdown: the README's table)
  std::string help_input, help_description;  // the same as plain text, for the Help panel
  std::vector<KeyChord> keys;  // empty: a pointer gesture (documentation only; see viewer.cpp)
  std::function<void(ViewerState&)> apply;  // set exactly when `keys` is not empty
  bool repeats = false;                     // also fires on the key's auto-repeat
  bool while_typing = false;                // also fires while a text field has the keyboard
};

// Every row, in the order Help and the README list them. Skinning keys come from
// rig::skinning_methods(): digit N selects method N-1, the next digit toggles compare.
const std::vector<ViewerAction>& viewer_actions();

// The key row for `key` (with or without Ctrl, and with Ctrl, with or without Shift), nullptr
// when none.
const ViewerAction* find_key_action(int key, bool ctrl, bool shift = false);

struct KeyPress {
  int key = kKeyNone;
  bool ctrl = false;
  bool shift = false;
  bool other_modifier = false;  // Alt or Super: not a viewer shortcut
  bool repeat = false;          // auto-repeat of a held key
};

// Applies the action of one key press. `typing`: a text field has the keyboard. Returns whether
// an action ran.
bool apply_key(ViewerState& state, const KeyPress& press, bool typing);

// The README's "Viewer controls" section: the table of every row, then the self-test hooks.
std::string controls_markdown();

}  // namespace rigview
