// One paint-brush dab on the bundled mannequin as the viewer makes it
// (app/viewer/viewer_paint.cpp), goal ≤ 8 ms of CPU time: the vertex under the pointer picked on
// the CPU-posed surface, the dab (Add, radius 5 % of the skin's bind diagonal, smooth falloff) on
// the forearm, and the deflation field refreshed (the measures' setup rebuilt from the new weights,
// the frame analysed for LBS). The GPU upload of the edited range, with a frame drawn, is measured by
// rig_brush_frame_bench (tests/render/tools); the layer's edit log that feeds it is part of the dab.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "analysis/skinning_artefacts.h"
#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/weight_brush.h"

namespace {

void dab_parts(benchmark::State& state, int parts) {
  rig::Model model;
  std::string error;
  if (!rig::import_gltf(
          (std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets/mannequin.glb").string(), model,
          error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  auto layer = std::make_shared<rig::SkinLayer>(model);
  rig::Character character(model, layer);
  character.evaluate(rig::PoseSelection{0, 0.5f});
  rig::WeightBrush brush;
  brush.prepare(model, *layer);
  // The forearm's first dominated vertex as the dab's centre; the diagonal for the radius.
  const rig::Skin& skin = model.skins[0];
  uint16_t joint = 0;
  for (size_t j = 0; j < skin.joints.size(); ++j)
    if (model.nodes[size_t(skin.joints[j])].name == "LeftForeArm") joint = uint16_t(j);
  const rig::Primitive& prim = model.meshes[0].primitives[0];
  glm::vec3 lo(1e30f), hi(-1e30f), centre(0.0f);
  for (size_t v = 0; v < prim.positions.size(); ++v) {
    lo = glm::min(lo, prim.positions[v]), hi = glm::max(hi, prim.positions[v]);
    if (centre == glm::vec3(0.0f) && prim.weights[v * prim.influences] > 0.5f &&
        prim.joints[v * prim.influences] == joint)
      centre = prim.positions[v];
  }
  rig::BrushDab dab;
  dab.joint = joint;
  dab.center = centre;
  dab.radius = 0.05f * glm::length(hi - lo);
  dab.strength = 0.05f;  // small, so thousands of dabs stay meaningful
  std::vector<glm::vec3> positions(prim.positions.size()), normals(prim.positions.size());
  rig::ArtefactFrame frame = rig::ArtefactFrame::make(model);
  const rig::ArtefactSetup fixed_setup = rig::ArtefactSetup::build(model, *layer);
  size_t changed = 0;
  for (auto _ : state) {
    // The pick: every skinned draw item posed on the CPU with the method on screen.
    if (parts & 1)
      for (const rig::DrawItem& item : model.draws)
        if (item.skin >= 0)
          character.skin_draw_item(item, rig::SkinningMethod::Linear, positions, normals);
    if (parts & 2) changed += brush.dab(*layer, dab).vertices_changed;
    if (parts & 4) {
      const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, *layer);
      benchmark::DoNotOptimize(setup.rest_volume);
    }
    if (parts & 8) {
      character.evaluate(rig::PoseSelection{0, 0.5f});
      rig::analyze_frame(fixed_setup, character, rig::SkinningMethod::Linear, frame);
      benchmark::DoNotOptimize(frame.rms);
    }
  }
  state.counters["vertices_per_dab"] = double(changed) / double(state.iterations());
  state.counters["skinned_vertices"] = double(prim.positions.size());
}
void BM_BrushDab_Mannequin(benchmark::State& s) { dab_parts(s, 1 | 2 | 8); }
void BM_BrushDabPick(benchmark::State& s) { dab_parts(s, 1); }
void BM_BrushDabWeights(benchmark::State& s) { dab_parts(s, 2); }
void BM_BrushDabSetup(benchmark::State& s) { dab_parts(s, 4); }
void BM_BrushDabAnalyze(benchmark::State& s) { dab_parts(s, 8); }
BENCHMARK(BM_BrushDab_Mannequin)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BrushDabPick)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BrushDabWeights)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BrushDabSetup)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BrushDabAnalyze)->Unit(benchmark::kMillisecond);

}  // namespace
