// The viewer's skin edits: the Weights tab's operations, the Rig health panel's IBM repairs,
// undo and redo, Save and Save As, the recovery of a journal, and the questions about unsaved
// edits before opening another file or quitting (viewer/skin_editing.h does the work).
#include "analysis/inverse_bind_repair.h"
#include "viewer/viewer_app.h"

namespace rigview {

namespace {

// Assigns only when different: the status is refreshed every frame and must not allocate.
void set_text(std::string& to, const std::string& from) {
  if (to != from) to = from;
}

}  // namespace

void Viewer::run_weights_op(const WeightsOp& op) {
  rig::WeightEditResult result;
  std::string error;
  bool ok = true;
  const bool changed = editing_.apply(doc_, op.text, true, false, [&](rig::SkinLayer&) {
    ok = apply_weights_op(op, *doc_.model, doc_.skin, result, error);
  });
  if (!ok) {
    state_.edits.message = error;
    return;
  }
  state_.edits.message =
      op.text + ": " + std::to_string(result.vertices_changed) + " vertices changed" +
      (op.text == "mirror" ? ", " + std::to_string(result.unmatched.size()) + " without a mirror"
                           : std::string()) +
      (changed ? "" : " (nothing to undo)");
}

void Viewer::run_ibm_repair(bool recover) {
  const rig::InverseBindRepairScope scope =
      recover ? rig::InverseBindRepairScope::Recover : rig::InverseBindRepairScope::Flagged;
  std::vector<rig::InverseBindRepair> repairs;
  editing_.apply(doc_, recover ? "Recover bind pose" : "Repair inverse bind matrices", false, true,
                 [&](rig::SkinLayer& layer) {
                   repairs = rig::repair_inverse_binds(*doc_.model, layer, scope);
                 });
  std::string text;
  for (const rig::InverseBindRepair& r : repairs)
    text += (text.empty() ? "" : "; ") + std::string("skin ") + std::to_string(r.skin) + ": " +
            (r.repaired ? r.method + " (" + r.reason + ")" : "not repaired: " + r.problem);
  state_.edits.message = text.empty() ? "no skin is flagged IBM_MISSING or IBM_SUSPECT" : text;
}

bool Viewer::save_to(const std::string& path) {
  std::string error;
  if (!editing_.save(doc_, path, error)) {
    state_.edits.message = "not saved: " + error;
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return false;
  }
  state_.edits.message = "saved " + path;
  return true;
}

void Viewer::serve_edit_requests() {
  ViewerRequests& r = state_.requests;
  std::string error;
  if (r.weights_op) {
    r.weights_op = false;
    run_weights_op(r.op);
  }
  if (r.repair_ibm || r.recover_ibm) {
    run_ibm_repair(r.recover_ibm);
    r.repair_ibm = r.recover_ibm = false;
  }
  if (r.undo) {
    r.undo = false;
    if (!editing_.undo(doc_, error)) state_.edits.message = error;
  }
  if (r.redo) {
    r.redo = false;
    if (!editing_.redo(doc_, error)) state_.edits.message = error;
  }
  if (r.save) {
    r.save = false;
    save_to(editing_.save_path());
  }
  if (!r.save_as.empty()) {
    std::string path;
    path.swap(r.save_as);
    save_to(path);
  }
  if (r.recover != ViewerRequests::Answer::None) {
    if (r.recover == ViewerRequests::Answer::Yes) {
      state_.edits.message =
          editing_.recover(doc_, error) ? "recovered the unsaved edits" : "not recovered: " + error;
    } else {
      editing_.discard_recovery();
    }
    r.recover = ViewerRequests::Answer::None;
  }
  if (r.unsaved != ViewerRequests::Answer::None) {
    const ViewerRequests::Answer answer = r.unsaved;
    r.unsaved = ViewerRequests::Answer::None;
    EditStatus& e = state_.edits;
    const bool go = answer == ViewerRequests::Answer::No ||
                    (answer == ViewerRequests::Answer::Yes && save_to(editing_.save_path()));
    if (go) {
      // Discarded edits leave no journal to recover.
      if (answer == ViewerRequests::Answer::No) remove_journal(editing_.journal_file());
      if (e.pending_quit) {
        e.pending_quit = false;
        quit_confirmed_ = true;
        platform_.request_close();
      } else if (!e.pending_open.empty()) {
        std::string path;
        path.swap(e.pending_open);
        open_model(path);
      }
    } else if (answer == ViewerRequests::Answer::Cancel) {
      e.pending_quit = false;
      e.pending_open.clear();
    }
  }
  refresh_edit_status();
}

void Viewer::refresh_edit_status() {
  EditStatus& e = state_.edits;
  e.modified = editing_.modified() && doc_.simulated_bug < 0;
  static const std::string kNone;
  const SkinEditStep* undo = editing_.history().next_undo();
  const SkinEditStep* redo = editing_.history().next_redo();
  set_text(e.undo_label, undo ? undo->label : kNone);
  set_text(e.redo_label, redo ? redo->label : kNone);
  set_text(e.save_path, editing_.save_path());
  if (editing_.recovery_pending())
    set_text(e.recover_prompt, editing_.recovery_summary());
  else if (!e.recover_prompt.empty())
    e.recover_prompt.clear();
  if (e.modified != title_modified_ && window_open_) {
    title_modified_ = e.modified;
    platform_.set_title(e.modified ? doc_.window_title + " *" : doc_.window_title);
  }
}

// Whether the window may close now: with unsaved edits it asks first (EditStatus::pending_quit)
// and stays open until answered.
bool Viewer::close_allowed() {
  if (quit_confirmed_ || !editing_.modified() || doc_.simulated_bug >= 0) return true;
  platform_.cancel_close();
  state_.edits.pending_quit = true;
  return false;
}

}  // namespace rigview
