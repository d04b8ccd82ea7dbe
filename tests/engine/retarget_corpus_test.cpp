// Retargeting's measured goals on real skeletons: every clip of every ordered pair among the
// bundled mannequin, the bundled A-pose humanoid and the corpus humanoids (Knight,
// RobotExpressive, CesiumMan, RiggedFigure), mapped as `--clips` maps them (find_humanoid on
// both sides, make_bone_map). Every number asserted here is worked out again in this file from
// world matrices of our own product (not the engine's local → world job or its measures):
// - directions: per mapped bone with a mapped child (the rig's child rule), the angle between
//   the target's joint → child and G · the source's, at every frame of the grid, feet off;
// - hips: the target hips' displacement from rest against hip_ratio · G · the source's, feet off
//   (with feet on the hips also move to let a short leg reach its planted foot, on purpose),
//   relative to the larger of the largest expected displacement and the target's hip height;
// - feet: with feet on, how far each target foot moves between consecutive frames of one source
//   contact, in the target's ground frame, over the target's height; asserted on every pair
//   (RobotExpressive's IK-target feet hang from its root: they are placed, not driven by IK);
// - round trip: source → target → source, the second leg mapped as `--clips` would map it on its
//   own (make_bone_map with the sides swapped). A source joint compares when the first map pairs
//   it with target joint k, the second pairs k with it again, the joint's mapped child is the
//   same both ways (or it has none either way), and in this clip its bone is rigid: the child
//   stays at its rest position in the joint's frame (within 1e-4 of the bone's length). Its
//   model-space rotation after the round trip is compared with the source clip's, at every frame
//   of the grid. Where the source bends a bone through a joint the target lacks (the mannequin's
//   Spine2 when the target has no upper chest) or moves the child, the target bone points the
//   same way but cannot hold the bone's own rotation, so it cannot come back.
// The table printed at the end is the one README "Retargeting: the retarget" quotes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "anim/pose.h"
#include "character/bone_map.h"
#include "character/retarget.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Subject {
  std::string label;
  Model model;
  HumanoidMap parts;
};

Subject load(const std::filesystem::path& path, const std::string& label) {
  Subject s;
  s.label = label;
  std::string error;
  EXPECT_TRUE(import_gltf(path.string(), s.model, error)) << path << ": " << error;
  s.parts = find_humanoid(s.model, -1);
  return s;
}

// Every node's world matrix for `clip` at `time`: parents first, our own product.
std::vector<glm::dmat4> world_at(const Model& m, const Clip& clip, float time) {
  Pose pose;
  init_rest_pose(m, pose);
  sample_clip(m, clip, time, pose);
  std::vector<glm::dmat4> world(m.nodes.size());
  for (int n : m.node_order) {
    const glm::dmat4 own(trs_matrix(pose.local[size_t(n)]));
    const int p = m.nodes[size_t(n)].parent;
    world[size_t(n)] = p < 0 ? own : world[size_t(p)] * own;
  }
  return world;
}

glm::dvec3 position(const std::vector<glm::dmat4>& world, int node) {
  return glm::dvec3(world[size_t(node)][3]);
}

// The rotation of a world matrix with its (uniform) scale divided out.
glm::dquat rotation(const glm::dmat4& w) {
  const glm::dmat3 r(glm::normalize(glm::dvec3(w[0])), glm::normalize(glm::dvec3(w[1])),
                     glm::normalize(glm::dvec3(w[2])));
  return glm::normalize(glm::quat_cast(r));
}

// Angle between two directions, degrees (atan2: accurate near zero).
double angle(glm::dvec3 a, glm::dvec3 b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)) * 180.0 / kPi;
}

// Angle of the rotation taking `a` to `b`, degrees.
double angle(glm::dquat a, glm::dquat b) {
  const glm::dquat d = glm::conjugate(a) * b;
  return 2.0 * std::atan2(glm::length(glm::dvec3(d.x, d.y, d.z)), std::abs(d.w)) * 180.0 / kPi;
}

struct PairRow {
  std::string label;
  size_t clips = 0, frames = 0, round_joints = 0, round_rigid_min = SIZE_MAX, hips_frames = 0;
  double direction = 0.0, hips = 0.0, slide_off = 0.0, slide_on = 0.0, round_trip = 0.0;
};

// A source joint the round trip compares (see the header): mapped both ways, with the same
// mapped child both ways (child = -1: none either way). `offset`: the child's rest position in
// the joint's frame.
struct RoundJoint {
  int joint = -1, child = -1;
  glm::dvec3 offset{0.0};
};

std::vector<RoundJoint> round_joints(const Model& source, const BoneMap& there, const BoneMap& back,
                                     const RetargetRig& rig, const RetargetRig& rig_back) {
  std::vector<RoundJoint> out;
  for (const BonePair& p : there.pairs) {
    bool both = false;
    for (const BonePair& q : back.pairs)
      both = both || (q.source == p.target && q.target == p.source);
    const int b = rig.target_bone[size_t(p.target)], c = rig_back.target_bone[size_t(p.source)];
    if (!both || b < 0 || c < 0) continue;
    const int going = rig.bones[size_t(b)].child, coming = rig_back.bones[size_t(c)].child;
    const int child_going = going >= 0 ? rig.bones[size_t(going)].source : -1;
    const int child_coming = coming >= 0 ? rig_back.bones[size_t(coming)].target : -1;
    if (child_going != child_coming) continue;
    RoundJoint r;
    r.joint = p.source;
    r.child = child_going;
    if (r.child >= 0) {
      const std::vector<glm::dmat4> rest = world_at(source, Clip{}, 0.0f);
      r.offset = glm::dvec3(glm::inverse(rest[size_t(r.joint)]) *
                            glm::dvec4(position(rest, r.child), 1.0));
    }
    out.push_back(r);
  }
  return out;
}

// Direction error (degrees) and hips error (relative) of `out` on one frame.
void check_frame(const RetargetRig& rig, const std::vector<glm::dmat4>& s,
                 const std::vector<glm::dmat4>& t, double& direction, glm::dvec3& expected,
                 glm::dvec3& got) {
  const glm::dquat g(rig.facing);
  for (const RetargetBone& bone : rig.bones) {
    if (bone.child < 0) continue;
    const RetargetBone& child = rig.bones[size_t(bone.child)];
    const glm::dvec3 ds = position(s, child.source) - position(s, bone.source);
    const glm::dvec3 dt = position(t, child.target) - position(t, bone.target);
    direction = std::max(direction, angle(g * ds, dt));
  }
  if (rig.hips < 0) return;
  const RetargetBone& hips = rig.bones[size_t(rig.hips)];
  expected = double(rig.hip_ratio) * (g * (position(s, hips.source) - glm::dvec3(rig.source.hips)));
  got = position(t, hips.target) - glm::dvec3(rig.target.hips);
}

// Largest foot slide of `out` (feet of the rig's LeftFoot/RightFoot pairs) during `contacts`,
// in the target's ground frame, over the target's height.
double foot_slide(const Model& target, const Clip& out, const RetargetRig& rig,
                  const FootContacts& contacts, const std::vector<float>& times) {
  const int feet[2] = {rig.bone(HumanBone::LeftFoot), rig.bone(HumanBone::RightFoot)};
  if (feet[0] < 0 || feet[1] < 0 || contacts.feet.size() != 2) return 0.0;
  const glm::dvec3 velocity =
      double(rig.hip_ratio) * (glm::dquat(rig.facing) * glm::dvec3(contacts.ground_velocity));
  double worst = 0.0;
  glm::dvec3 previous[2];
  int previous_run[2] = {-1, -1};
  for (float time : times) {
    const std::vector<glm::dmat4> w = world_at(target, out, time);
    for (size_t f = 0; f < 2; ++f) {
      const int run = contact_run(contacts, f, time);
      const glm::dvec3 ground =
          position(w, rig.bones[size_t(feet[f])].target) + velocity * double(time - contacts.start);
      if (run >= 0 && run == previous_run[f])
        worst = std::max(worst, glm::length(ground - previous[f]) / double(rig.target.height));
      previous[f] = ground;
      previous_run[f] = run;
    }
  }
  return worst;
}

BoneMap map_of(const Subject& source, const Subject& target) {
  return make_bone_map(source.model, source.parts, target.model, target.parts);
}

PairRow run_pair(const Subject& source, const Subject& target) {
  PairRow row;
  row.label = target.label + " <- " + source.label;
  const BoneMap there = map_of(source, target), back = map_of(target, source);
  EXPECT_TRUE(check_bone_map(source.model, target.model, there).empty()) << row.label;
  EXPECT_TRUE(check_bone_map(target.model, source.model, back).empty()) << row.label;
  const RetargetRig rig = build_retarget_rig(source.model, target.model, there);
  const RetargetRig rig_back = build_retarget_rig(target.model, source.model, back);
  const std::vector<RoundJoint> round = round_joints(source.model, there, back, rig, rig_back);
  row.round_joints = round.size();

  RetargetSettings off, on;
  on.keep_feet_planted = true;
  for (const Clip& clip : source.model.clips) {
    const std::vector<float> times = retarget_frame_times(clip);
    const Clip out = retarget_clip(source.model, clip, target.model, rig, off, nullptr);
    RetargetMeasures planted_measures;
    const Clip planted =
        retarget_clip(source.model, clip, target.model, rig, on, &planted_measures);
    const Clip home = retarget_clip(target.model, out, source.model, rig_back, off, nullptr);
    ++row.clips;
    row.frames += times.size();
    row.hips_frames += planted_measures.feet_hips_frames;
    // A bone the source bends or stretches through joints the target lacks (or a moving child)
    // is pointed right on the target, but its own rotation cannot come back: only bones that
    // stay rigid in this clip compare.
    std::vector<uint8_t> rigid(round.size(), 1);
    for (float time : times) {
      const std::vector<glm::dmat4> s = world_at(source.model, clip, time);
      for (size_t k = 0; k < round.size(); ++k) {
        if (round[k].child < 0) continue;
        const glm::dvec3 now = glm::dvec3(glm::inverse(s[size_t(round[k].joint)]) *
                                          glm::dvec4(position(s, round[k].child), 1.0));
        if (glm::length(now - round[k].offset) > 1e-4 * glm::length(round[k].offset)) rigid[k] = 0;
      }
    }
    size_t compared = 0;
    for (uint8_t r : rigid) compared += r;
    row.round_rigid_min = std::min(row.round_rigid_min, compared);

    double direction = 0.0, round_trip = 0.0, max_expected = 0.0, max_deviation = 0.0;
    for (float time : times) {
      const std::vector<glm::dmat4> s = world_at(source.model, clip, time);
      const std::vector<glm::dmat4> t = world_at(target.model, out, time);
      glm::dvec3 expected(0.0), got(0.0);
      check_frame(rig, s, t, direction, expected, got);
      max_expected = std::max(max_expected, glm::length(expected));
      max_deviation = std::max(max_deviation, glm::length(got - expected));
      const std::vector<glm::dmat4> h = world_at(source.model, home, time);
      for (size_t k = 0; k < round.size(); ++k)
        if (rigid[k]) {
          const int j = round[k].joint;
          round_trip = std::max(round_trip, angle(rotation(s[size_t(j)]), rotation(h[size_t(j)])));
        }
    }
    // Relative to the larger of the hips' largest expected displacement and the target's hip
    // height (RiggedFigure's hips stay put: its displacements are float noise).
    const double hips = max_deviation / std::max(max_expected, double(rig.target.hip_height));
    const FootContacts contacts = retarget_foot_contacts(source.model, clip, rig, on);
    const double slide_off = foot_slide(target.model, out, rig, contacts, times);
    const double slide_on = foot_slide(target.model, planted, rig, contacts, times);
    const std::string what = row.label + " clip '" + clip.name + "'";
    EXPECT_LE(direction, 1.0) << what;
    EXPECT_LE(hips, 1e-4) << what;
    EXPECT_LE(slide_on, 1e-3) << what;
    EXPECT_LE(round_trip, 0.1) << what;
    row.direction = std::max(row.direction, direction);
    row.hips = std::max(row.hips, hips);
    row.slide_off = std::max(row.slide_off, slide_off);
    row.slide_on = std::max(row.slide_on, slide_on);
    row.round_trip = std::max(row.round_trip, round_trip);
  }
  return row;
}

TEST(RetargetCorpus, EveryPairMeetsTheGoals) {
  RIG_REQUIRE_CORPUS(corpus);
  const std::filesystem::path assets = std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets";
  std::vector<Subject> subjects;
  subjects.push_back(load(assets / "mannequin.glb", "mannequin"));
  subjects.push_back(load(assets / "humanoid_apose.glb", "humanoid_apose"));
  subjects.push_back(load(corpus / "KayKit_Knight/Knight.glb", "Knight"));
  subjects.push_back(load(corpus / "RobotExpressive/RobotExpressive.glb", "RobotExpressive"));
  subjects.push_back(load(corpus / "CesiumMan/CesiumMan.glb", "CesiumMan"));
  subjects.push_back(load(corpus / "RiggedFigure/RiggedFigure.glb", "RiggedFigure"));
  // Ordered pairs (source, target): the mannequin both ways with every other subject, and
  // corpus pairs across rig families (KayKit ↔ Quaternius, Collada-exported numbered rigs ↔
  // the others).
  const std::pair<int, int> pairs[] = {{0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 3}, {3, 0},
                                       {0, 4}, {4, 0}, {0, 5}, {5, 0}, {2, 3}, {3, 2},
                                       {4, 5}, {5, 4}, {2, 4}, {5, 2}, {3, 5}, {4, 3}};
  std::vector<PairRow> rows;
  for (auto [s, t] : pairs) rows.push_back(run_pair(subjects[size_t(s)], subjects[size_t(t)]));
  std::printf(
      "| target <- source | clips | frames | max dir error (deg) | hip ratio error | "
      "max slide feet off (%%) | max slide feet on (%%) | hips moved (frames) | "
      "round trip worst (deg) | round-trip joints (rigid in every clip / mapped both ways) |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const PairRow& r : rows) {
    std::printf("| %s | %zu | %zu | %.4f | %.1e | %.2f | %.1e | %zu | %.4f | %zu / %zu |\n",
                r.label.c_str(), r.clips, r.frames, r.direction, r.hips, 100.0 * r.slide_off,
                100.0 * r.slide_on, r.hips_frames, r.round_trip, r.round_rigid_min, r.round_joints);
  }
}

}  // namespace
}  // namespace rig
