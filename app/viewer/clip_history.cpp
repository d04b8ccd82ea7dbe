#include "viewer/clip_history.h"

#include "viewer/source_ghost.h"

namespace rigview {

namespace {

std::vector<std::shared_ptr<const rig::Clip>> keys_of(const Document& doc, size_t file) {
  std::vector<std::shared_ptr<const rig::Clip>> keys;
  const rig::ClipSet& clips = doc.character->clips();
  for (int index : doc.clip_files[file].clip_indices)
    keys.push_back(clips.valid(index) ? clips[size_t(index)].keys : nullptr);
  return keys;
}

}  // namespace

ClipEditStep clip_add_step(size_t file) {
  ClipEditStep step;
  step.kind = ClipEditStep::Kind::AddFile;
  step.file = file;
  return step;
}

ClipEditStep clip_remap_before(const Document& doc, size_t file) {
  ClipEditStep step;
  step.kind = ClipEditStep::Kind::Remap;
  step.file = file;
  if (!doc.character || file >= doc.clip_files.size()) return step;
  step.file_before = std::make_shared<const ClipFile>(doc.clip_files[file].file);
  step.keys_before = keys_of(doc, file);
  return step;
}

void clip_remap_after(const Document& doc, ClipEditStep& step) {
  if (!doc.character || step.file >= doc.clip_files.size()) return;
  step.file_after = std::make_shared<const ClipFile>(doc.clip_files[step.file].file);
  step.keys_after = keys_of(doc, step.file);
}

bool apply_clip_step(const ClipEditStep& step, bool after, Document& doc, std::string& error) {
  if (!doc.model || !doc.character || step.file >= doc.clip_files.size())
    return error = "the clips this edit changed are gone", false;
  Document::AddedClipFile& added = doc.clip_files[step.file];
  if (step.kind == ClipEditStep::Kind::AddFile) {
    doc.withdraw_clip_file(step.file, !after);
    return true;
  }
  const auto& keys = after ? step.keys_after : step.keys_before;
  const auto& file = after ? step.file_after : step.file_before;
  if (!file || keys.size() != added.clip_indices.size())
    return error = "the clips this edit changed are gone", false;
  for (const auto& k : keys)
    if (!k) return error = "the clips this edit changed are gone", false;
  for (size_t k = 0; k < keys.size(); ++k)
    doc.replace_clip(added.clip_indices[k], rig::Clip(*keys[k]));
  added.file = *file;
  source_ghost(*doc.model, added);
  return true;
}

}  // namespace rigview
