// `rigview --weights-op OP` (app/skin_edits.h): usage errors, and the edited weights reaching
// the outputs, against positions worked out by hand on a small model written here.
#include <gtest/gtest.h>

#include "export_conformance.h"

namespace {

using namespace export_conformance;
using rig::test::quote;
using rig::test::run_rigview;

// One triangle over two root joints without inverse bind matrices: J0 at T0 = (0,0,5), J1 at
// T1 = (10,0,0), so a vertex skins to v + Σ w_k T_k. Weights: v0 J0 ¾ J1 ¼; v1 J0 0.4 J1 0.6;
// v2 J1 alone.
std::string two_joint_model() {
  GltfWriter g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int joints = g.data<uint8_t>({0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
  const int weights = g.floats({0.75f, 0.25f, 0, 0, 0.4f, 0.6f, 0, 0, 1, 0, 0, 0}, "VEC4");
  return g.json(fill(R"(
    "scenes":[{"nodes":[0,1,2]}],
    "nodes":[{"name":"J0","translation":[0,0,5]},{"name":"J1","translation":[10,0,0]},
             {"name":"Body","mesh":0,"skin":0}],
    "skins":[{"joints":[0,1]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":{POS},"JOINTS_0":{J},"WEIGHTS_0":{W}}}]}])",
                     {{"POS", pos}, {"J", joints}, {"W", weights}}));
}

TEST(WeightsOpCli, BadValuesAreOneLineUsageErrors) {
  const std::string model = (folder() / "weights_usage.gltf").string();
  rig::test::write_file(model, two_joint_model());
  const std::string obj = quote((folder() / "weights_usage.obj").string());
  for (const char* op :
       {"bogus", "limit=0", "limit=9", "limit=2:fit", "limit", "clean=1.5", "clean=x", "smooth=0.5",
        "smooth=2:3", "smooth=0.5:0", "smooth=0.5:2:", "normalize=1", "mirror=x", ""}) {
    const rig::test::RunResult r =
        run_rigview("--export-obj " + obj + " --weights-op '" + op + "' " + quote(model));
    EXPECT_EQ(r.status, 2) << op << ": " << r.err;
    EXPECT_NE(r.err.find("--weights-op"), std::string::npos) << op << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << op << ": " << r.err;
  }
  // An unknown joint is found against the model; an op without an output that skins is refused.
  const rig::test::RunResult joint =
      run_rigview("--export-obj " + obj + " --weights-op smooth=0.5:2:J0,Nope " + quote(model));
  EXPECT_EQ(joint.status, 2);
  EXPECT_NE(joint.err.find("no joint named 'Nope'"), std::string::npos) << joint.err;
  EXPECT_EQ(joint.err.find('\n'), joint.err.size() - 1) << joint.err;
  const rig::test::RunResult alone = run_rigview("--info --weights-op normalize " + quote(model));
  EXPECT_EQ(alone.status, 2) << alone.err;
}

TEST(WeightsOpCli, LimitOneMakesTheExportRigid) {
  const std::string model = two_joint_model();
  // Without an op: v0 + ¾T0 + ¼T1, v1 + 0.4T0 + 0.6T1, v2 + T1.
  expect_objects(export_obj("weights_none", model),
                 {{"Body#0", {{2.5, 0, 3.75}, {7, 0, 2}, {10, 1, 0}}}});
  // limit=1: every vertex on its largest joint alone.
  for (const char* skinning : {"lbs", "dqs", "cor"})
    expect_objects(export_obj("weights_limit", model,
                              std::string("--weights-op limit=1 --skinning ") + skinning),
                   {{"Body#0", {{0, 0, 5}, {11, 0, 0}, {10, 1, 0}}}});
  // The real shaders read the same edited layer (where a headless GL is available).
  const fs::path path = folder() / "weights_gpu.gltf", obj = folder() / "weights_gpu.obj";
  rig::test::write_file(path, model);
  const rig::test::RunResult gpu =
      run_rigview("--export-obj " + quote(obj.string()) + " --backend gpu --weights-op limit=1 " +
                  quote(path.string()));
  if (gpu.status == 0)
    expect_objects(parse_obj(rig::test::slurp(obj)),
                   {{"Body#0", {{0, 0, 5}, {11, 0, 0}, {10, 1, 0}}}});
  // clean=0.3 drops v0's ¼ only; then limit=1 (in order) moves v1 onto J1.
  expect_objects(export_obj("weights_clean", model, "--weights-op clean=0.3"),
                 {{"Body#0", {{0, 0, 5}, {7, 0, 2}, {10, 1, 0}}}});
  expect_objects(export_obj("weights_chain", model, "--weights-op clean=0.3 --weights-op limit=1"),
                 {{"Body#0", {{0, 0, 5}, {11, 0, 0}, {10, 1, 0}}}});
}

TEST(WeightsOpCli, EachOpPrintsOneLineAndUneditedOutputsStayTheSame) {
  const std::string model = (folder() / "weights_lines.gltf").string();
  rig::test::write_file(model, two_joint_model());
  const std::string a = (folder() / "weights_lines_a.obj").string();
  const std::string b = (folder() / "weights_lines_b.obj").string();
  const rig::test::RunResult plain = run_rigview("--export-obj " + quote(a) + " " + quote(model));
  ASSERT_EQ(plain.status, 0) << plain.err;
  const rig::test::RunResult edited = run_rigview(
      "--export-obj " + quote(b) +
      " --weights-op normalize --weights-op limit=1:refit --weights-op mirror " + quote(model));
  ASSERT_EQ(edited.status, 0) << edited.err;
  EXPECT_EQ(edited.err,
            "rigview: --weights-op normalize: 0 vertices changed\n"
            "rigview: --weights-op limit=1:refit: 2 vertices changed\n"
            "rigview: --weights-op mirror: 0 vertices changed, 1 without a mirror\n");
  // normalize on normalized weights changes nothing: the same bytes as no op at all.
  const std::string b2 = (folder() / "weights_lines_c.obj").string();
  ASSERT_EQ(
      run_rigview("--export-obj " + quote(b2) + " --weights-op normalize " + quote(model)).status,
      0);
  EXPECT_EQ(rig::test::slurp(b2), rig::test::slurp(a));
}

}  // namespace
