// The clip set's edits in the document's history: clips added from a file (Add clips from file,
// Shift+drop) and a retargeted file's bone-map remaps. A step keeps what undo and redo need to
// put either side back: for an add, which file (its clips are withdrawn from the set on undo
// and put back on redo, at the same indices, ids and names); for a remap, the file's map and
// measures and every clip's keys before and after. No ImGui.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "viewer/document.h"

namespace rigview {

struct ClipEditStep {
  enum class Kind { AddFile, Remap };
  Kind kind = Kind::AddFile;
  size_t file = 0;  // index in Document::clip_files
  // Remap only: the file as it was and as it is (its clips' keys live in the set), and the
  // keys of each of its clips (clip_indices order) on either side.
  std::shared_ptr<const ClipFile> file_before, file_after;
  std::vector<std::shared_ptr<const rig::Clip>> keys_before, keys_after;
};

// The step of a file just added as doc.clip_files[file].
ClipEditStep clip_add_step(size_t file);

// What a remap of doc.clip_files[file] changes, taken before the remap ...
ClipEditStep clip_remap_before(const Document& doc, size_t file);
// ... and completed after it.
void clip_remap_after(const Document& doc, ClipEditStep& step);

// Puts `step`'s `after` side (redo) or its before side (undo) into `doc`. false + one line when
// the document no longer fits the step (then nothing changed).
bool apply_clip_step(const ClipEditStep& step, bool after, Document& doc, std::string& error);

}  // namespace rigview
