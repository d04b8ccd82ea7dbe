#include "anim/root_motion.h"

#include <algorithm>
#include <cmath>

#include "anim/sampling.h"

namespace rig {

int default_root_motion_node(const Model& model) {
  for (const Skin& s : model.skins)
    for (size_t j = 0; j < s.joints.size(); ++j)
      if (j >= s.joint_parent.size() || s.joint_parent[j] < 0) return s.joints[j];
  if (!model.scene_roots.empty()) return model.scene_roots[0];
  return model.nodes.empty() ? -1 : 0;
}

RigidMotion compose(const RigidMotion& a, const RigidMotion& b, glm::vec3 up) {
  RigidMotion out;
  out.translation = a.translation + glm::angleAxis(a.yaw, up) * b.translation;
  out.yaw = a.yaw + b.yaw;
  return out;
}

RigidMotion inverse(const RigidMotion& m, glm::vec3 up) {
  RigidMotion out;
  out.yaw = -m.yaw;
  out.translation = -(glm::angleAxis(-m.yaw, up) * m.translation);
  return out;
}

RigidMotion blend(const RigidMotion& a, const RigidMotion& b, float w) {
  return {a.translation + (b.translation - a.translation) * w, a.yaw + (b.yaw - a.yaw) * w};
}

Transform apply(const RigidMotion& m, const Transform& local, glm::vec3 up) {
  Transform out = local;
  if (m.yaw != 0.0f) {
    const glm::quat yaw = glm::angleAxis(m.yaw, up);
    out.translation = yaw * local.translation;
    out.rotation = glm::normalize(yaw * local.rotation);
  }
  out.translation += m.translation;
  return out;
}

float yaw_about(const glm::quat& q, glm::vec3 up) {
  const glm::vec3 v(q.x, q.y, q.z);
  const float along = glm::dot(v, up);
  if (along == 0.0f && q.w == 0.0f) return 0.0f;  // a half turn about a horizontal axis
  float angle = 2.0f * std::atan2(along, q.w);
  if (angle > glm::pi<float>()) angle -= glm::two_pi<float>();
  if (angle <= -glm::pi<float>()) angle += glm::two_pi<float>();
  return angle;
}

RootMotionClip::RootMotionClip(const Model& model, int clip, RootMotionSettings settings)
    : RootMotionClip(model,
                     clip >= 0 && size_t(clip) < model.clips.size()
                         ? std::shared_ptr<const Clip>(std::shared_ptr<const Clip>(),
                                                       &model.clips[size_t(clip)])
                         : nullptr,
                     settings) {}

RootMotionClip::RootMotionClip(const Model& model, std::shared_ptr<const Clip> clip,
                               RootMotionSettings settings)
    : clip_(std::move(clip)), settings_(settings) {
  if (settings_.root < 0) settings_.root = default_root_motion_node(model);
  const float ul = glm::length(settings_.up);
  settings_.up = ul > 0.0f ? settings_.up / ul : glm::vec3(0, 1, 0);
  if (!clip_ || settings_.root < 0 || size_t(settings_.root) >= model.nodes.size()) {
    settings_.mode = RootMotionMode::Keep;
    clip_ = nullptr;
    return;
  }
  rest_ = model.nodes[size_t(settings_.root)].rest;
  start_ = planar_at(clip_->start);
  loop_ = motion_at(clip_->end);
}

RootMotionClip::Planar RootMotionClip::planar(const Transform& root_local) const {
  const glm::vec3 up = settings_.up;
  Planar p;
  p.horizontal = root_local.translation - up * glm::dot(root_local.translation, up);
  if (settings_.include_yaw) p.yaw = yaw_about(root_local.rotation, up);
  return p;
}

RootMotionClip::Planar RootMotionClip::planar_at(float time) const {
  Transform t = rest_;
  if (clip_) {
    const Clip& c = *clip_;
    time = std::clamp(time, c.start, c.end);
    float v[4];
    for (const Channel& ch : c.channels) {
      if (ch.node != settings_.root) continue;
      if (ch.path == TargetPath::Translation) {
        sample_channel(ch, time, std::span<float>(v, 3));
        t.translation = {v[0], v[1], v[2]};
      } else if (ch.path == TargetPath::Rotation) {
        sample_channel(ch, time, std::span<float>(v, 4));
        t.rotation = glm::quat(v[3], v[0], v[1], v[2]);
      }
    }
  }
  return planar(t);
}

void RootMotionClip::apply(std::span<Transform> local) const {
  if (!active() || size_t(settings_.root) >= local.size()) return;
  Transform& r = local[size_t(settings_.root)];
  const Planar now = planar(r);
  const glm::vec3 up = settings_.up;
  if (settings_.include_yaw) {
    const glm::quat back = glm::angleAxis(start_.yaw - now.yaw, up);
    r.rotation = glm::normalize(back * r.rotation);
  }
  r.translation = start_.horizontal + up * glm::dot(r.translation, up);
}

RigidMotion RootMotionClip::motion_at(float time) const {
  // H(t)·H(s)⁻¹ with H = T(horizontal)·Yaw(yaw).
  const Planar now = planar_at(time);
  const glm::vec3 up = settings_.up;
  const RigidMotion h_now{now.horizontal, now.yaw};
  const RigidMotion h_start{start_.horizontal, start_.yaw};
  return compose(h_now, inverse(h_start, up), up);
}

RigidMotion RootMotionClip::delta(float from, float to, int loops) const {
  const glm::vec3 up = settings_.up;
  RigidMotion m = inverse(motion_at(from), up);
  const RigidMotion step = loops >= 0 ? loop_ : inverse(loop_, up);
  for (int k = 0; k < std::abs(loops); ++k) m = compose(m, step, up);
  return compose(m, motion_at(to), up);
}

int loops_between(float previous_time, float time, float speed) {
  if (speed > 0.0f && time < previous_time) return 1;
  if (speed < 0.0f && time > previous_time) return -1;
  return 0;
}

}  // namespace rig
