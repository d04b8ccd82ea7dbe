// The posing frame (layered PoseStack with masks and an additive layer, root motion, two-bone IK,
// aim, feet on the ground) must not allocate. This file counts at the malloc level (the replaced
// operator new in no_allocation_test.cpp calls malloc, and keeps its own count private), by
// interposing glibc's malloc; sanitizer builds own malloc themselves, so there the test skips.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "anim/joint_mask.h"
#include "character/character.h"
#include "character/feet_on_ground.h"
#include "character/pose_stack.h"
#include "character/posing_constraints.h"
#include "import/gltf_import.h"
#include "viewer/posing.h"

#if defined(__SANITIZE_ADDRESS__)
#define RIG_POSING_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIG_POSING_UNDER_ASAN 1
#endif
#endif

#if defined(RIG_POSING_UNDER_ASAN)
#define RIG_POSING_COUNTS_MALLOC 0
#else
#define RIG_POSING_COUNTS_MALLOC 1
namespace {
std::atomic<long> g_posing_mallocs{0};
}
extern "C" void* __libc_malloc(std::size_t size);
extern "C" void* malloc(std::size_t size) noexcept {
  g_posing_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
#endif

namespace rig {
namespace {

#if RIG_POSING_COUNTS_MALLOC
long mallocs() { return g_posing_mallocs.load(); }
#else
long mallocs() { return 0; }
#endif

int clip_index(const Model& m, const char* name) {
  for (size_t i = 0; i < m.clips.size(); ++i)
    if (m.clips[i].name == name) return int(i);
  return -1;
}

// A LINEAR material channel over `clip`'s time range, `components` floats from 0.2 to 0.8.
void add_material_channel(Clip& clip, MaterialProperty property, uint32_t components) {
  MaterialChannel c;
  c.material = 0;
  c.property = property;
  c.keys.components = components;
  c.keys.times = {clip.start, clip.end};
  c.keys.values.assign(components, 0.2f);
  c.keys.values.resize(2 * components, 0.8f);
  clip.material_channels.push_back(c);
}

TEST(PerFramePosing, TheMallocCounterSeesAllocations) {
  if (!RIG_POSING_COUNTS_MALLOC) GTEST_SKIP() << "sanitizer build: malloc is not ours to count";
  const long before = mallocs();
  std::vector<int> v(100);
  void* volatile escape = v.data();  // the allocation cannot be optimized away
  (void)escape;
  EXPECT_GE(mallocs() - before, 1);
}

TEST(PerFramePosing, LayeredFrameWithIKAimRootMotionAndFeetDoesNotAllocate) {
  if (!RIG_POSING_COUNTS_MALLOC) GTEST_SKIP() << "sanitizer build: malloc is not ours to count";
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
      << error;
  const int walk = clip_index(m, "Walk"), run = clip_index(m, "Run");
  // Material channels on every clip the frame plays, so the material crossfade, override layer
  // and additive layer (with its reference) run too.
  if (m.materials.empty()) m.materials.emplace_back();
  add_material_channel(m.clips[size_t(walk)], MaterialProperty::BaseColorFactor, 4);
  add_material_channel(m.clips[size_t(run)], MaterialProperty::EmissiveFactor, 3);
  add_material_channel(m.clips[size_t(clip_index(m, "Wave"))], MaterialProperty::MetallicFactor, 1);
  add_material_channel(m.clips[size_t(clip_index(m, "Bend"))], MaterialProperty::TextureRotation,
                       1);
  Character character(m);
  PoseStack stack(character);
  PoseLayer wave;
  wave.clip = clip_index(m, "Wave");
  wave.mask = subtree_mask(m, {"RightShoulder"});
  stack.add_layer(wave);
  PoseLayer bend;
  bend.clip = clip_index(m, "Bend");
  bend.mode = BlendMode::Additive;
  bend.weight = 0.3f;
  bend.mask = subtree_mask(m, {"Spine"});
  stack.add_layer(bend);
  RootMotionSettings extract{RootMotionMode::Extract};
  extract.include_yaw = true;
  stack.set_root_motion(walk, extract);
  stack.set_root_motion(run, {RootMotionMode::InPlace});
  stack.placement_node = stack.root_motion(walk).root();
  RootMotionAccumulator accumulator;

  const int feet_nodes[] = {find_node(m, "LeftFoot"), find_node(m, "RightFoot")};
  FeetOnGround feet(m, walk, feet_nodes);
  TwoBoneIKConstraint hand;
  hand.ik.chain = {find_node(m, "LeftArm"), find_node(m, "LeftForeArm"), find_node(m, "LeftHand")};
  hand.ik.target = {0.4f, 1.2f, 0.4f};
  hand.ik.soften = 0.05f;
  AimConstraint look(chain_between(m, find_node(m, "Spine1"), find_node(m, "Head")));
  look.aim.target = {1.0f, 1.7f, 2.0f};
  std::vector<PoseConstraint*> constraints(feet.constraints().begin(), feet.constraints().end());
  constraints.push_back(&hand);
  constraints.push_back(&look);
  character.set_constraints(constraints);

  const float duration = m.clips[size_t(walk)].end - m.clips[size_t(walk)].start;
  float time = 0.0f;
  auto frame = [&](int f) {
    float next = time + 1.0f / 30.0f;
    if (next >= duration) next -= duration;
    accumulator.advance(stack.root_motion(walk), time, next, loops_between(time, next, 1.0f));
    time = next;
    stack.base = {walk, time, run, time * 0.7f, 0.25f};
    stack.layer(0).time = 1.0f + time;
    stack.layer(0).weight = 0.5f + 0.01f * float(f % 10);
    stack.layer(1).time = 0.5f * time;
    stack.placement = accumulator.placement();
    feet.update(time, &stack.placement);
    look.aim.target.x = 0.1f * float(f % 7);
    character.evaluate(stack);
    (void)character.palette(0, SkinningMethod::Linear);
    (void)character.palette(0, SkinningMethod::DualQuaternion);
  };
  frame(0);  // the additive reference is sampled on first use (into buffers sized already)
  const long before = mallocs();
  for (int f = 1; f <= 60; ++f) frame(f);
  EXPECT_EQ(mallocs() - before, 0);
  // The material stage ran: the crossfade's and layers' channels changed the material.
  EXPECT_TRUE(character.material_pose().any_animated);
  EXPECT_NE(character.material_pose().values[0].base_color, m.materials[0].base_color_factor);
}

// The viewer's posing frame (app/viewer/posing.h): the Posing panel's layers, an IK chain whose
// target the handle drags every frame, feet on the ground, a look-at following the moving
// camera and extracted root motion, through a loop of the walk and a scrub back.
TEST(PerFramePosing, ViewerPosingFrameDoesNotAllocate) {
  if (!RIG_POSING_COUNTS_MALLOC) GTEST_SKIP() << "sanitizer build: malloc is not ours to count";
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
      << error;
  const int walk = clip_index(m, "Walk");
  Character character(m);
  character.evaluate(PoseSelection{walk, m.clips[size_t(walk)].start});
  rigview::Posing posing(m, character);
  posing.add_layer({clip_index(m, "Wave"), 0.5f, false, find_node(m, "Spine"), 1.0f});
  posing.add_layer({clip_index(m, "Bend"), 0.3f, true, -1, 0.5f});
  ASSERT_TRUE(posing.add_ik_chain(find_node(m, "LeftHand"), error)) << error;
  posing.ik(0).use_pole = true;
  ASSERT_TRUE(posing.set_feet_on_ground(true, error)) << error;
  ASSERT_TRUE(posing.set_look_at(true, find_node(m, "Head"), error)) << error;
  posing.set_root_motion(rigview::RootMotionChoice::Extract);
  posing.follow_camera = true;

  const float start = m.clips[size_t(walk)].start, duration = m.clips[size_t(walk)].end - start;
  float time = start;
  const glm::vec3 target = posing.ik(0).target;
  auto frame = [&](int f) {
    const bool scrubbing = f > 45;  // the last frames scrub backwards, paused
    time += scrubbing ? -0.02f : 1.0f / 30.0f;
    if (time >= start + duration) time -= duration;
    posing.ik(0).target = target + glm::vec3(0.002f * float(f % 9), -0.001f * float(f % 5), 0.0f);
    posing.evaluate(PoseSelection{walk, time}, glm::vec3(2.0f, 1.5f, 0.1f * float(f)), !scrubbing,
                    1.0f);
    (void)character.palette(0, SkinningMethod::Linear);
  };
  frame(0);  // the feet's contacts are detected for the clip on its first frame
  const long before = mallocs();
  for (int f = 1; f <= 60; ++f) frame(f);
  EXPECT_EQ(mallocs() - before, 0);
  // It did pose: the hand is on its (reachable) target, the feet chains are in the list.
  EXPECT_LT(glm::length(glm::vec3(character.world()[size_t(find_node(m, "LeftHand"))][3]) -
                        posing.ik(0).target),
            1e-3f);
  ASSERT_NE(posing.contacts(), nullptr);
}

}  // namespace
}  // namespace rig
