// The instanced crowd path (render/crowd_renderer.h) read back with transform feedback: instance
// k's skinned vertices equal a single Character evaluated on its own at instance k's pose,
// skinned on the CPU (Character::skin_draw_item), plus instance k's grid cell, written out by
// hand here. Also: the crowd renders (pixels differ from the background across the grid).
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/crowd.h"
#include "import/gltf_import.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render_test_support.h"
#include "test_support.h"

namespace rig::render {
namespace {

constexpr double kRelativeTolerance = 1e-5;  // of the single character's bounding-box diagonal

// 5 instances, spacing 2: 3 columns, 2 rows, centred (not Crowd::grid_offset: written out).
const glm::vec3 kCells[5] = {{-2, 0, -1}, {0, 0, -1}, {2, 0, -1}, {-2, 0, 1}, {0, 0, 1}};

void expect_instances_match_single_characters(const Model& m, SkinningMethod method) {
  SCOPED_TRACE(m.file + " " + method_info(method).label);
  std::string error;
  CrowdConfig config;
  config.count = 5;
  config.spacing = 2.0f;
  config.seed = 11;
  Crowd crowd(m, nullptr, config);
  const SkinningMethod methods[] = {method};
  crowd.set_methods(methods);
  crowd.update(1.3f);
  CrowdRenderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_crowd(crowd, error)) << error;
  renderer.upload(crowd);

  Character single(m, crowd.shared_skin_layer());
  size_t compared = 0;
  for (size_t d = 0; d < m.draws.size(); ++d) {
    const DrawItem& item = m.draws[d];
    const size_t n = m.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
    std::vector<glm::vec3> gpu_p(n * 5), gpu_n(n * 5), cpu_p(n), cpu_n(n);
    ASSERT_TRUE(renderer.read_back(d, method, gpu_p, gpu_n, error)) << error;
    for (int k = 0; k < 5; ++k) {
      // The instances really differ: none is at instance 0's pose time.
      single.evaluate(Crowd::selection(m, crowd.instance(k), crowd.time()));
      single.skin_draw_item(item, method, cpu_p, cpu_n);
      Bounds box;
      for (const glm::vec3& p : cpu_p) box.add(p);
      const double tolerance = kRelativeTolerance * std::max(box.diagonal(), 1e-3f);
      double worst = 0.0;
      for (size_t v = 0; v < n; ++v)
        worst = std::max<double>(
            worst, glm::length(gpu_p[size_t(k) * n + v] - (cpu_p[v] + kCells[k] * 1.0f)));
      EXPECT_LE(worst, tolerance) << "instance " << k << " draw " << d;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0u);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

Model load(const std::string& path) {
  Model m;
  std::string error;
  EXPECT_TRUE(import_gltf(path, m, error)) << error;
  return m;
}

TEST(CrowdRender, InstancesEqualSingleCharactersPlusTheirCell) {
  RIG_REQUIRE_GL();
  const Model m = load(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb");
  expect_instances_match_single_characters(m, SkinningMethod::Linear);
  expect_instances_match_single_characters(m, SkinningMethod::DualQuaternion);
}

TEST(CrowdRender, CorpusFoxInstancesEqualSingleCharacters) {
  RIG_REQUIRE_GL();
  RIG_REQUIRE_CORPUS(corpus);
  const Model m = load((corpus / "Fox/Fox.glb").string());
  expect_instances_match_single_characters(m, SkinningMethod::Linear);
}

// A rigid (unskinned) item on an animated node: each instance's own node matrix, then its cell.
TEST(CrowdRender, RigidItemsFollowEachInstancePoseAtTheirCells) {
  RIG_REQUIRE_GL();
  Model m = test::chain_model({test::ChainJoint{}}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                              {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, 0, {}, {}, {0, 1, 2});
  m.skins.clear();
  m.nodes[0].skin = -1;
  m.draws[0].skin = -1;
  m.nodes[0].rest.translation = glm::vec3(0.5f, 2.0f, -3.0f);
  m.nodes[0].rest.scale = glm::vec3(2.0f);
  // Node 0 slides from x = 0.5 to x = 4.5 over 2 s.
  Clip slide;
  slide.end = 2.0f;
  Channel channel;
  channel.node = 0;
  channel.times = {0.0f, 2.0f};
  channel.values = {0.5f, 2.0f, -3.0f, 4.5f, 2.0f, -3.0f};
  slide.channels.push_back(channel);
  m.clips.push_back(slide);
  std::string error;
  CrowdConfig config;
  config.count = 5;
  config.spacing = 2.0f;
  Crowd crowd(m, nullptr, config);
  crowd.update(0.7f);
  CrowdRenderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_crowd(crowd, error)) << error;
  std::vector<glm::vec3> p(15), n(15);
  ASSERT_TRUE(renderer.read_back(0, SkinningMethod::Linear, p, n, error)) << error;
  // Vertex v of instance k at its clip time t: 2 · vertex + (0.5 + 2 t, 2, -3) + cell k.
  const glm::vec3 vertices[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (int k = 0; k < 5; ++k)
    for (int v = 0; v < 3; ++v) {
      const float t = Crowd::selection(m, crowd.instance(k), crowd.time()).time;
      const glm::vec3 expected =
          2.0f * vertices[v] + glm::vec3(0.5f + 2.0f * t, 2.0f, -3.0f) + kCells[k];
      EXPECT_LE(glm::length(p[size_t(k) * 3 + v] - expected), 1e-5f) << k << " " << v;
      EXPECT_LE(glm::length(n[size_t(k) * 3 + v] - glm::vec3(0, 0, 1)), 1e-5f) << k << " " << v;
    }
}

TEST(CrowdRender, BoundsCoverEveryCell) {
  const Model m = load(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb");
  CrowdConfig config;
  config.count = 5;
  config.spacing = 2.0f;
  Crowd crowd(m, nullptr, config);
  const Bounds all = crowd_bounds(crowd, Bounds{glm::vec3(-0.5f), glm::vec3(0.5f)});
  // Cells x in {-2, 0, 2}, z in {-1, 1}, each widened by the half-unit box.
  EXPECT_EQ(all.min, glm::vec3(-2.5f, -0.5f, -1.5f));
  EXPECT_EQ(all.max, glm::vec3(2.5f, 0.5f, 1.5f));
  EXPECT_FALSE(crowd_bounds(crowd, Bounds{}).valid());
}

TEST(CrowdRender, DrawsEveryInstanceOnTheGrid) {
  RIG_REQUIRE_GL();
  const Model m = load(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb");
  std::string error;
  CrowdConfig config;
  config.count = 9;
  Crowd crowd(m, nullptr, config);
  crowd.update(0.5f);
  CrowdRenderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_crowd(crowd, error)) << error;
  OffscreenTarget target;
  ASSERT_TRUE(target.create(192, 192, 1, error)) << error;
  target.bind();
  // Straight down on the 3 × 3 grid: each cell's centre column of pixels sees its instance.
  const Bounds all = crowd_bounds(crowd, Bounds{glm::vec3(-0.5f), glm::vec3(0.5f)});
  Camera camera;
  const float half = 0.5f * std::max(all.max.x - all.min.x, all.max.z - all.min.z);
  camera.eye = glm::vec3(0.0f, 100.0f, 0.0f);
  camera.view = glm::lookAt(camera.eye, glm::vec3(0.0f), glm::vec3(0, 0, -1));
  camera.projection = glm::ortho(-half, half, -half, half, 1.0f, 200.0f);
  const Viewport viewport{0, 0, 192, 192};
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  renderer.draw(camera, viewport, SkinningMethod::Linear, /*grid=*/false);
  std::vector<uint8_t> rgba;
  target.read_rgba(rgba);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  // Per cell: some pixel within a fifth of the spacing of its centre is not black.
  for (int k = 0; k < 9; ++k) {
    const glm::vec3 c = crowd.offset(k);
    const int cx = int((c.x + half) / (2 * half) * 192);
    const int cy = int((c.z + half) / (2 * half) * 192);  // rows top-down; up on screen is -z
    const int r = int(crowd.spacing() / (2 * half) * 192 / 5);
    bool seen = false;
    for (int y = std::max(0, cy - r); y < std::min(192, cy + r) && !seen; ++y)
      for (int x = std::max(0, cx - r); x < std::min(192, cx + r) && !seen; ++x) {
        const uint8_t* p = &rgba[(size_t(y) * 192 + size_t(x)) * 4];
        seen = p[0] > 20 || p[1] > 20 || p[2] > 20;
      }
    EXPECT_TRUE(seen) << "instance " << k;
  }
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

}  // namespace
}  // namespace rig::render
