// Centres of rotation (skin/rotation_centers.h) wherever the app skins with a method that reads
// them (SkinningMethodInfo::uses_rotation_centers): one helper for every command-line path and
// a background job for the viewer. Both go through rig::prepare_rotation_centers, so results
// are cached under ~/.cache/rigview (XDG_CACHE_HOME/rigview).
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <thread>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/skin_mesh.h"
#include "skin/skinning_method.h"

namespace rigview {

// Whether any of `methods` reads centres of rotation.
bool needs_rotation_centers(std::span<const rig::SkinningMethod> methods);

// The model's prepared skin meshes, with centres of rotation when a method of `methods` needs
// them (from the cache, or computed and stored). With `progress`, a line on stderr
// ("rigview: centres of rotation: 40%") once it has taken more than a second. Blocks.
// `from`: a copy of that layer (edited weights and inverse bind matrices) instead of the
// model's, its centres computed from its own influences.
std::shared_ptr<rig::SkinLayer> prepared_skin_layer(const rig::Model& model,
                                                    std::span<const rig::SkinningMethod> methods,
                                                    bool progress,
                                                    const rig::SkinLayer* from = nullptr);

// The viewer's background computation: start() prepares the meshes and their centres on a
// worker thread; the UI polls progress() and takes the result once ready(). Destroying the job
// (or start() again, or cancel()) cancels the computation and joins the thread, so the model
// must outlive the job: declare the job after the model it reads.
class RotationCentersJob {
 public:
  RotationCentersJob() = default;
  ~RotationCentersJob();
  RotationCentersJob(const RotationCentersJob&) = delete;
  RotationCentersJob& operator=(const RotationCentersJob&) = delete;

  // Centres from `influences` (a skin layer's meshes, copied: edits after start() do not reach
  // the job) on `model`'s geometry; the one-argument form uses prepare_skin_meshes(model).
  void start(const rig::Model& model, rig::SkinMeshes influences);
  void start(const rig::Model& model);
  void cancel();
  // Blocks until the computation has finished (the viewer's self-test, for repeatable frames).
  void wait() {
    if (thread_.joinable()) thread_.join();
  }
  bool running() const { return thread_.joinable() && !done_.load(); }
  bool ready() const { return done_.load() && result_ != nullptr; }
  float progress() const { return progress_.load(); }
  // The meshes with centres once ready(), else nullptr.
  std::shared_ptr<const rig::SkinMeshes> result() const { return done_.load() ? result_ : nullptr; }

 private:
  std::thread thread_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<float> progress_{0.0f};
  std::shared_ptr<const rig::SkinMeshes> result_;  // written by the worker before done_
};

}  // namespace rigview
