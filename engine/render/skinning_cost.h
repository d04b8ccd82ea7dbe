// The cost of each skinning method on the GPU, shared by `rigview --bench-skinning N`
// and the viewer's "Measure cost" button: the current model's draw items drawn N times per
// measurement into a 16x16 target (few fragments, so the vertex work, the skinning, dominates),
// timed with a GL_TIME_ELAPSED query, repeated, the median kept, and reported as milliseconds
// per million skinned vertices and as a ratio to LBS. On llvmpipe this is the CPU cost of the
// software rasterizer's vertex stage: still a fair ratio between the methods. By default the
// draws sit behind the eye (SkinningCostOptions::rasterize), so only the vertex stage counts.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/model.h"
#include "render/camera.h"
#include "render/renderer.h"
#include "skin/skinning_method.h"

namespace rig::render {

struct SkinningCostOptions {
  int draws = 100;  // draws of the model per measurement (N)
  // Measurements per method after one warm-up round, in rounds of every method in turn; the
  // median is kept.
  int repetitions = 7;
  // false: the model is drawn behind the eye, so every triangle is rejected after the vertex
  // shaders and the time is the vertex stage alone; true: drawn with the given camera into
  // the 16x16 target (triangle set-up and a few fragments included).
  bool rasterize = false;
  static constexpr int kTargetSize = 16;  // pixels: few fragments when rasterizing
};

struct SkinningCost {
  rig::SkinningMethod method = rig::SkinningMethod::Linear;
  // Median ms per million skinned vertices: the figure (the timer query's on a GPU, the wall
  // clock's on a software rasterizer; SkinningCostReport::wall_clock), then both clocks.
  double ms_per_million = 0.0;
  double ratio = 0.0;                 // ms_per_million / the baseline's (LBS when measured)
  double query_ms_per_million = 0.0;  // GL_TIME_ELAPSED
  double wall_ms_per_million = 0.0;   // first draw to glFinish, on the CPU's clock
};

struct SkinningCostReport {
  uint64_t skinned_vertices = 0;  // per draw of the model (skinned draw items only)
  std::vector<SkinningCost> methods;
  size_t baseline = 0;  // index in `methods` the ratios are to
  // The figure is the wall clock's: the renderer is a software rasterizer (llvmpipe), which
  // skins in the draw calls themselves, outside what its timer queries measure.
  bool wall_clock = false;
};

// ---- The arithmetic (no GL), tested on its own.

// The median of `samples` (the upper of the two middle values for an even count); 0 if empty.
// Sorts `samples`.
double median_of(std::vector<double>& samples);
// `ms` for `draws` draws of `skinned_vertices` vertices, per million vertices skinned.
double ms_per_million_vertices(double ms, int draws, uint64_t skinned_vertices);
// Sets every ratio to ms_per_million over the baseline's: the first row of the method table
// (LBS) when it is among `costs`, else the first entry. Returns the baseline's index.
size_t set_cost_ratios(std::span<SkinningCost> costs);
// Vertices of the model's skinned draw items: what one draw of the model skins.
uint64_t skinned_vertex_count(const rig::Model& model);

// ---- The measurement. Needs the renderer's context current, the renderer updated with the
// character to draw (Renderer::update) and no GL_TIME_ELAPSED query running (call it outside
// begin_gpu_timer/end_gpu_timer). Draws only surfaces (no grid, wireframe or bones) with
// `camera` (with options.rasterize; else behind the eye). Leaves the default framebuffer bound.
// Blocks for the measurement's duration (a few seconds at N = 100 on llvmpipe for a mid-size
// character). false + one-line error (no skinned vertex, no framebuffer, GL errors).
bool measure_skinning_cost(Renderer& renderer, const rig::Model& model, const Camera& camera,
                           std::span<const rig::SkinningMethod> methods,
                           const SkinningCostOptions& options, SkinningCostReport& out,
                           std::string& error);

}  // namespace rig::render
