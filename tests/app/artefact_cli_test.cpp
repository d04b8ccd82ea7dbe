// The artefact outputs of the command line: --export-ply's layout and values, --report's schema,
// checked on the bundled twist arm (a 1 m tube of radius 0.08 with 4 cm rounded caps at both
// ends, 2 joints, 50/50 at its middle ring) whose Twist clip reaches 180° at t = 1 s.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "skin/skinning_method.h"
#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";

std::string tmp_path(const std::string& name) {
  return (rig::test::scratch_dir() / ("artefact_" + name)).string();
}

struct Ply {
  std::vector<std::string> properties;
  size_t vertices = 0, faces = 0;
  std::vector<float> values;  // vertices × properties
  float at(size_t v, const std::string& property) const {
    for (size_t p = 0; p < properties.size(); ++p)
      if (properties[p] == property) return values[v * properties.size() + p];
    ADD_FAILURE() << "no property " << property;
    return 0.0f;
  }
};

Ply read_ply(const std::string& path) {
  const std::string data = slurp(path);
  Ply ply;
  const size_t end = data.find("end_header\n");
  EXPECT_NE(end, std::string::npos);
  if (end == std::string::npos) return ply;
  std::istringstream header(data.substr(0, end));
  std::string line;
  std::getline(header, line);
  EXPECT_EQ(line, "ply");
  std::getline(header, line);
  EXPECT_EQ(line, "format binary_little_endian 1.0");
  while (std::getline(header, line)) {
    std::istringstream words(line);
    std::string word, type, name;
    words >> word;
    if (word == "element") {
      words >> name;
      (name == "vertex" ? ply.vertices : ply.faces) = std::stoul(line.substr(line.rfind(' ') + 1));
    } else if (word == "property" && ply.faces == 0) {
      words >> type >> name;
      if (type == "float") ply.properties.push_back(name);
    }
  }
  const size_t count = ply.vertices * ply.properties.size();
  ply.values.resize(count);
  const size_t body = end + std::strlen("end_header\n");
  EXPECT_GE(data.size(), body + count * 4 + ply.faces * 13);
  if (data.size() >= body + count * 4)
    std::memcpy(ply.values.data(), data.data() + body, count * 4);
  return ply;
}

size_t obj_vertex_count(const std::string& path) {
  std::istringstream obj(slurp(path));
  size_t n = 0;
  for (std::string line; std::getline(obj, line);)
    if (line.rfind("v ", 0) == 0) ++n;
  return n;
}

TEST(ArtefactCli, PlyCarriesTheObjVerticesAndTheSeedTwistFigures) {
  const std::string lbs = tmp_path("lbs.ply"), dqs = tmp_path("dqs.ply"), obj = tmp_path("a.obj");
  const std::string pose = " --animation-time 1 ";
  ASSERT_EQ(run_rigview(quote(kTwistArm) + pose + "--export-ply " + quote(lbs)).status, 0);
  ASSERT_EQ(
      run_rigview(quote(kTwistArm) + pose + "--skinning dqs --export-ply " + quote(dqs)).status, 0);
  ASSERT_EQ(run_rigview(quote(kTwistArm) + pose + "--export-obj " + quote(obj)).status, 0);
  const Ply a = read_ply(lbs), b = read_ply(dqs);
  EXPECT_EQ(a.properties, (std::vector<std::string>{"x", "y", "z", "nx", "ny", "nz", "deflation",
                                                    "difference", "dominant_joint", "primitive"}));
  EXPECT_EQ(a.vertices, obj_vertex_count(obj));
  EXPECT_EQ(a.vertices, 2541u);
  EXPECT_GT(a.faces, 0u);
  // At 180° the 50/50 middle ring collapses onto the axis under LBS: h at the 2⁻¹⁰ clamp, and
  // LBS and DQS are the ring radius apart, over the rest diagonal √(1.08² + 2·0.16²).
  size_t clamped = 0;
  float largest_difference = 0.0f, largest_dqs = 0.0f;
  for (size_t v = 0; v < a.vertices; ++v) {
    if (a.at(v, "deflation") == -10.0f) ++clamped;
    largest_difference = std::max(largest_difference, a.at(v, "difference"));
    const float h = b.at(v, "deflation");
    if (!std::isnan(h)) largest_dqs = std::max(largest_dqs, std::abs(h));
    EXPECT_EQ(a.at(v, "primitive"), 0.0f);
    const float joint = a.at(v, "dominant_joint");
    EXPECT_TRUE(joint == 0.0f || joint == 1.0f) << joint;
  }
  EXPECT_GE(clamped, 32u);
  EXPECT_NEAR(largest_difference, 0.08f / std::sqrt(1.08f * 1.08f + 2.0f * 0.16f * 0.16f), 1e-4f);
  EXPECT_LT(largest_dqs, 1e-3f);  // DQS keeps every ring's radius under a pure twist
}

TEST(ArtefactCli, ReportHoldsEveryClipAndMethodWithJointsWorstFirst) {
  const std::string report = tmp_path("report.json");
  const rig::test::RunResult r = run_rigview(quote(kTwistArm) + " --report " + quote(report));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string j = slurp(report);
  EXPECT_EQ(j.rfind("{\"file\":", 0), 0u) << j.substr(0, 80);
  EXPECT_NE(j.find("\"name\":\"Twist\",\"rate_hz\":30,\"max_method_difference\":"),
            std::string::npos);
  const size_t lbs = j.find("{\"method\":\"lbs\",\"closed\":");
  const size_t dqs = j.find("{\"method\":\"dqs\",\"closed\":");
  ASSERT_NE(lbs, std::string::npos);
  ASSERT_NE(dqs, std::string::npos);
  for (const char* key : {"\"joints\":[", "\"rms_curve\":[", "\"volume_change_percent\":[",
                          "\"max_abs_h\":{\"value\":"})
    EXPECT_NE(j.find(key, lbs), std::string::npos) << key;
  // LBS's worst vertex hits the clamp at the 180° middle of the clip.
  EXPECT_NE(j.find("\"max_abs_h\":{\"value\":-10,"), std::string::npos);
  EXPECT_NE(j.find("\"time\":1}", j.find("\"max_abs_h\":{\"value\":-10,")), std::string::npos);
  // Scores in the LBS joint list never increase.
  const size_t joints_end = j.find(']', lbs);
  float previous = 1e30f;
  for (size_t at = j.find("\"score\":", lbs); at < joints_end; at = j.find("\"score\":", at + 1)) {
    const float score = std::stof(j.substr(at + 8));
    EXPECT_LE(score, previous);
    previous = score;
  }
  // --skinning picks the methods.
  const std::string only = tmp_path("only.json");
  ASSERT_EQ(run_rigview(quote(kTwistArm) + " --skinning dqs --report " + quote(only)).status, 0);
  const std::string k = slurp(only);
  EXPECT_EQ(k.find("\"method\":\"lbs\""), std::string::npos);
  EXPECT_NE(k.find("\"method\":\"dqs\""), std::string::npos);
}

TEST(ArtefactCli, BadUsesAreOneLineErrors) {
  rig::test::RunResult r = run_rigview(quote(kTwistArm) + " --skinning compare --export-ply " +
                                       quote(tmp_path("c.ply")));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not to --export-ply"), std::string::npos) << r.err;
  r = run_rigview(quote(kTwistArm) + " --export-ply /nonexistent-dir/x.ply");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent-dir/x.ply"), std::string::npos);
}

}  // namespace

namespace cor {

using rig::test::obj_positions;

// Smallest and largest distance from the arm's axis (y = 1, z = 0) over the middle ring (x = 0).
std::pair<double, double> middle_ring_radius(const std::string& obj) {
  double lo = 1e9, hi = 0.0;
  for (const auto& p : obj_positions(obj)) {
    if (std::abs(p[0]) > 1e-4) continue;
    const double r = std::hypot(p[1] - 1.0, p[2]);
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return {lo, hi};
}

}  // namespace cor

// CoR on the command line: the centres are computed (and cached under XDG_CACHE_HOME/rigview)
// before skinning; at the Twist's 180° the middle ring keeps its 0.08 radius as under DQS, and
// collapses under LBS. A second run reads the cache and writes the same file.
TEST(ArtefactCli, CorExportKeepsTheTwistRingRadiusAndCachesItsCentres) {
  namespace fs = std::filesystem;
  const fs::path cache = rig::test::scratch_dir() / "cor_cache";
  fs::remove_all(cache);
  ASSERT_EQ(setenv("XDG_CACHE_HOME", cache.c_str(), 1), 0);
  const std::string pose = " --animation-time 1 ";
  std::pair<double, double> radius[3];
  const char* methods[3] = {"lbs", "dqs", "cor"};
  for (int m = 0; m < 3; ++m) {
    const std::string obj = tmp_path(std::string("ring_") + methods[m] + ".obj");
    const auto r = run_rigview(quote(kTwistArm) + pose + "--skinning " + methods[m] +
                               " --export-obj " + quote(obj));
    ASSERT_EQ(r.status, 0) << r.err;
    radius[m] = cor::middle_ring_radius(obj);
    std::printf("twist 180 middle ring radius %s: %.6f .. %.6f\n", methods[m], radius[m].first,
                radius[m].second);
  }
  EXPECT_LT(radius[0].second, 0.01);  // LBS: the candy wrapper
  for (int m = 1; m < 3; ++m) {
    EXPECT_NEAR(radius[m].first, 0.08, 1e-3) << methods[m];
    EXPECT_NEAR(radius[m].second, 0.08, 1e-3) << methods[m];
  }
  // The cache holds one file now (only CoR computes centres); the GPU backend and a second
  // CPU run read it and agree.
  const fs::path dir = cache / "rigview" / "rotation_centers";
  ASSERT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
  const std::string again = tmp_path("ring_cor_again.obj");
  ASSERT_EQ(
      run_rigview(quote(kTwistArm) + pose + "--skinning cor --export-obj " + quote(again)).status,
      0);
  EXPECT_EQ(slurp(again), slurp(tmp_path("ring_cor.obj")));
  const std::string gpu = tmp_path("ring_cor_gpu.obj");
  const auto g = run_rigview(quote(kTwistArm) + pose +
                             "--skinning cor --backend gpu --export-obj " + quote(gpu));
  if (g.status == 0) {
    const auto gr = cor::middle_ring_radius(gpu);
    EXPECT_NEAR(gr.first, 0.08, 1e-3);
    EXPECT_NEAR(gr.second, 0.08, 1e-3);
  }
  unsetenv("XDG_CACHE_HOME");
}

// --bench-skinning N: one line per method (every table row without --skinning), each with its
// cost per million skinned vertices and its ratio to LBS (1.00 for LBS itself).
TEST(ArtefactCli, BenchSkinningPrintsEveryMethodAndItsRatioToLbs) {
  const auto r = run_rigview(quote(kTwistArm) + " --bench-skinning 2");
  if (r.status != 0 && r.err.find("no headless OpenGL") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2541 skinned vertices per draw"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("x1.00 of LBS"), std::string::npos) << r.out;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    EXPECT_NE(r.out.find("\n" + std::string(m.label) + " "), std::string::npos) << r.out;
  EXPECT_EQ(run_rigview(quote(kTwistArm) + " --bench-skinning 0").status, 2);
}
