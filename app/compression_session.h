// The viewer's animation compression: every clip of a clip set (its raw keys) compressed at a
// tolerance in the background (progress, cancel, restart when the tolerance changes), the results
// for the Compression panel, raw/compressed playback, and the per-vertex displacement between the
// raw and the compressed pose as a heat map.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "analysis/scalar_field.h"
#include "character/character.h"
#include "compress/clip_compression.h"

namespace rigview {

class CompressionSession {
 public:
  // `clips`: the set whose clips are compressed, as it is now (a later edit of it is a new
  // session); nullptr: the file's clips. Index c of the results is entry c of the set.
  CompressionSession(const rig::Model& model, std::shared_ptr<const rig::SkinLayer> skin,
                     std::shared_ptr<const rig::ClipSet> clips = nullptr);
  ~CompressionSession();  // cancels and joins
  CompressionSession(const CompressionSession&) = delete;
  CompressionSession& operator=(const CompressionSession&) = delete;

  // Compresses every clip at `tolerance_cm` in the background unless that tolerance is the one
  // running or done; a different one cancels the running work first and replaces the results,
  // so a character sampling them must be switched back to raw clips (use_compressed(c, false))
  // before.
  void request(double tolerance_cm);
  void cancel();
  bool running() const { return running_.load(std::memory_order_acquire); }
  float progress() const { return progress_.load(std::memory_order_relaxed); }
  // The finished results (one per clip; null for a clip without raw keys), null while running,
  // cancelled or failed.
  const std::vector<std::unique_ptr<rig::CompressionResult>>* results() const;
  double tolerance_cm() const { return tolerance_cm_; }
  const std::string& error() const { return error_; }  // read once not running

  // Raw or compressed clips for `character` (compressed only when results are ready).
  void use_compressed(rig::Character& character, bool compressed) const;

  // Per vertex, ‖raw − compressed‖ of the LBS-skinned mesh at `selection`, in cm, as a heat
  // map (0 .. the largest value; all 0 until the results are ready). No allocation after the
  // first call.
  const rig::analysis::ScalarField& displacement(const rig::PoseSelection& selection);
  const rig::analysis::ScalarField& displacement_field() const { return field_; }

 private:
  void join();
  const rig::Model* model_;
  // The set's entries when the session was made (raw sources); the worker reads only this.
  std::shared_ptr<const rig::ClipSet> clips_;
  rig::Character raw_;    // samples the raw keys, for the displacement
  rig::Character lossy_;  // samples the compressed clips once they are ready
  bool lossy_ready_ = false;
  std::vector<std::vector<glm::vec3>> raw_pos_, lossy_pos_, normals_;
  rig::analysis::ScalarField field_;

  std::thread worker_;
  std::atomic<bool> cancel_{false}, running_{false}, finished_{false};
  std::atomic<float> progress_{0.0f};
  double tolerance_cm_ = -1.0;
  std::string error_;
  std::vector<std::unique_ptr<rig::CompressionResult>> results_;  // written by the worker
};

}  // namespace rigview
