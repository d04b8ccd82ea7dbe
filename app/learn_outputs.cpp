#include "learn_outputs.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "json_text.h"
#include "learn_pose.h"
#include "posed_character.h"
#include "rotation_centers_job.h"

namespace rigview {

namespace {

int fail(const std::string& file, const std::string& error, int status) {
  std::fprintf(stderr, "rigview: error: %s: %s\n", file.c_str(), error.c_str());
  return status;
}

std::string json_vec3(glm::vec3 v) {
  return "[" + json_number(v.x) + "," + json_number(v.y) + "," + json_number(v.z) + "]";
}

// A vertex of the middle ring: where it is drawn and its angle about the bone at bind.
struct RingVertex {
  size_t draw = 0;
  uint32_t vertex = 0;
  float bind_angle = 0.0f;
};

// The frame of the ring's plane: origin, bone axis and two unit vectors across it.
struct RingFrame {
  glm::vec3 origin{0.0f}, axis{1.0f, 0.0f, 0.0f}, u{0.0f, 1.0f, 0.0f}, v{0.0f, 0.0f, 1.0f};
  glm::vec2 project(glm::vec3 p) const {
    return {glm::dot(p - origin, u), glm::dot(p - origin, v)};
  }
};

// origin: the twist joint; axis: from the root joint to it; u: the root joint's Y axis made
// perpendicular to the axis; v = axis × u.
RingFrame ring_frame(const glm::mat4& root, const glm::mat4& twist) {
  RingFrame f;
  f.origin = glm::vec3(twist[3]);
  const glm::vec3 bone = f.origin - glm::vec3(root[3]);
  if (glm::length(bone) > 0.0f) f.axis = glm::normalize(bone);
  const glm::vec3 y = glm::vec3(root[1]) - glm::dot(glm::vec3(root[1]), f.axis) * f.axis;
  f.u = glm::length(y) > 0.0f ? glm::normalize(y) : glm::vec3(0.0f, 1.0f, 0.0f);
  f.v = glm::cross(f.axis, f.u);
  return f;
}

struct RadiusStats {
  float min = 0.0f, max = 0.0f, mean = 0.0f;
};

std::string radius_json(const RadiusStats& r) {
  return "{\"min\":" + json_number(r.min) + ",\"max\":" + json_number(r.max) +
         ",\"mean\":" + json_number(r.mean) + "}";
}

RadiusStats stats(const std::vector<glm::vec2>& points) {
  RadiusStats r;
  if (points.empty()) return r;
  r.min = r.max = glm::length(points[0]);
  double sum = 0.0;
  for (glm::vec2 p : points) {
    const float len = glm::length(p);
    r.min = std::min(r.min, len);
    r.max = std::max(r.max, len);
    sum += len;
  }
  r.mean = float(sum / double(points.size()));
  return r;
}

}  // namespace

int write_cross_section(const Options& options, const rig::Model& model,
                        const rig::SkinLayer* skin) {
  std::string error;
  TwistArmJoints arm;
  if (!find_twist_arm(model, "--cross-section", arm, error)) return fail(model.file, error, 2);
  int skin_index = -1;
  size_t root_k = 0, twist_k = 0;
  for (size_t s = 0; s < model.skins.size() && skin_index < 0; ++s) {
    const std::vector<int>& joints = model.skins[s].joints;
    const auto root = std::find(joints.begin(), joints.end(), arm.root);
    const auto twist = std::find(joints.begin(), joints.end(), arm.twist);
    if (root == joints.end() || twist == joints.end()) continue;
    skin_index = int(s);
    root_k = size_t(root - joints.begin());
    twist_k = size_t(twist - joints.begin());
  }
  if (skin_index < 0)
    return fail(model.file, "--cross-section: no skin has both ArmRoot and ArmTwist", 2);

  const auto all = rig::all_skinning_methods();
  const std::vector<rig::SkinningMethod> methods(all.begin(), all.end());
  PosedCharacter posed;
  if (const int status = pose_from_options(options, model, posed, error,
                                           prepared_skin_layer(model, methods, true, skin));
      status != 0)
    return fail(model.file, error, status);
  const rig::Character& character = *posed.character;

  // The bind frame from the inverse bind matrices: the ring is the vertices in the plane through
  // the twist joint across the bone, off the axis (the caps' centres are not on it).
  const std::span<const glm::mat4> ibm = character.skin_layer().inverse_bind(size_t(skin_index));
  const RingFrame bind = ring_frame(glm::inverse(ibm[root_k]), glm::inverse(ibm[twist_k]));
  constexpr float kOnPlane = 1e-5f, kOffAxis = 1e-4f;
  std::vector<RingVertex> ring;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    if (item.skin != skin_index) continue;
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
      const glm::vec3 p = prim.positions[v];
      if (std::abs(glm::dot(p - bind.origin, bind.axis)) > kOnPlane) continue;
      const glm::vec2 q = bind.project(p);
      if (glm::length(q) < kOffAxis) continue;
      const float angle = std::atan2(q.y, q.x);
      // A seam repeats a position: keep one vertex per angle.
      if (std::any_of(ring.begin(), ring.end(),
                      [&](const RingVertex& r) { return std::abs(r.bind_angle - angle) < 1e-6f; }))
        continue;
      ring.push_back({d, v, angle});
    }
  }
  if (ring.size() < 3)
    return fail(model.file, "--cross-section: no ring of vertices at ArmTwist", 1);
  std::sort(ring.begin(), ring.end(),
            [](const RingVertex& a, const RingVertex& b) { return a.bind_angle < b.bind_angle; });

  // The angle used: the twist about the bone (local X) of ArmTwist's rotation relative to rest,
  // from its swing-twist split, in (-180, 180].
  const glm::quat rel = glm::inverse(model.nodes[size_t(arm.twist)].rest.rotation) *
                        character.pose().local[size_t(arm.twist)].rotation;
  float twist_degrees = glm::degrees(2.0f * std::atan2(rel.x, rel.w));
  if (twist_degrees > 180.0f) twist_degrees -= 360.0f;
  if (twist_degrees <= -180.0f) twist_degrees += 360.0f;

  const RingFrame frame =
      ring_frame(character.world()[size_t(arm.root)], character.world()[size_t(arm.twist)]);
  std::vector<glm::vec2> bind_points;
  for (const RingVertex& r : ring) {
    const rig::DrawItem& item = model.draws[r.draw];
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    bind_points.push_back(bind.project(prim.positions[r.vertex]));
  }
  std::string j = "{\"model\":" + json_string(model.file) +
                  ",\"joint\":\"ArmTwist\",\"twist_degrees\":" + json_number(twist_degrees) +
                  ",\"ring_vertices\":" + std::to_string(ring.size()) +
                  ",\"bind_radius\":" + radius_json(stats(bind_points)) +
                  ",\"frame\":{\"origin\":" + json_vec3(frame.origin) +
                  ",\"axis\":" + json_vec3(frame.axis) + ",\"u\":" + json_vec3(frame.u) +
                  ",\"v\":" + json_vec3(frame.v) + "},\"methods\":[";
  std::vector<std::vector<glm::vec3>> positions(model.draws.size()), normals(model.draws.size());
  for (size_t m = 0; m < methods.size(); ++m) {
    for (size_t d = 0; d < model.draws.size(); ++d) {
      const rig::DrawItem& item = model.draws[d];
      if (item.skin != skin_index) continue;
      const uint32_t n =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
      positions[d].resize(n);
      normals[d].resize(n);
      character.skin_draw_item(item, methods[m], positions[d], normals[d]);
    }
    std::vector<glm::vec2> points;
    for (const RingVertex& r : ring) points.push_back(frame.project(positions[r.draw][r.vertex]));
    j += std::string(m ? "," : "") +
         "{\"method\":" + json_string(rig::method_info(methods[m]).name) +
         ",\"radius\":" + radius_json(stats(points)) + ",\"points\":[";
    for (size_t i = 0; i < points.size(); ++i)
      j += std::string(i ? "," : "") + "[" + json_number(points[i].x) + "," +
           json_number(points[i].y) + "]";
    j += "]}";
  }
  j += "]}\n";
  std::FILE* f = std::fopen(options.cross_section.c_str(), "wb");
  const bool ok = f && std::fwrite(j.data(), 1, j.size(), f) == j.size();
  if ((f && std::fclose(f) != 0) || !ok)
    return fail(options.cross_section, std::string("cannot write: ") + std::strerror(errno), 1);
  return 0;
}

}  // namespace rigview
