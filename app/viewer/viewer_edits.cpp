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

// The one line an op leaves in the Weights tab.
std::string weights_op_message(const WeightsOp& op, const rig::WeightEditResult& result,
                               bool changed) {
  return op.text + ": " + std::to_string(result.vertices_changed) + " vertices changed" +
         (op.text == "mirror" ? ", " + std::to_string(result.unmatched.size()) + " without a mirror"
                              : std::string()) +
         (changed ? "" : " (nothing to undo)");
}

}  // namespace

// A refit samples every clip's poses: it runs in the background (progress, Cancel), the other
// operations at once.
void Viewer::run_weights_op(const WeightsOp& op) {
  if (op.refit) {
    doc_.weights_op_product.make(doc_.revisions).start(*doc_.model, *doc_.skin, op);
    state_.edits.message.clear();
    return;
  }
  rig::WeightEditResult result;
  std::string error;
  bool ok = true;
  const bool changed = editing_.apply(doc_, op.text, true, false, [&](rig::SkinLayer&) {
    ok = apply_weights_op(op, *doc_.model, doc_.skin, result, error);
  });
  state_.edits.message = ok ? weights_op_message(op, result, changed) : error;
}

// The background operation's end: its edited weights become one undoable edit.
void Viewer::finish_weights_op() {
  WeightsOpJob* job = doc_.weights_op_product.get(doc_.revisions);
  if (!job || !job->done()) return;
  if (!job->succeeded()) {
    state_.edits.message = job->op().text + ": " + job->error();
    doc_.weights_op_product.reset();
    return;
  }
  // Copied out first: the edit moves the weights on, which drops (destroys) the job.
  const WeightsOp op = job->op();
  const rig::WeightEditResult result = job->result();
  const SkinState edited = capture_skin_state(job->edited());
  const bool changed = editing_.apply(doc_, op.text, true, false, [&](rig::SkinLayer& layer) {
    restore_skin_influences(edited, layer);
  });
  state_.edits.message = weights_op_message(op, result, changed);
  doc_.weights_op_product.reset();
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
  for (const std::string& warning : editing_.save_warnings()) {
    state_.edits.message += "; warning: " + warning;
    std::fprintf(stderr, "rigview: warning: %s\n", warning.c_str());
  }
  return true;
}

void Viewer::start_fix_joint() {
  rig::FixJointOptions options;
  options.clip = doc_.playback.clip();
  if (options.clip < 0 || size_t(options.clip) >= doc_.model->clips.size()) {
    state_.edits.message = "Fix this joint: choose one of the file's clips first";
    return;
  }
  const rig::SkinningMethod m = state_.artefact_method;
  options.method = m == rig::SkinningMethod::DualQuaternion ? m : rig::SkinningMethod::Linear;
  for (size_t s = 0; s < doc_.model->skins.size() && state_.selected_node >= 0; ++s)
    for (size_t j = 0; j < doc_.model->skins[s].joints.size(); ++j)
      if (doc_.model->skins[s].joints[j] == state_.selected_node && options.joint < 0)
        options.skin = int(s), options.joint = int(j);
  doc_.fix_joint_product.make(doc_.revisions).start(*doc_.model, *doc_.skin, options);
  state_.edits.message.clear();
}

// The search's end: its fixed weights become one undoable edit.
void Viewer::finish_fix_joint() {
  FixJointJob* job = doc_.fix_joint_product.get(doc_.revisions);
  if (!job || !job->done()) return;
  if (!job->succeeded()) {
    state_.edits.message = "Fix this joint: " + job->error();
    doc_.fix_joint_product.reset();
    return;
  }
  const rig::FixJointResult r = job->result();
  // Copied out first: the edit moves the weights on, which drops (destroys) the job.
  const SkinState fixed = capture_skin_state(job->fixed());
  const std::string name =
      doc_.node_labels[size_t(doc_.model->skins[size_t(r.skin)].joints[size_t(r.joint)])];
  char line[256];
  if (r.improved) {
    editing_.apply(doc_, "Fix " + name, true, false,
                   [&](rig::SkinLayer& layer) { restore_skin_influences(fixed, layer); });
    std::snprintf(line, sizeof line,
                  "Fix %s: worst score %.4g -> %.4g (%.1f%% lower), smoothing %.2f x %d %s; "
                  "largest rise of another joint %.1f%%",
                  name.c_str(), double(r.before), double(r.after),
                  100.0 * (1.0 - double(r.after) / double(r.before)), double(r.smooth.factor),
                  r.smooth.iterations,
                  r.extent == 0   ? "on its own vertices"
                  : r.extent == 1 ? "of its weights"
                  : r.extent == 2 ? "with its parent"
                                  : "with its parent and children",
                  100.0 * double(r.largest_other_rise));
  } else {
    std::snprintf(line, sizeof line,
                  "Fix %s: no smoothing lowered its worst score %.4g without raising another "
                  "joint's by more than 5%% (%zu tried)",
                  name.c_str(), double(r.before), r.candidates);
  }
  state_.edits.message = line;
  doc_.fix_joint_product.reset();
}

void Viewer::serve_edit_requests() {
  ViewerRequests& r = state_.requests;
  std::string error;
  if (r.fix_joint) {
    r.fix_joint = false;
    start_fix_joint();
  }
  if (r.cancel_fix_joint) {
    r.cancel_fix_joint = false;
    doc_.fix_joint_product.reset();
    state_.edits.message = "Fix this joint: cancelled";
  }
  finish_fix_joint();
  if (r.weights_op) {
    r.weights_op = false;
    run_weights_op(r.op);
  }
  if (r.cancel_weights_op) {
    r.cancel_weights_op = false;
    if (const WeightsOpJob* job = doc_.weights_op_product.get(doc_.revisions))
      state_.edits.message = job->op().text + ": cancelled";
    doc_.weights_op_product.reset();
  }
  finish_weights_op();
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
  const FixJointJob* fix = doc_.fix_joint_product.get(doc_.revisions);
  e.fix_running = fix && !fix->done();
  e.fix_progress = fix ? fix->progress() : 0.0f;
  const WeightsOpJob* op = doc_.weights_op_product.get(doc_.revisions);
  e.op_running = op && !op->done();
  e.op_progress = op ? op->progress() : 0.0f;
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
