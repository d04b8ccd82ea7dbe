// Learn mode on the command line (--pitfall, --twist-demo, --bend-demo, --cross-section): usage
// errors, and each effect against positions worked out by hand on small models written here or
// against the closed forms of the twist arm (LBS keeps cos(θ/2) of a 50/50 ring's radius, DQS
// all of it).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "export_conformance.h"
#include "json_reader.h"

namespace {

using namespace export_conformance;
using rig::test::Json;
using rig::test::parse_json;
using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";

// The rigging chapter's unnormalized example: J0 and J1 share one transform (90° about Z, then
// (1,2,3)), no inverse bind matrices, so both skinning matrices are M = T·R_z(90°). v0 = (1,0,0)
// weighs 0.7 and 0.5 (sum 1.2): renormalized it skins to M v0 = (1,3,3), raw to 1.2·(1,3,3)
// (scaled about the world origin). v1 = (0,1,0) on J0 alone → (0,2,3); v2 = (0,0,1) on J1
// alone → (1,2,4).
std::string unnormalized_model() {
  GltfWriter g;
  const int pos = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1}, "VEC3");
  const int joints = g.data<uint8_t>({0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({0.7f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const std::string turn = "\"rotation\":[0,0," + kHalf + "," + kHalf + "],\"translation\":[1,2,3]";
  return g.json(fill(R"(
    "scenes":[{"nodes":[0,1,2]}],
    "nodes":[{"name":"J0",)" +
                         turn + R"(},{"name":"J1",)" + turn + R"(},
             {"name":"Body","mesh":0,"skin":0}],
    "skins":[{"joints":[0,1]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J},"WEIGHTS_0":{W}}}]}])",
                     {{"POS", pos}, {"J", joints}, {"W", weights}}));
}

// Six root joints J0..J5 at T = (1,0,0), (0,1,0), (0,0,1), (2,0,0), (0,2,0), (0,0,2), no inverse
// bind matrices, so a vertex skins to v + Σ w_k T_k. v0 = 0 has six influences 0.3, 0.25, 0.2,
// 0.1, 0.1, 0.05 (JOINTS_0/1): all of them give (0.5, 0.45, 0.3); the 4 largest (the tie of
// 0.1 goes to the lower index, J3) renormalized by 0.85 give (0.5, 0.25, 0.2) / 0.85. v1 and v2
// sit on J0 and J1 alone.
std::string six_influence_model() {
  GltfWriter g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int j0 = g.data<uint8_t>({0, 1, 2, 3, 0, 0, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
  const int w0 = g.floats({0.3f, 0.25f, 0.2f, 0.1f, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const int j1 = g.data<uint8_t>({4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5121, "VEC4");
  const int w1 = g.floats({0.1f, 0.05f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC4");
  return g.json(fill(R"(
    "scenes":[{"nodes":[0,1,2,3,4,5,6]}],
    "nodes":[{"name":"J0","translation":[1,0,0]},{"name":"J1","translation":[0,1,0]},
             {"name":"J2","translation":[0,0,1]},{"name":"J3","translation":[2,0,0]},
             {"name":"J4","translation":[0,2,0]},{"name":"J5","translation":[0,0,2]},
             {"name":"Body","mesh":0,"skin":0}],
    "skins":[{"joints":[0,1,2,3,4,5]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J0},"WEIGHTS_0":{W0},
                                            "JOINTS_1":{J1},"WEIGHTS_1":{W1}}}]}])",
                     {{"POS", pos}, {"J0", j0}, {"W0", w0}, {"J1", j1}, {"W1", w1}}));
}

// Two root joints without inverse bind matrices: J0 the identity, J1 turned −135° about Z. As
// unit quaternions from its matrix (the largest component positive) J1 is
// (w, z) = (−cos 67.5°, sin 67.5°), in the other hemisphere from J0's (1, 0): v0 = (1,0,0) at
// 50/50 blends the short way with the flip, R_z(−67.5°) v0 = (cos 67.5°, −sin 67.5°, 0), and
// the long way without it, R_z(112.5°) v0 = (−cos 67.5°, sin 67.5°, 0). v1 = (0,1,0) on J0 and
// v2 = (0,0,1) on J1 stay where they are.
std::string opposite_hemisphere_model() {
  GltfWriter g;
  const int pos = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1}, "VEC3");
  const int joints = g.data<uint8_t>({0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  return g.json(fill(R"(
    "scenes":[{"nodes":[0,1,2]}],
    "nodes":[{"name":"J0"},{"name":"J1","rotation":[0,0,-0.9238795325112867,0.3826834323650898]},
             {"name":"Body","mesh":0,"skin":0}],
    "skins":[{"joints":[0,1]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J},"WEIGHTS_0":{W}}}]}])",
                     {{"POS", pos}, {"J", joints}, {"W", weights}}));
}

std::string scratch(const std::string& name) {
  return (rig::test::scratch_dir() / ("learn_" + name)).string();
}

Json export_pose(const std::string& model, const std::string& flags) {
  const std::string path = scratch("pose.json");
  std::filesystem::remove(path);
  const rig::test::RunResult r =
      run_rigview(quote(model) + " " + flags + " --export-pose " + quote(path));
  EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
  return parse_json(slurp(path));
}

const Json* node_named(const Json& pose, const std::string& name) {
  for (const Json& node : pose["nodes"].items)
    if (node["name"].text == name) return &node;
  ADD_FAILURE() << "no node " << name;
  return nullptr;
}

Json cross_section(const std::string& flags) {
  const std::string path = scratch("cross_section.json");
  std::filesystem::remove(path);
  const rig::test::RunResult r =
      run_rigview(quote(kTwistArm) + " " + flags + " --cross-section " + quote(path));
  EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
  return parse_json(slurp(path));
}

const Json* method_row(const Json& report, const std::string& name) {
  for (const Json& row : report["methods"].items)
    if (row["method"].text == name) return &row;
  ADD_FAILURE() << "no method row " << name;
  return nullptr;
}

TEST(LearnCli, BadValuesAreOneLineUsageErrors) {
  const std::string obj = quote(scratch("usage.obj"));
  for (const char* args :
       {"--pitfall bogus", "--pitfall ''", "--pitfall Raw-Weights", "--twist-demo x",
        "--twist-demo 1000", "--bend-demo nan", "--cross-section ''"}) {
    const rig::test::RunResult r =
        run_rigview(quote(kTwistArm) + " --export-obj " + obj + " " + std::string(args));
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
  }
  // The unknown name's line names the flag and every allowed name.
  const rig::test::RunResult bogus =
      run_rigview(quote(kTwistArm) + " --export-obj " + obj + " --pitfall bogus");
  for (const char* name : {"--pitfall", "lerp-quaternions", "average-matrices", "no-hemisphere",
                           "raw-weights", "four-influences", "'bogus'"})
    EXPECT_NE(bogus.err.find(name), std::string::npos) << name << ": " << bogus.err;
  // Without an output that poses, the flags are refused.
  EXPECT_EQ(run_rigview(quote(kTwistArm) + " --info --pitfall raw-weights").status, 2);
  EXPECT_EQ(run_rigview(quote(kTwistArm) + " --info --twist-demo 30").status, 2);
  // The demonstrations need the twist arm's joints: one line naming the flag, exit 2.
  for (const char* flag : {"--twist-demo 30", "--bend-demo 30", "--cross-section x.json"}) {
    const rig::test::RunResult r =
        run_rigview(quote(kMannequin) + " --export-obj " + obj + " " + flag);
    EXPECT_EQ(r.status, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(flag).substr(0, std::string(flag).find(' '))),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("ArmTwist"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  }
}

TEST(LearnCli, RawWeightsScaleTheLinearBlendByTheFileSum) {
  const std::string model = unnormalized_model();
  // Without the flag the importer's renormalized weights: M v0 = (1,3,3).
  const std::vector<dvec3> renormalized = {{1, 3, 3}, {0, 2, 3}, {1, 2, 4}};
  expect_objects(export_obj("raw_none", model), {{"Body#0", renormalized}});
  // raw-weights: 0.7 M v0 + 0.5 M v0 = 1.2 (1,3,3); the vertices whose sums are 1 stay.
  expect_objects(export_obj("raw_lbs", model, "--pitfall raw-weights"),
                 {{"Body#0", {{1.2, 3.6, 3.6}, {0, 2, 3}, {1, 2, 4}}}});
  // DQS divides the blend by its length: the raw sum cancels.
  expect_objects(export_obj("raw_dqs", model, "--pitfall raw-weights --skinning dqs"),
                 {{"Body#0", renormalized}});
}

TEST(LearnCli, FourInfluencesKeepsTheLargestFourRenormalized) {
  const std::string model = six_influence_model();
  expect_objects(export_obj("four_none", model),
                 {{"Body#0", {{0.5, 0.45, 0.3}, {2, 0, 0}, {0, 2, 0}}}});
  expect_objects(export_obj("four_on", model, "--pitfall four-influences"),
                 {{"Body#0", {{0.5 / 0.85, 0.25 / 0.85, 0.2 / 0.85}, {2, 0, 0}, {0, 2, 0}}}});
  // The mannequin has at most four influences per vertex: the same bytes with the flag.
  const std::string plain = scratch("mannequin_plain.obj"), four = scratch("mannequin_four.obj");
  ASSERT_EQ(
      run_rigview(quote(kMannequin) + " --animation-index 1 --export-obj " + quote(plain)).status,
      0);
  ASSERT_EQ(
      run_rigview(quote(kMannequin) +
                  " --animation-index 1 --pitfall four-influences --export-obj " + quote(four))
          .status,
      0);
  EXPECT_EQ(slurp(plain), slurp(four));
}

// The twist arm's middle ring sits on ArmTwist with weights exactly 0.5 and 0.5: LBS blends
// d and R_x(θ) d, which has length r cos(θ/2); DQS turns the ring rigidly by θ/2 and keeps r.
// The tolerance, 1 µm on a 0.08 m radius, is a few float steps of the 1 m coordinates.
TEST(LearnCli, CrossSectionRadiiFollowTheClosedForms) {
  constexpr double kTolerance = 1e-6;
  for (const double degrees : {30.0, 90.0, 150.0, 180.0}) {
    const Json report = cross_section("--twist-demo " + std::to_string(degrees));
    EXPECT_NEAR(report["twist_degrees"].num(), degrees, 1e-4);
    EXPECT_EQ(report["ring_vertices"].num(), 32.0);  // the tube's 32 segments
    const double r = report["bind_radius"]["mean"].num();
    EXPECT_NEAR(r, 0.08, 1e-6);
    EXPECT_NEAR(report["bind_radius"]["max"].num() - report["bind_radius"]["min"].num(), 0.0,
                kTolerance);
    const std::vector<std::string> names = {"lbs", "dqs", "cor", "mix"};
    ASSERT_EQ(report["methods"].size(), names.size());
    const Json* lbs = method_row(report, "lbs");
    const Json* dqs = method_row(report, "dqs");
    ASSERT_TRUE(lbs && dqs);
    const double want = r * std::cos(degrees * kPi / 360.0);
    for (const char* stat : {"min", "max", "mean"}) {
      EXPECT_NEAR((*lbs)["radius"][stat].num(), want, kTolerance) << degrees << " " << stat;
      EXPECT_NEAR((*dqs)["radius"][stat].num(), r, kTolerance) << degrees << " " << stat;
    }
    // Every point, not only the summary: its distance from the joint is the radius.
    ASSERT_EQ((*lbs)["points"].size(), 32u);
    for (const Json& p : (*lbs)["points"].items)
      EXPECT_NEAR(std::hypot(p[0].num(), p[1].num()), want, kTolerance) << degrees;
  }
}

// --bend-demo 90 turns ArmTwist about its local Z. A ring point d = r (0, cos φ, sin φ) blends
// under LBS to r (-cos φ / 2, cos φ / 2, sin φ): across the bone (the root's Y and Z) it keeps
// r (cos φ / 2, sin φ), radii from r/2 (φ = 0, 180°) to r (φ = ±90°).
TEST(LearnCli, BendDemoFlattensTheLinearBlendRing) {
  const Json report = cross_section("--bend-demo 90");
  EXPECT_NEAR(report["twist_degrees"].num(), 0.0, 1e-4);
  const double r = report["bind_radius"]["mean"].num();
  const Json* lbs = method_row(report, "lbs");
  ASSERT_TRUE(lbs);
  EXPECT_NEAR((*lbs)["radius"]["min"].num(), r / 2.0, 1e-6);
  EXPECT_NEAR((*lbs)["radius"]["max"].num(), r, 1e-6);
}

TEST(LearnCli, TwistDemoReachesTheObjExport) {
  // At 180° the LBS ring collapses onto the bone: the joint's ring vertices reach the axis
  // (y = 1, z = 0), while without the flag the clip's first key (0°) leaves them at radius r.
  const std::string plain = scratch("arm_plain.obj"), twisted = scratch("arm_twisted.obj");
  ASSERT_EQ(run_rigview(quote(kTwistArm) + " --export-obj " + quote(plain)).status, 0);
  ASSERT_EQ(
      run_rigview(quote(kTwistArm) + " --twist-demo 180 --export-obj " + quote(twisted)).status, 0);
  const std::vector<ObjObject> a = parse_obj(slurp(plain)), b = parse_obj(slurp(twisted));
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(a[0].v.size(), b[0].v.size());
  size_t on_ring = 0;
  for (size_t i = 0; i < a[0].v.size(); ++i) {
    if (std::abs(a[0].v[i].x) > 1e-6) continue;
    const double rest = std::hypot(a[0].v[i].y - 1.0, a[0].v[i].z);
    if (rest < 1e-3) continue;  // not on the tube's surface
    ++on_ring;
    EXPECT_NEAR(rest, 0.08, 1e-6);
    EXPECT_NEAR(std::hypot(b[0].v[i].y - 1.0, b[0].v[i].z), 0.0, 1e-6);
  }
  EXPECT_GE(on_ring, 32u);
}

TEST(LearnCli, NoHemisphereBlendsTheLongWayRound) {
  const std::string model = opposite_hemisphere_model();
  const double c = std::cos(67.5 * kPi / 180.0), s = std::sin(67.5 * kPi / 180.0);
  expect_objects(export_obj("hemisphere_dqs", model, "--skinning dqs"),
                 {{"Body#0", {{c, -s, 0}, {0, 1, 0}, {0, 0, 1}}}});
  expect_objects(export_obj("hemisphere_flip", model, "--skinning dqs --pitfall no-hemisphere"),
                 {{"Body#0", {{-c, s, 0}, {0, 1, 0}, {0, 0, 1}}}});
  // LBS has no hemispheres: 0.5 v0 + 0.5 R_z(−135°) v0.
  const double h = 0.5 * kSqrtHalf;
  expect_objects(export_obj("hemisphere_lbs", model, "--pitfall no-hemisphere"),
                 {{"Body#0", {{0.5 - h, -h, 0}, {0, 1, 0}, {0, 0, 1}}}});
}

// The twist arm's Twist clip keys ArmTwist at k/30 s with R_x(θ_k), θ_k = 180° (1 − cos(πk/30))
// / 2 (assets/generator/twist_arm.cpp). Halfway between keys 14 and 15 the pitfall's q is the
// mean of the two keys, of length cos((θ_15 − θ_14) / 4) < 1, and the world matrix is the unit
// formula of that q: its Y column (0, 1 − 2x², 2wx).
TEST(LearnCli, LerpQuaternionsAveragesTheKeysAndUsesTheUnitFormula) {
  auto theta = [](int k) { return 90.0 * (1.0 - std::cos(kPi * k / 30.0)) * kPi / 180.0; };
  const double a = theta(14) / 2.0, b = theta(15) / 2.0;
  const double w = (std::cos(a) + std::cos(b)) / 2.0, x = (std::sin(a) + std::sin(b)) / 2.0;
  const std::string time = "--animation-time " + std::to_string(14.5 / 30.0);
  const Json right = export_pose(kTwistArm, time);
  const Json wrong = export_pose(kTwistArm, time + " --pitfall lerp-quaternions");
  const Json* r = node_named(right, "ArmTwist");
  const Json* l = node_named(wrong, "ArmTwist");
  ASSERT_TRUE(r && l);
  // The slerp: unit length, half way in angle.
  const Json& rq = (*r)["rotation"];
  EXPECT_NEAR(std::hypot(rq[0].num(), rq[3].num()), 1.0, 1e-6);
  EXPECT_NEAR(2.0 * std::atan2(rq[0].num(), rq[3].num()), a + b, 1e-5);
  // The lerp: the keys' mean, shorter than 1 by about 8.4e-4.
  const Json& lq = (*l)["rotation"];
  EXPECT_NEAR(lq[0].num(), x, 1e-6);
  EXPECT_NEAR(lq[1].num(), 0.0, 1e-6);
  EXPECT_NEAR(lq[2].num(), 0.0, 1e-6);
  EXPECT_NEAR(lq[3].num(), w, 1e-6);
  EXPECT_NEAR(std::hypot(w, x), std::cos((b - a) / 2.0), 1e-12);
  EXPECT_LT(std::hypot(lq[0].num(), lq[3].num()), 1.0 - 5e-4);
  // The world matrix is the unit formula of the q written (the file's keys are floats, so the
  // exported q, not the double one above, is the formula's input).
  const double qx = lq[0].num(), qw = lq[3].num();
  const Json& world = (*l)["world"];
  EXPECT_NEAR(world[4].num(), 0.0, 1e-6);
  EXPECT_NEAR(world[5].num(), 1.0 - 2.0 * qx * qx, 1e-6);
  EXPECT_NEAR(world[6].num(), 2.0 * qw * qx, 1e-6);
  EXPECT_GT(std::abs(world[5].num() - std::cos(a + b)), 1e-4);  // not the rotation's cos θ
}

// A crossfade of Walk (clip 1 at 0.3 s) into Wave (clip 3 at 0.5 s) at weight 0.3: with the
// pitfall every world and skinning matrix is 0.7 A + 0.3 B, entry by entry, of the two clips'
// own poses; the right crossfade (local poses blended) is not.
TEST(LearnCli, AverageMatricesAveragesTheTwoClipsWorldMatrices) {
  const Json a = export_pose(kMannequin, "--animation-index 1 --animation-time 0.3");
  const Json b = export_pose(kMannequin, "--animation-index 3 --animation-time 0.5");
  const std::string fade =
      "--animation-index 1 --animation-time 0.3 --blend-index 3 --blend-time 0.5 "
      "--blend-weight 0.3";
  const Json right = export_pose(kMannequin, fade);
  const Json wrong = export_pose(kMannequin, fade + " --pitfall average-matrices");
  ASSERT_EQ(a["nodes"].size(), wrong["nodes"].size());
  double apart = 0.0;
  for (size_t n = 0; n < a["nodes"].size(); ++n)
    for (size_t e = 0; e < 16; ++e) {
      const double want =
          0.7 * a["nodes"][n]["world"][e].num() + 0.3 * b["nodes"][n]["world"][e].num();
      EXPECT_NEAR(wrong["nodes"][n]["world"][e].num(), want, 2e-6) << n << " " << e;
      apart = std::max(apart, std::abs(right["nodes"][n]["world"][e].num() - want));
    }
  EXPECT_GT(apart, 1e-2);  // the mistake is visible: the right crossfade differs
  const Json& sa = a["skins"][0]["skinning_matrices"];
  const Json& sb = b["skins"][0]["skinning_matrices"];
  const Json& sw = wrong["skins"][0]["skinning_matrices"];
  ASSERT_EQ(sa.size(), sw.size());
  for (size_t j = 0; j < sa.size(); ++j)
    for (size_t e = 0; e < 16; ++e)
      EXPECT_NEAR(sw[j][e].num(), 0.7 * sa[j][e].num() + 0.3 * sb[j][e].num(), 2e-6) << j;
}

}  // namespace
