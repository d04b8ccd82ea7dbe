// rigview side of the side-by-side benchmark against ozz-animation (../shared/ozzbench): a
// drop-in replacement for shared/ozzbench/rig_side.cpp, adapted to the current engine API (method
// table kernels on prepared SkinMeshes, the Character and the pose jobs). Copy the shared folder,
// put this file in as rig_side.cpp and run its run.sh with OZZ_MIRROR (see its header). The
// harness that builds ozz is not kept in this repository. Not built by the project's CMake.
#include <glm/gtc/type_ptr.hpp>
#include <algorithm>
#include <iterator>
#include <map>
#include <memory>

#include "anim/blending_job.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling_job.h"
#include "character/character.h"
#include "common.h"
#include "import/gltf_import.h"
#include "skin/skin_mesh.h"
#include "skin/skinning_method.h"

namespace ozzbench {
namespace {

// The method table's kernels over a SkinMesh, palettes written by each row's writer.
struct RigSkin {
  rig::SkinMesh mesh;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> lbs_rows, dqs_rows;
  std::vector<glm::vec3> out_p, out_n;
};

RigSkin& rig_skin(int influences) {
  static std::map<int, std::unique_ptr<RigSkin>> cache;
  auto& slot = cache[influences];
  if (slot) return *slot;
  slot = std::make_unique<RigSkin>();
  RigSkin& r = *slot;
  const SkinData& d = skin_data(influences);
  r.mesh.influences = static_cast<uint32_t>(d.influences);
  r.mesh.vertex_count = static_cast<uint32_t>(d.n);
  r.mesh.joints = d.idx;
  r.mesh.weights = d.w;
  r.positions.resize(d.n);
  r.normals.resize(d.n);
  for (int v = 0; v < d.n; ++v) {
    r.positions[v] = {d.pos[3 * v], d.pos[3 * v + 1], d.pos[3 * v + 2]};
    r.normals[v] = {d.nrm[3 * v], d.nrm[3 * v + 1], d.nrm[3 * v + 2]};
  }
  std::vector<glm::mat4> matrices;
  for (int b = 0; b < kJoints; ++b) matrices.push_back(glm::make_mat4(&d.palette[16 * b]));
  const rig::SkinningMethodInfo& lbs = rig::method_info(rig::SkinningMethod::Linear);
  const rig::SkinningMethodInfo& dqs = rig::method_info(rig::SkinningMethod::DualQuaternion);
  r.lbs_rows.resize(matrices.size() * lbs.palette_rows);
  r.dqs_rows.resize(matrices.size() * dqs.palette_rows);
  lbs.write_palette(matrices, r.lbs_rows);
  dqs.write_palette(matrices, r.dqs_rows);
  r.out_p.resize(d.n);
  r.out_n.resize(d.n);
  return r;
}

struct RigAnim {
  rig::Model model;
  int clip_a = -1, clip_b = -1;
  std::unique_ptr<rig::Character> character;
  // The jobs by hand (rig_anim_nodq): the per-frame update without the Character around it.
  std::vector<rig::Transform> rest;
  std::unique_ptr<rig::RawClipSource> source_a, source_b;
  std::vector<uint32_t> cursors_a, cursors_b;
  rig::Pose pose, pose_b;
  std::vector<glm::mat4> world, skinning;
  std::vector<glm::vec4> palette;
  rig::Skeleton skeleton;        // the by-depth order local → world runs in
  std::vector<int> blend_nodes;  // what either clip animates: all a crossfade blends
};

std::map<std::string, std::unique_ptr<RigAnim>>& anims() {
  static std::map<std::string, std::unique_ptr<RigAnim>> m;
  return m;
}

std::map<std::string, std::unique_ptr<rig::Model>>& models() {
  static std::map<std::string, std::unique_ptr<rig::Model>> m;
  return m;
}

int find_clip(const rig::Model& m, const std::string& name) {
  for (size_t i = 0; i < m.clips.size(); ++i)
    if (m.clips[i].name == name) return static_cast<int>(i);
  return -1;
}

rig::PoseSelection selection(const RigAnim& a, const AnimCase& c, float t) {
  rig::PoseSelection sel;
  const rig::Clip& ca = a.model.clips[a.clip_a];
  sel.clip = a.clip_a;
  sel.time = clip_time(t, ca.start, ca.end);
  if (a.clip_b >= 0) {
    const rig::Clip& cb = a.model.clips[a.clip_b];
    sel.blend_clip = a.clip_b;
    sel.blend_time = clip_time(t, cb.start, cb.end);
    sel.blend_weight = c.weight;
  }
  return sel;
}

// sample → blend → local → world → skinning matrices → LBS palette, through the jobs.
void evaluate_jobs(RigAnim& a, const rig::PoseSelection& sel) {
  const rig::Model& m = a.model;
  rig::SamplingJob sample{a.source_a.get(),     sel.time,     a.cursors_a,         a.rest,
                          m.rest_morph_weights, a.pose.local, a.pose.morph_weights};
  sample.run();
  if (sel.blend_clip >= 0) {
    rig::SamplingJob sample_b{a.source_b.get(),     sel.blend_time, a.cursors_b,           a.rest,
                              m.rest_morph_weights, a.pose_b.local, a.pose_b.morph_weights};
    sample_b.run();
    const rig::BlendLayer layers[2] = {
        {a.pose.local, a.pose.morph_weights, 1.0f, {}},
        {a.pose_b.local, a.pose_b.morph_weights, sel.blend_weight, {}}};
    const rig::BlendingJob blend{layers, a.pose.local, a.pose.morph_weights, a.blend_nodes};
    blend.run();
  }
  const rig::LocalToWorldJob to_world{&a.skeleton, a.pose.local, a.world, -1};
  to_world.run();
  rig::compute_skinning_matrices(m.skins[0], a.world, a.skinning);
  rig::method_info(rig::SkinningMethod::Linear).write_palette(a.skinning, a.palette);
}

}  // namespace

bool rig_load(const AnimCase& c, RigInfo& info, std::string& error) {
  auto a = std::make_unique<RigAnim>();
  if (!rig::import_gltf(c.glb, a->model, error)) return false;
  const rig::Model& m = a->model;
  if (m.skins.empty()) return error = "no skin", false;
  a->clip_a = find_clip(m, c.clip_a);
  if (a->clip_a < 0) return error = "no clip " + c.clip_a, false;
  if (!c.clip_b.empty()) {
    a->clip_b = find_clip(m, c.clip_b);
    if (a->clip_b < 0) return error = "no clip " + c.clip_b, false;
  }
  a->character = std::make_unique<rig::Character>(m);
  for (const rig::Node& n : m.nodes) a->rest.push_back(n.rest);
  a->source_a = std::make_unique<rig::RawClipSource>(m, m.clips[a->clip_a]);
  a->source_b =
      std::make_unique<rig::RawClipSource>(m, m.clips[a->clip_b >= 0 ? a->clip_b : a->clip_a]);
  a->cursors_a.assign(a->source_a->cursor_count(), 0);
  a->cursors_b.assign(a->source_b->cursor_count(), 0);
  rig::init_rest_pose(m, a->pose);
  rig::init_rest_pose(m, a->pose_b);
  a->world.assign(m.nodes.size(), glm::mat4(1));
  a->skeleton = rig::Skeleton::build(m);
  std::set_union(a->source_a->animated_nodes().begin(), a->source_a->animated_nodes().end(),
                 a->source_b->animated_nodes().begin(), a->source_b->animated_nodes().end(),
                 std::back_inserter(a->blend_nodes));
  a->skinning.assign(m.skins[0].joints.size(), glm::mat4(1));
  a->palette.assign(
      m.skins[0].joints.size() * rig::method_info(rig::SkinningMethod::Linear).palette_rows,
      glm::vec4(0));
  const rig::Skin& skin = m.skins[0];
  info.skin_joint_names.clear();
  info.inverse_bind.clear();
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    info.skin_joint_names.push_back(m.nodes[skin.joints[j]].name);
    const float* p = glm::value_ptr(skin.inverse_bind[j]);
    info.inverse_bind.insert(info.inverse_bind.end(), p, p + 16);
  }
  info.a_start = m.clips[a->clip_a].start;
  info.a_end = m.clips[a->clip_a].end;
  if (a->clip_b >= 0) info.b_start = m.clips[a->clip_b].start, info.b_end = m.clips[a->clip_b].end;
  info.nodes = static_cast<int>(m.nodes.size());
  anims()[c.name] = std::move(a);
  return true;
}

// The viewer's path: Character::evaluate, then the LBS palette.
void rig_anim_animator(benchmark::State& s, const AnimCase* c) {
  RigAnim& a = *anims().at(c->name);
  float t = 0.0f;
  for (auto _ : s) {
    t += 1.0f / 60.0f;
    a.character->evaluate(selection(a, *c, t));
    benchmark::DoNotOptimize(a.character->palette(0, rig::SkinningMethod::Linear).data());
    benchmark::ClobberMemory();
  }
  s.counters["joints"] = static_cast<double>(a.model.skins[0].joints.size());
  s.counters["nodes"] = static_cast<double>(a.model.nodes.size());
}

// The jobs by hand (what tests/bench/skinning_speed_bench.cpp times).
void rig_anim_nodq(benchmark::State& s, const AnimCase* c) {
  RigAnim& a = *anims().at(c->name);
  float t = 0.0f;
  for (auto _ : s) {
    t += 1.0f / 60.0f;
    evaluate_jobs(a, selection(a, *c, t));
    benchmark::DoNotOptimize(a.palette.data());
    benchmark::ClobberMemory();
  }
  s.counters["joints"] = static_cast<double>(a.model.skins[0].joints.size());
  s.counters["nodes"] = static_cast<double>(a.model.nodes.size());
}

void rig_palette_at(const AnimCase& c, float t, std::vector<float>& out) {
  RigAnim& a = *anims().at(c.name);
  a.character->evaluate(selection(a, c, t));
  auto pal = a.character->skinning_matrices(0);
  out.clear();
  for (const glm::mat4& m : pal) out.insert(out.end(), glm::value_ptr(m), glm::value_ptr(m) + 16);
}

void rig_skin_lbs(benchmark::State& s, int influences) {
  RigSkin& r = rig_skin(influences);
  const rig::SkinningMethodInfo& m = rig::method_info(rig::SkinningMethod::Linear);
  for (auto _ : s) {
    m.skin(r.mesh, r.lbs_rows, r.positions, r.normals, r.out_p, r.out_n);
    benchmark::DoNotOptimize(r.out_p.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * kVertices);
}

void rig_skin_dqs(benchmark::State& s, int influences) {
  RigSkin& r = rig_skin(influences);
  const rig::SkinningMethodInfo& m = rig::method_info(rig::SkinningMethod::DualQuaternion);
  for (auto _ : s) {
    m.skin(r.mesh, r.dqs_rows, r.positions, r.normals, r.out_p, r.out_n);
    benchmark::DoNotOptimize(r.out_p.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * kVertices);
}

// Positions only: the table's optional positions kernel.
void rig_skin_lbs_points(benchmark::State& s, int influences) {
  RigSkin& r = rig_skin(influences);
  const rig::SkinningMethodInfo& m = rig::method_info(rig::SkinningMethod::Linear);
  for (auto _ : s) {
    m.skin_positions(r.mesh, r.lbs_rows, r.positions, r.out_p);
    benchmark::DoNotOptimize(r.out_p.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * kVertices);
}

void rig_skin_dqs_points(benchmark::State& s, int influences) {
  RigSkin& r = rig_skin(influences);
  const rig::SkinningMethodInfo& m = rig::method_info(rig::SkinningMethod::DualQuaternion);
  for (auto _ : s) {
    m.skin_positions(r.mesh, r.dqs_rows, r.positions, r.out_p);
    benchmark::DoNotOptimize(r.out_p.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * kVertices);
}

void rig_skin_once(int influences, std::vector<float>& p, std::vector<float>& n) {
  RigSkin& r = rig_skin(influences);
  rig::method_info(rig::SkinningMethod::Linear)
      .skin(r.mesh, r.lbs_rows, r.positions, r.normals, r.out_p, r.out_n);
  p.assign(&r.out_p[0].x, &r.out_p[0].x + 3 * r.out_p.size());
  n.assign(&r.out_n[0].x, &r.out_n[0].x + 3 * r.out_n.size());
}

size_t rig_clip_raw_bytes(const std::string& glb, const std::string& clip, int* channels) {
  auto& slot = models()[glb];
  if (!slot) {
    slot = std::make_unique<rig::Model>();
    std::string error;
    if (!rig::import_gltf(glb, *slot, error)) return 0;
  }
  const int ci = find_clip(*slot, clip);
  if (ci < 0) return 0;
  size_t bytes = 0;
  for (const rig::Channel& ch : slot->clips[ci].channels)
    bytes += (ch.times.size() + ch.values.size()) * sizeof(float);
  if (channels) *channels = static_cast<int>(slot->clips[ci].channels.size());
  return bytes;
}

}  // namespace ozzbench
