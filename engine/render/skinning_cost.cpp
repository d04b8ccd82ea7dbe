#include "render/skinning_cost.h"

#include <glad/gl.h>

#include <algorithm>

#include "render/offscreen.h"

namespace rig::render {

double median_of(std::vector<double>& samples) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

double ms_per_million_vertices(double ms, int draws, uint64_t skinned_vertices) {
  const double vertices = double(draws) * double(skinned_vertices);
  return vertices > 0.0 ? ms / (vertices * 1e-6) : 0.0;
}

size_t set_cost_ratios(std::span<SkinningCost> costs) {
  size_t base = 0;
  for (size_t m = 0; m < costs.size(); ++m)
    if (costs[m].method == rig::skinning_methods()[0].method) base = m;
  for (SkinningCost& c : costs)
    c.ratio = base < costs.size() && costs[base].ms_per_million > 0.0
                  ? c.ms_per_million / costs[base].ms_per_million
                  : 0.0;
  return base;
}

uint64_t skinned_vertex_count(const rig::Model& model) {
  uint64_t n = 0;
  for (const rig::DrawItem& item : model.draws)
    if (item.skin >= 0) {
      const rig::Primitive& prim =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
      if (prim.skinned()) n += prim.vertex_count();
    }
  return n;
}

bool measure_skinning_cost(Renderer& renderer, const rig::Model& model, const Camera& camera,
                           std::span<const rig::SkinningMethod> methods,
                           const SkinningCostOptions& options, SkinningCostReport& out,
                           std::string& error) {
  out = SkinningCostReport{};
  out.skinned_vertices = skinned_vertex_count(model);
  if (out.skinned_vertices == 0) {
    error = "the model has no skinned mesh to measure";
    return false;
  }
  if (methods.empty() || options.draws < 1 || options.repetitions < 1) {
    error = "nothing to measure (no method, draws or repetitions)";
    return false;
  }
  constexpr int kSize = SkinningCostOptions::kTargetSize;
  OffscreenTarget target;
  if (!target.create(kSize, kSize, 1, error)) return false;
  const Viewport viewport{0, 0, kSize, kSize};
  DrawOptions draw;
  draw.grid = false;
  draw.skeleton = draw.wireframe = false;
  const uint64_t errors_before = renderer.gl_error_count();
  target.bind();
  GLuint query = 0;
  glGenQueries(1, &query);
  std::vector<double> ms;
  for (rig::SkinningMethod method : methods) {
    draw.method = method;
    ms.clear();
    for (int rep = -1; rep < options.repetitions; ++rep) {  // rep -1: warm-up, not kept
      renderer.clear(viewport, draw.background);
      glFinish();
      // A tiny target: few fragments, so the vertex shaders (the skinning) dominate. (Not
      // GL_RASTERIZER_DISCARD: a driver may then skip the vertex work altogether.)
      glBeginQuery(GL_TIME_ELAPSED, query);
      for (int i = 0; i < options.draws; ++i) renderer.draw(camera, viewport, draw);
      glEndQuery(GL_TIME_ELAPSED);
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
      if (rep >= 0) ms.push_back(double(ns) * 1e-6);
    }
    out.methods.push_back(
        {method, ms_per_million_vertices(median_of(ms), options.draws, out.skinned_vertices), 0.0});
  }
  glDeleteQueries(1, &query);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (glGetError() != GL_NO_ERROR || renderer.gl_error_count() != errors_before) {
    error = "the OpenGL driver reported errors while measuring";
    return false;
  }
  out.baseline = set_cost_ratios(out.methods);
  return true;
}

}  // namespace rig::render
