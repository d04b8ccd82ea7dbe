// The Learn tab's requests (viewer/learn_state.h), served by the frame loop: Show me opens the
// lesson's bundled model through the normal open path (the unsaved-edits question included),
// then sets the lesson up (viewer/lessons.h); Leave lesson opens the user's model again if the
// lesson changed it, then restores the snapshot taken before the first Show me.
#include <filesystem>

#include "viewer/lessons.h"
#include "viewer/viewer_app.h"

namespace rigview {

namespace {

std::string bundled_path(LessonModel model) {
  return (std::filesystem::path(default_model_path(nullptr)).parent_path() /
          lesson_model_file(model))
      .string();
}

// No open is on its way: none posted, none waiting for the unsaved-edits answer.
bool no_open_pending(const ViewerState& state) {
  return state.requests.open_path.empty() && state.edits.pending_open.empty();
}

}  // namespace

void Viewer::update_mistake(const rig::PoseSelection& selection) {
  LearnState& l = state_.learn;
  if (crowd_ || !renderer_) l.mistake = -1;
  if (l.mistake < 0) {
    if (mistakes_.active()) mistakes_.clear();
    if (renderer_) renderer_->set_cpu_skinning(false);
    return;
  }
  // The columns follow the single view's method (keys 1 and 2) while the switch stays on.
  const rig::SkinningMethod m = mistake_method(l.mistake, state_.method);
  l.mistake_columns = {m, m};
  mistakes_.prepare(doc_, l.mistake);
  mistakes_.update(doc_, selection, state_.method);
  renderer_->set_cpu_skinning(mistakes_.active());
}

void Viewer::serve_learn() {
  LearnState& l = state_.learn;
  const std::span<const Lesson> all = lessons();
  if (l.leave) {
    l.leave = false;
    l.active = l.pending = -1;
    if (l.saved_valid) {
      l.restoring = true;
      if (doc_.path != l.saved.model_path) state_.requests.open_path = l.saved.model_path;
    }
  }
  if (l.show >= 0 && size_t(l.show) < all.size()) {
    if (!l.saved_valid) {
      l.saved = capture_lesson_state(state_, doc_);
      l.saved_valid = true;
    }
    l.restoring = false;
    l.message.clear();
    l.active = -1;
    l.pending = l.show;
    if (!document_has_lesson_model(doc_, all[size_t(l.show)]))
      state_.requests.open_path = bundled_path(all[size_t(l.show)].model);
  }
  l.show = -1;
  if (l.pending >= 0) {
    const Lesson& lesson = all[size_t(l.pending)];
    if (document_has_lesson_model(doc_, lesson)) {
      apply_lesson(state_, doc_, lesson);
      l.active = l.pending;
      l.pending = -1;
    } else if (no_open_pending(state_)) {  // the open failed or was cancelled
      l.message = std::string("could not open ") + lesson_model_file(lesson.model);
      l.pending = -1;
    }
  }
  if (l.restoring) {
    if (doc_.path == l.saved.model_path) {
      restore_lesson_state(state_, doc_, l.saved);
      l.restoring = l.saved_valid = false;
    } else if (no_open_pending(state_)) {
      l.message = "could not open " + l.saved.model_path + " again";
      l.restoring = l.saved_valid = false;
    }
  }
}

}  // namespace rigview
