// One paint-brush frame on the GPU path: rig_brush_frame_bench [MODEL] [DABS]. Each frame, as the
// viewer's paint mode does it (app/viewer/viewer_paint.cpp), dabs the left forearm's weight
// (Add, radius 5 % of the bind diagonal, strength 0.05), poses the clip, skins every skinned item
// on the CPU for the pick, measures the frame (ArtefactFrame, LBS), refills the deflation field,
// then Renderer::update (the dab's dirty vertex range uploaded) and one draw of the field
// view, glFinish. Prints the median thread CPU time and wall time of the frame and of its parts
// over DABS dabs (default 200) on the headless context. Not a test: nothing is asserted.
#include <glad/gl.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/artefact_fields.h"
#include "analysis/skinning_artefacts.h"
#include "character/character.h"
#include "import/gltf_import.h"
#include "render/headless_context.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "skin/weight_brush.h"

namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

double wall_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  if (v.empty()) return -1.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path =
      argc > 1 ? argv[1] : std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
  const int dabs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 200;
  rig::Model model;
  std::string error;
  if (!rig::import_gltf(path, model, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  if (model.skins.empty()) {
    std::fprintf(stderr, "rigview: error: %s: no skin to paint\n", path.c_str());
    return 1;
  }
  auto layer = std::make_shared<rig::SkinLayer>(model);
  rig::Character character(model, layer);
  rig::render::HeadlessContext context;
  rig::render::Renderer renderer;
  rig::render::OffscreenTarget target;
  const int width = 1280, height = 720;
  if (!context.create(error) || !renderer.init(error) ||
      !renderer.set_model(model, character.shared_skin_layer(), error) ||
      !target.create(width, height, 4, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  const rig::PoseSelection selection{model.clips.empty() ? -1 : 0, 0.5f};
  character.evaluate(selection);
  rig::WeightBrush brush;
  brush.prepare(model, *layer);
  // The dab's joint: the left forearm when the skin has one, else its second joint; its centre
  // the first vertex it dominates.
  const rig::Skin& skin = model.skins[0];
  uint16_t joint = skin.joints.size() > 1 ? 1 : 0;
  for (size_t j = 0; j < skin.joints.size(); ++j)
    if (model.nodes[size_t(skin.joints[j])].name == "LeftForeArm") joint = uint16_t(j);
  glm::vec3 lo(1e30f), hi(-1e30f), centre(0.0f);
  bool found = false;
  for (const rig::DrawItem& item : model.draws) {
    if (item.skin != 0) continue;
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    for (size_t v = 0; v < prim.positions.size(); ++v) {
      lo = glm::min(lo, prim.positions[v]), hi = glm::max(hi, prim.positions[v]);
      if (!found && prim.influences > 0 && prim.joints[v * prim.influences] == joint &&
          prim.weights[v * prim.influences] > 0.5f)
        centre = prim.positions[v], found = true;
    }
  }
  rig::BrushDab dab;
  dab.skin = 0;
  dab.joint = joint;
  dab.center = centre;
  dab.radius = 0.05f * glm::length(hi - lo);
  dab.strength = 0.05f;
  std::vector<glm::vec3> positions, normals;
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, *layer);
  rig::ArtefactFrame frame = rig::ArtefactFrame::make(model);
  rig::analysis::ScalarField field;
  rig::render::OrbitCamera orbit;
  orbit.frame(rig::render::clip_bounds(model, selection));
  const rig::render::Viewport viewport{0, 0, width, height};
  rig::render::DrawOptions options;
  options.field = &field;
  std::vector<double> cpu, wall, cpu_upload, wall_upload, cpu_cpu_part, cpu_draw, wall_draw;
  size_t changed = 0;
  for (int i = 0; i < dabs + 5; ++i) {  // the first 5 warm up (buffers, shaders)
    const double c0 = thread_cpu_ms(), w0 = wall_ms();
    character.evaluate(selection);
    for (const rig::DrawItem& item : model.draws)
      if (item.skin >= 0) {
        const size_t n = model.meshes[item.mesh].primitives[item.primitive].positions.size();
        positions.resize(n), normals.resize(n);
        character.skin_draw_item(item, rig::SkinningMethod::Linear, positions, normals);
      }
    changed += brush.dab(*layer, dab).vertices_changed;
    rig::analyze_frame(setup, character, rig::SkinningMethod::Linear, frame);
    rig::analysis::fill_deflation_field(model, frame, rig::SkinningMethod::Linear, field);
    ++field.revision;
    const double c1 = thread_cpu_ms(), w1 = wall_ms();
    renderer.update(character);
    glFinish();
    const double cu = thread_cpu_ms(), wu = wall_ms();
    target.bind();
    renderer.clear(viewport, options.background);
    renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
    glFinish();
    const double c2 = thread_cpu_ms(), w2 = wall_ms();
    if (i < 5) continue;
    cpu.push_back(c2 - c0), wall.push_back(w2 - w0);
    cpu_cpu_part.push_back(c1 - c0);
    cpu_upload.push_back(cu - c1), wall_upload.push_back(wu - w1);
    cpu_draw.push_back(c2 - cu), wall_draw.push_back(w2 - wu);
  }
  std::printf(
      "%s: brush frame %.2f ms thread CPU (median of %d), %.2f ms wall; of which dab + pick + "
      "measure + field %.2f ms CPU, Renderer::update (palettes, the dab's influence ranges) + "
      "glFinish %.2f ms CPU / %.2f ms wall, field upload + draw + glFinish %.2f ms CPU / %.2f ms "
      "wall; %.0f vertices per dab, %.0f influence vertices uploaded per dab; renderer %s\n",
      path.c_str(), median(cpu), dabs, median(wall), median(cpu_cpu_part), median(cpu_upload),
      median(wall_upload), median(cpu_draw), median(wall_draw), double(changed) / double(dabs + 5),
      double(renderer.influence_vertices_uploaded()) / double(dabs + 5),
      context.renderer_name().c_str());
  return 0;
}
