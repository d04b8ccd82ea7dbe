// Skin-weight views (DrawOptions::weight_view): a strip of quads with known weights, each quad
// uniform, rendered head-on; the pixel over each quad must show the documented colour
// (render/weight_colors.h: heat map dark blue 0 → teal → green → yellow → red 1, grey for
// weight 0, magenta for a vertex with no usable influence; influence counts 1 blue, 2 green).
// Expectations are the documented colours' hues and orderings, not the renderer's output.
#include "render/weight_view.h"

#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/scalar_field.h"
#include "character/character.h"
#include "import/gltf_import.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "test_support.h"

namespace rig::render {
namespace {

using test::load_png;

constexpr int kWidth = 320, kHeight = 240;
const glm::vec3 kBackground(0.0f, 0.0f, 0.0f);

// Joint-0 / joint-1 weights of each skinned quad, left to right. The sixth does not sum to 1
// (0.3 / 0.1): after the skinning's renormalization joint 0 has 0.75 there. The seventh has no
// weight at all (broken).
constexpr int kSkinnedQuads = 7;
constexpr std::array<std::array<float, 2>, kSkinnedQuads> kQuadWeights = {{
    {1.0f, 0.0f},
    {0.75f, 0.25f},
    {0.5f, 0.5f},
    {0.25f, 0.75f},
    {0.0f, 1.0f},
    {0.3f, 0.1f},
    {0.0f, 0.0f},
}};
constexpr int kRigidQuad = kSkinnedQuads;  // an unskinned quad after the skinned ones
constexpr int kQuads = kSkinnedQuads + 1;
constexpr float kQuadStep = 1.2f;  // 1 wide, 0.2 gap
constexpr int kJoint0Node = 1, kJoint1Node = 2, kMeshNode = 0;

glm::vec3 quad_center(int q) { return glm::vec3(float(q) * kQuadStep + 0.5f, 0.5f, 0.0f); }

void add_quad(int q, std::vector<glm::vec3>& pos, std::vector<glm::vec3>& nrm,
              std::vector<uint32_t>& idx) {
  const uint32_t base = static_cast<uint32_t>(pos.size());
  const float x = float(q) * kQuadStep;
  for (const glm::vec2 corner :
       {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(1, 1), glm::vec2(0, 1)}) {
    pos.push_back(glm::vec3(x + corner.x, corner.y, 0.0f));
    nrm.push_back(glm::vec3(0.0f, 0.0f, 1.0f));
  }
  idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

// Two joints at the origin (identity bind), so the rest pose is the bind pose: the quads stay in
// the z = 0 plane facing +Z. Node 0 the skinned mesh, nodes 1 and 2 the joints, node 3 the
// rigid quad.
Model weight_strip() {
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  std::vector<uint32_t> idx;
  for (int q = 0; q < kSkinnedQuads; ++q) {
    add_quad(q, pos, nrm, idx);
    for (int corner = 0; corner < 4; ++corner) {
      ids.insert(ids.end(), {0, 1, 0, 0});
      w.insert(w.end(), {kQuadWeights[q][0], kQuadWeights[q][1], 0.0f, 0.0f});
    }
  }
  Model m = test::chain_model(std::vector<test::ChainJoint>(2), pos, nrm, 4, ids, w, idx);
  m.nodes[2].rest.translation = glm::vec3(0.0f);  // both joints at the origin
  Primitive rigid;
  add_quad(kRigidQuad, rigid.positions, rigid.normals, rigid.indices);
  Mesh mesh;
  mesh.name = "rigid";
  mesh.primitives.push_back(std::move(rigid));
  m.meshes.push_back(std::move(mesh));
  Node node;
  node.name = "rigid";
  node.mesh = 1;
  m.nodes.push_back(node);
  const int rigid_node = static_cast<int>(m.nodes.size()) - 1;
  m.scene_roots.push_back(rigid_node);
  m.node_order.push_back(rigid_node);
  m.draws.push_back(DrawItem{rigid_node, 1, 0, -1});
  return m;
}

struct Render {
  std::vector<uint8_t> pixels;  // RGBA8, top row first
  glm::mat4 view_proj{1.0f};
  int width = kWidth;

  // Mean colour of a 5x5 block around the projection of `p`.
  glm::ivec3 at(glm::vec3 p) const {
    const glm::vec4 clip = view_proj * glm::vec4(p, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const int cx = static_cast<int>((ndc.x * 0.5f + 0.5f) * float(width));
    const int cy = static_cast<int>((0.5f - ndc.y * 0.5f) * float(kHeight));
    glm::ivec3 sum(0);
    int n = 0;
    for (int y = cy - 2; y <= cy + 2; ++y)
      for (int x = cx - 2; x <= cx + 2; ++x) {
        if (x < 0 || y < 0 || x >= width || y >= kHeight) continue;
        const uint8_t* px = &pixels[(size_t(y) * size_t(width) + size_t(x)) * 4];
        sum += glm::ivec3(px[0], px[1], px[2]);
        ++n;
      }
    return n > 0 ? sum / n : glm::ivec3(-1);
  }
  glm::ivec3 quad(int q) const { return at(quad_center(q)); }
};

// Head-on view of the strip (looking down -Z), the whole strip in frame.
Render render_strip(const DrawOptions& options, bool compare = false) {
  const Model model = weight_strip();
  std::string error;
  test::RendererWithModel setup(model);
  Renderer& renderer = setup.renderer;
  OrbitCamera orbit;
  orbit.frame(pose_bounds(setup.character));
  orbit.yaw = 0.0f;
  orbit.pitch = 0.0f;
  // Compare: one column per table row.
  const float columns = compare ? float(skinning_methods().size()) : 1.0f;
  const float view_aspect = float(kWidth) / kHeight / columns;
  const float half_width = 0.5f * kQuads * kQuadStep + 0.3f;
  orbit.distance = half_width / (std::tan(0.5f * orbit.fov_y) * view_aspect);
  OffscreenTarget target;
  EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, kWidth, kHeight};
  DrawOptions o = options;
  o.grid = false;
  renderer.clear(viewport, kBackground);
  Render r;
  if (compare)
    renderer.draw_compare(orbit.camera(view_aspect), viewport, o, false);
  else
    renderer.draw(orbit.camera(viewport.aspect()), viewport, o);
  r.view_proj = orbit.camera(view_aspect).projection * orbit.camera(view_aspect).view;
  target.read_rgba(r.pixels);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return r;
}

DrawOptions joint_view(int node, SkinningMethod method = SkinningMethod::Linear) {
  DrawOptions o;
  o.weight_view = WeightView::SelectedJoint;
  o.weight_joint_node = node;
  o.method = method;
  return o;
}

::testing::AssertionResult near(glm::ivec3 a, glm::ivec3 b, int tolerance) {
  const glm::ivec3 d = glm::abs(a - b);
  if (d.x <= tolerance && d.y <= tolerance && d.z <= tolerance)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << a.x << "," << a.y << "," << a.z << ") vs (" << b.x
                                       << "," << b.y << "," << b.z << ")";
}

std::string str(glm::ivec3 c) {
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) + ")";
}

bool is_grey(glm::ivec3 c) {
  return std::max({c.x, c.y, c.z}) - std::min({c.x, c.y, c.z}) <= 10 && c.x > 40;
}

bool is_magenta(glm::ivec3 c) { return c.x > 150 && c.z > 150 && c.y < 60; }

TEST(WeightView, JointWeightsFollowTheHeatMapFromRedToBlueAndZeroIsGrey) {
  RIG_REQUIRE_GL();
  const Render r = render_strip(joint_view(kJoint0Node));
  const glm::ivec3 w100 = r.quad(0), w75 = r.quad(1), w50 = r.quad(2), w25 = r.quad(3),
                   w0 = r.quad(4);
  SCOPED_TRACE("1: " + str(w100) + " .75: " + str(w75) + " .5: " + str(w50) + " .25: " + str(w25) +
               " 0: " + str(w0));
  // Weight 1 red, 3/4 yellow, 1/2 green, 1/4 teal.
  EXPECT_TRUE(w100.x > 150 && w100.x > w100.y + 100 && w100.x > w100.z + 100);
  EXPECT_TRUE(w75.x > 120 && w75.y > 120 && w75.z < std::min(w75.x, w75.y) - 80);
  EXPECT_TRUE(w50.y > w50.x + 60 && w50.y > w50.z + 60);
  EXPECT_TRUE(w25.y > w25.x + 60 && w25.z > w25.x + 60);
  // Red falls and blue rises as the weight drops.
  EXPECT_GT(w100.x, w75.x + 5);
  EXPECT_GT(w75.x, w50.x + 40);
  EXPECT_GT(w50.x, w25.x + 10);
  EXPECT_LT(w100.z, w75.z);
  EXPECT_LT(w75.z, w50.z - 10);
  EXPECT_LT(w50.z, w25.z - 30);
  // Weight exactly 0: neutral grey, unlike any heat colour.
  EXPECT_TRUE(is_grey(w0));
  // No usable influence: magenta.
  EXPECT_TRUE(is_magenta(r.quad(6))) << str(r.quad(6));
}

TEST(WeightView, WeightsAreRenormalizedLikeTheSkinning) {
  RIG_REQUIRE_GL();
  const Render r = render_strip(joint_view(kJoint0Node));
  // 0.3 / (0.3 + 0.1) = 0.75: the same colour as the quad weighted 0.75 outright.
  EXPECT_TRUE(near(r.quad(5), r.quad(1), 6));
  EXPECT_FALSE(near(r.quad(5), r.quad(2), 30));  // and not the 0.5 quad's
}

TEST(WeightView, TheNodeMapsToItsOwnJointInTheSkin) {
  RIG_REQUIRE_GL();
  const Render j0 = render_strip(joint_view(kJoint0Node));
  const Render j1 = render_strip(joint_view(kJoint1Node));
  // Joint 1 has the complementary weights: 0 where joint 0 has 1, and 1 where it has 0.
  EXPECT_TRUE(is_grey(j1.quad(0))) << str(j1.quad(0));
  EXPECT_TRUE(near(j1.quad(4), j0.quad(0), 6));
  EXPECT_TRUE(near(j1.quad(3), j0.quad(1), 6));
  EXPECT_TRUE(near(j1.quad(2), j0.quad(2), 6));
  EXPECT_TRUE(near(j1.quad(1), j0.quad(3), 6));
  EXPECT_TRUE(near(j1.quad(5), j0.quad(3), 6));  // 0.1 / 0.4 = 0.25
  // A node that is no joint of the skin (the mesh node), or none: no vertex is influenced.
  for (int node : {kMeshNode, -1}) {
    const Render none = render_strip(joint_view(node));
    for (int q = 0; q < 6; ++q) EXPECT_TRUE(is_grey(none.quad(q))) << node << " " << q;
    EXPECT_TRUE(is_magenta(none.quad(6)));
  }
}

TEST(WeightView, InfluenceCountSeparatesOneAndTwoInfluences) {
  RIG_REQUIRE_GL();
  DrawOptions o;
  o.weight_view = WeightView::InfluenceCount;
  const Render r = render_strip(o);
  // One non-zero influence (weights 1/0 and 0/1): blue. Two: green.
  for (int q : {0, 4}) {
    const glm::ivec3 c = r.quad(q);
    EXPECT_TRUE(c.z > c.x + 80 && c.z > c.y + 40) << q << " " << str(c);
  }
  for (int q : {1, 2, 3, 5}) {
    const glm::ivec3 c = r.quad(q);
    EXPECT_TRUE(c.y > c.x + 60 && c.y > c.z + 40) << q << " " << str(c);
  }
  EXPECT_TRUE(is_magenta(r.quad(6))) << str(r.quad(6));
  // The count does not depend on how the weight is split.
  EXPECT_TRUE(near(r.quad(1), r.quad(3), 4));
}

TEST(WeightView, OffAndRigidItemsDrawTheNormalShading) {
  RIG_REQUIRE_GL();
  const Render normal = render_strip(DrawOptions{});
  DrawOptions off = joint_view(kJoint0Node);
  off.weight_view = WeightView::Off;
  const Render r = render_strip(off);
  // Untextured default material: every quad the same light grey, nothing heat-coloured.
  for (int q = 0; q < kQuads; ++q) {
    EXPECT_TRUE(is_grey(normal.quad(q)) && normal.quad(q).x > 120) << q << str(normal.quad(q));
    EXPECT_TRUE(near(r.quad(q), normal.quad(q), 0)) << q;
    EXPECT_TRUE(near(normal.quad(q), normal.quad(0), 4)) << q;
  }
  // In both weight views the rigid quad keeps that shading while skinned quads change.
  DrawOptions count;
  count.weight_view = WeightView::InfluenceCount;
  for (const DrawOptions& o : {joint_view(kJoint0Node), count}) {
    const Render w = render_strip(o);
    EXPECT_TRUE(near(w.quad(kRigidQuad), normal.quad(kRigidQuad), 2));
    EXPECT_FALSE(near(w.quad(0), normal.quad(0), 30));
  }
}

// The weight views are the built-in scalar fields: drawing the producers' fields through
// DrawOptions::field gives the very same pixels.
TEST(WeightView, ViewsAreTheJointWeightAndInfluenceCountFields) {
  RIG_REQUIRE_GL();
  const Model model = weight_strip();
  const SkinMeshes meshes = prepare_skin_meshes(model);
  analysis::ScalarField weights, counts;
  analysis::joint_weight_field(model, meshes, kJoint0Node, weights);
  analysis::influence_count_field(model, meshes, counts);
  DrawOptions by_field;
  by_field.field = &weights;
  by_field.weight_view = WeightView::InfluenceCount;  // the field wins
  EXPECT_EQ(render_strip(by_field).pixels, render_strip(joint_view(kJoint0Node)).pixels);
  by_field.field = &counts;
  DrawOptions count_view;
  count_view.weight_view = WeightView::InfluenceCount;
  EXPECT_EQ(render_strip(by_field).pixels, render_strip(count_view).pixels);
}

TEST(WeightView, DualQuaternionAndCompareViewsShowTheSameWeights) {
  RIG_REQUIRE_GL();
  // Every method of the table shows the same weights as LBS.
  const Render lbs = render_strip(joint_view(kJoint0Node));
  for (const SkinningMethodInfo& m : skinning_methods()) {
    const Render other = render_strip(joint_view(kJoint0Node, m.method));
    for (int q = 0; q < kQuads; ++q)
      EXPECT_TRUE(near(other.quad(q), lbs.quad(q), 4)) << m.name << q;
  }
  // Compare: each column (one per table row) shows the strip with the heat map; count red
  // (weight 1) pixels.
  const Render all = render_strip(joint_view(kJoint0Node), true);
  const int columns = static_cast<int>(skinning_methods().size());
  for (int half = 0; half < columns; ++half) {
    size_t red = 0, grey = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = half * kWidth / columns; x < (half + 1) * kWidth / columns; ++x) {
        const uint8_t* p = &all.pixels[(size_t(y) * kWidth + size_t(x)) * 4];
        const glm::ivec3 c(p[0], p[1], p[2]);
        if (c.x > 150 && c.x > c.y + 100 && c.x > c.z + 100) ++red;
        if (is_grey(c) && c.x < 130) ++grey;  // weight 0 (darker than the rigid quad)
      }
    EXPECT_GT(red, 20u) << half;
    EXPECT_GT(grey, 20u) << half;
  }
}

TEST(WeightView, NamesResolveToJointNodesOrInfluences) {
  const Model model = weight_strip();
  WeightView view = WeightView::Off;
  int node = -2;
  std::string error;
  ASSERT_TRUE(weight_view_from_name(model, "", view, node, error));
  EXPECT_EQ(view, WeightView::Off);
  EXPECT_EQ(node, -1);
  ASSERT_TRUE(weight_view_from_name(model, "influences", view, node, error));
  EXPECT_EQ(view, WeightView::InfluenceCount);
  ASSERT_TRUE(weight_view_from_name(model, "joint1", view, node, error));
  EXPECT_EQ(view, WeightView::SelectedJoint);
  EXPECT_EQ(node, kJoint1Node);
  // "mesh" and "rigid" are nodes but no joints.
  for (const char* name : {"mesh", "rigid", "Joint1"}) {
    EXPECT_FALSE(weight_view_from_name(model, name, view, node, error)) << name;
    EXPECT_EQ(error, "no joint named '" + std::string(name) + "' (joints: joint0, joint1)");
  }
  Model rigid_only;
  rigid_only.nodes.resize(1);
  EXPECT_FALSE(weight_view_from_name(rigid_only, "x", view, node, error));
  EXPECT_EQ(error, "no joint named 'x' (the model has no skin)");
}

// ---------------------------------------------------------------------------------------------
// A corpus character and the command line.

size_t count_changed(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = 0;
  for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)
    if (std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]) > 40)
      ++n;
  return n;
}

size_t count_unlike_background(const std::vector<uint8_t>& image) {
  return test::count_pixels_unlike(image, glm::ivec3(0), 3);
}

TEST(WeightView, CorpusCesiumManWeightRenderDiffersFromTheNormalRender) {
  RIG_REQUIRE_CORPUS(corpus);
  RIG_REQUIRE_GL();
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf((corpus / "CesiumMan/CesiumMan.glb").string(), model, error)) << error;
  WeightView view;
  int node = -1;
  ASSERT_TRUE(weight_view_from_name(model, "Skeleton_torso_joint_2", view, node, error)) << error;
  ASSERT_EQ(node, 12);  // the file's node 12
  test::RendererWithModel setup(model);
  ASSERT_TRUE(setup.ok);
  Renderer& renderer = setup.renderer;
  OrbitCamera orbit;
  orbit.frame(pose_bounds(setup.character));
  OffscreenTarget target;
  ASSERT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
  auto draw = [&](WeightView v) {
    DrawOptions o;
    o.grid = false;
    o.weight_view = v;
    o.weight_joint_node = node;
    target.bind();
    const Viewport viewport{0, 0, kWidth, kHeight};
    renderer.clear(viewport, kBackground);
    renderer.draw(orbit.camera(viewport.aspect()), viewport, o);
    std::vector<uint8_t> pixels;
    target.read_rgba(pixels);
    return pixels;
  };
  const std::vector<uint8_t> normal = draw(WeightView::Off);
  const std::vector<uint8_t> joint = draw(WeightView::SelectedJoint);
  const std::vector<uint8_t> count = draw(WeightView::InfluenceCount);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  const size_t covered = count_unlike_background(normal);
  ASSERT_GT(covered, size_t(0.02 * kWidth * kHeight));
  EXPECT_EQ(count_unlike_background(joint), covered);  // same silhouette
  EXPECT_GT(count_changed(normal, joint), covered / 2);
  EXPECT_GT(count_changed(normal, count), covered / 2);
  EXPECT_GT(count_changed(joint, count), covered / 4);
  // A torso joint: much of the body (legs, head, arms) is not influenced at all (grey), the
  // torso is (heat colours), and no vertex is broken (magenta).
  size_t grey = 0, heat = 0, broken = 0;
  for (size_t i = 0; i + 3 < joint.size(); i += 4) {
    const glm::ivec3 c(joint[i], joint[i + 1], joint[i + 2]);
    if (c == glm::ivec3(0)) continue;
    if (is_grey(c)) ++grey;
    if (is_magenta(c))
      ++broken;
    else if (std::max({c.x, c.y, c.z}) - std::min({c.x, c.y, c.z}) > 60)
      ++heat;
  }
  EXPECT_GT(grey, covered / 4);
  EXPECT_GT(heat, covered / 10);
  EXPECT_EQ(broken, 0u);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

TEST(WeightViewCli, CorpusOutputWithWeightsRendersAndAnUnknownJointIsAUsageError) {
  RIG_REQUIRE_CORPUS(corpus);
  ::unsetenv("DISPLAY");  // headless means no X server at all
  const std::string file = (corpus / "CesiumMan/CesiumMan.glb").string();
  const std::filesystem::path dir = rig::test::scratch_dir();
  auto render_cli = [&](const std::string& extra, const std::string& name, int& w, int& h) {
    const std::string out = (dir / name).string();
    std::filesystem::remove(out);
    const rig::test::RunResult r =
        rig::test::run_rigview(rig::test::quote(file) + " --output " + rig::test::quote(out) +
                               " --resolution 200,150 --rest-pose" + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    return load_png(out, w, h);
  };
  int w = 0, h = 0;
  const std::vector<uint8_t> plain = render_cli("", "plain.png", w, h);
  ASSERT_EQ(w, 200);
  const std::vector<uint8_t> joint =
      render_cli(" --weights Skeleton_torso_joint_2", "joint.png", w, h);
  ASSERT_EQ(w, 200);
  const std::vector<uint8_t> count = render_cli(" --weights influences", "count.png", w, h);
  ASSERT_EQ(w, 200);
  const std::vector<uint8_t> legs = render_cli(" --weights leg_joint_L_2", "legs.png", w, h);
  ASSERT_EQ(w, 200);
  EXPECT_GT(count_changed(plain, joint), 500u);
  EXPECT_GT(count_changed(plain, count), 500u);
  EXPECT_GT(count_changed(joint, legs), 200u);  // the name picks the joint

  const std::string bad_out = (dir / "bad.png").string();
  const rig::test::RunResult bad = rig::test::run_rigview(
      rig::test::quote(file) + " --output " + rig::test::quote(bad_out) + " --weights no_such");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err.rfind("rigview: error: " + file +
                              ": no joint named 'no_such' (joints: Skeleton_torso_joint_1, ",
                          0),
            0u)
      << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(bad_out));
}

}  // namespace
}  // namespace rig::render
