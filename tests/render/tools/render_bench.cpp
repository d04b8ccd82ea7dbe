// Frame-time measurement on the headless context: rig_render_bench MODEL [W H FRAMES].
// Prints, per look (classic, studio: README "The look"), skinning method (LBS, DQS) and key-light
// shadow (off, on: the viewer's default), the median CPU wall time of update + draw + glFinish
// over FRAMES frames of the first clip, and the ratio to the old look (classic, LBS, no
// shadows). Not a test: nothing is asserted.
#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "render/environment_prefilter.h"
#include "render/headless_context.h"
#include "render/offscreen.h"
#include "render/renderer.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: rig_render_bench MODEL [WIDTH HEIGHT FRAMES]\n");
    return 2;
  }
  const int width = argc > 3 ? std::atoi(argv[2]) : 1280;
  const int height = argc > 3 ? std::atoi(argv[3]) : 720;
  const int frames = argc > 4 ? std::atoi(argv[4]) : 30;
  rig::Model model;
  std::string error;
  if (!rig::import_gltf(argv[1], model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", argv[1], error.c_str());
    return 1;
  }
  rig::render::HeadlessContext context;
  rig::render::Renderer renderer;
  rig::render::OffscreenTarget target;
  if (!context.create(error) || !renderer.init(error) || !renderer.set_model(model, error) ||
      !target.create(width, height, 4, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  rig::render::PrefilteredEnvironment environment;
  rig::render::prefilter_environment(rig::render::generate_studio_environment(), environment);
  renderer.set_environment(environment);
  rig::PoseSelection selection;
  selection.clip = model.clips.empty() ? -1 : 0;
  rig::Character character(model);
  const rig::render::Bounds bounds = rig::render::clip_bounds(model, selection);
  renderer.set_ground(bounds);
  rig::render::OrbitCamera orbit;
  orbit.frame(bounds);
  const rig::render::Viewport viewport{0, 0, width, height};
  rig::render::DrawOptions options;
  options.skeleton = true;
  size_t joints = 0;
  for (const rig::Skin& s : model.skins) joints = std::max(joints, s.joints.size());
  // Every configuration at every frame, interleaved (frame-major), so a change in the machine's
  // load during the run reaches them all alike and their ratios stay meaningful.
  struct Config {
    rig::render::LightSetup look;
    rig::SkinningMethod method;
    bool shadows;
    std::vector<double> cpu_ms;
  };
  std::vector<Config> configs;
  for (const rig::render::LightSetup look :
       {rig::render::LightSetup::Viewer, rig::render::LightSetup::Studio})
    for (rig::SkinningMethod method :
         {rig::SkinningMethod::Linear, rig::SkinningMethod::DualQuaternion})
      for (bool shadows : {false, true}) configs.push_back({look, method, shadows, {}});
  for (int f = 0; f < frames; ++f) {
    for (size_t i = 0; i < configs.size(); ++i) {
      Config& c = configs[i];
      // Each configuration at its own time (a step apart within the frame's slot), so that every
      // one evaluates and uploads a new pose: none reuses the work of the one before.
      if (selection.clip >= 0) {
        const rig::Clip& clip = model.clips[selection.clip];
        const float slot = float(f) + float(i) / float(configs.size() + 1);
        selection.time = clip.start + (clip.end - clip.start) * slot / float(frames);
      }
      options.method = c.method;
      options.lights = c.look;
      options.shadows = c.shadows;
      const auto t0 = std::chrono::steady_clock::now();
      character.evaluate(selection);
      renderer.update(character);
      target.bind();
      renderer.clear(viewport, options.background);
      renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
      glFinish();
      const auto t1 = std::chrono::steady_clock::now();
      c.cpu_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
  }
  auto median = [](std::vector<double> v) {
    if (v.empty()) return -1.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  size_t vertices = 0;
  for (const rig::DrawItem& d : model.draws)
    vertices += model.meshes[d.mesh].primitives[d.primitive].vertex_count();
  const double baseline = median(configs[0].cpu_ms);  // classic, LBS, no shadows: the old look
  for (const Config& c : configs) {
    const double ms = median(c.cpu_ms);
    std::printf(
        "%s %dx%d %s %s, shadows %s: frame %.2f ms (median of %d, %.2fx classic LBS), %zu "
        "vertices draws %zu, largest skin %zu joints, renderer %s\n",
        argv[1], width, height, c.look == rig::render::LightSetup::Studio ? "studio" : "classic",
        c.method == rig::SkinningMethod::Linear ? "LBS" : "DQS", c.shadows ? "on" : "off", ms,
        frames, baseline > 0.0 ? ms / baseline : 0.0, vertices, model.draws.size(), joints,
        context.renderer_name().c_str());
  }
  return 0;
}
