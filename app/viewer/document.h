// One opened model and what the viewer derives from it once, at load time (labels, joint tree,
// counts, framing bounds), so the per-frame UI only reads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/playback.h"
#include "artefact_analysis.h"
#include "character/character.h"
#include "compression_session.h"
#include "model/model.h"
#include "options.h"
#include "render/renderer.h"
#include "rotation_centers_job.h"
#include "viewer/posing.h"
#include "viewer/rig_health.h"

namespace rigview {

struct Document {
  std::string path;
  // The model as imported, before any simulated bug: shared by the documents derived from it
  // (Teaching aids panel), so turning a bug off restores exactly this, without reading the file.
  std::shared_ptr<const rig::Model> pristine;
  int simulated_bug = -1;  // what `model` simulates: index in rig::kSimulatedBugs, -1 none
  RigHealth health;        // the rig doctor's diagnosis of `model` (Rig health panel)
  std::unique_ptr<rig::Model> model;  // heap: Character and Playback keep its address
  std::unique_ptr<rig::Character> character;
  // Centres of rotation computed in the background after the load (CoR); declared after
  // `model`, which it reads, so it is destroyed (cancelled and joined) first. Heap: the worker
  // keeps the job's address while documents are swapped.
  std::unique_ptr<RotationCentersJob> centers_job;
  bool centers_applied = false;  // the job's result reached character and renderer
  rig::Playback playback;
  // Layers, IK, feet, look-at and root motion over the playback (Posing panel). Declared after
  // `character`, whose constraints point into it: destroyed first.
  std::unique_ptr<Posing> posing;

  std::vector<std::string> clip_labels;     // file name, or "animation N" when unnamed
  std::vector<std::string> clip_list_rows;  // "label  (1.250 s)"
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
  // per-joint checkboxes; --dqs-joints sets the first document's.
  std::vector<float> dqs_amounts;
  uint64_t dqs_amounts_revision = 0;  // +1 on every change (the crowd follows it)

  rig::render::Bounds bounds;  // over the first clip (rest pose without clips), for framing
  uint64_t vertex_count = 0;   // over all draw items
  uint32_t joint_count = 0;    // over all skins
  uint32_t skinned_draw_items = 0;
  std::string window_title;

  // Skinning artefact analysis, made on first use (Artefacts panel, deflation heat maps).
  // Declared last: destroyed first, so a running scan stops before the model goes.
  std::unique_ptr<ArtefactAnalysis> artefacts;
  // Background compression of every clip (Compression panel, compression heat map). Its clips
  // may be the character's sources: declared after `character`, destroyed before it... and the
  // viewer restores raw sources before replacing it (Viewer::update_compression).
  std::unique_ptr<CompressionSession> compression;

  bool loaded() const { return model != nullptr; }
  // Cancels and joins every background job (centres, scan, compression). Call before the
  // document is replaced: a move assignment frees `model` before the jobs that read it.
  void stop_background_work() {
    centers_job.reset();
    artefacts.reset();
    compression.reset();
  }
  // Marks the path from the skin's root down to `node` (no allocation).
  void reveal_joint(int node);
  // DQS amount 1 (or 0) on `node` and its whole subtree, for the mix; reaches the character.
  void set_dqs_subtree(int node, bool dqs);
  void set_dqs_amounts(std::vector<float> per_node);
};

// Whether `path` ends in .gltf or .glb (any case): what the viewer tries to open.
bool has_model_extension(const std::string& path);

// Loads `path` as the command line asks (app/load_model.h: --confine, --simulate-bug, the rig
// doctor's findings) and fills everything above except the renderer's resources. false +
// one-line error (no file name) on failure; `out` is then untouched.
bool load_document(const std::string& path, const Options& options, Document& out,
                   std::string& error);

// A document of `from`'s pristine model with simulated bug `bug` (-1: none, the file as
// imported), diagnosed again. Cannot fail; allocates like a load (a model copy).
void derive_document(const Document& from, int bug, Document& out);

}  // namespace rigview
