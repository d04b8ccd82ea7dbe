// --pose-joint and --inspect-vertex on the bundled mannequin. --pose-joint is checked through
// --export-pose against the quaternion product q_clip · q_X · q_Y · q_Z built here from the
// axis-angle formula; --inspect-vertex's opinions against M_j · v with the skinning matrices
// --export-pose writes for the same pose, its LBS against the weighted sum, its h against
// --export-ply's.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

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
const std::string kClipPose = "--animation-index 1 --animation-time 0.3";

std::string scratch(const std::string& name) {
  return (rig::test::scratch_dir() / ("pose_joint_" + name)).string();
}

Json export_pose(const std::string& name, const std::string& flags) {
  const std::string path = scratch(name + ".json");
  const rig::test::RunResult r =
      run_rigview(quote(kMannequin) + " " + flags + " --export-pose " + quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  return parse_json(slurp(path));
}

const Json& node_named(const Json& pose, const std::string& name) {
  for (const Json& node : pose["nodes"].items)
    if (node["name"].text == name) return node;
  ADD_FAILURE() << "no node " << name;
  static const Json missing;
  return missing;
}

// Quaternions as (x, y, z, w), the glTF order --export-pose writes.
using Quat = std::array<double, 4>;

Quat rotation_of(const Json& pose, const std::string& name) {
  const Json& r = node_named(pose, name)["rotation"];
  return {r[0].num(), r[1].num(), r[2].num(), r[3].num()};
}

// Rotation by `degrees` about unit axis (ax, ay, az): (sin(θ/2)·axis, cos(θ/2)).
Quat axis_angle(double ax, double ay, double az, double degrees) {
  const double half = degrees * std::numbers::pi / 360.0;
  return {ax * std::sin(half), ay * std::sin(half), az * std::sin(half), std::cos(half)};
}

// The Hamilton product a·b.
Quat mul(const Quat& a, const Quat& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

void expect_quat(const Quat& got, const Quat& want, const std::string& what) {
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(got[size_t(i)], want[size_t(i)], 2e-6) << what << " " << i;
}

Quat xyz(double rx, double ry, double rz) {
  return mul(mul(axis_angle(1, 0, 0, rx), axis_angle(0, 1, 0, ry)), axis_angle(0, 0, 1, rz));
}

TEST(PoseJointCli, LocalRotationIsTheClipRotationTimesXYZ) {
  for (const std::string& pose : {kClipPose, std::string("--rest-pose")}) {
    const Json base = export_pose("base", pose);
    const Json edited = export_pose("edited", pose + " --pose-joint LeftForeArm=30,-45,60");
    expect_quat(rotation_of(edited, "LeftForeArm"),
                mul(rotation_of(base, "LeftForeArm"), xyz(30, -45, 60)), pose);
    // Its parent keeps its rotation; its child keeps its local rotation but moves in the world.
    expect_quat(rotation_of(edited, "LeftArm"), rotation_of(base, "LeftArm"), pose);
    expect_quat(rotation_of(edited, "LeftHand"), rotation_of(base, "LeftHand"), pose);
    const Json& hand = node_named(edited, "LeftHand")["world"];
    const Json& hand0 = node_named(base, "LeftHand")["world"];
    EXPECT_GT(
        std::abs(hand[12].num() - hand0[12].num()) + std::abs(hand[13].num() - hand0[13].num()),
        1e-3);
  }
}

TEST(PoseJointCli, RepeatedEditsApplyInOrder) {
  const Json base = export_pose("rep_base", kClipPose);
  const Json edited = export_pose(
      "rep", kClipPose + " --pose-joint LeftForeArm=10,0,0 --pose-joint LeftForeArm=0,0,-20" +
                 " --pose-joint RightArm=0,15,0");
  expect_quat(rotation_of(edited, "LeftForeArm"),
              mul(mul(rotation_of(base, "LeftForeArm"), xyz(10, 0, 0)), xyz(0, 0, -20)), "left");
  expect_quat(rotation_of(edited, "RightArm"), mul(rotation_of(base, "RightArm"), xyz(0, 15, 0)),
              "right");
  // Zero angles leave the rotation as it was.
  const Json zero = export_pose("zero", kClipPose + " --pose-joint LeftForeArm=0,0,0");
  expect_quat(rotation_of(zero, "LeftForeArm"), rotation_of(base, "LeftForeArm"), "zero");
}

TEST(PoseJointCli, EveryOutputSeesTheEdit) {
  const std::string plain = scratch("plain.obj"), bent = scratch("bent.obj");
  ASSERT_EQ(
      run_rigview(quote(kMannequin) + " " + kClipPose + " --export-obj " + quote(plain)).status, 0);
  ASSERT_EQ(run_rigview(quote(kMannequin) + " " + kClipPose +
                        " --pose-joint LeftForeArm=0,60,0 --export-obj " + quote(bent))
                .status,
            0);
  const auto a = rig::test::obj_positions(plain), b = rig::test::obj_positions(bent);
  ASSERT_EQ(a.size(), b.size());
  size_t moved = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i][0] - b[i][0]) + std::abs(a[i][1] - b[i][1]) > 1e-4) ++moved;
  EXPECT_GT(moved, 10u);
  EXPECT_LT(moved, a.size() / 2);  // the forearm and hand, not the body
}

TEST(PoseJointCli, BadValuesAreUsageErrors) {
  const std::string out = " --export-pose " + quote(scratch("bad.json"));
  struct Case {
    std::string value, message;
  };
  for (const Case& c :
       std::vector<Case>{{"Nope=1,2,3", "--pose-joint: no node named 'Nope'"},
                         // Split at the last '=': the name is 'Left=ForeArm'.
                         {"Left=ForeArm=1,2,3", "--pose-joint: no node named 'Left=ForeArm'"},
                         {"LeftForeArm=1,2", "--pose-joint expects NAME=rx,ry,rz"},
                         {"LeftForeArm=1,2,x", "--pose-joint expects NAME=rx,ry,rz"},
                         {"LeftForeArm=1,2,inf", "--pose-joint expects NAME=rx,ry,rz"},
                         {"=1,2,3", "--pose-joint expects NAME=rx,ry,rz"},
                         {"LeftForeArm", "--pose-joint expects NAME=rx,ry,rz"}}) {
    const rig::test::RunResult r =
        run_rigview(quote(kMannequin) + " --pose-joint " + quote(c.value) + out);
    EXPECT_EQ(r.status, 2) << c.value;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.value << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
}

// ---- --inspect-vertex

Json inspect(const std::string& flags, rig::test::RunResult* result = nullptr) {
  const rig::test::RunResult r = run_rigview(quote(kMannequin) + " " + flags);
  if (result) *result = r;
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? parse_json(r.out) : Json{};
}

std::array<double, 3> vec3(const Json& j) { return {j[0].num(), j[1].num(), j[2].num()}; }

void expect_vec3(const std::array<double, 3>& got, const std::array<double, 3>& want, double tol,
                 const std::string& what) {
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], tol) << what << " " << i;
}

TEST(InspectVertexCli, OpinionsAreSkinningMatricesTimesTheBindPosition) {
  const std::string pose = kClipPose + " --pose-joint LeftForeArm=0,40,0";
  const Json pose_json = export_pose("inspect_pose", pose);
  const Json& matrices = pose_json["skins"][0]["skinning_matrices"];
  for (int vertex : {0, 777, 1500}) {
    const Json v = inspect(pose + " --inspect-vertex 0:" + std::to_string(vertex));
    EXPECT_EQ(v["primitive"].num(), 0);
    EXPECT_EQ(v["index"].num(), vertex);
    const std::array<double, 3> bind = vec3(v["bind_position"]);
    std::array<double, 3> lbs{};
    double weights = 0.0;
    ASSERT_GE(v["influences"].size(), 1u);
    for (const Json& in : v["influences"].items) {
      const Json& m = matrices[size_t(in["joint"].num())];  // 16 numbers, column-major
      std::array<double, 3> want{};
      for (size_t r = 0; r < 3; ++r)
        want[r] = m[r].num() * bind[0] + m[4 + r].num() * bind[1] + m[8 + r].num() * bind[2] +
                  m[12 + r].num();
      expect_vec3(vec3(in["opinion"]), want, 2e-5, in["name"].text);
      EXPECT_EQ(pose_json["nodes"][size_t(in["node"].num())]["name"].text, in["name"].text);
      const double w = in["weight"].num();
      EXPECT_GT(w, 0.0);
      weights += w;
      for (size_t r = 0; r < 3; ++r) lbs[r] += w * want[r];
    }
    for (double& c : lbs) c /= weights;
    expect_vec3(vec3(v["lbs"]), lbs, 2e-5, "lbs");
    expect_vec3(vec3(v["mix"]), vec3(v["lbs"]), 1e-6, "mix without --dqs-joints is LBS");
    for (const char* key : {"dqs", "cor", "cor_center"}) EXPECT_EQ(v[key].size(), 3u) << key;
  }
}

TEST(InspectVertexCli, DeflationIsTheExportPlyValue) {
  const std::string pose = "--rest-pose --pose-joint LeftForeArm=0,0,-90";
  const std::string ply = scratch("inspect.ply");
  for (const char* method : {"lbs", "dqs"}) {
    ASSERT_EQ(run_rigview(quote(kMannequin) + " " + pose + " --skinning " + method +
                          " --export-ply " + quote(ply))
                  .status,
              0);
    const rig::test::PlyMesh mesh = rig::test::read_ply_mesh(ply);
    // The mannequin draws one skinned primitive: PLY vertex i is PRIM 0's vertex i.
    for (int vertex : {10, 2000}) {
      const Json v = inspect(pose + " --inspect-vertex 0:" + std::to_string(vertex));
      const float h = mesh.at(size_t(vertex), "deflation");
      if (std::isnan(h))
        EXPECT_TRUE(v["deflation"][method].is_null()) << method << vertex;
      else
        EXPECT_EQ(float(v["deflation"][method].num()), h) << method << vertex;
      expect_vec3(vec3(v[method]),
                  {mesh.at(size_t(vertex), "x"), mesh.at(size_t(vertex), "y"),
                   mesh.at(size_t(vertex), "z")},
                  1e-6, method);
    }
  }
}

// The bundled twist arm at its Twist clip's 180° (t = 1 s): a vertex of the tube blended
// (1 − w, w) between ArmRoot and ArmTwist keeps |1 − 2w| of its radius under LBS (the seed's
// candy wrapper: h = log2|1 − 2w|, −10 at the 2⁻¹⁰ clamp) and all of it under DQS (h = 0).
// With --dqs-joints ArmRoot (m = 1 on both joints) the mix is DQS.
TEST(InspectVertexCli, TwistArmAt180DegreesIsTheCandyWrapper) {
  const std::string arm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
  const std::string pose = " --animation-index 0 --animation-time 1";
  for (int vertex : {1000, 1040, 1280}) {
    const std::string flag = " --inspect-vertex 0:" + std::to_string(vertex);
    const rig::test::RunResult plain = run_rigview(quote(arm) + pose + flag);
    const rig::test::RunResult mixed =
        run_rigview(quote(arm) + pose + flag + " --dqs-joints ArmRoot");
    ASSERT_EQ(plain.status, 0) << plain.err;
    ASSERT_EQ(mixed.status, 0) << mixed.err;
    const Json v = parse_json(plain.out), m = parse_json(mixed.out);
    ASSERT_EQ(v["influences"].size(), 2u);
    double w = 0.0;  // ArmTwist's weight
    for (const Json& in : v["influences"].items)
      if (in["name"].text == "ArmTwist") w = in["weight"].num();
    // Dominated by ArmRoot, whose segment runs along the tube's axis: h is radial.
    ASSERT_LE(w, 0.5) << vertex;
    EXPECT_NEAR(v["deflation"]["lbs"].num(), std::max(-10.0, std::log2(std::abs(1.0 - 2.0 * w))),
                2e-4)
        << vertex;
    EXPECT_NEAR(v["deflation"]["dqs"].num(), 0.0, 1e-4) << vertex;
    expect_vec3(vec3(m["mix"]), vec3(v["dqs"]), 1e-5, "mix at m = 1 is DQS");
    EXPECT_NEAR(m["deflation"]["mix"].num(), 0.0, 1e-4) << vertex;
  }
}

TEST(InspectVertexCli, BadIndicesAreUsageErrorsNamingTheRange) {
  struct Case {
    std::string value, message;
  };
  for (const Case& c : std::vector<Case>{
           {"1:0", "--inspect-vertex: primitive 1 is out of range (skinned primitives 0..0)"},
           {"0:99999999",
            "--inspect-vertex: index 99999999 is out of range (primitive 0 has "
            "vertices 0.."},
           {"0", "--inspect-vertex expects PRIM:INDEX"},
           {"0:-1", "--inspect-vertex expects PRIM:INDEX"},
           {"a:1", "--inspect-vertex expects PRIM:INDEX"},
           {"0:1x", "--inspect-vertex expects PRIM:INDEX"}}) {
    rig::test::RunResult r = run_rigview(quote(kMannequin) + " --inspect-vertex " + quote(c.value));
    EXPECT_EQ(r.status, 2) << c.value;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.value << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
