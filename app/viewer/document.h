// One opened model, its inputs' revisions, what the viewer derives from it once at load time
// (labels, joint tree, counts), so the per-frame UI only reads, and the products derived from
// its inputs (rig health, framing bounds, centres of rotation, artefact analysis, compression),
// each keyed by the revisions of the inputs it reads (model/revisions.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/playback.h"
#include "artefact_analysis.h"
#include "character/character.h"
#include "clip_files.h"
#include "compression_session.h"
#include "fix_joint_job.h"
#include "model/model.h"
#include "model/revisions.h"
#include "options.h"
#include "render/renderer.h"
#include "rotation_centers_job.h"
#include "viewer/posing.h"
#include "viewer/rig_health.h"
#include "weights_op_job.h"

namespace rigview {

// The centres-of-rotation job of a document and whether its result reached the character.
struct RotationCentersWork {
  RotationCentersJob job;
  bool published = false;
};

// The compression session of a document and the character's use of it. Dropping it (a new
// input revision, or the document closing) first switches a character that plays its clips
// back to the file's clips, so the character never points into freed results.
struct CompressedClips {
  CompressedClips(const rig::Model& model, rig::Character& character, Posing* posing);
  ~CompressedClips();
  CompressedClips(const CompressedClips&) = delete;
  CompressedClips& operator=(const CompressedClips&) = delete;
  // Raw or compressed playback (compressed only once results are ready); additive layers
  // resample their references from the new sources.
  void play_compressed(bool on);
  // Compresses at `tolerance_cm` unless that is what was last asked (a Cancel stays
  // cancelled): playback goes back to raw clips first, as the results are replaced.
  void request(double tolerance_cm);

  CompressionSession session;
  rig::Character& character;
  Posing* posing;
  bool playing = false;  // the character samples the compressed clips
  double requested_tolerance = -1.0;
};

// The inputs each derived product reads: a new revision of any of them drops the product (and
// cancels its background work); it is made again when next needed. tests/app/
// document_revisions_test.cpp holds the same table, written from what each product computes.
inline constexpr rig::InputMask kRotationCentersInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights});
inline constexpr rig::InputMask kRigHealthInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices});
inline constexpr rig::InputMask kBindBoxesInputs = kRigHealthInputs;
inline constexpr rig::InputMask kBoundsInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices,
                 rig::Input::ClipSet});
inline constexpr rig::InputMask kArtefactsInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices,
                 rig::Input::RotationCenters});
inline constexpr rig::InputMask kCompressionInputs = kBoundsInputs;
// The artefact measures' constants (bone segments from the IBMs, areas, welding, the file's
// dominant joints): kept across weight edits, so the analysis is remade in a millisecond.
inline constexpr rig::InputMask kArtefactSetupInputs =
    rig::inputs({rig::Input::Model, rig::Input::InverseBindMatrices});
// "Fix this joint" (Weights tab) scans a clip with the weights and inverse bind matrices.
inline constexpr rig::InputMask kFixJointInputs = kBoundsInputs;
// The Weights tab's Limit with refit samples every clip's poses with the weights and IBMs.
inline constexpr rig::InputMask kWeightsOpInputs = kBoundsInputs;
// Outside the document (viewer/viewer.cpp): the crowd. (The renderer needs no entry: it
// uploads the skin layer's edits by the layer's own revision, Renderer::update.)
inline constexpr rig::InputMask kCrowdInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices,
                 rig::Input::ClipSet, rig::Input::RotationCenters});
// The Joint tab's Sweep (viewer/viewer_sweep.cpp) poses a copy of the character and measures it.
inline constexpr rig::InputMask kSweepInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices,
                 rig::Input::ClipSet, rig::Input::RotationCenters});
inline constexpr rig::InputMask kCrowdAmountsInputs = rig::inputs({rig::Input::SkinningSettings});

struct ArtefactSetupProduct {
  std::shared_ptr<const rig::ArtefactSetup> setup;
};

struct Document {
  std::string path;
  // The model as imported, before any simulated bug: shared by the documents derived from it
  // (Teaching aids panel), so turning a bug off restores exactly this, without reading the file.
  std::shared_ptr<const rig::Model> pristine;
  int simulated_bug = -1;  // what `model` simulates: index in rig::kSimulatedBugs, -1 none
  // The revisions of this document's inputs (model/revisions.h). Change an input through
  // bump(), never by hand: that is what drops the products made from it.
  rig::Revisions revisions;
  std::unique_ptr<rig::Model> model;  // heap: Character and Playback keep its address
  // The editable skin data over `model` (influences, inverse bind matrices, centres of
  // rotation): the character, the renderer and the crowd share it. Inputs SkinWeights,
  // InverseBindMatrices, RotationCenters; edit it through the functions below.
  std::shared_ptr<rig::SkinLayer> skin;
  std::unique_ptr<rig::Character> character;
  rig::Playback playback;
  // Layers, IK, feet, look-at and root motion over the playback (Posing panel). Declared after
  // `character`, whose constraints point into it: destroyed first.
  std::unique_ptr<Posing> posing;

  // Per entry of the character's clip set (what Playback, the posing and the lists index).
  std::vector<std::string> clip_labels;     // its name, or "animation N" when unnamed
  std::vector<std::string> clip_list_rows;  // "label  (1.250 s)"; "" for a withdrawn clip
  std::vector<std::string> node_labels;     // file name, or "node N" when unnamed
  std::vector<std::string> skin_labels;     // "skin N: name (J joints)"
  // Per skin, per joint: the joint's children in the skin (from Skin::joint_parent); roots.
  std::vector<std::vector<std::vector<int>>> joint_children;
  std::vector<std::vector<int>> joint_roots;
  // Per skin, per joint: 1 when the joint is the selected one or one of its ancestors (set by
  // reveal_joint, so the tree can open down to a joint picked in the viewport).
  std::vector<std::vector<char>> joint_on_selected_path;
  std::vector<int> joint_nodes;  // every node that is a joint of some skin, once (for picking)
  // The mix's DQS amount per node (rig::Character::set_dqs_amounts): the Skeleton panel's
  // per-joint checkboxes; --dqs-joints sets the first document's. Input SkinningSettings.
  std::vector<float> dqs_amounts;

  uint64_t vertex_count = 0;  // over all draw items
  uint32_t joint_count = 0;   // over all skins
  uint32_t skinned_draw_items = 0;
  std::string window_title;

  // Derived products, declared after everything they read, so they are destroyed (their jobs
  // cancelled and joined) first. Reach them through the accessors below.
  rig::Derived<RotationCentersWork> centers_work{kRotationCentersInputs};
  rig::Derived<RigHealth> health_product{kRigHealthInputs};
  rig::Derived<rig::render::Bounds> bounds_product{kBoundsInputs};
  rig::Derived<rig::render::BindBoxes> bind_boxes_product{kBindBoxesInputs};
  rig::Derived<ArtefactSetupProduct> artefact_setup_product{kArtefactSetupInputs};
  rig::Derived<ArtefactAnalysis> artefacts_product{kArtefactsInputs};
  rig::Derived<CompressedClips> compression_product{kCompressionInputs};
  rig::Derived<FixJointJob> fix_joint_product{kFixJointInputs};
  rig::Derived<WeightsOpJob> weights_op_product{kWeightsOpInputs};

  // Every derived product, the one place they are listed.
  template <typename F>
  void for_each_product(F&& f) {
    f(compression_product);  // first: it switches the character back to the file's clips
    f(fix_joint_product);
    f(weights_op_product);
    f(artefacts_product);
    f(artefact_setup_product);
    f(bind_boxes_product);
    f(bounds_product);
    f(health_product);
    f(centers_work);
  }

  bool loaded() const { return model != nullptr; }
  // A new revision of `input`: every product that read it is dropped now (background work
  // cancelled, nothing it computed published) and made again when next needed.
  void bump(rig::Input input);
  // Remakes the cheap products every frame needs (rig health, framing bounds) when stale.
  void refresh();
  // Cancels and joins every background job. Call before the document is replaced: a move
  // assignment frees `model` before the jobs that read it.
  void stop_background_work() {
    for_each_product([](auto& product) { product.reset(); });
  }

  // The rig doctor's diagnosis of `model` (Rig health panel), remade here when stale; the const
  // one is an empty diagnosis while stale (until the next refresh()).
  RigHealth& health();
  void refresh_health();
  const RigHealth& health() const;
  // Framing bounds over the first clip (rest pose without clips). Fresh after refresh().
  rig::render::Bounds bounds() const;
  const rig::render::BindBoxes& bind_boxes();  // made on first use (joint framing)
  // Skinning artefact analysis, made on first use (Artefacts panel, deflation heat maps); the
  // getters return null when it is not made.
  ArtefactAnalysis& make_artefacts();
  // The analysis' constants, made on first use and kept until the model or IBMs change.
  std::shared_ptr<const rig::ArtefactSetup> artefact_setup();
  ArtefactAnalysis* artefacts() { return artefacts_product.get(revisions); }
  const ArtefactAnalysis* artefacts() const { return artefacts_product.get(revisions); }
  // Background compression of every clip (Compression panel, compression heat map).
  CompressedClips& make_compression();
  CompressedClips* compression() { return compression_product.get(revisions); }
  const CompressedClips* compression() const { return compression_product.get(revisions); }
  // The centres of rotation: starts their job (on a copy of the skin layer's influences) when
  // missing, and once it is done puts its centres in the skin layer (input RotationCenters
  // moves on; the renderer uploads them at its next update) and returns true, once; false
  // otherwise. `wait`: block until the job is done (repeatable test frames).
  bool poll_rotation_centers(bool wait = false);

  // Edits of the skin layer (rig::SkinLayer has the rules). The input's revision moves on
  // first, so every product that read it is dropped and its background work joined before the
  // layer changes; every character, renderer and crowd sharing the layer sees the edit at its
  // next evaluate or update. false + one-line error, nothing changed, when the edit is refused.
  bool set_vertex_influences(uint32_t primitive, uint32_t vertex, std::span<const uint16_t> joints,
                             std::span<const float> weights, std::string& error);
  bool set_inverse_bind(size_t skin_index, size_t joint, const glm::mat4& matrix,
                        std::string& error);
  const RotationCentersWork* rotation_centers() const { return centers_work.get(revisions); }
  // Any edit of the skin layer (the Weights tab's operations, undo, redo, a recovered journal):
  // the inputs it may change move on first (every product reading them dropped, its work
  // joined), then `edit(*skin)` runs; centres of rotation it drops are recomputed later.
  template <typename F>
  void edit_skin(bool weights, bool inverse_binds, F&& edit) {
    if (!skin) return;
    if (weights) bump(rig::Input::SkinWeights);
    if (inverse_binds) bump(rig::Input::InverseBindMatrices);
    const uint64_t centers = skin->rotation_centers_revision();
    edit(*skin);
    if (skin->rotation_centers_revision() != centers) bump(rig::Input::RotationCenters);
  }

  // Marks the path from the skin's root down to `node` (no allocation).
  void reveal_joint(int node);
  // DQS amount 1 (or 0) on `node` and its whole subtree, for the mix; reaches the character.
  void set_dqs_subtree(int node, bool dqs);
  void set_dqs_amounts(std::vector<float> per_node);
  // Appends a clip (raw keys in this model's node indices) to the character's clip set, which
  // Playback and the posing share: it is listed and playable at once. Input ClipSet moves on.
  // Returns its index.
  int add_clip(rig::Clip keys, rig::ClipOrigin origin = rig::ClipOrigin::Added);
  // Entry `index` (an added clip) plays `keys` instead (ClipSet::replace). Input ClipSet moves on.
  bool replace_clip(int index, rig::Clip keys);
  // clip_labels and clip_list_rows from the clip set.
  void list_clips();

  // The files whose clips were added (Add clips from file, --clips), for the Bone map window:
  // the map, the measures and the source model (clip keys moved into the set), the clips'
  // indices in the set, and the source ghost (per clip, per frame of its grid, each source bone
  // as two points in this model's space, beside the character).
  struct AddedClipFile {
    ClipFile file;
    std::vector<int> clip_indices;
    std::vector<std::vector<glm::vec3>> ghost;
    size_t ghost_bones = 0;
    bool withdrawn = false;  // its add was undone (its clips withdrawn from the set)
  };
  std::vector<AddedClipFile> clip_files;
  // Adds `file`'s clips to the set and keeps the rest of it in clip_files. Returns the first
  // clip's index (-1 when it had none).
  int add_clip_file(ClipFile file);
  // Takes clip_files[file]'s clips out of the listed clips (an undone add), or puts them back;
  // their indices stay. A withdrawn clip that was playing gives way to the last listed clip
  // before it. Input ClipSet moves on.
  void withdraw_clip_file(size_t file, bool withdrawn);
};

// Whether `path` ends in .gltf or .glb (any case): what the viewer tries to open.
bool has_model_extension(const std::string& path);

// Which of the files dropped together the viewer takes (one per drop): the first model, else the
// first Radiance environment (viewer/look_state.h), else the first file (opening it then says why
// it cannot be used); -1 when `count` is 0.
int dropped_file_to_take(int count, const char* const* paths);

// Loads `path` as the command line asks (app/load_model.h: --confine, --simulate-bug, the rig
// doctor's findings) and fills everything above except the renderer's resources. false +
// one-line error (no file name) on failure; `out` is then untouched.
bool load_document(const std::string& path, const Options& options, Document& out,
                   std::string& error);

// A document of `from`'s pristine model with simulated bug `bug` (-1: none, the file as
// imported), diagnosed again. Cannot fail; allocates like a load (a model copy).
void derive_document(const Document& from, int bug, Document& out);

}  // namespace rigview
