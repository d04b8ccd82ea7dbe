#include "character/crowd.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>

namespace rig {

namespace {

// splitmix64: a fixed, documented generator, so an instance's parameters are the same on every
// platform and standard library (std::uniform_real_distribution's are not specified).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
  int below(int n) { return int(next() % uint64_t(n)); }
};

// Loops `t` seconds of playback into clip [start, end].
float loop_time(float start, float end, double t) {
  const double length = double(end) - double(start);
  if (!(length > 0.0)) return start;
  double r = std::fmod(t, length);
  if (r < 0.0) r += length;
  return float(double(start) + r);
}

// Crowd::selection over any list of clips: `clips` of them, clip c spanning range(c).
template <typename Range>
PoseSelection instance_selection(int clips, Range range, const CrowdInstance& in, double time) {
  PoseSelection sel;
  if (in.clip < 0 || in.clip >= clips) return sel;
  const double played = time * double(in.speed);
  sel.clip = in.clip;
  const auto [start, end] = range(in.clip);
  sel.time = loop_time(start, end, double(in.phase) + played);
  if (in.blend_clip >= 0 && in.blend_clip < clips) {
    sel.blend_clip = in.blend_clip;
    const auto [blend_start, blend_end] = range(in.blend_clip);
    sel.blend_time = loop_time(blend_start, blend_end, double(in.blend_phase) + played);
    const double cycle = played / double(in.fade_period) + double(in.fade_phase);
    sel.blend_weight = float(0.5 - 0.5 * std::cos(2.0 * 3.14159265358979323846 * cycle));
  }
  return sel;
}

// This thread's CPU time in nanoseconds (POSIX; std::chrono has no per-thread CPU clock).
int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Instances handed to a thread at a time: small enough to balance, large enough that the
// shared counter is not contended.
constexpr int kChunk = 8;

}  // namespace

Crowd::Crowd(const Model& model, std::shared_ptr<const SkinLayer> meshes, const CrowdConfig& config,
             std::shared_ptr<ClipSet> clips_in)
    : model_(&model),
      meshes_(meshes ? std::move(meshes) : std::make_shared<const SkinLayer>(model)),
      // One clip set for every instance: the update then reads the same keys for all of them
      // (in cache) rather than a copy each (1000 Fox copies are ~100 MB).
      clips_(clips_in ? std::move(clips_in) : ClipSet::from_model(model)) {
  const int count = std::max(config.count, 1);
  const int clips = int(clips_->size());
  SplitMix64 rng{config.seed};
  instances_.resize(size_t(count));
  for (CrowdInstance& in : instances_) {
    if (clips == 0) continue;
    in.clip = rng.below(clips);
    const ClipEntry& c = (*clips_)[size_t(in.clip)];
    in.phase = rng.uniform() * (c.end - c.start);
    in.speed = 0.75f + 0.5f * rng.uniform();
    if (clips > 1) {
      in.blend_clip = (in.clip + 1 + rng.below(clips - 1)) % clips;  // another clip
      const ClipEntry& b = (*clips_)[size_t(in.blend_clip)];
      in.blend_phase = rng.uniform() * (b.end - b.start);
      in.fade_period = 2.0f + 4.0f * rng.uniform();
      in.fade_phase = rng.uniform();
    }
  }
  int threads = config.threads > 0 ? config.threads : int(std::thread::hardware_concurrency());
  threads = std::clamp(threads, 1, std::max(count, 1));
  characters_.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t)
    characters_.push_back(std::make_unique<Character>(model, meshes_, clips_));
  cursor_stride_ = characters_[0]->cursor_count();
  cursors_.assign(size_t(count) * 2 * cursor_stride_, 0u);

  uint32_t total = 0;
  for (const Skin& s : model.skins) {
    skin_first_joint_.push_back(total);
    total += uint32_t(s.joints.size());
  }
  skin_first_joint_.push_back(total);

  // Spacing: the rest pose's horizontal footprint (CPU-skinned once) × 1.5.
  spacing_ = config.spacing;
  if (!(spacing_ > 0.0f)) {
    float extent = 0.0f;
    glm::vec3 lo(1e30f), hi(-1e30f);
    std::vector<glm::vec3> p, n;
    for (const DrawItem& item : model.draws) {
      const uint32_t vertices =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
      p.resize(vertices);
      n.resize(vertices);
      characters_[0]->skin_draw_item(item, SkinningMethod::Linear, p, n);
      for (const glm::vec3& v : p)
        if (std::isfinite(v.x) && std::isfinite(v.z)) {
          lo = glm::min(lo, v);
          hi = glm::max(hi, v);
        }
    }
    if (lo.x <= hi.x) extent = std::max(hi.x - lo.x, hi.z - lo.z);
    spacing_ = std::max(1.5f * extent, 1e-3f);
  }

  // Rigid items as the renderer sees them: no skin, or a skin the prepared mesh does not use.
  for (const DrawItem& item : model.draws) {
    const bool skinned = item.skin >= 0 && meshes_->get(item.mesh, item.primitive).skinned();
    if (!skinned && rigid_slot(item.node) < 0) rigid_nodes_.push_back(item.node);
  }
  rigid_rows_.assign(size_t(count) * rigid_rows_per_instance(), glm::vec4(0.0f));

  // The materials some clip of the set animates: the flags a Character's material pose holds.
  {
    std::vector<const Clip*> keys;
    for (size_t c = 0; c < clips_->size(); ++c) keys.push_back((*clips_)[c].keys.get());
    MaterialPose pose;
    init_material_pose(model, keys, pose);
    for (size_t m = 0; m < pose.animated.size(); ++m)
      if (pose.animated[m]) animated_materials_.push_back(int(m));
  }
  material_rows_.assign(size_t(count) * material_rows_per_instance(), glm::vec4(0.0f));

  const SkinningMethod lbs = SkinningMethod::Linear;
  set_methods(std::span<const SkinningMethod>(&lbs, 1));

  workers_.reserve(size_t(threads - 1));
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { worker_loop(t); });
  evaluate_at(0.0);
}

Crowd::~Crowd() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void Crowd::set_dqs_amounts(std::span<const float> per_node) {
  dqs_amounts_.assign(per_node.begin(), per_node.end());
  for (const std::unique_ptr<Character>& c : characters_) c->set_dqs_amounts(per_node);
}

void Crowd::set_methods(std::span<const SkinningMethod> methods) {
  methods_.clear();
  for (SkinningMethod m : methods)
    if (std::find(methods_.begin(), methods_.end(), m) == methods_.end()) methods_.push_back(m);
  for (const SkinningMethodInfo& info : skinning_methods()) {
    const bool used = std::find(methods_.begin(), methods_.end(), info.method) != methods_.end();
    std::vector<glm::vec4>& rows = palettes_[size_t(info.method)];
    if (used)
      rows.assign(size_t(count()) * instance_rows(info.method), glm::vec4(0.0f));
    else
      std::vector<glm::vec4>().swap(rows);
  }
}

int Crowd::rigid_slot(int node) const {
  for (size_t i = 0; i < rigid_nodes_.size(); ++i)
    if (rigid_nodes_[i] == node) return int(i);
  return -1;
}

int Crowd::material_slot(int material) const {
  for (size_t i = 0; i < animated_materials_.size(); ++i)
    if (animated_materials_[i] == material) return int(i);
  return -1;
}

uint32_t Crowd::instance_rows(SkinningMethod method) const {
  return skin_first_joint_.back() * method_info(method).palette_rows;
}

uint32_t Crowd::skin_first_row(int s, SkinningMethod method) const {
  return skin_first_joint_[size_t(s)] * method_info(method).palette_rows;
}

PoseSelection Crowd::selection(const ClipSet& clips, const CrowdInstance& in, double time) {
  return instance_selection(
      int(clips.size()),
      [&](int c) {
        return std::pair{clips[size_t(c)].start, clips[size_t(c)].end};
      },
      in, time);
}

PoseSelection Crowd::selection(const Model& model, const CrowdInstance& in, double time) {
  return instance_selection(
      int(model.clips.size()),
      [&](int c) {
        return std::pair{model.clips[size_t(c)].start, model.clips[size_t(c)].end};
      },
      in, time);
}

int Crowd::grid_columns(int count) {
  int columns = std::max(1, int(std::ceil(std::sqrt(double(std::max(count, 1))))));
  while (columns * columns < count) ++columns;  // sqrt rounding
  return columns;
}

glm::vec3 Crowd::grid_offset(int k, int count, float spacing) {
  const int columns = grid_columns(count);
  const int rows = (std::max(count, 1) + columns - 1) / columns;
  const float x = float(k % columns) - 0.5f * float(columns - 1);
  const float z = float(k / columns) - 0.5f * float(rows - 1);
  return glm::vec3(x * spacing, 0.0f, z * spacing);
}

void Crowd::evaluate_instance(int k, Character& c) {
  uint32_t* cursors = cursors_.data() + size_t(k) * 2 * cursor_stride_;
  c.evaluate(selection(*clips_, instances_[size_t(k)], time_),
             std::span<uint32_t>(cursors, cursor_stride_),
             std::span<uint32_t>(cursors + cursor_stride_, cursor_stride_));
  const std::span<const glm::mat4> world = c.world();
  glm::vec4* rigid = rigid_rows_.data() + size_t(k) * rigid_rows_per_instance();
  for (size_t i = 0; i < rigid_nodes_.size(); ++i)
    for (int col = 0; col < 4; ++col)
      rigid[i * 4 + size_t(col)] = world[size_t(rigid_nodes_[i])][col];
  for (SkinningMethod m : methods_) {
    // The Character's own palette writing (the mix's amounts included), straight into the
    // crowd buffer: every skin, skin after skin, as instance_rows() lays them out.
    const uint32_t rows = instance_rows(m);
    c.write_palettes(m, std::span<glm::vec4>(palettes_[size_t(m)].data() + size_t(k) * rows, rows));
  }
  if (!animated_materials_.empty()) {
    const std::vector<MaterialFactors>& values = c.material_pose().values;
    glm::vec4* rows = material_rows_.data() + size_t(k) * material_rows_per_instance();
    for (size_t i = 0; i < animated_materials_.size(); ++i)
      pack_crowd_material(values[size_t(animated_materials_[i])],
                          std::span<glm::vec4>(rows + i * kCrowdMaterialRows, kCrowdMaterialRows));
  }
}

void Crowd::work(int thread) {
  const int64_t start = thread_cpu_ns();
  Character& c = *characters_[size_t(thread)];
  const int n = count();
  for (;;) {
    const int first = next_.fetch_add(kChunk, std::memory_order_relaxed);
    if (first >= n) break;
    const int last = std::min(first + kChunk, n);
    for (int k = first; k < last; ++k) evaluate_instance(k, c);
  }
  cpu_ns_.fetch_add(thread_cpu_ns() - start, std::memory_order_relaxed);
}

void Crowd::worker_loop(int thread) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work(thread);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void Crowd::update(float dt) { evaluate_at(time_ + double(dt)); }

void Crowd::evaluate_at(double time) {
  const auto start = std::chrono::steady_clock::now();
  time_ = time;
  next_.store(0, std::memory_order_relaxed);
  cpu_ns_.store(0, std::memory_order_relaxed);
  if (!workers_.empty()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = int(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
  }
  work(0);
  if (!workers_.empty()) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
  }
  last_update_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  last_update_cpu_ms_ = double(cpu_ns_.load(std::memory_order_relaxed)) * 1e-6;
}

}  // namespace rig
