#include "render/skinning_cost.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>

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
  // Behind the eye: every clip-space w is −1, so each vertex fails the clip test. The vertex
  // shaders still run in full (the projection is a uniform: no compiler can know), but no
  // triangle reaches set-up or rasterization, whose cost (per triangle, the same for every
  // method) would otherwise dilute the ratios on a software rasterizer. (Not
  // GL_RASTERIZER_DISCARD: a driver may then skip the vertex work altogether.)
  Camera behind = camera;
  if (!options.rasterize) {
    behind.view = glm::mat4(1.0f);
    behind.projection = glm::mat4(0.0f);
    behind.projection[3][3] = -1.0f;
  }
  // Round by round, every method once per round (rather than all of one method's repetitions
  // in a row): a slow spell of the machine (llvmpipe runs on shared CPUs) then lands on every
  // method alike instead of skewing their ratios.
  std::vector<std::vector<double>> query_ms(methods.size()), wall_ms(methods.size());
  for (int rep = -1; rep < options.repetitions; ++rep)  // rep -1: warm-up, not kept
    for (size_t m = 0; m < methods.size(); ++m) {
      draw.method = methods[m];
      renderer.clear(viewport, draw.background);
      glFinish();
      const auto start = std::chrono::steady_clock::now();
      glBeginQuery(GL_TIME_ELAPSED, query);
      for (int i = 0; i < options.draws; ++i) renderer.draw(behind, viewport, draw);
      glEndQuery(GL_TIME_ELAPSED);
      glFinish();
      const auto end = std::chrono::steady_clock::now();
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
      if (rep < 0) continue;
      query_ms[m].push_back(double(ns) * 1e-6);
      wall_ms[m].push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
  // A software rasterizer runs the vertex stage inside the draw calls, on the calling thread,
  // and its timer queries only cover its rasterizer threads: there the wall time from the
  // first draw to glFinish is the figure. On a GPU the timer query is.
  const char* renderer_name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string name = renderer_name ? renderer_name : "";
  out.wall_clock = name.find("llvmpipe") != std::string::npos ||
                   name.find("softpipe") != std::string::npos ||
                   name.find("swrast") != std::string::npos;
  for (size_t m = 0; m < methods.size(); ++m) {
    SkinningCost c;
    c.method = methods[m];
    c.query_ms_per_million =
        ms_per_million_vertices(median_of(query_ms[m]), options.draws, out.skinned_vertices);
    c.wall_ms_per_million =
        ms_per_million_vertices(median_of(wall_ms[m]), options.draws, out.skinned_vertices);
    c.ms_per_million = out.wall_clock ? c.wall_ms_per_million : c.query_ms_per_million;
    out.methods.push_back(c);
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
