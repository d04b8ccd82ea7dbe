// The viewer's skin edits as a document's history: every operation of the Weights tab, the
// Rig health panel's Repair, undo and redo go through here as one undoable step each; it knows
// whether the document is modified (the title's "*", the question before opening another file
// or quitting), journals the unsaved edits (viewer/edit_journal.h) and saves the file with the
// document writer (Save, Save As). No ImGui.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "viewer/clip_history.h"
#include "viewer/document.h"
#include "viewer/edit_journal.h"
#include "viewer/skin_history.h"

namespace rigview {

class SkinEditing {
 public:
  // A new document (opened, or derived for a simulated bug): the history starts empty, the
  // layer as it is now is the saved state, and a journal the file left behind is looked for
  // (recovery_pending).
  void reset(const Document& doc);

  bool modified() const { return history_.modified(); }
  const SkinHistory& history() const { return history_; }
  // Where Save writes: the opened file until a Save As.
  const std::string& save_path() const { return save_path_; }

  // Runs `op` on the document's skin layer as one undoable step named `label` (nothing is
  // recorded when it changes nothing). `weights` / `inverse_binds`: what it may change.
  // Returns whether it changed the layer.
  bool apply(Document& doc, const std::string& label, bool weights, bool inverse_binds,
             const std::function<void(rig::SkinLayer&)>& op);
  // A paint stroke: many edits between a press and a release, recorded as one step at the end.
  void begin_stroke(const Document& doc);
  bool in_stroke() const { return stroke_open_; }
  bool end_stroke(Document& doc, const std::string& label);
  // Records a clip edit already made (clips added from a file, a bone-map remap) as one step
  // named `label`: undo withdraws or restores what it changed, and the document is modified.
  void record_clip_edit(std::string label, ClipEditStep step);
  bool undo(Document& doc, std::string& error) { return step(doc, false, error); }
  bool redo(Document& doc, std::string& error) { return step(doc, true, error); }

  // Writes the document's file with the layer's edits to `path` (.glb or .gltf) atomically:
  // a failed save leaves the previous file as it was and says why in one line. Afterwards
  // the document is no longer modified, Save writes to `path`, and the journal is gone.
  bool save(Document& doc, const std::string& path, std::string& error);
  // What the last successful save could not write (write/gltf_document.h warnings()).
  const std::vector<std::string>& save_warnings() const { return save_warnings_; }

  // A journal of this file's unsaved edits was found when the document opened.
  bool recovery_pending() const { return recovery_pending_; }
  const std::string& recovery_summary() const { return recovery_summary_; }
  // Applies the journal's edits as one undoable step (the document is then modified), or
  // discards the journal.
  bool recover(Document& doc, std::string& error);
  void discard_recovery();

  // The journal file of this document (empty without a cache folder).
  const std::string& journal_file() const { return journal_; }

 private:
  bool step(Document& doc, bool redo, std::string& error);
  void write_journal_now(const Document& doc);

  SkinHistory history_;
  SkinState base_;  // the layer as the file holds it
  SkinState stroke_before_;
  bool stroke_open_ = false;
  std::string source_path_, save_path_, journal_;
  bool source_overwritten_ = false;        // a save replaced the file the model was imported from
  std::vector<uint32_t> clips_in_source_;  // ids of added clips such a save wrote into it
  std::vector<std::string> save_warnings_;
  bool recovery_pending_ = false;
  std::string recovery_summary_;
  JournalContents found_;
};

}  // namespace rigview
