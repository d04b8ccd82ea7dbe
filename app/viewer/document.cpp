#include "viewer/document.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "analysis/rig_doctor.h"
#include "anim/joint_mask.h"
#include "import/gltf_import.h"
#include "load_model.h"
#include "viewer/first_view.h"
#include "viewer/look_state.h"
#include "viewer/source_ghost.h"

namespace rigview {

bool has_model_extension(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "gltf" || ext == "glb";
}

int dropped_file_to_take(int count, const char* const* paths) {
  // By priority: a file manager's selection often holds other files beside the one meant.
  static constexpr bool (*kKinds[])(const std::string&) = {has_model_extension,
                                                           is_environment_file};
  for (const auto kind : kKinds)
    for (int i = 0; i < count; ++i)
      if (kind(paths[i])) return i;
  return count > 0 ? 0 : -1;
}

CompressedClips::CompressedClips(const rig::Model& model, rig::Character& c, Posing* p)
    : session(model, c.shared_skin_layer(), c.shared_clips()), character(c), posing(p) {}

CompressedClips::~CompressedClips() {
  play_compressed(false);
  session.cancel();
}

void CompressedClips::play_compressed(bool on) {
  on = on && session.results() != nullptr;
  if (on == playing) return;
  session.use_compressed(character, on);
  playing = on;
  if (posing) posing->refresh_references();
}

void CompressedClips::request(double tolerance_cm) {
  if (requested_tolerance == tolerance_cm) return;
  play_compressed(false);
  session.request(tolerance_cm);
  requested_tolerance = tolerance_cm;
}

void Document::list_clips() {
  clip_labels.clear();
  clip_list_rows.clear();
  char buffer[64];
  const rig::ClipSet& clips = character->clips();
  for (size_t c = 0; c < clips.size(); ++c) {
    const rig::ClipEntry& clip = clips[c];
    clip_labels.push_back(clip.name.empty() ? "animation " + std::to_string(c) : clip.name);
    if (clip.withdrawn) {
      clip_list_rows.emplace_back();
      continue;
    }
    std::snprintf(buffer, sizeof buffer, "  (%.3f s)%s", static_cast<double>(clip.end - clip.start),
                  clip.origin == rig::ClipOrigin::Retargeted ? "  retargeted" : "");
    clip_list_rows.push_back(clip_labels.back() + buffer);
  }
}

int Document::add_clip(rig::Clip keys, rig::ClipOrigin origin) {
  // The compression product reads the set: dropped first, so the character plays raw clips.
  bump(rig::Input::ClipSet);
  const int index = character->clips().add(*model, std::move(keys), origin);
  list_clips();
  return index;
}

bool Document::replace_clip(int index, rig::Clip keys) {
  bump(rig::Input::ClipSet);
  const bool replaced = character->clips().replace(index, *model, std::move(keys));
  list_clips();
  return replaced;
}

int Document::add_clip_file(ClipFile file) {
  AddedClipFile added;
  int first = -1;
  for (FileClip& clip : file.clips) {
    const int index = add_clip(std::move(clip.keys), clip.origin);
    if (first < 0) first = index;
    added.clip_indices.push_back(index);
  }
  added.file = std::move(file);
  source_ghost(*model, added);
  clip_files.push_back(std::move(added));
  return first;
}

void Document::withdraw_clip_file(size_t file, bool withdrawn) {
  if (file >= clip_files.size() || !character) return;
  bump(rig::Input::ClipSet);
  rig::ClipSet& clips = character->clips();
  for (int index : clip_files[file].clip_indices) clips.withdraw(index, withdrawn);
  clip_files[file].withdrawn = withdrawn;
  list_clips();
  const int clip = playback.clip();
  if (!clips.valid(clip) || !clips[size_t(clip)].withdrawn) return;
  // The nearest listed clip, earlier ones first; with none listed the selection stays.
  for (int c = clip - 1; c >= 0; --c)
    if (!clips[size_t(c)].withdrawn) return playback.select_clip(c);
  for (size_t c = size_t(clip) + 1; c < clips.size(); ++c)
    if (!clips[c].withdrawn) return playback.select_clip(int(c));
}

void Document::bump(rig::Input input) {
  revisions.bump(input);
  for_each_product([&](auto& product) { product.drop_stale(revisions); });
}

void Document::refresh_health() {
  if (!model || !skin || health_product.fresh(revisions)) return;
  // The model already carries the simulated bug; the doctor examines it as it is now.
  health_product.make(revisions, make_rig_health(*model, rig::examine_rig(*model, *skin)));
}

void Document::refresh() {
  if (!model || !character) return;
  refresh_health();
  // Bounds pose the character: only here, before the frame evaluates it, never mid-frame.
  if (!bounds_product.fresh(revisions)) {
    // The clip the document opens on (make_document), framed over its whole length.
    rig::PoseSelection first;
    const rig::ClipSet& clips = character->clips();
    first.clip = clips.empty() ? -1 : std::clamp(playback.clip(), 0, int(clips.size()) - 1);
    first.time = clips.empty() ? 0.0f : clips[size_t(first.clip)].start;
    // Whole-body morph targets make the cheap bounds far too big: skin the samples instead.
    rig::render::Bounds b = rig::render::has_morph_targets(*model)
                                ? rig::render::exact_clip_bounds(*character, first)
                                : rig::render::clip_bounds(*character, first);
    if (!b.valid()) {
      character->evaluate(rig::PoseSelection{});
      b = rig::render::pose_bounds(*character);
    }
    bounds_product.make(revisions, b);
  }
}

RigHealth& Document::health() {
  refresh_health();
  return *health_product.get(revisions);
}

const RigHealth& Document::health() const {
  static const RigHealth kNone;
  const RigHealth* h = health_product.get(revisions);
  return h ? *h : kNone;
}

rig::render::Bounds Document::bounds() const {
  const rig::render::Bounds* b = bounds_product.get(revisions);
  return b ? *b : rig::render::Bounds{};
}

const rig::render::BindBoxes& Document::bind_boxes() {
  if (const rig::render::BindBoxes* boxes = bind_boxes_product.get(revisions)) return *boxes;
  return bind_boxes_product.make(revisions,
                                 rig::render::bind_boxes(*model, character->skin_meshes()));
}

std::shared_ptr<const rig::ArtefactSetup> Document::artefact_setup() {
  if (const ArtefactSetupProduct* p = artefact_setup_product.get(revisions)) return p->setup;
  return artefact_setup_product
      .make(revisions, ArtefactSetupProduct{std::make_shared<const rig::ArtefactSetup>(
                           rig::ArtefactSetup::build(*model, *skin))})
      .setup;
}

ArtefactAnalysis& Document::make_artefacts() {
  if (ArtefactAnalysis* a = artefacts()) return *a;
  return artefacts_product.make(revisions, *model, artefact_setup());
}

CompressedClips& Document::make_compression() {
  if (CompressedClips* c = compression()) return *c;
  return compression_product.make(revisions, *model, *character, posing.get());
}

bool Document::poll_rotation_centers(bool wait) {
  if (!model || !skin || model->skins.empty()) return false;
  RotationCentersWork* work = centers_work.get(revisions);
  if (!work) {
    work = &centers_work.make(revisions);
    work->job.start(*model, skin->meshes());  // a copy of the influences: the job owns it
  }
  if (work->published) return false;
  if (wait) work->job.wait();
  std::shared_ptr<const rig::SkinMeshes> meshes = work->job.result();
  if (!meshes || !skin->set_rotation_centers(*meshes)) return false;
  work->published = true;
  bump(rig::Input::RotationCenters);
  return true;
}

bool Document::set_vertex_influences(uint32_t primitive, uint32_t vertex,
                                     std::span<const uint16_t> joints,
                                     std::span<const float> weights, std::string& error) {
  if (!skin) {
    error = "no model is open";
    return false;
  }
  // Checked before the bump, so a refused edit drops nothing.
  if (!skin->check_influences(primitive, vertex, joints, weights, error)) return false;
  bump(rig::Input::SkinWeights);  // cancels and joins every job reading the weights first
  const uint64_t centers = skin->rotation_centers_revision();
  skin->set_influences(primitive, vertex, joints, weights, error);
  // The edit dropped the primitive's centres of rotation: they are recomputed on the next poll.
  if (skin->rotation_centers_revision() != centers) bump(rig::Input::RotationCenters);
  return true;
}

bool Document::set_inverse_bind(size_t skin_index, size_t joint, const glm::mat4& matrix,
                                std::string& error) {
  if (!skin) {
    error = "no model is open";
    return false;
  }
  // Checked before the bump, so a refused edit drops nothing.
  if (!skin->check_inverse_bind(skin_index, joint, error)) return false;
  bump(rig::Input::InverseBindMatrices);
  return skin->set_inverse_bind(skin_index, joint, matrix, error);
}

void Document::set_dqs_subtree(int node, bool dqs) {
  if (!model || !character || dqs_amounts.size() != model->nodes.size()) return;
  rig::set_subtree_weight(*model, node, dqs ? 1.0f : 0.0f, dqs_amounts);
  character->set_dqs_amounts(dqs_amounts);
  bump(rig::Input::SkinningSettings);
}

void Document::set_dqs_amounts(std::vector<float> per_node) {
  if (!model || !character || per_node.size() != model->nodes.size()) return;
  dqs_amounts = std::move(per_node);
  character->set_dqs_amounts(dqs_amounts);
  bump(rig::Input::SkinningSettings);
}

void Document::reveal_joint(int node) {
  if (!model) return;
  for (size_t s = 0; s < model->skins.size(); ++s) {
    const rig::Skin& skin = model->skins[s];
    std::vector<char>& marks = joint_on_selected_path[s];
    std::fill(marks.begin(), marks.end(), 0);
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      if (skin.joints[j] != node) continue;
      // Bounded walk: joint_parent comes from the importer, but a cycle must not hang the UI.
      int joint = static_cast<int>(j);
      for (size_t guard = 0; joint >= 0 && guard <= skin.joints.size(); ++guard) {
        marks[static_cast<size_t>(joint)] = 1;
        joint = skin.joint_parent[static_cast<size_t>(joint)];
      }
      break;
    }
  }
}

namespace {

// Everything a document derives from `pristine` with simulated bug `bug` (-1: none).
void make_document(const std::string& path, std::shared_ptr<const rig::Model> pristine, int bug,
                   Document& out) {
  auto model = std::make_unique<rig::Model>(*pristine);
  rig::RigDiagnosis diagnosis = simulate_and_diagnose(*model, simulated_bug_at(bug));

  Document doc;
  doc.path = path;
  doc.pristine = std::move(pristine);
  doc.simulated_bug = bug;
  doc.health_product.make(doc.revisions, make_rig_health(*model, std::move(diagnosis)));
  const rig::Model& m = *model;

  for (size_t n = 0; n < m.nodes.size(); ++n) {
    doc.node_labels.push_back(m.nodes[n].name.empty() ? "node " + std::to_string(n)
                                                      : m.nodes[n].name);
  }

  doc.joint_nodes = rig::render::skin_joint_nodes(m).nodes;
  for (size_t s = 0; s < m.skins.size(); ++s) {
    const rig::Skin& skin = m.skins[s];
    const size_t count = skin.joints.size();
    doc.skin_labels.push_back("skin " + std::to_string(s) +
                              (skin.name.empty() ? "" : ": " + skin.name) + " (" +
                              std::to_string(count) + " joints)");
    doc.joint_count += static_cast<uint32_t>(count);
    std::vector<std::vector<int>> children(count);
    std::vector<int> roots;
    for (size_t j = 0; j < count; ++j) {
      const int parent = j < skin.joint_parent.size() ? skin.joint_parent[j] : -1;
      if (parent >= 0 && static_cast<size_t>(parent) < count && parent != static_cast<int>(j))
        children[static_cast<size_t>(parent)].push_back(static_cast<int>(j));
      else
        roots.push_back(static_cast<int>(j));
    }
    doc.joint_children.push_back(std::move(children));
    doc.joint_roots.push_back(std::move(roots));
    doc.joint_on_selected_path.emplace_back(count, 0);
  }

  for (const rig::DrawItem& item : m.draws) {
    const rig::Primitive& prim =
        m.meshes[static_cast<size_t>(item.mesh)].primitives[static_cast<size_t>(item.primitive)];
    doc.vertex_count += prim.vertex_count();
    if (item.skin >= 0 && prim.skinned()) ++doc.skinned_draw_items;
  }

  doc.skin = std::make_shared<rig::SkinLayer>(m);
  doc.character = std::make_unique<rig::Character>(m, doc.skin);
  doc.list_clips();
  doc.dqs_amounts.assign(m.nodes.size(), 0.0f);  // the mix starts as LBS
  doc.playback = rig::Playback(doc.character->shared_clips());
  if (const int start = preferred_start_clip(m); start > 0) doc.playback.select_clip(start);
  doc.model = std::move(model);
  doc.refresh();  // the framing bounds, on the document's own character, before any posing
  doc.posing = std::make_unique<Posing>(m, *doc.character);
  doc.window_title = "rigview - " + std::filesystem::path(path).filename().string();
  // Centres of rotation for CoR, in the background (the viewer applies them when ready).
  doc.poll_rotation_centers();
  out = std::move(doc);
}

}  // namespace

bool load_document(const std::string& path, const Options& options, Document& out,
                   std::string& error) {
  auto pristine = std::make_shared<rig::Model>();
  if (!import_model(path, options, *pristine, error)) return false;
  make_document(path, std::move(pristine),
                simulated_bug_index(rig::find_simulated_bug(options.simulate_bug)), out);
  return true;
}

void derive_document(const Document& from, int bug, Document& out) {
  make_document(from.path, from.pristine, bug, out);
}

}  // namespace rigview
