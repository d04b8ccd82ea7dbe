// Posing costs: one analytic two-bone IK solve per chain (including the world refresh of the
// chain's subtree), an aim over a spine → head chain, and the full layered frame (base + a
// masked override layer + an additive layer, feet-on-ground IK on both legs) on the bundled
// mannequin.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "anim/aim_constraint.h"
#include "anim/joint_mask.h"
#include "anim/two_bone_ik.h"
#include "character/character.h"
#include "character/feet_on_ground.h"
#include "character/pose_stack.h"
#include "import/gltf_import.h"

namespace {

const rig::Model& mannequin() {
  static const rig::Model model = [] {
    rig::Model m;
    std::string error;
    rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error);
    return m;
  }();
  return model;
}

int clip_index(const rig::Model& m, const char* name) {
  for (size_t i = 0; i < m.clips.size(); ++i)
    if (m.clips[i].name == name) return int(i);
  return -1;
}

// One leg chain (LeftUpLeg → LeftLeg → LeftFoot; its subtree, the toe, is refreshed too) solved
// towards a target that moves every iteration. The analytic solve does the same work whatever
// pose it starts from, so the pose is not restored between iterations (timer pauses would cost
// more than a solve). Arg 1: the foot also keeps its world rotation (feet on the ground).
void BM_TwoBoneIK_Leg(benchmark::State& state) {
  const rig::Model& m = mannequin();
  rig::Character character(m);
  character.evaluate(rig::PoseSelection{clip_index(m, "Walk"), 0.3f});
  std::vector<rig::Transform> local = character.pose().local;
  std::vector<glm::mat4> world(character.world().begin(), character.world().end());
  rig::TwoBoneIKJob job;
  job.skeleton = &character.skeleton();
  job.local = local;
  job.world = world;
  job.ik.chain = rig::two_bone_chain(m, rig::find_node(m, "LeftFoot"));
  job.ik.keep_end_rotation = state.range(0) != 0;
  const glm::vec3 foot(world[size_t(job.ik.chain.end)][3]);
  int i = 0;
  for (auto _ : state) {
    job.ik.target = foot + glm::vec3(0.03f * float(i % 7), 0.05f * float(i % 5), 0.02f);
    ++i;
    benchmark::DoNotOptimize(job.run());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(job.ik.keep_end_rotation ? "chains, keep foot rotation" : "chains");
}
BENCHMARK(BM_TwoBoneIK_Leg)->Arg(0)->Arg(1);

void BM_Aim_SpineToHead(benchmark::State& state) {
  const rig::Model& m = mannequin();
  rig::Character character(m);
  character.evaluate(rig::PoseSelection{clip_index(m, "Idle"), 0.3f});
  std::vector<rig::Transform> local = character.pose().local;
  std::vector<glm::mat4> world(character.world().begin(), character.world().end());
  const int chain[] = {rig::find_node(m, "Spine1"), rig::find_node(m, "Spine2"),
                       rig::find_node(m, "Neck"), rig::find_node(m, "Head")};
  rig::AimJob job;
  job.skeleton = &character.skeleton();
  job.local = local;
  job.world = world;
  job.chain = chain;
  int i = 0;
  for (auto _ : state) {
    job.aim.target = glm::vec3(0.5f * float(i % 5) - 1.0f, 1.6f, 2.0f);
    ++i;
    benchmark::DoNotOptimize(job.run());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Aim_SpineToHead);

// The whole frame: Walk base, Wave override on the right arm, Idle additive at 0.5, feet on the
// ground, then skinning matrices (Character::evaluate(PoseStack&)).
void BM_PosingFrame_Mannequin(benchmark::State& state) {
  const rig::Model& m = mannequin();
  rig::Character character(m);
  rig::PoseStack stack(character);
  const int walk = clip_index(m, "Walk");
  rig::PoseLayer wave;
  wave.clip = clip_index(m, "Wave");
  wave.mask = rig::subtree_mask(m, {"RightShoulder"});
  stack.add_layer(wave);
  rig::PoseLayer idle;
  idle.clip = clip_index(m, "Idle");
  idle.mode = rig::BlendMode::Additive;
  idle.weight = 0.5f;
  stack.add_layer(idle);
  const int feet_nodes[] = {rig::find_node(m, "LeftFoot"), rig::find_node(m, "RightFoot")};
  rig::FeetOnGround feet(m, walk, feet_nodes);
  std::vector<rig::PoseConstraint*> constraints(feet.constraints().begin(),
                                                feet.constraints().end());
  if (state.range(0)) character.set_constraints(constraints);
  const float duration = m.clips[size_t(walk)].end - m.clips[size_t(walk)].start;
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    if (t >= duration) t -= duration;
    stack.base = {walk, t};
    stack.layer(0).time = 1.5f + t;
    stack.layer(1).time = t;
    feet.update(t);
    character.evaluate(stack);
    benchmark::DoNotOptimize(character.skinning_matrices(0).data());
  }
  state.SetLabel(state.range(0) ? "with feet IK" : "layers only");
}
BENCHMARK(BM_PosingFrame_Mannequin)->Arg(0)->Arg(1);

}  // namespace
