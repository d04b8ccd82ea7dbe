// Many characters of one model at once.
//
// A Crowd poses N instances with one Character per thread (sharing one SkinMeshes and one clip
// set, so one prepared copy of the clips): an instance keeps only its key
// cursors, and a thread's Character poses its instances one after the other, its buffers staying
// in cache (a Character per instance made every update walk ~8 KB of cold buffers per instance;
// the pose does not depend on what a Character held before). Every instance plays its own clip at
// its own phase and speed and crossfades into a second clip with a weight that rises and falls on
// its own period; all of it is drawn from a seed, so a test can recompute any instance's pose
// (Crowd::selection). Instances stand on a grid (Crowd::grid_offset): the pose itself stays the
// model's, the renderer adds the offset.
//
// update(dt) evaluates every instance and writes its palettes, for the methods asked for, into
// one flat buffer per method: instance-major, then skin-major rows (instance k, skin s starts at
// row k * instance_rows(m) + skin_first_row(s, m)), which the renderer uploads as one texture
// buffer indexed by gl_InstanceID. When the clips animate materials (KHR_animation_pointer), it
// also writes each instance's values of the animated materials (the thread's Character's
// material pose after evaluating that instance) into one more flat buffer: instance-major, then
// the animated materials in material order, kCrowdMaterialRows vec4 rows each
// (character/crowd_materials.h). The work runs on a persistent pool: worker threads made once
// in the constructor, woken per update through a condition variable, instances handed out in
// small chunks by an atomic counter; the calling thread works too. Nothing allocates per update.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "anim/pose_selection.h"
#include "character/character.h"
#include "character/crowd_materials.h"
#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/skinning_method.h"

namespace rig {

// What one instance plays, fixed at construction (drawn from the seed).
struct CrowdInstance {
  int clip = -1;             // -1: the rest pose (a model without clips)
  float phase = 0.0f;        // seconds into the clip at crowd time 0
  float speed = 1.0f;        // playback speed, in [0.75, 1.25]
  int blend_clip = -1;       // crossfade target (-1: none; models with one clip)
  float blend_phase = 0.0f;  // seconds into the target at crowd time 0
  float fade_period = 4.0f;  // seconds of playback for the weight to go 0 → 1 → 0
  float fade_phase = 0.0f;   // in [0, 1): where in that cycle time 0 is
};

struct CrowdConfig {
  int count = 1;
  uint32_t seed = 1;
  // Distance between neighbouring instances; <= 0: 1.5 × the model's rest-pose footprint
  // (largest horizontal extent of its bind-pose vertices), at least a small minimum.
  float spacing = 0.0f;
  // Threads that run update(), the caller included; <= 0: std::thread::hardware_concurrency().
  int threads = 0;
};

class Crowd {
 public:
  // Allocates everything (characters, palette buffers, the threads). `meshes` nullptr: prepared
  // here. `clips`: the clip set the instances draw their clips from and every thread's Character
  // samples (a viewer's character's, with the clips added to it); nullptr: the file's clips.
  // count is clamped to at least 1.
  Crowd(const Model& model, std::shared_ptr<const SkinLayer> skin, const CrowdConfig& config,
        std::shared_ptr<ClipSet> clips = nullptr);
  ~Crowd();
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  // The methods whose palettes update() writes (default: LBS). Not per frame.
  void set_methods(std::span<const SkinningMethod> methods);
  std::span<const SkinningMethod> methods() const { return methods_; }
  // The mix's DQS amount per node for every instance (Character::set_dqs_amounts). Not per
  // frame; takes effect at the next update.
  void set_dqs_amounts(std::span<const float> per_node);
  std::span<const float> dqs_amounts() const { return dqs_amounts_; }

  // Advances the crowd clock by dt seconds and evaluates every instance. No allocation.
  void update(float dt);
  // Evaluates every instance at crowd time `time` (seconds since the start). No allocation.
  void evaluate_at(double time);
  double time() const { return time_; }

  // Instance k's pose at crowd time `time`: each clip loops at the instance's speed from its
  // phase; the crossfade weight is 0.5 - 0.5 cos(2π (time·speed / fade_period + fade_phase)).
  static PoseSelection selection(const ClipSet& clips, const CrowdInstance& instance, double time);
  // The same over the file's clips (tests recompute instances from the model alone).
  static PoseSelection selection(const Model& model, const CrowdInstance& instance, double time);
  // World offset of instance k on the grid: columns = ceil(sqrt(count)), rows as needed,
  // centred on the origin in x and z: ((k % columns) - (columns - 1) / 2) · spacing, 0,
  // ((k / columns) - (rows - 1) / 2) · spacing.
  static glm::vec3 grid_offset(int k, int count, float spacing);
  static int grid_columns(int count);

  int count() const { return int(instances_.size()); }
  int thread_count() const { return int(workers_.size()) + 1; }
  float spacing() const { return spacing_; }
  const Model& model() const { return *model_; }
  const ClipSet& clips() const { return *clips_; }
  std::shared_ptr<const SkinLayer> shared_skin_layer() const { return meshes_; }
  const CrowdInstance& instance(int k) const { return instances_[size_t(k)]; }
  glm::vec3 offset(int k) const { return grid_offset(k, count(), spacing_); }

  // Rows (vec4) of one instance's palettes of `method`: all skins, skin after skin.
  uint32_t instance_rows(SkinningMethod method) const;
  // First row of skin `s` inside an instance's block.
  uint32_t skin_first_row(int s, SkinningMethod method) const;
  // All instances' palettes of `method` (empty when the method is not in methods()).
  std::span<const glm::vec4> palettes(SkinningMethod method) const {
    return palettes_[size_t(method)];
  }
  // Rigid (unskinned) draw items' nodes, each once (model.draws order), and per instance their
  // world matrices: 4 rows (columns) per node, node after node, instance after instance.
  std::span<const int> rigid_nodes() const { return rigid_nodes_; }
  // Index of `node` in rigid_nodes(), -1 when it holds no rigid item.
  int rigid_slot(int node) const;
  uint32_t rigid_rows_per_instance() const { return uint32_t(rigid_nodes_.size()) * 4u; }
  std::span<const glm::vec4> rigid_matrices() const { return rigid_rows_; }
  // Materials the clip set animates (at construction), in material order: each gets
  // kCrowdMaterialRows rows per instance in material_rows(). Empty when none is animated.
  std::span<const int> animated_materials() const { return animated_materials_; }
  // Index of `material` in animated_materials(), -1 when no clip animates it.
  int material_slot(int material) const;
  uint32_t material_rows_per_instance() const {
    return uint32_t(animated_materials_.size()) * kCrowdMaterialRows;
  }
  // Every instance's animated material values: instance k, slot i (material_slot) starts at row
  // k * material_rows_per_instance() + i * kCrowdMaterialRows (crowd_materials.h's layout).
  std::span<const glm::vec4> material_rows() const { return material_rows_; }
  // Wall-clock milliseconds of the last update (all threads working).
  double last_update_ms() const { return last_update_ms_; }
  // CPU milliseconds of the last update summed over the threads that worked on it (each
  // thread's own CPU clock): what the update costs, whatever else the machine is doing.
  double last_update_cpu_ms() const { return last_update_cpu_ms_; }

 private:
  void work(int thread);  // takes chunks of instances until none are left
  void evaluate_instance(int k, Character& c);
  void worker_loop(int thread);

  const Model* model_;
  std::shared_ptr<const SkinLayer> meshes_;  // every character skins with it
  std::shared_ptr<ClipSet> clips_;
  std::vector<CrowdInstance> instances_;
  std::vector<std::unique_ptr<Character>> characters_;  // one per thread, the caller's first
  // Per instance its two clips' key cursors (cursor_stride_ each, the base clip's first).
  std::vector<uint32_t> cursors_;
  size_t cursor_stride_ = 0;
  std::vector<SkinningMethod> methods_;
  std::vector<float> dqs_amounts_;          // per node, as last set (empty: all 0)
  std::vector<uint32_t> skin_first_joint_;  // per skin, plus the total
  std::array<std::vector<glm::vec4>, kSkinningMethodCount> palettes_;
  std::vector<int> rigid_nodes_;
  std::vector<glm::vec4> rigid_rows_;
  std::vector<int> animated_materials_;
  std::vector<glm::vec4> material_rows_;
  float spacing_ = 1.0f;
  double time_ = 0.0;
  double last_update_ms_ = 0.0;
  double last_update_cpu_ms_ = 0.0;
  std::atomic<int64_t> cpu_ns_{0};  // summed by the threads during an update

  // The pool. generation_ counts updates; a worker runs once per new generation.
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;
  int busy_ = 0;  // workers still working on the current generation
  bool stop_ = false;
  std::atomic<int> next_{0};
};

}  // namespace rig
