// The demo clips show what they are built for, measured with the engine's CPU skinning:
// Twist wrings the 50/50 ring flat under LBS and keeps it round under DQS (the candy wrapper),
// Bend collapses the outer elbow and knee under LBS while DQS keeps their full radius.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "asset_fixture.h"

namespace rig::test {
namespace {

struct Ring {
  std::vector<uint32_t> vertices;
  float rest_radius = 0.0f;  // mean distance from the bone axis in the rest pose
};

// Rest-pose vertices within 1 mm of the plane through `joint_origin` perpendicular to `axis`
// and within `max_radius` of the axis: the ring that sits on the joint.
Ring ring_at_joint(const Primitive& prim, glm::vec3 joint_origin, glm::vec3 axis,
                   float max_radius) {
  Ring ring;
  axis = glm::normalize(axis);
  double sum = 0.0;
  for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
    const glm::vec3 d = prim.positions[v] - joint_origin;
    if (std::abs(glm::dot(d, axis)) > 1e-3f) continue;
    const float r = distance_to_line(prim.positions[v], joint_origin, axis);
    if (r > max_radius) continue;
    ring.vertices.push_back(v);
    sum += r;
  }
  if (!ring.vertices.empty()) ring.rest_radius = float(sum / ring.vertices.size());
  return ring;
}

struct RadiusRange {
  float min = 1e9f, max = 0.0f;
};

// Twist at its middle (180 degrees): radius of the joint ring about the twisting bone's axis.
RadiusRange twisted_radius(const Model& model, const std::string& joint_name, float max_radius,
                           SkinningMethod method, float& rest_radius) {
  const int joint = node_named(model, joint_name);
  const int parent = model.nodes.at(joint).parent;
  Character character(model);
  character.evaluate(PoseSelection{});
  const glm::vec3 rest_origin = origin_of(character.world()[joint]);
  const glm::vec3 rest_axis = rest_origin - origin_of(character.world()[parent]);
  const Ring ring = ring_at_joint(only_primitive(model), rest_origin, rest_axis, max_radius);
  EXPECT_GE(ring.vertices.size(), 16u) << "no dense ring at " << joint_name;
  rest_radius = ring.rest_radius;

  const int clip = clip_named(model, "Twist");
  EXPECT_GE(clip, 0);
  const Clip& c = model.clips.at(clip);
  PoseSelection middle;
  middle.clip = clip;
  middle.time = 0.5f * (c.start + c.end);
  const std::vector<glm::vec3> posed = skinned_positions(character, middle, method);
  // The twist joint rotates about its own bone: the axis through parent and joint stays put.
  const glm::vec3 origin = origin_of(character.world()[joint]);
  const glm::vec3 axis = origin - origin_of(character.world()[parent]);
  RadiusRange range;
  for (uint32_t v : ring.vertices) {
    const float r = distance_to_line(posed[v], origin, axis);
    range.min = std::min(range.min, r);
    range.max = std::max(range.max, r);
  }
  return range;
}

void expect_candy_wrapper(const Model& model, const std::string& joint_name, float max_radius) {
  float rest = 0.0f;
  const RadiusRange lbs =
      twisted_radius(model, joint_name, max_radius, SkinningMethod::Linear, rest);
  const RadiusRange dqs =
      twisted_radius(model, joint_name, max_radius, SkinningMethod::DualQuaternion, rest);
  ASSERT_GT(rest, 0.01f);
  std::printf("%s twist 180: rest radius %.4f, LBS radius %.4f..%.4f, DQS radius %.4f..%.4f\n",
              joint_name.c_str(), rest, lbs.min, lbs.max, dqs.min, dqs.max);
  // LBS averages a point and its 180-degree image: the 50/50 ring collapses onto the axis.
  EXPECT_LT(lbs.max, 0.2f * rest) << joint_name << " rest radius " << rest;
  // DQS blends two rotations about one axis into a rotation about it: the radius holds.
  EXPECT_GT(dqs.min, 0.98f * rest) << joint_name;
  EXPECT_LT(dqs.max, 1.02f * rest) << joint_name;
}

TEST(TwistDemo, MannequinLeftForearmCandyWrapper) {
  expect_candy_wrapper(bundled_asset("mannequin.glb"), "LeftForeArmTwist", 0.08f);
}

TEST(TwistDemo, MannequinRightForearmCandyWrapper) {
  expect_candy_wrapper(bundled_asset("mannequin.glb"), "RightForeArmTwist", 0.08f);
}

TEST(TwistDemo, TwistArmCandyWrapper) {
  const Model& model = bundled_asset("twist_arm.glb");
  ASSERT_EQ(model.skins.size(), 1u);
  const Skin& skin = model.skins[0];
  // The twisting joint is the last one of the chain.
  expect_candy_wrapper(model, model.nodes[skin.joints.back()].name, 0.3f);
}

// Bend at its middle (about 150 degrees): how far the ring on the joint reaches outward along
// the bisector of the bent limb, relative to the rest radius.
struct BendReach {
  float lbs = 0.0f, dqs = 0.0f, rest = 0.0f;
  float bend_degrees = 0.0f;
  float dqs_distance_error = 0.0f;  // worst relative change of distance to the joint centre
};

BendReach bend_reach(const Model& model, const std::string& joint_name,
                     const std::string& child_name) {
  BendReach out;
  const int joint = node_named(model, joint_name);
  const int parent = model.nodes.at(joint).parent;
  const int child = node_named(model, child_name);
  Character character(model);
  character.evaluate(PoseSelection{});
  const glm::vec3 rest_origin = origin_of(character.world()[joint]);
  const glm::vec3 rest_axis = rest_origin - origin_of(character.world()[parent]);
  const Ring ring = ring_at_joint(only_primitive(model), rest_origin, rest_axis, 0.12f);
  EXPECT_GE(ring.vertices.size(), 16u) << "no dense ring at " << joint_name;
  out.rest = ring.rest_radius;
  std::vector<float> rest_distance;
  for (uint32_t v : ring.vertices)
    rest_distance.push_back(glm::length(only_primitive(model).positions[v] - rest_origin));

  const int clip = clip_named(model, "Bend");
  EXPECT_GE(clip, 0);
  const Clip& c = model.clips.at(clip);
  PoseSelection middle;
  middle.clip = clip;
  middle.time = 0.5f * (c.start + c.end);
  for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    const std::vector<glm::vec3> posed = skinned_positions(character, middle, method);
    const glm::vec3 centre = origin_of(character.world()[joint]);
    const glm::vec3 to_parent = glm::normalize(origin_of(character.world()[parent]) - centre);
    const glm::vec3 to_child = glm::normalize(origin_of(character.world()[child]) - centre);
    out.bend_degrees = glm::degrees(std::acos(glm::dot(-to_parent, to_child)));
    const glm::vec3 outward = -glm::normalize(to_parent + to_child);
    float reach = -1e9f;
    for (size_t i = 0; i < ring.vertices.size(); ++i) {
      const glm::vec3 d = posed[ring.vertices[i]] - centre;
      reach = std::max(reach, glm::dot(d, outward));
      if (method == SkinningMethod::DualQuaternion)
        out.dqs_distance_error = std::max(
            out.dqs_distance_error, std::abs(glm::length(d) - rest_distance[i]) / rest_distance[i]);
    }
    (method == SkinningMethod::Linear ? out.lbs : out.dqs) = reach;
  }
  return out;
}

void expect_joint_bulge(const std::string& joint, const std::string& child) {
  const BendReach r = bend_reach(bundled_asset("mannequin.glb"), joint, child);
  EXPECT_GT(r.bend_degrees, 140.0f) << joint;
  EXPECT_LT(r.bend_degrees, 160.0f) << joint;
  ASSERT_GT(r.rest, 0.02f);
  std::printf(
      "%s bend %.1f deg: outward reach rest %.4f, LBS %.4f, DQS %.4f (DQS distance "
      "change %.2f%%)\n",
      joint.c_str(), r.bend_degrees, r.rest, r.lbs, r.dqs, 100.0f * r.dqs_distance_error);
  // LBS: the outer point averages two directions 150 degrees apart, |cos 75| = 0.26 of rest.
  EXPECT_LT(r.lbs, 0.5f * r.rest) << joint << ": LBS should lose volume at the joint";
  // DQS rotates the outer point about the joint centre: it keeps its full reach (the bulge).
  EXPECT_GT(r.dqs, 0.98f * r.rest) << joint << ": DQS should keep the joint round";
  EXPECT_GT(r.dqs, 2.0f * r.lbs) << joint;
  EXPECT_LT(r.dqs_distance_error, 0.02f) << joint;
}

TEST(BendDemo, ElbowBulgesUnderDqsAndCollapsesUnderLbs) {
  expect_joint_bulge("LeftForeArm", "LeftForeArmTwist");
  expect_joint_bulge("RightForeArm", "RightForeArmTwist");
}

TEST(BendDemo, KneeBulgesUnderDqsAndCollapsesUnderLbs) {
  expect_joint_bulge("LeftLeg", "LeftFoot");
  expect_joint_bulge("RightLeg", "RightFoot");
}

}  // namespace
}  // namespace rig::test
