#include "save_outputs.h"

#include "analysis/rig_doctor.h"
#include "analysis/skin_layer_edits.h"
#include "clip_files.h"
#include "write/gltf_document.h"

namespace rigview {

namespace {

rig::InverseBindRepairScope scope_of(const Options& options) {
  return options.repair_ibm == "all"       ? rig::InverseBindRepairScope::All
         : options.repair_ibm == "recover" ? rig::InverseBindRepairScope::Recover
                                           : rig::InverseBindRepairScope::Flagged;
}

std::string skin_label(const rig::Model& model, int skin) {
  const std::string& name = model.skins[size_t(skin)].name;
  return "skin " + std::to_string(skin) + (name.empty() ? "" : " '" + name + "'");
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::vector<rig::InverseBindRepair> repair_from_options(const Options& options,
                                                        const rig::Model& model,
                                                        rig::SkinLayer& layer, std::FILE* log) {
  if (options.repair_ibm.empty()) return {};
  std::vector<rig::InverseBindRepair> repairs =
      rig::repair_inverse_binds(model, layer, scope_of(options));
  if (!log) return repairs;
  if (repairs.empty()) {
    std::fprintf(log, "rigview: --repair-ibm: %s\n",
                 model.skins.empty() ? "the model has no skin"
                                     : "no skin is flagged IBM_MISSING or IBM_SUSPECT");
    return repairs;
  }
  // What the rig doctor says about the repaired layer: the codes must be gone.
  const rig::RigDiagnosis after = rig::examine_rig(model, layer);
  for (const rig::InverseBindRepair& r : repairs) {
    const std::string label = skin_label(model, r.skin);
    if (!r.repaired) {
      std::fprintf(log, "rigview: error: %s: not repaired: %s\n", label.c_str(), r.problem.c_str());
      continue;
    }
    std::string still;
    for (const rig::RigFinding& f : after.findings)
      if (f.skin == r.skin && (f.warning.code == "IBM_MISSING" || f.warning.code == "IBM_SUSPECT"))
        still += " " + f.warning.code;
    std::fprintf(log,
                 "rigview: %s: %zu inverse bind matrices recomputed %s (%s; "
                 "largest change %.6g); the rig doctor %s\n",
                 label.c_str(), model.skins[size_t(r.skin)].joints.size(),
                 r.method == "rest pose" ? "from the rest pose" : ("with the " + r.method).c_str(),
                 r.reason.c_str(), r.largest_change,
                 still.empty() ? "no longer flags IBM_MISSING or IBM_SUSPECT"
                               : ("still flags" + still).c_str());
  }
  return repairs;
}

std::shared_ptr<rig::SkinLayer> repaired_from_options(const Options& options,
                                                      const rig::Model& model,
                                                      std::shared_ptr<rig::SkinLayer> layer) {
  if (layer) repair_from_options(options, model, *layer, nullptr);
  return layer;
}

int save_document(const Options& options, const rig::Model& model, const rig::SkinLayer& layer,
                  const std::string& model_path) {
  std::string error;
  rig::SkinLayerEdits edits;
  if (!rig::skin_layer_edits(model, layer, {}, edits, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", options.save.c_str(), error.c_str());
    return 1;
  }
  // The --clips files' clips become new animations after the file's.
  const std::vector<ClipFile>* files = nullptr;
  if (!options.clip_files.empty() && !(files = clip_files_from_options(options, model, error))) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  size_t added = 0;
  if (files)
    for (const ClipFile& file : *files)
      for (const FileClip& clip : file.clips) {
        edits.edits.push_back(rig::write::AddClip{rig::write::clip_data(clip.keys)});
        ++added;
      }
  // The writer's errors name the file (the input when it cannot be read, else the output).
  std::vector<std::string> warnings;
  if (!rig::write::write_document(model_path, edits.edits, options.save, error, {}, &warnings)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  for (const std::string& warning : warnings)
    std::fprintf(stderr, "rigview: warning: %s\n", warning.c_str());
  std::printf("rigview: saved %s (influences of %s, inverse bind matrices of %s written)\n",
              options.save.c_str(), plural(edits.primitives, "primitive", "primitives").c_str(),
              plural(edits.skins, "skin", "skins").c_str());
  if (added > 0)
    std::printf("rigview: %s added from --clips\n",
                plural(added, "animation", "animations").c_str());
  return 0;
}
}  // namespace rigview
