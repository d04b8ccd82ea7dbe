#include "viewer/skin_editing.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "analysis/skin_layer_edits.h"
#include "skin/weight_edit.h"
#include "write/gltf_document.h"

namespace rigview {

namespace {

// Per prepared primitive, the fewest joints of the skins drawing it: what a journaled joint
// index must stay below (a primitive no skin draws takes none).
std::vector<uint32_t> joint_limits(const Document& doc) {
  const rig::SkinMeshes& meshes = doc.skin->meshes();
  std::vector<uint32_t> limit(meshes.primitives.size(), 0);
  for (uint32_t p = 0; p < limit.size(); ++p) {
    const int mesh = rig::mesh_of_primitive(meshes, p);
    uint32_t fewest = 0;
    bool first = true;
    for (int s : rig::skins_drawing_mesh(*doc.model, mesh)) {
      const auto joints = uint32_t(doc.model->skins[size_t(s)].joints.size());
      fewest = first ? joints : std::min(fewest, joints);
      first = false;
    }
    limit[p] = fewest;
  }
  return limit;
}

bool touches_weights(const SkinEditStep& step) { return !step.primitives.empty(); }
bool touches_binds(const SkinEditStep& step) { return !step.skins.empty(); }

}  // namespace

void SkinEditing::reset(const Document& doc) {
  history_ = SkinHistory{};
  stroke_open_ = false;
  base_ = doc.skin ? capture_skin_state(*doc.skin) : SkinState{};
  source_path_ = save_path_ = doc.path;
  source_overwritten_ = false;
  clips_in_source_.clear();
  journal_ = journal_path(doc.path);
  recovery_pending_ = false;
  recovery_summary_.clear();
  found_ = JournalContents{};
  // A simulated bug's document is a lesson, not the file: nothing of it is journaled or saved.
  if (journal_.empty() || !doc.skin || doc.simulated_bug >= 0 || !std::filesystem::exists(journal_))
    return;
  std::string error;
  JournalContents found;
  if (!read_journal(journal_, found, error)) {
    std::fprintf(stderr, "rigview: warning: %s (ignored)\n", error.c_str());
    return;
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(doc.path, ec);
  if (ec || uint64_t(size) != found.model_size) {
    std::fprintf(stderr,
                 "rigview: warning: %s: the file changed since its unsaved edits were journaled "
                 "(%s kept, not applied)\n",
                 doc.path.c_str(), journal_.c_str());
    return;
  }
  found_ = std::move(found);
  recovery_pending_ = true;
  recovery_summary_ = std::to_string(found_.edits.primitives.size()) + " primitive(s) and " +
                      std::to_string(found_.edits.skins.size()) + " skin(s) edited";
}

void SkinEditing::write_journal_now(const Document& doc) {
  if (journal_.empty() || !doc.skin || doc.simulated_bug >= 0) return;
  if (!history_.modified()) {
    remove_journal(journal_);
    return;
  }
  std::string error;
  if (!write_journal(journal_, source_path_, base_, capture_skin_state(*doc.skin), error))
    std::fprintf(stderr, "rigview: warning: %s\n", error.c_str());
}

bool SkinEditing::apply(Document& doc, const std::string& label, bool weights, bool inverse_binds,
                        const std::function<void(rig::SkinLayer&)>& op) {
  if (!doc.skin) return false;
  const SkinState before = capture_skin_state(*doc.skin);
  doc.edit_skin(weights, inverse_binds, op);
  if (!history_.record(label, before, *doc.skin)) return false;
  write_journal_now(doc);
  return true;
}

void SkinEditing::begin_stroke(const Document& doc) {
  if (!doc.skin) return;
  stroke_before_ = capture_skin_state(*doc.skin);
  stroke_open_ = true;
}

bool SkinEditing::end_stroke(Document& doc, const std::string& label) {
  if (!stroke_open_ || !doc.skin) return false;
  stroke_open_ = false;
  if (!history_.record(label, stroke_before_, *doc.skin)) return false;
  write_journal_now(doc);
  return true;
}

void SkinEditing::record_clip_edit(std::string label, ClipEditStep step) {
  SkinEditStep s;
  s.label = std::move(label);
  s.clips = std::make_shared<const ClipEditStep>(std::move(step));
  history_.record(std::move(s));
}

bool SkinEditing::step(Document& doc, bool redo, std::string& error) {
  const SkinEditStep* step = redo ? history_.next_redo() : history_.next_undo();
  if (!step || !doc.skin) return error = redo ? "nothing to redo" : "nothing to undo", false;
  if (step->clips) {
    // The clip part first: when the document no longer fits it, the history stays put.
    if (!apply_clip_step(*step->clips, redo, doc, error)) return false;
    std::string unused;  // a clip step has no skin part: the history only moves
    return redo ? history_.redo(*doc.skin, unused) : history_.undo(*doc.skin, unused);
  }
  bool ok = false;
  doc.edit_skin(touches_weights(*step), touches_binds(*step), [&](rig::SkinLayer& layer) {
    ok = redo ? history_.redo(layer, error) : history_.undo(layer, error);
  });
  if (ok) write_journal_now(doc);
  return ok;
}

bool SkinEditing::save(Document& doc, const std::string& path, std::string& error) {
  if (!doc.model || !doc.skin) return error = "no model is open", false;
  if (doc.simulated_bug >= 0)
    return error = path + ": turn the simulated bug off first (it is not in the file)", false;
  if (!has_model_extension(path)) return error = path + ": save as .glb or .gltf", false;
  // Once the opened file was replaced, its bytes are no longer what the model was imported
  // from: every primitive and skin is written, so the result is the layer whatever it holds.
  rig::SkinLayerEditOptions options;
  options.every_skinned_primitive = options.every_skin = source_overwritten_;
  rig::SkinLayerEdits edits;
  if (!rig::skin_layer_edits(*doc.model, *doc.skin, options, edits, error)) {
    error = path + ": " + error;
    return false;
  }
  // Clips added from other files become new animations, except those a save over the opened
  // file already wrote into it.
  std::vector<uint32_t> written;
  for (const rig::ClipEntry& clip : doc.character->clips().entries()) {
    const bool added =
        clip.origin == rig::ClipOrigin::Added || clip.origin == rig::ClipOrigin::Retargeted;
    if (!added || !clip.keys || clip.withdrawn ||
        std::find(clips_in_source_.begin(), clips_in_source_.end(), clip.id) !=
            clips_in_source_.end())
      continue;
    edits.edits.push_back(rig::write::AddClip{rig::write::clip_data(*clip.keys)});
    written.push_back(clip.id);
  }
  save_warnings_.clear();
  if (!rig::write::write_document(source_path_, edits.edits, path, error, {}, &save_warnings_))
    return false;
  std::error_code ec;
  if (std::filesystem::equivalent(path, source_path_, ec)) {
    source_overwritten_ = true;
    clips_in_source_.insert(clips_in_source_.end(), written.begin(), written.end());
  }
  history_.mark_saved();
  save_path_ = path;
  remove_journal(journal_);
  return true;
}

bool SkinEditing::recover(Document& doc, std::string& error) {
  recovery_pending_ = false;
  if (!doc.skin) return error = "no model is open", false;
  SkinEditStep step;
  if (!journal_step(found_, base_, joint_limits(doc), step, error)) {
    error = journal_ + ": " + error;
    return false;
  }
  bool ok = true;
  doc.edit_skin(touches_weights(step), touches_binds(step),
                [&](rig::SkinLayer& layer) { ok = apply_skin_step(step, true, layer, error); });
  if (!ok) {
    // Half applied: put the file's state back, so the layer is never a mixture.
    std::string ignored;
    doc.edit_skin(true, true,
                  [&](rig::SkinLayer& layer) { apply_skin_step(step, false, layer, ignored); });
    return false;
  }
  history_.record(std::move(step));
  write_journal_now(doc);
  return true;
}

void SkinEditing::discard_recovery() {
  recovery_pending_ = false;
  remove_journal(journal_);
}

}  // namespace rigview
