// The renderer's per-frame path (update, clear, draw, draw_compare, draw_text, GPU timer) must
// not allocate: everything it needs is sized in init() and set_model(). Global operator new is
// replaced in this test binary (rig_render_perframe_tests, its own: it needs GL, the other
// per-frame binary does not) and counts the calls made on the test's thread while a frame runs;
// the GL driver's own threads do not count.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "character/character.h"
#include "character/crowd.h"
#include "crowd_material_model.h"
#include "import/gltf_import.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "skin/skin_layer.h"
#include "test_support.h"

// The replacements below pair malloc with free on purpose; GCC cannot see that every delete
// here receives a pointer from these news.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<long> g_allocations{0};
thread_local bool t_counting = false;

void* counted_malloc_or_null(std::size_t n) noexcept {
  if (t_counting) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* counted_malloc(std::size_t n) {
  if (void* p = counted_malloc_or_null(n)) return p;
  throw std::bad_alloc();
}
}  // namespace

// The nothrow forms too: the GL driver (LLVM) uses them and frees through plain delete, which
// must match the allocator (AddressSanitizer checks it).
void* operator new(std::size_t n) { return counted_malloc(n); }
void* operator new[](std::size_t n) { return counted_malloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc_or_null(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc_or_null(n);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace rig::render {
namespace {

// Counts the allocations made on this thread while it lives.
class AllocationCounter {
 public:
  AllocationCounter() : start_(g_allocations.load()) { t_counting = true; }
  ~AllocationCounter() { t_counting = false; }
  long count() const { return g_allocations.load() - start_; }

 private:
  long start_;
};

// One frame as the viewer draws it, with every overlay on: `frame` varies the pose, the
// skinning, the weight view and its joint, so each per-frame branch runs.
void draw_frame(Renderer& renderer, Character& character, const Model& model, int frame,
                const Viewport& viewport) {
  PoseSelection selection;
  if (!model.clips.empty()) {
    const Clip& clip = model.clips[0];
    selection.clip = 0;
    selection.time = clip.start + (clip.end - clip.start) * float(frame % 7) / 7.0f;
  }
  character.evaluate(selection);
  renderer.update(character);
  OrbitCamera orbit;
  orbit.distance = 5.0f;
  DrawOptions options;
  options.wireframe = true;
  options.skeleton = true;
  const int joint_node = model.skins.empty() ? -1 : model.skins[0].joints[frame % 2];
  options.selected_joint_node = joint_node;
  options.weight_joint_node = joint_node;
  options.weight_view = frame % 3 == 0   ? WeightView::SelectedJoint
                        : frame % 3 == 1 ? WeightView::InfluenceCount
                                         : WeightView::Off;
  options.method = frame % 2 ? SkinningMethod::DualQuaternion : SkinningMethod::Linear;
  // The studio look (environment, tone mapping) every other frame pair, turning.
  options.lights = frame % 4 < 2 ? LightSetup::Studio : LightSetup::Viewer;
  options.look.environment_rotation_deg = float(frame) * 10.0f;
  options.look.tone_mapping = frame % 3 == 0 ? ToneMapping::Aces : ToneMapping::Neutral;
  options.shadows = frame % 3 != 2;  // the shadow pass and catcher, with the grid, too
  renderer.begin_gpu_timer();
  renderer.clear(viewport, options.background);
  renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
  renderer.draw_compare(orbit.camera(0.5f * viewport.aspect()), viewport, options, true);
  renderer.draw_text(viewport, 10.0f, 10.0f, 2.0f, glm::vec3(1.0f), "frame text 0123");
  renderer.end_gpu_timer();
  (void)renderer.gpu_time_ms();
}

void expect_frames_do_not_allocate(const Model& model) {
  std::string error;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, error)) << error;
  OffscreenTarget target;
  ASSERT_TRUE(target.create(160, 120, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 160, 120};
  Character character(model);
  // Warm-up: the driver builds its shader variants for each state on first use.
  for (int frame = 0; frame < 6; ++frame) draw_frame(renderer, character, model, frame, viewport);
  glFinish();
  long allocations = 0;
  {
    AllocationCounter counter;
    for (int frame = 0; frame < 12; ++frame)
      draw_frame(renderer, character, model, frame, viewport);
    allocations = counter.count();
  }
  glFinish();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(allocations, 0) << model.file;
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

TEST(RendererPerFrame, AFrameDoesNotAllocate) {
  RIG_REQUIRE_GL();
  // The counter itself works: a vector that grows is seen.
  {
    AllocationCounter counter;
    std::vector<int> grows;
    grows.push_back(1);
    EXPECT_EQ(counter.count(), 1);  // the first element's buffer
  }
  // Beyond the uniform-block limit: texture-buffer palettes (1500 joints).
  std::vector<test::ChainJoint> chain(1500);
  for (size_t j = 1; j < chain.size(); ++j) chain[j].translation = glm::vec3(0.0f, 0.01f, 0.0f);
  const Model long_chain = test::chain_model(
      chain, {glm::vec3(0.0f), glm::vec3(0.1f, 0.0f, 0.0f), glm::vec3(0.0f, 0.1f, 0.0f)},
      {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)}, 4,
      {0, 1, 0, 0, 1, 2, 0, 0, 1499, 0, 0, 0}, {0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0},
      {0, 1, 2});
  expect_frames_do_not_allocate(long_chain);
}

// Weight edits between frames, as a brush makes them: after the first edit (which may widen a
// primitive's influence slots), an edit and the frame that uploads it allocate nothing.
TEST(RendererPerFrame, SkinEditsAfterTheFirstDoNotAllocate) {
  RIG_REQUIRE_GL();
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  auto layer = std::make_shared<SkinLayer>(model);
  uint32_t primitive = 0;
  while (primitive < layer->meshes().primitives.size() &&
         !layer->meshes().primitives[primitive].skinned())
    ++primitive;
  ASSERT_LT(primitive, layer->meshes().primitives.size());
  const uint32_t vertices = layer->meshes().primitives[primitive].vertex_count;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, layer, error)) << error;
  OffscreenTarget target;
  ASSERT_TRUE(target.create(160, 120, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 160, 120};
  Character character(model, layer);
  const uint16_t joints[] = {0, 1};
  auto edit = [&](int frame) {
    const float w = float(frame % 5) / 4.0f;
    const float weights[] = {w, 1.0f - w};
    return layer->set_influences(primitive, uint32_t(frame * 7) % vertices, joints, weights, error);
  };
  for (int frame = 0; frame < 6; ++frame) {
    ASSERT_TRUE(edit(frame)) << error;
    draw_frame(renderer, character, model, frame, viewport);
  }
  glFinish();
  const uint64_t uploaded = renderer.influence_vertices_uploaded();
  long allocations = 0;
  bool edited = true;
  {
    AllocationCounter counter;
    for (int frame = 0; frame < 12; ++frame) {
      edited = edit(frame) && edited;
      draw_frame(renderer, character, model, frame, viewport);
    }
    allocations = counter.count();
  }
  glFinish();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_TRUE(edited) << error;
  EXPECT_EQ(allocations, 0);
  EXPECT_GE(renderer.influence_vertices_uploaded() - uploaded, 12u);  // every edit was uploaded
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

// The crowd frame with 100 characters: update (this thread's share; the workers are counted by
// the engine's per-frame test), palette upload, instanced draw with the GPU timer.
void expect_crowd_frames_do_not_allocate(const Model& model) {
  SCOPED_TRACE(model.file);
  std::string error;
  CrowdConfig config;
  config.count = 100;
  Crowd crowd(model, nullptr, config);
  CrowdRenderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_crowd(crowd, error)) << error;
  OffscreenTarget target;
  ASSERT_TRUE(target.create(160, 120, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 160, 120};
  OrbitCamera orbit;
  orbit.distance = 20.0f;
  const Camera camera = orbit.camera(viewport.aspect());
  // With the key light's shadow: its depth pass runs every frame (the crowd moves on).
  // Frames alternate between the classic and the studio look (the glTF shading's frame).
  CrowdDrawOptions options;
  options.shadows = true;
  auto frame = [&] {
    options.lights = options.lights == LightSetup::Viewer ? LightSetup::Studio : LightSetup::Viewer;
    crowd.update(1.0f / 60.0f);
    renderer.upload(crowd);
    renderer.draw(camera, viewport, SkinningMethod::Linear, options);
    (void)renderer.gpu_time_ms();
    (void)renderer.upload_ms();
  };
  for (int i = 0; i < 3; ++i) frame();  // warm-up: the driver's shader variants
  glFinish();
  long allocations = 0;
  {
    AllocationCounter counter;
    for (int i = 0; i < 6; ++i) frame();
    allocations = counter.count();
  }
  glFinish();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(renderer.shadow_passes_drawn(), 9u);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

TEST(RendererPerFrame, ACrowdFrameDoesNotAllocate) {
  RIG_REQUIRE_GL();
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  expect_crowd_frames_do_not_allocate(model);
}

// Clips that animate a material: the instances' material rows are uploaded every frame too.
TEST(RendererPerFrame, AMaterialAnimatedCrowdFrameDoesNotAllocate) {
  RIG_REQUIRE_GL();
  const Model model = rig::test::crowd_material_model();
  expect_crowd_frames_do_not_allocate(model);
}

TEST(RendererPerFrame, CorpusModelsDoNotAllocatePerFrame) {
  RIG_REQUIRE_GL();
  RIG_REQUIRE_CORPUS(corpus);
  // Textured and skinned; 84 skins; morph targets on a skinned mesh.
  for (const char* file : {"CesiumMan/CesiumMan.glb", "RecursiveSkeletons/RecursiveSkeletons.glb",
                           "RobotExpressive/RobotExpressive.glb"}) {
    Model model;
    std::string error;
    ASSERT_TRUE(import_gltf((corpus / file).string(), model, error)) << error;
    expect_frames_do_not_allocate(model);
  }
}

}  // namespace
}  // namespace rig::render
