// The journal of a document's unsaved skin edits, so that a crash or a kill loses nothing: after
// every edit, undo or redo that leaves the document modified, the viewer writes what differs
// from the file (each changed primitive's influences, each changed skin's inverse bind
// matrices) atomically to the cache folder; saving, or undoing back to the saved state, removes
// it. On the next start (or the next open of that file) the viewer finds it and asks "Recover
// unsaved edits to X?".
//
// File: $XDG_CACHE_HOME/rigview/journal/<FNV-1a 64 of the absolute model path, hex>.journal
// (else ~/.cache/rigview/...). Little-endian:
//   "RVJ1", u32 version 1, u32 path length, path bytes, u64 model file size,
//   u32 primitive count, per primitive: u32 index, u32 slots, u32 vertex count,
//     slots·vertices u16 joints, slots·vertices f32 weights;
//   u32 skin count, per skin: u32 index, u32 joint count, 16·joints f32 (column-major);
//   u64 FNV-1a 64 of every byte before it.
// Reading checks every count against the bytes left, so a truncated or corrupt journal is
// refused in one line, never over-read or over-allocated.
#pragma once

#include <cstdint>
#include <string>

#include "viewer/skin_history.h"

namespace rigview {

// Where the journal of `model_path` lives; empty when there is no cache folder.
std::string journal_path(const std::string& model_path);

struct JournalContents {
  std::string model_path;
  uint64_t model_size = 0;
  // The edited state of what changed (the step's "after" side; "before" is left empty).
  SkinEditStep edits;
};

// Writes the changes from `base` (the layer as opened) to `now` as the journal of
// `model_path`. An unchanged layer removes the journal instead. false + one-line error.
bool write_journal(const std::string& journal, const std::string& model_path, const SkinState& base,
                   const SkinState& now, std::string& error);
bool read_journal(const std::string& journal, JournalContents& out, std::string& error);
void remove_journal(const std::string& journal);

// The journal's edits as one undoable step over `base`: the before side from `base`. false +
// one-line error when the journal does not fit the layer (another file, a changed file): a
// primitive or skin that does not exist, other vertex or joint counts, slots other than 0, 4
// or 8, or a joint index past `joint_limit[primitive]` (the fewest joints of the skins that
// draw it).
bool journal_step(const JournalContents& journal, const SkinState& base,
                  const std::vector<uint32_t>& joint_limit, SkinEditStep& out, std::string& error);

}  // namespace rigview
