// --range-of-motion on the bundled mannequin: the report's schema, and its agreement with a
// single pose: the step at angle a is the pose `--pose-joint JOINT=...a...` gives, and its
// numbers are recomputed here from that pose's --export-ply (per-vertex h, dominant joint,
// positions and faces) with the definitions of the README: the worst vertex and its h, the
// joint's area-weighted RMS score, and ΔV% against the rest pose's volume.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "json_reader.h"
#include "ply_reader.h"
#include "test_support.h"

namespace {

using rig::test::Json;
using rig::test::parse_json;
using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";

std::string scratch(const std::string& name) {
  return (rig::test::scratch_dir() / ("rom_" + name)).string();
}

Json rom_report(const std::string& flags) {
  const std::string path = scratch("report.json");
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " " + flags + " --rom-report " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  return parse_json(slurp(path));
}

rig::test::PlyMesh export_ply(const std::string& flags) {
  const std::string path = scratch("pose.ply");
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " " + flags + " --export-ply " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  return rig::test::read_ply_mesh(path);
}

double signed_volume(const rig::test::PlyMesh& m) {
  double v = 0.0;
  auto p = [&](uint32_t i, int c) { return double(m.at(i, c == 0 ? "x" : c == 1 ? "y" : "z")); };
  for (const auto& f : m.faces) {
    const double ax = p(f[0], 0), ay = p(f[0], 1), az = p(f[0], 2);
    const double bx = p(f[1], 0), by = p(f[1], 1), bz = p(f[1], 2);
    const double cx = p(f[2], 0), cy = p(f[2], 1), cz = p(f[2], 2);
    v += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6.0;
  }
  return v;
}

TEST(RangeOfMotionCli, ReportSchema) {
  const Json r = rom_report(
      "--range-of-motion LeftForeArm,RightLeg --rom-degrees 90 "
      "--rom-steps 3 --skinning compare=lbs,dqs");
  EXPECT_EQ(r["degrees"].num(), 90);
  EXPECT_EQ(r["steps"].num(), 3);
  EXPECT_EQ(r["base"].text, "rest");
  ASSERT_EQ(r["methods"].size(), 2u);
  EXPECT_EQ(r["methods"][0].text, "lbs");
  EXPECT_EQ(r["methods"][1].text, "dqs");
  ASSERT_EQ(r["joints"].size(), 2u);
  EXPECT_EQ(r["joints"][0]["name"].text, "LeftForeArm");
  EXPECT_EQ(r["joints"][1]["name"].text, "RightLeg");
  for (const Json& joint : r["joints"].items) {
    ASSERT_EQ(joint["axes"].size(), 3u);
    for (size_t a = 0; a < 3; ++a) {
      const Json& axis = joint["axes"][a];
      EXPECT_EQ(axis["axis"].text, std::string(1, char('x' + a)));
      ASSERT_EQ(axis["steps"].size(), 3u);
      for (size_t k = 0; k < 3; ++k) {
        const Json& step = axis["steps"][k];
        EXPECT_EQ(step["angle"].num(), -90.0 + 90.0 * double(k));
        for (const char* method : {"lbs", "dqs"}) {
          const Json& m = step["methods"][method];
          EXPECT_GE(m["score"].num(), 0.0);
          EXPECT_LE(std::abs(m["h"].num()), 10.0);
          EXPECT_FALSE(m["volume_change_percent"].is_null());
          const Json& worst = m["worst_vertex"];
          EXPECT_EQ(worst["primitive"].num(), 0);  // one skinned primitive, drawn once
          EXPECT_EQ(worst["inspect"].text, "0:" + worst["vertex"].text);
        }
      }
    }
    // Angle 0 is the rest pose itself: nothing deflates, the volume is the rest volume.
    const Json& rest = joint["axes"][0]["steps"][1]["methods"]["lbs"];
    EXPECT_NEAR(rest["h"].num(), 0.0, 1e-4);
    EXPECT_NEAR(rest["volume_change_percent"].num(), 0.0, 1e-4);
  }

  const Json clip = rom_report(
      "--range-of-motion LeftForeArm --rom-steps 2 --skinning lbs "
      "--animation-index 1 --animation-time 0.3");
  EXPECT_EQ(clip["base"]["clip"].text, "Walk");
  EXPECT_EQ(clip["base"]["index"].num(), 1);
  EXPECT_NEAR(clip["base"]["time"].num(), 0.3, 1e-6);
  EXPECT_EQ(clip["degrees"].num(), 120);  // the defaults
  ASSERT_EQ(clip["methods"].size(), 1u);
  // Without --skinning: every method, as --report.
  const Json all = rom_report("--range-of-motion LeftForeArm --rom-steps 2");
  EXPECT_EQ(all["methods"].size(), 4u);
}

TEST(RangeOfMotionCli, AStepAgreesWithThePoseJointPoseMeasuredFromItsPly) {
  const Json r =
      rom_report("--range-of-motion LeftForeArm --rom-degrees 100 --rom-steps 5 --skinning lbs");
  const int node = int(r["joints"][0]["node"].num());
  // The forearm's index in the skin, and the bind positions for the areas, from the file.
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(kMannequin, model, error)) << error;
  ASSERT_EQ(model.draws.size(), 1u);
  int joint = -1;
  for (size_t j = 0; j < model.skins[0].joints.size(); ++j)
    if (model.skins[0].joints[j] == node) joint = int(j);
  ASSERT_GE(joint, 0);
  const rig::Primitive& prim = model.meshes[0].primitives[0];

  const rig::test::PlyMesh rest = export_ply("--rest-pose --skinning lbs");
  const double rest_volume = signed_volume(rest);
  struct Step {
    size_t axis, step;
    std::string angles;
  };
  for (const Step& s : {Step{1, 4, "0,100,0"}, Step{2, 0, "0,0,-100"}, Step{0, 3, "50,0,0"}}) {
    const Json& m = r["joints"][0]["axes"][s.axis]["steps"][s.step]["methods"]["lbs"];
    const rig::test::PlyMesh posed =
        export_ply("--rest-pose --skinning lbs --pose-joint LeftForeArm=" + s.angles);
    ASSERT_EQ(posed.vertices, prim.vertex_count());
    // The worst vertex: the largest |h| (the first of equals), and its h to the last digit.
    size_t worst = 0;
    for (size_t v = 0; v < posed.vertices; ++v) {
      const float h = posed.at(v, "deflation");
      if (!std::isnan(h) && std::abs(h) > std::abs(posed.at(worst, "deflation"))) worst = v;
    }
    EXPECT_EQ(size_t(m["worst_vertex"]["vertex"].num()), worst) << s.angles;
    EXPECT_EQ(float(m["h"].num()), posed.at(worst, "deflation")) << s.angles;
    EXPECT_EQ(m["worst_vertex"]["joint"].num(), posed.at(worst, "dominant_joint"));
    // The joint's score: sqrt(Σ a h² / Σ a) over the vertices it dominates, a a third of the
    // bind-pose areas of the triangles around the vertex.
    std::vector<double> area(posed.vertices, 0.0);
    for (const auto& f : posed.faces) {
      const glm::dvec3 a(prim.positions[f[0]]), b(prim.positions[f[1]]), c(prim.positions[f[2]]);
      const double third = 0.5 * glm::length(glm::cross(b - a, c - a)) / 3.0;
      for (uint32_t i : f) area[i] += third;
    }
    double num = 0.0, den = 0.0;
    for (size_t v = 0; v < posed.vertices; ++v) {
      const float h = posed.at(v, "deflation");
      if (int(posed.at(v, "dominant_joint")) != joint || std::isnan(h)) continue;
      num += area[v] * double(h) * double(h);
      den += area[v];
    }
    ASSERT_GT(den, 0.0);
    EXPECT_NEAR(m["score"].num(), std::sqrt(num / den), 1e-6) << s.angles;
    EXPECT_GT(m["score"].num(), 1e-3) << s.angles;  // the bend shows
    const double percent = 100.0 * (signed_volume(posed) - rest_volume) / std::abs(rest_volume);
    EXPECT_NEAR(m["volume_change_percent"].num(), percent, 1e-6) << s.angles;
  }
}

TEST(RangeOfMotionCli, BadValuesAreUsageErrors) {
  const std::string report = " --rom-report " + quote(scratch("bad.json"));
  struct Case {
    std::string flags, message;
  };
  for (const Case& c : std::vector<Case>{
           {"--rom-report x.json", "--rom-report needs --range-of-motion"},
           {"--range-of-motion LeftArm", "--range-of-motion needs --rom-report"},
           {"--rom-steps 5 --info", "--rom-degrees and --rom-steps need --range-of-motion"},
           {"--rom-degrees 45 --info", "--rom-degrees and --rom-steps need --range-of-motion"},
           {"--range-of-motion LeftArm --rom-steps 1" + report, "--rom-steps expects"},
           {"--range-of-motion LeftArm --rom-steps 1001" + report, "--rom-steps expects"},
           {"--range-of-motion LeftArm --rom-steps 3.5" + report, "--rom-steps expects"},
           {"--range-of-motion LeftArm --rom-degrees 0" + report, "--rom-degrees expects"},
           {"--range-of-motion LeftArm --rom-degrees 180.5" + report, "--rom-degrees expects"},
           {"--range-of-motion LeftArm --rom-degrees nan" + report, "--rom-degrees expects"},
           {"--range-of-motion LeftArm,,Head" + report, "--range-of-motion expects"},
           {"--range-of-motion Nope" + report, "--range-of-motion: no node named 'Nope'"},
           {"--range-of-motion Mannequin" + report,
            "--range-of-motion: 'Mannequin' is not a joint of any skin"},
           {"--range-of-motion LeftArm --pose-joint Nope=1,2,3" + report,
            "--pose-joint: no node named 'Nope'"}}) {
    const rig::test::RunResult r = run_rigview(quote(kMannequin) + " " + c.flags);
    EXPECT_EQ(r.status, 2) << c.flags;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flags << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
}

}  // namespace
