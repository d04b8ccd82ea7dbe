// Headless crowd modes: `--crowd N --output FILE.png` renders N instances on their grid, and
// `--bench-crowd N` measures the crowd frame (update on every core, palette upload, GPU draw)
// for 1, 10, 100, 1000, ... characters up to N. Both on an EGL surfaceless context.
#include <glad/gl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "character/crowd.h"
#include "leak_check.h"
#include "look_environment.h"
#include "modes.h"
#include "pose_options.h"
#include "render/crowd_renderer.h"
#include "render/headless_context.h"
#include "render/offscreen.h"
#include "rotation_centers_job.h"

namespace rigview {

namespace {

int fail(const std::string& where, const std::string& what, int status = 1) {
  std::fprintf(stderr, "rigview: error: %s: %s\n", where.c_str(), what.c_str());
  return status;
}

// The camera over the whole grid: a single character's bounds over instance 0's clip, repeated
// at every cell.
rig::render::Camera crowd_camera(const rig::Crowd& crowd, const rig::render::Viewport& viewport) {
  const rig::PoseSelection first = rig::Crowd::selection(crowd.clips(), crowd.instance(0), 0.0);
  const rig::render::Bounds one =
      rig::render::clip_bounds(crowd.model(), first, 12, crowd.shared_skin_layer());
  rig::render::OrbitCamera orbit;
  orbit.pitch = 0.45f;  // a little more from above: rows behind rows stay visible
  orbit.frame(rig::render::crowd_bounds(crowd, one));
  orbit.fit_width(viewport.aspect());
  return orbit.camera(viewport.aspect());
}

double median(std::vector<double> v) {
  if (v.empty()) return -1.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int run_crowd_render(const Options& options, const rig::Model& model, const rig::SkinLayer* skin) {
  std::string error;
  const rig::SkinningMethod method = methods_to_draw(options).front();
  const rig::SkinningMethod methods[] = {method};
  auto meshes = prepared_skin_layer(model, methods, true, skin);
  // The single character's --output look: the studio look's environment (a bad --environment
  // file is the user's error, before any GL), or the classic look.
  const bool studio = options.lights == SceneLights::Studio;
  rig::render::PrefilteredEnvironment environment;
  if (studio && !prepare_environment(options.environment_path, environment, error))
    return fail("--environment", error);
  leak_check_before_gl();
  rig::render::HeadlessContext context;
  if (!context.create(error)) return fail(options.output_png, "no headless OpenGL: " + error);
  rig::CrowdConfig config;
  config.count = options.crowd;
  std::vector<float> amounts;  // --dqs-joints, for the mix
  if (!dqs_amounts_from_options(options, model, amounts, error)) return fail(model.file, error);
  rig::Crowd crowd(model, meshes, config);
  crowd.set_methods(methods);
  crowd.set_dqs_amounts(amounts);
  crowd.evaluate_at(options.animation_time.value_or(0.0f));
  rig::render::CrowdRenderer renderer;
  if (!renderer.init(error) || !renderer.set_crowd(crowd, error))
    return fail(options.output_png, error);
  if (!environment.empty()) renderer.set_environment(environment);
  rig::render::OffscreenTarget target;
  if (!target.create(options.width, options.height, 4, error))
    return fail(options.output_png, error);
  const rig::render::Viewport viewport{0, 0, target.width(), target.height()};
  target.bind();
  glClearColor(0.20f, 0.21f, 0.23f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  renderer.upload(crowd);
  // The crowd's shadow, as the single character's --output has it by default.
  rig::render::CrowdDrawOptions draw;
  draw.shadows = true;
  draw.lights = studio ? rig::render::LightSetup::Studio : rig::render::LightSetup::Viewer;
  draw.look = options.look;
  renderer.draw(crowd_camera(crowd, viewport), viewport, method, draw);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  if (renderer.gl_error_count() != 0)
    return fail(options.output_png, "the OpenGL driver reported errors while rendering");
  if (!rig::render::write_png(options.output_png, target.width(), target.height(), pixels, error))
    return fail(options.output_png, error);
  return 0;
}

int run_crowd_bench(const Options& options, const rig::Model& model, const rig::SkinLayer* skin) {
  std::string error;
  const rig::SkinningMethod method = methods_to_draw(options).front();
  const rig::SkinningMethod methods[] = {method};
  auto meshes = prepared_skin_layer(model, methods, true, skin);
  leak_check_before_gl();
  rig::render::HeadlessContext context;
  if (!context.create(error)) return fail(model.file, "no headless OpenGL: " + error);
  rig::render::OffscreenTarget target;
  if (!target.create(options.width, options.height, 1, error)) return fail(model.file, error);
  const rig::render::Viewport viewport{0, 0, target.width(), target.height()};
  // 1, 10, 100, ... up to N, and N itself when it is not a power of ten.
  std::vector<int> sizes;
  for (int64_t n = 1; n <= options.bench_crowd; n *= 10) sizes.push_back(int(n));
  if (sizes.back() != options.bench_crowd) sizes.push_back(options.bench_crowd);
  constexpr int kWarmup = 5, kFrames = 30;
  int threads = 0;
  rig::render::CrowdRenderer renderer;  // programs compiled once, for every size
  if (!renderer.init(error)) return fail(model.file, error);
  std::vector<double> rows[5];  // per size: update, update CPU, upload, GPU, µs per character
  std::vector<float> amounts;   // --dqs-joints, for the mix
  if (!dqs_amounts_from_options(options, model, amounts, error)) return fail(model.file, error);
  for (int count : sizes) {
    rig::CrowdConfig config;
    config.count = count;
    rig::Crowd crowd(model, meshes, config);
    crowd.set_methods(methods);
    crowd.set_dqs_amounts(amounts);
    threads = crowd.thread_count();
    if (!renderer.set_crowd(crowd, error)) return fail(model.file, error);
    const rig::render::Camera camera = crowd_camera(crowd, viewport);
    target.bind();
    std::vector<double> update, update_cpu, upload, gpu;
    for (int frame = 0; frame < kWarmup + kFrames; ++frame) {
      crowd.update(1.0f / 60.0f);
      renderer.upload(crowd);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      renderer.draw(camera, viewport, method, false);
      glFinish();  // one frame at a time: the next frame's timer then reads this one's result
      if (frame < kWarmup) continue;
      update.push_back(crowd.last_update_ms());
      update_cpu.push_back(crowd.last_update_cpu_ms());
      upload.push_back(renderer.upload_ms());
      if (renderer.gpu_time_ms() >= 0.0) gpu.push_back(renderer.gpu_time_ms());
    }
    if (renderer.gl_error_count() != 0)
      return fail(model.file, "the OpenGL driver reported errors while drawing the crowd");
    rows[0].push_back(median(update));
    rows[1].push_back(median(update_cpu));
    rows[2].push_back(median(upload));
    rows[3].push_back(median(gpu));
    rows[4].push_back(median(update_cpu) * 1000.0 / count);
  }
  std::printf(
      "crowd frame: %s, %s, %dx%d, update on %d threads, median of %d frames (60 Hz steps)\n",
      model.file.c_str(), rig::method_info(method).label, viewport.width, viewport.height, threads,
      kFrames);
  // update ms: wall clock, all threads working; update CPU ms: CPU time summed over those
  // threads (what the work costs even on a busy machine); us/character: update CPU / count.
  std::printf("%10s %10s %14s %10s %10s %14s\n", "characters", "update ms", "update CPU ms",
              "upload ms", "GPU ms", "us/character");
  for (size_t i = 0; i < sizes.size(); ++i)
    std::printf("%10d %10.3f %14.3f %10.3f %10.3f %14.3f\n", sizes[i], rows[0][i], rows[1][i],
                rows[2][i], rows[3][i], rows[4][i]);
  return 0;
}

}  // namespace rigview
