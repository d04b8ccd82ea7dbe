// Headless modes: `--output FILE.png` renders one frame offscreen (`--weights` colours it by
// skin weights), and `--backend gpu` skins the export on the GPU (the real vertex shaders, read
// back with transform feedback). Both run on an EGL surfaceless context, so they work without
// an X server.
#include <glad/gl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "artefact_analysis.h"
#include "character/character.h"
#include "clip_files.h"
#include "leak_check.h"
#include "look_environment.h"
#include "modes.h"
#include "pose_options.h"
#include "posed_character.h"
#include "render/headless_context.h"
#include "render/offscreen.h"
#include "render/reference_camera.h"
#include "render/renderer.h"
#include "render/skinning_cost.h"
#include "render/weight_view.h"
#include "rotation_centers_job.h"
#include "save_outputs.h"

namespace rigview {

namespace {

// Prints the one-line error; returns `status` (1: the model or output, 2: a usage error).
int fail(const std::string& where, const std::string& what, int status = 1) {
  std::fprintf(stderr, "rigview: error: %s: %s\n", where.c_str(), what.c_str());
  return status;
}

}  // namespace

int run_headless_render(const Options& options, const rig::Model& model,
                        const rig::SkinLayer* skin) {
  std::string error;
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options, model, selection, error))
    return fail(model.file, error, 2);
  // --weights: a usage error like a bad pose, checked before any GL work.
  rig::render::WeightView weight_view = rig::render::WeightView::Off;
  int weight_joint_node = -1;
  if (!rig::render::weight_view_from_name(model, options.weights_view, weight_view,
                                          weight_joint_node, error))
    return fail(model.file, error, 2);
  // The studio look's environment: a bad --environment file is the user's error, before any GL.
  rig::render::PrefilteredEnvironment environment;
  if (options.lights == SceneLights::Studio &&
      !prepare_environment(options.environment_path, environment, error))
    return fail("--environment", error);
  leak_check_before_gl();
  rig::render::HeadlessContext context;
  if (!context.create(error)) return fail(options.output_png, "no headless OpenGL: " + error);
  // The methods a --output render draws, one column each.
  const std::vector<rig::SkinningMethod> methods = methods_to_draw(options);
  PosedCharacter posed;
  if (const int status = pose_from_options(options, model, posed, error,
                                           prepared_skin_layer(model, methods, true, skin));
      status != 0)
    return fail(model.file, error, status);
  rig::Character& character = *posed.character;
  rig::render::Renderer renderer;
  if (!renderer.init(error) || !renderer.set_model(model, character.shared_skin_layer(), error))
    return fail(options.output_png, error);
  if (!environment.empty()) renderer.set_environment(environment);
  // Four samples per pixel unless --msaa says otherwise; more than the GL offers is refused
  // rather than quietly lowered, since the reference scene depends on the exact count.
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  const int samples = options.msaa > 0 ? options.msaa : 4;
  if (samples > std::max(max_samples, 1))
    return fail(options.output_png, "--msaa " + std::to_string(samples) +
                                        ": this OpenGL offers at most " +
                                        std::to_string(max_samples) + " samples per pixel");
  rig::render::OffscreenTarget target;
  if (!target.create(options.width, options.height, samples, error))
    return fail(options.output_png, error);

  // Frame the whole clip (not just this instant) so renders of one clip share a camera, then
  // back to the full pose (layers, IK, root motion).
  rig::render::Bounds bounds = rig::render::clip_bounds(character, selection);
  posed.pose();
  const rig::render::Bounds this_pose = rig::render::pose_bounds(character);
  bounds.add(this_pose);
  renderer.update(character, methods);
  renderer.set_ground(bounds);
  rig::render::OrbitCamera orbit;
  orbit.frame(bounds);

  // --heatmap / --focus worst: the artefact measures of this pose.
  std::unique_ptr<ArtefactAnalysis> artefacts;
  if (!options.heatmap.empty() || options.focus == "worst") {
    artefacts = std::make_unique<ArtefactAnalysis>(model, character.skin_layer());
    std::vector<rig::SkinningMethod> measured = methods;
    for (rig::SkinningMethod m : {ArtefactAnalysis::kDifferenceA, ArtefactAnalysis::kDifferenceB})
      if (std::find(measured.begin(), measured.end(), m) == measured.end()) measured.push_back(m);
    artefacts->analyze(character, measured);
    for (rig::SkinningMethod m : methods) artefacts->refresh_deflation_field(m);
    artefacts->refresh_difference_field();
  }
  if (!options.focus.empty()) {
    const int node = focus_joint(options.focus, model, artefacts.get(), methods.front(), error);
    if (node < 0) return fail(model.file, error, 2);
    rig::render::BindBoxes boxes = rig::render::bind_boxes(model, character.skin_meshes());
    orbit.frame(rig::render::joint_bounds(model, boxes, character, node));
  }

  rig::render::DrawOptions draw;
  draw.method = methods.front();
  std::vector<const rig::analysis::ScalarField*> columns;
  if (options.heatmap == "difference") {
    draw.field = &artefacts->difference_field_view();
  } else if (options.heatmap == "deflation") {
    for (rig::SkinningMethod m : methods) columns.push_back(&artefacts->deflation_field(m));
    draw.field = columns.front();
    draw.column_fields = columns;
  }
  draw.skeleton = options.armature;
  draw.grid = !options.no_grid;
  draw.lights = options.lights == SceneLights::Reference ? rig::render::LightSetup::Reference
                : options.lights == SceneLights::None    ? rig::render::LightSetup::None
                : options.lights == SceneLights::Classic ? rig::render::LightSetup::Viewer
                                                         : rig::render::LightSetup::Studio;
  draw.look = options.look;
  draw.subpixel_bits = options.subpixel_bits;
  draw.shadows =
      (options.lights == SceneLights::Studio || options.lights == SceneLights::Classic) &&
      options.shadows != 0;
  if (options.background_given)
    draw.background =
        glm::vec3(options.background[0], options.background[1], options.background[2]);
  draw.weight_view = weight_view;
  draw.weight_joint_node = weight_joint_node;
  draw.selected_joint_node = weight_joint_node;  // with --armature, the joint shown is marked
  const rig::render::Viewport viewport{0, 0, target.width(), target.height()};
  // A view narrower than tall (portrait, or each column of the compare split) backs off so the
  // model fits horizontally too.
  const bool compare = methods.size() > 1;
  orbit.fit_width(viewport.aspect() / float(methods.size()));
  rig::render::Camera camera = orbit.camera(viewport.aspect());
  // The reference scene's own default camera frames this pose alone, from +Z.
  const bool reference_scene =
      options.lights == SceneLights::Reference || options.lights == SceneLights::None;
  if (!options.camera_given && reference_scene && !compare && options.focus.empty())
    camera = rig::render::reference_default_camera(this_pose, viewport.aspect());
  if (options.camera_given) {
    const SceneCamera& c = options.camera;
    camera = rig::render::look_at_camera(
        glm::vec3(c.eye[0], c.eye[1], c.eye[2]), glm::vec3(c.target[0], c.target[1], c.target[2]),
        glm::radians(c.yfov_degrees), viewport.aspect(), c.near_plane, c.far_plane);
  }
  target.bind();
  renderer.clear(viewport, options.transparent ? glm::vec4(0.0f) : glm::vec4(draw.background, 1));
  if (compare)
    renderer.draw_compare(camera, viewport, draw, methods, !options.no_grid);
  else
    renderer.draw(camera, viewport, draw);

  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  if (options.transparent) rig::render::unpremultiply_alpha(pixels);
  if (renderer.gl_error_count() != 0)
    return fail(options.output_png, "the OpenGL driver reported errors while rendering");
  if (!rig::render::write_png(options.output_png, target.width(), target.height(), pixels, error))
    return fail(options.output_png, error);
  return 0;
}

bool gpu_skin_draw_items(const Options& options, const rig::Model& model,
                         std::shared_ptr<const rig::SkinLayer> meshes,
                         std::vector<std::vector<float>>& positions,
                         std::vector<std::vector<float>>& normals, std::string& error) {
  PosedCharacter posed;  // before any GL work: a bad pose is the user's error, not the GPU's
  if (pose_from_options(options, model, posed, error, std::move(meshes)) != 0) return false;
  leak_check_before_gl();
  rig::render::HeadlessContext context;
  if (!context.create(error)) {
    error = "no headless OpenGL for --backend gpu: " + error;
    return false;
  }
  const rig::Character& character = *posed.character;
  rig::render::Renderer renderer;
  if (!renderer.init(error) || !renderer.set_model(model, character.shared_skin_layer(), error))
    return false;
  renderer.update(character);

  const rig::SkinningMethod method = methods_to_draw(options).front();
  positions.assign(model.draws.size(), {});
  normals.assign(model.draws.size(), {});
  std::vector<glm::vec3> p, n;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const uint32_t count = model.meshes[item.mesh].primitives[item.primitive].vertex_count();
    p.resize(count);
    n.resize(count);
    if (!renderer.read_back_skinned(d, method, p, n, error)) return false;
    positions[d].resize(size_t(count) * 3);
    normals[d].resize(size_t(count) * 3);
    for (uint32_t v = 0; v < count; ++v)
      for (int c = 0; c < 3; ++c) {
        positions[d][size_t(v) * 3 + c] = p[v][c];
        normals[d][size_t(v) * 3 + c] = n[v][c];
      }
  }
  return true;
}

}  // namespace rigview

namespace rigview {

int run_skinning_bench(const Options& options, const rig::Model& model,
                       const rig::SkinLayer* skin) {
  std::string error;
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options, model, selection, error))
    return fail(model.file, error, 2);
  std::vector<float> dqs_amounts;
  if (!dqs_amounts_from_options(options, model, dqs_amounts, error))
    return fail(model.file, error, 2);
  const std::vector<rig::SkinningMethod> methods = methods_to_scan(options);
  if (rig::render::skinned_vertex_count(model) == 0)
    return fail(model.file, "--bench-skinning: the model has no skin");
  leak_check_before_gl();
  rig::render::HeadlessContext context;
  if (!context.create(error)) return fail(model.file, "no headless OpenGL: " + error);
  const std::shared_ptr<rig::ClipSet> clips = clip_set_from_options(options, model, error);
  if (!clips) return fail(model.file, error);
  rig::Character character(model, prepared_skin_layer(model, methods, true, skin), clips);
  character.set_dqs_amounts(dqs_amounts);
  rig::render::Renderer renderer;
  if (!renderer.init(error) || !renderer.set_model(model, character.shared_skin_layer(), error))
    return fail(model.file, error);
  rig::render::OrbitCamera orbit;
  orbit.frame(rig::render::clip_bounds(character, selection));
  character.evaluate(selection);  // after clip_bounds, which samples the whole clip
  renderer.update(character, methods);
  rig::render::SkinningCostOptions cost;
  cost.draws = options.bench_skinning;
  const rig::render::Camera camera = orbit.camera(1.0f);
  rig::render::SkinningCostReport report;
  if (!rig::render::measure_skinning_cost(renderer, model, camera, methods, cost, report, error))
    return fail(model.file, "--bench-skinning: " + error);
  std::printf(
      "skinning cost: %s, %llu skinned vertices per draw, %d draws per measurement, "
      "median of %d, %s\n",
      model.file.c_str(), static_cast<unsigned long long>(report.skinned_vertices), cost.draws,
      cost.repetitions,
      report.wall_clock ? "wall clock (software rasterizer: the vertex stage runs in the draws)"
                        : "GPU timer queries");
  const char* base = rig::method_info(report.methods[report.baseline].method).label;
  for (const rig::render::SkinningCost& c : report.methods)
    std::printf("%-4s %10.3f ms per million skinned vertices  x%.2f of %s\n",
                rig::method_info(c.method).label, c.ms_per_million, c.ratio, base);
  return 0;
}

}  // namespace rigview
