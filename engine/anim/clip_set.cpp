#include "anim/clip_set.h"

#include <algorithm>

namespace rig {

namespace {

struct RawWithKeys {
  std::shared_ptr<const Clip> keys;
  RawClipSource source;  // points into *keys
};

}  // namespace

float clip_frame_duration(const Clip& clip) {
  float smallest = 0.0f;
  for (const Channel& channel : clip.channels) {
    for (size_t k = 1; k < channel.times.size(); ++k) {
      const float gap = channel.times[k] - channel.times[k - 1];
      if (gap >= 1e-3f && (smallest == 0.0f || gap < smallest)) smallest = gap;
    }
  }
  if (smallest >= 1e-3f && smallest <= 0.1f + 1e-4f) return smallest;  // + float noise
  return kDefaultClipFrame;
}

std::shared_ptr<ClipSet> ClipSet::from_model(const Model& model) {
  auto set = std::make_shared<ClipSet>();
  set->entries_.reserve(model.clips.size());
  for (size_t c = 0; c < model.clips.size(); ++c) {
    const int index = set->add(model, model.clips[c], ClipOrigin::File);
    set->entries_[size_t(index)].file_clip = int(c);
  }
  return set;
}

int ClipSet::append(ClipEntry entry) {
  entry.id = next_id_++;
  entry.source = entry.own;
  entries_.push_back(std::move(entry));
  ++revision_;
  return int(entries_.size() - 1);
}

int ClipSet::add(const Model& model, Clip keys, ClipOrigin origin) {
  ClipEntry e;
  e.name = keys.name;
  e.origin = origin;
  e.start = keys.start;
  e.end = keys.end;
  e.frame_duration = clip_frame_duration(keys);
  e.keys = std::make_shared<const Clip>(std::move(keys));
  // The source reads the keys in place: one allocation owns both, and the entry's source is an
  // alias into it.
  auto owned =
      std::make_shared<const RawWithKeys>(RawWithKeys{e.keys, RawClipSource(model, *e.keys)});
  e.own = std::shared_ptr<const ClipSource>(owned, &owned->source);
  return append(std::move(e));
}

int ClipSet::add(std::string name, std::shared_ptr<const ClipSource> source, ClipOrigin origin) {
  if (!source) return -1;
  ClipEntry e;
  e.name = std::move(name);
  e.origin = origin;
  e.start = source->start();
  e.end = source->end();
  e.own = std::move(source);
  return append(std::move(e));
}

bool ClipSet::replace(int index, const Model& model, Clip keys) {
  if (!valid(index) || !entries_[size_t(index)].keys ||
      entries_[size_t(index)].origin == ClipOrigin::File)
    return false;
  ClipEntry& e = entries_[size_t(index)];
  e.start = keys.start;
  e.end = keys.end;
  e.frame_duration = clip_frame_duration(keys);
  keys.name = e.name;
  e.keys = std::make_shared<const Clip>(std::move(keys));
  auto owned =
      std::make_shared<const RawWithKeys>(RawWithKeys{e.keys, RawClipSource(model, *e.keys)});
  e.own = std::shared_ptr<const ClipSource>(owned, &owned->source);
  e.source = e.own;
  ++revision_;
  return true;
}

bool ClipSet::withdraw(int index, bool withdrawn) {
  if (!valid(index) || entries_[size_t(index)].origin == ClipOrigin::File) return false;
  entries_[size_t(index)].withdrawn = withdrawn;
  ++revision_;
  return true;
}

size_t ClipSet::listed_count() const {
  size_t n = 0;
  for (const ClipEntry& e : entries_) n += e.withdrawn ? 0 : 1;
  return n;
}

int ClipSet::find(uint32_t id) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].id == id) return int(i);
  return -1;
}

int ClipSet::find_name(std::string_view name) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].name == name) return int(i);
  return -1;
}

void ClipSet::substitute(int index, std::shared_ptr<const ClipSource> source) {
  if (!valid(index)) return;
  ClipEntry& e = entries_[size_t(index)];
  e.source = source ? std::move(source) : e.own;
  ++revision_;
}

void ClipSet::restore_all() {
  for (ClipEntry& e : entries_) e.source = e.own;
  ++revision_;
}

size_t ClipSet::max_cursor_count() const {
  size_t n = 0;
  for (const ClipEntry& e : entries_) n = std::max(n, e.source->cursor_count());
  return n;
}

}  // namespace rig
