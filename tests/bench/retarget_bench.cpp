// Retargeting cost: a 30 s clip keyed at 30 Hz (901 frames) on a 65-joint synthetic humanoid,
// T-pose source onto an A-pose target with other proportions and bone rolls, every joint but the
// armature animated. Arg 0: the retarget alone; 1: with its measures (a second sampling pass);
// 2: with the feet kept planted (contact detection and IK) and measures.
#include <benchmark/benchmark.h>

#include "character/retarget.h"
#include "retarget_humanoid.h"

namespace {

void BM_RetargetClip30s(benchmark::State& state) {
  namespace hm = rig::humanoid;
  const hm::Humanoid source = hm::make({});
  hm::Spec other;
  other.size = 0.85f;
  other.arm_down = 40.0f;
  other.roll = 20.0f;
  const hm::Humanoid target = hm::make(other);
  const rig::BoneMap map = hm::pair_up(source, target);
  const rig::Clip clip = hm::wave_clip(source, 30.0f, 30.0f);
  const rig::RetargetRig rig = rig::build_retarget_rig(source.model, target.model, map);
  rig::RetargetSettings settings;
  settings.keep_feet_planted = state.range(0) == 2;
  rig::RetargetMeasures measures;
  for (auto _ : state) {
    rig::Clip out = rig::retarget_clip(source.model, clip, target.model, rig, settings,
                                       state.range(0) > 0 ? &measures : nullptr);
    benchmark::DoNotOptimize(out.channels.data());
  }
  state.counters["joints"] = double(source.model.nodes.size());
  state.counters["frames"] = double(rig::retarget_frame_times(clip).size());
}
BENCHMARK(BM_RetargetClip30s)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
