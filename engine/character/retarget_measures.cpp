// measure_retarget (character/retarget.h): both clips sampled through the ordinary sampling and
// local → world path, directions and positions read off the world matrices.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "anim/clip_set.h"
#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "character/retarget.h"

namespace rig {

namespace {

// Angle between two directions in degrees (atan2 of sine and cosine: accurate near zero, where
// acos of a dot product is not).
double angle_degrees(glm::dvec3 a, glm::dvec3 b) {
  const double s = glm::length(glm::cross(a, b)), c = glm::dot(a, b);
  return std::atan2(s, c) * 180.0 / std::numbers::pi;
}

// Samples `clip` of `model` at `time` into `world` (a fresh rest pose each time).
struct Sampler {
  const Skeleton skeleton;
  const RawClipSource source;
  Pose rest, pose;
  std::vector<glm::mat4> world;
  Sampler(const Model& m, const Clip& clip)
      : skeleton(Skeleton::build(m)), source(m, clip), world(m.nodes.size()) {
    init_rest_pose(m, rest);
    pose = rest;
  }
  void at(float time) {
    pose = rest;
    source.sample(time, {}, pose.local, pose.morph_weights);
    LocalToWorldJob{&skeleton, pose.local, world, -1}.run();
  }
  glm::dvec3 position(int node) const { return glm::dvec3(glm::vec3(world[size_t(node)][3])); }
};

}  // namespace

RetargetMeasures measure_retarget(const Model& source, const Clip& source_clip, const Model& target,
                                  const Clip& target_clip, const RetargetRig& rig,
                                  const FootContacts& contacts) {
  RetargetMeasures m;
  const std::vector<float> times = retarget_frame_times(source_clip);
  m.frames = times.size();
  m.frame_duration = clip_frame_duration(source_clip);
  m.hip_ratio = rig.hip_ratio;
  m.target_height = rig.target.height;
  m.foot_slide.assign(times.size(), 0.0f);
  Sampler s(source, source_clip), t(target, target_clip);
  const glm::dquat g(rig.facing);
  for (const RetargetBone& bone : rig.bones) m.direction_bones += bone.child >= 0;

  const int feet[2] = {rig.bone(HumanBone::LeftFoot), rig.bone(HumanBone::RightFoot)};
  const glm::dvec3 velocity = double(rig.hip_ratio) * (g * glm::dvec3(contacts.ground_velocity));
  glm::dvec3 previous[2];
  int previous_run[2] = {-1, -1};

  double sum = 0.0, max_expected = 0.0, max_deviation = 0.0;
  size_t count = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    s.at(times[i]);
    t.at(times[i]);
    for (const RetargetBone& bone : rig.bones) {
      if (bone.child < 0) continue;
      const RetargetBone& child = rig.bones[size_t(bone.child)];
      const glm::dvec3 ds = s.position(child.source) - s.position(bone.source);
      const glm::dvec3 dt = t.position(child.target) - t.position(bone.target);
      const double e = angle_degrees(g * ds, dt);
      m.max_direction_error_deg = std::max(m.max_direction_error_deg, float(e));
      sum += e;
      ++count;
    }
    if (rig.hips >= 0) {
      const RetargetBone& hips = rig.bones[size_t(rig.hips)];
      const glm::dvec3 expected =
          double(rig.hip_ratio) * (g * (s.position(hips.source) - glm::dvec3(rig.source.hips)));
      const glm::dvec3 got = t.position(hips.target) - glm::dvec3(rig.target.hips);
      max_expected = std::max(max_expected, glm::length(expected));
      max_deviation = std::max(max_deviation, glm::length(got - expected));
    }
    for (size_t f = 0; f < 2 && contacts.feet.size() == 2 && feet[f] >= 0; ++f) {
      const int run = contact_run(contacts, f, times[i]);
      const glm::dvec3 ground = t.position(rig.bones[size_t(feet[f])].target) +
                                velocity * double(times[i] - contacts.start);
      if (run >= 0 && run == previous_run[f]) {
        const double slide = glm::length(ground - previous[f]) / double(rig.target.height);
        m.foot_slide[i] = std::max(m.foot_slide[i], float(slide));
        m.max_foot_slide = std::max(m.max_foot_slide, float(slide));
      }
      previous[f] = ground;
      previous_run[f] = run;
    }
    m.contact_frames += previous_run[0] >= 0 || previous_run[1] >= 0;
  }
  m.mean_direction_error_deg = count ? float(sum / double(count)) : 0.0f;
  // Relative to the larger of the largest expected displacement and the target's hip height: a
  // clip whose hips barely move (RiggedFigure's stay put within float noise) would otherwise
  // divide noise by noise.
  const double scale = std::max(max_expected, double(rig.target.hip_height));
  m.hip_ratio_error = scale > 0.0 ? float(max_deviation / scale) : 0.0f;
  return m;
}

}  // namespace rig
