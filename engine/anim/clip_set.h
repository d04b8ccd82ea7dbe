// The clips a character can play, in order: the file's clips first (index i is the file's clip i,
// so every index, flag and output that names a file clip stays the same), then the clips added
// at run time. Each entry is a ClipSource to sample with a stable id (never reused) and a name;
// where the entry has raw keys (in this model's node indices), they travel with it, for what
// needs keys rather than a sampler: compression, root motion, the playback frame grid.
//
// Indices are what per-frame data holds (PoseSelection::clip, PoseLayer::clip): entries are only
// appended, so an index stays valid for the set's life. Ids are for what outlives an index's
// meaning (a saved setting, a clip chosen by name). Not thread-safe to edit while a character
// samples from it (edit between frames); reading is.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "anim/clip_source.h"
#include "model/model.h"

namespace rig {

// Where an entry came from (what it is, not what it currently samples: see ClipEntry::source).
enum class ClipOrigin : uint8_t { File, Compressed, Added, Retargeted };

// Playback's frame when a clip's keys give none (see anim/playback.h).
inline constexpr float kDefaultClipFrame = 1.0f / 30.0f;

// The frame a clip was baked at: the smallest key gap of any channel when it looks like a frame
// rate (1 ms .. 100 ms); sparse hand-keyed clips fall back to kDefaultClipFrame.
float clip_frame_duration(const Clip& clip);

struct ClipEntry {
  uint32_t id = 0;
  std::string name;
  ClipOrigin origin = ClipOrigin::File;
  int file_clip = -1;                        // its index in Model::clips, -1 when not the file's
  std::shared_ptr<const Clip> keys;          // raw keys, node indices of this model; null: none
  std::shared_ptr<const ClipSource> own;     // what it was added with (keys: a RawClipSource)
  std::shared_ptr<const ClipSource> source;  // what is sampled: `own` or a substitute
  // Timing of the clip itself, fixed when added: a substitute (a compressed form) plays the same
  // range, and playback's frame grid stays the clip's.
  float start = 0.0f, end = 0.0f;
  float frame_duration = kDefaultClipFrame;
  // Taken out of the set by an undone edit: it keeps its index (indices are never reused or
  // moved) and still samples, but lists, saves and pickers skip it until it is put back.
  bool withdrawn = false;
};

class ClipSet {
 public:
  // The file's clips at indices 0..n-1 in file order, each sampled from its raw keys (one
  // prepared RawClipSource per clip; allocates). `model` must outlive the set.
  static std::shared_ptr<ClipSet> from_model(const Model& model);

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool valid(int index) const { return index >= 0 && size_t(index) < entries_.size(); }
  const ClipEntry& operator[](size_t index) const { return entries_[index]; }
  std::span<const ClipEntry> entries() const { return entries_; }

  // Appends a clip given by its raw keys (node indices of `model`, which must outlive the set);
  // it is sampled through a RawClipSource made here. Returns its index. Allocates.
  int add(const Model& model, Clip keys, ClipOrigin origin = ClipOrigin::Added);
  // Appends a clip given only by a sampler (no raw keys: it cannot be compressed again or give
  // root motion); `name` names it. Returns its index, or -1 for a null source.
  int add(std::string name, std::shared_ptr<const ClipSource> source,
          ClipOrigin origin = ClipOrigin::Compressed);

  // Entry `index` (one added with raw keys) plays `keys` instead, for good: its id, name and
  // origin stay, its range and frame follow the new keys, a substitute is dropped (a clip
  // retargeted again through an edited bone map). false, nothing changed, for an invalid index
  // or an entry without keys (the file's clips are the file's). Allocates.
  bool replace(int index, const Model& model, Clip keys);

  // Takes entry `index` out of the listed clips (true) or puts it back (false): an added clip's
  // undo and redo. false, nothing changed, for an invalid index or one of the file's clips.
  bool withdraw(int index, bool withdrawn);
  // Entries not withdrawn.
  size_t listed_count() const;

  int find(uint32_t id) const;                 // index of the entry with `id`, -1 when none
  int find_name(std::string_view name) const;  // first entry named `name`, -1 when none

  // Samples entry `index` from `source` instead (a compressed runtime clip, say) until restored;
  // nullptr restores the entry's own source. Ignored for an invalid index.
  void substitute(int index, std::shared_ptr<const ClipSource> source);
  void restore(int index) { substitute(index, nullptr); }
  void restore_all();

  // Moves on every edit (add, replace, withdraw, substitute, restore): a character reading the set
  // compares it once per frame to pick up the edit.
  uint64_t revision() const { return revision_; }
  // Key-cursor slots the most demanding source needs.
  size_t max_cursor_count() const;

 private:
  int append(ClipEntry entry);

  std::vector<ClipEntry> entries_;
  uint32_t next_id_ = 1;
  uint64_t revision_ = 1;
};

// A non-owning handle for a source that the caller keeps alive longer than any set that
// samples it (the CompressionSession's results, say).
inline std::shared_ptr<const ClipSource> borrowed_source(const ClipSource* source) {
  return source ? std::shared_ptr<const ClipSource>(std::shared_ptr<const ClipSource>(), source)
                : nullptr;
}

}  // namespace rig
