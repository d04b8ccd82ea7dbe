// LocalToWorldJob: every case validate() refuses (and run() then writes nothing), and run()
// against world matrices of a three-joint chain computed by hand, over the whole hierarchy (the
// importer's order and the by-depth order) and over one subtree.
#include "anim/local_to_world_job.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;

void expect_mat4(const glm::mat4& got, const glm::mat4& want, float tol = 1e-5f) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(got[c][r], want[c][r], tol) << "column " << c;
}

// Root at (1, 0, 0) turned 90° about Z; its child 2 along the root's X, scaled 2; the
// grandchild 1 along the child's Y, turned 90° about X.
Model chain() {
  Model m;
  const int root = test::add_node(m, "root", -1, {1, 0, 0}, axis_angle({0, 0, 1}, 90));
  const int child = test::add_node(m, "child", root, {2, 0, 0});
  m.nodes[size_t(child)].rest.scale = {2, 2, 2};
  test::add_node(m, "grandchild", child, {0, 1, 0}, axis_angle({1, 0, 0}, 90));
  return m;
}

// By hand, columns (column-major): Rz90 takes x → y, y → −x; Rx90 takes y → z, z → −y.
//   W0 = T(1,0,0)·Rz90          = [ (0,1,0,0) (−1,0,0,0) (0,0,1,0) (1,0,0,1) ]
//   W1 = W0·T(2,0,0)·S(2)       = [ (0,2,0,0) (−2,0,0,0) (0,0,2,0) (1,2,0,1) ]
//   W2 = W1·T(0,1,0)·Rx90       = [ (0,2,0,0) (0,0,2,0) (2,0,0,0) (−1,2,0,1) ]
// (W2's origin: the child's Y offset 1, scaled to 2, turned by Z90 to (−2, 0, 0), plus the
// child's origin (1, 2, 0).)
const glm::mat4 kW0(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1);
const glm::mat4 kW1(0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 0, 1);
const glm::mat4 kW2(0, 2, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, -1, 2, 0, 1);

std::vector<Transform> rest_locals(const Model& m) {
  std::vector<Transform> local;
  for (const Node& n : m.nodes) local.push_back(n.rest);
  return local;
}

const glm::mat4 kSentinel(-7.0f);

bool untouched(const std::vector<glm::mat4>& world) {
  for (const glm::mat4& w : world)
    if (w != kSentinel) return false;
  return true;
}

// validate() false, and run() returns false without writing anything.
void expect_refused(const LocalToWorldJob& job, const std::vector<glm::mat4>& world) {
  EXPECT_FALSE(job.validate());
  EXPECT_FALSE(job.run());
  EXPECT_TRUE(untouched(world));
}

TEST(LocalToWorldJobValidate, RefusesNoSkeleton) {
  const Model m = chain();
  const std::vector<Transform> local = rest_locals(m);
  std::vector<glm::mat4> world(3, kSentinel);
  LocalToWorldJob job;
  job.local = local;
  job.world = world;
  expect_refused(job, world);
}

TEST(LocalToWorldJobValidate, RefusesSpansOfTheWrongSize) {
  const Model m = chain();
  const std::vector<Transform> local = rest_locals(m), short_local(2), long_local(4);
  std::vector<glm::mat4> world(3, kSentinel), short_world(2, kSentinel);
  const Skeleton s = Skeleton::build(m);
  LocalToWorldJob job;
  job.skeleton = &s;
  job.world = world;
  for (const std::vector<Transform>* bad : {&short_local, &long_local}) {
    job.local = *bad;
    expect_refused(job, world);
  }
  job.local = local;
  job.world = short_world;
  expect_refused(job, short_world);
}

TEST(LocalToWorldJobValidate, RefusesASubtreeWithoutAMatchingHierarchyOrOutOfRange) {
  const Model m = chain();
  const std::vector<Transform> local = rest_locals(m);
  std::vector<glm::mat4> world(3, kSentinel);
  const Skeleton s = Skeleton::build(m);
  Skeleton no_hierarchy = s;
  no_hierarchy.hierarchy = {};
  LocalToWorldJob job;
  job.skeleton = &no_hierarchy;
  job.local = local;
  job.world = world;
  job.root = 1;  // no hierarchy
  expect_refused(job, world);
  job.skeleton = &s;
  job.root = 3;  // one past the last node
  expect_refused(job, world);
  // A hierarchy built for another model (two nodes).
  Model other;
  test::add_node(other, "a", -1, {0, 0, 0});
  test::add_node(other, "b", 0, {0, 0, 0});
  Skeleton wrong = s;
  wrong.hierarchy = NodeHierarchy::build(other);
  job.skeleton = &wrong;
  job.root = 1;
  expect_refused(job, world);
  // A skeleton of another model altogether.
  const Skeleton two = Skeleton::build(other);
  job.skeleton = &two;
  job.root = -1;
  expect_refused(job, world);
}

// The whole hierarchy's world matrices at rest: in the importer's order (a skeleton without its
// by-depth order) and by depth, each run checked to succeed.
std::array<std::vector<glm::mat4>, 2> whole_hierarchy_both_ways(const Model& m) {
  const std::vector<Transform> local = rest_locals(m);
  const Skeleton s = Skeleton::build(m);
  Skeleton parents_first = s;
  parents_first.hierarchy.by_depth.clear();
  std::array<std::vector<glm::mat4>, 2> out;
  for (size_t way = 0; way < 2; ++way) {
    out[way].assign(m.nodes.size(), kSentinel);
    LocalToWorldJob job;
    job.skeleton = way == 0 ? &parents_first : &s;
    job.local = local;
    job.world = out[way];
    EXPECT_TRUE(job.validate());
    EXPECT_TRUE(job.run());
  }
  return out;
}

TEST(LocalToWorldJobRun, ChainMatchesTheHandComputedMatricesInEveryOrder) {
  for (const std::vector<glm::mat4>& world : whole_hierarchy_both_ways(chain())) {
    expect_mat4(world[0], kW0);
    expect_mat4(world[1], kW1);
    expect_mat4(world[2], kW2);
  }
}

// The same chain stored children first (grandchild 0, child 1, root 2): the parents-first order
// (Model::node_order) decides, not the node indices.
TEST(LocalToWorldJobRun, NodesStoredChildrenFirstGiveTheSameMatrices) {
  const Model forward = chain();
  Model m;
  m.nodes = {forward.nodes[2], forward.nodes[1], forward.nodes[0]};
  m.nodes[0].parent = 1;
  m.nodes[1].parent = 2;
  m.nodes[1].children = {0};
  m.nodes[2].children = {1};
  m.scene_roots = {2};
  m.node_order = {2, 1, 0};
  for (const std::vector<glm::mat4>& world : whole_hierarchy_both_ways(m)) {
    expect_mat4(world[2], kW0);
    expect_mat4(world[1], kW1);
    expect_mat4(world[0], kW2);
  }
}

// root = 1 recomputes the child and the grandchild from world[0] as it stands, and leaves
// world[0] alone: with world[0] the identity (not W0) the child is T(2,0,0)·S(2) and the
// grandchild T(2,0,0)·S(2)·T(0,1,0)·Rx90 = [ (2,0,0,0) (0,0,2,0) (0,−2,0,0) (2,2,0,1) ].
TEST(LocalToWorldJobRun, SubtreeUsesItsParentsWorldAsItStands) {
  const Model m = chain();
  const std::vector<Transform> local = rest_locals(m);
  const Skeleton s = Skeleton::build(m);
  std::vector<glm::mat4> world(3, kSentinel);
  world[0] = glm::mat4(1.0f);
  LocalToWorldJob job;
  job.skeleton = &s;
  job.local = local;
  job.world = world;
  job.root = 1;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(world[0], glm::mat4(1.0f));
  expect_mat4(world[1], glm::mat4(2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 2, 0, 0, 1));
  expect_mat4(world[2], glm::mat4(2, 0, 0, 0, 0, 0, 2, 0, 0, -2, 0, 0, 2, 2, 0, 1));
  // root = 2 after a full update: only the leaf changes when only its local transform does.
  job.root = -1;
  ASSERT_TRUE(job.run());
  std::vector<Transform> turned = local;
  turned[2].rotation = glm::quat(1, 0, 0, 0);
  job.local = turned;
  job.root = 2;
  ASSERT_TRUE(job.run());
  expect_mat4(world[0], kW0);
  expect_mat4(world[1], kW1);
  // W1·T(0,1,0): the leaf's origin as before, its axes W1's.
  expect_mat4(world[2], glm::mat4(0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, -1, 2, 0, 1));
}

}  // namespace
}  // namespace rig
