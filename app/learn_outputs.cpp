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
#include "twist_ring.h"

namespace rigview {

namespace {

int fail(const std::string& file, const std::string& error, int status) {
  std::fprintf(stderr, "rigview: error: %s: %s\n", file.c_str(), error.c_str());
  return status;
}

std::string json_vec3(glm::vec3 v) {
  return "[" + json_number(v.x) + "," + json_number(v.y) + "," + json_number(v.z) + "]";
}

std::string radius_json(const RadiusStats& r) {
  return "{\"min\":" + json_number(r.min) + ",\"max\":" + json_number(r.max) +
         ",\"mean\":" + json_number(r.mean) + "}";
}

}  // namespace

int write_cross_section(const Options& options, const rig::Model& model,
                        const rig::SkinLayer* skin) {
  std::string error;
  {
    TwistArmJoints arm;
    if (!find_twist_arm(model, "--cross-section", arm, error)) return fail(model.file, error, 2);
    const bool has_skin = std::any_of(model.skins.begin(), model.skins.end(), [&](const auto& s) {
      return std::find(s.joints.begin(), s.joints.end(), arm.root) != s.joints.end() &&
             std::find(s.joints.begin(), s.joints.end(), arm.twist) != s.joints.end();
    });
    if (!has_skin)
      return fail(model.file, "--cross-section: no skin has both ArmRoot and ArmTwist", 2);
  }

  const auto all = rig::all_skinning_methods();
  const std::vector<rig::SkinningMethod> methods(all.begin(), all.end());
  PosedCharacter posed;
  if (const int status = pose_from_options(options, model, posed, error,
                                           prepared_skin_layer(model, methods, true, skin));
      status != 0)
    return fail(model.file, error, status);
  const rig::Character& character = *posed.character;

  TwistRing ring;
  if (const int status =
          find_twist_ring(model, character.skin_layer(), "--cross-section", ring, error);
      status != 0)
    return fail(model.file, error, status);
  const float twist_degrees = ring_twist_degrees(ring, model, character);
  const RingFrame frame = posed_ring_frame(ring, character);
  std::string j = "{\"model\":" + json_string(model.file) +
                  ",\"joint\":\"ArmTwist\",\"twist_degrees\":" + json_number(twist_degrees) +
                  ",\"ring_vertices\":" + std::to_string(ring.ring.size()) +
                  ",\"bind_radius\":" + radius_json(radius_stats(ring.bind_points)) +
                  ",\"frame\":{\"origin\":" + json_vec3(frame.origin) +
                  ",\"axis\":" + json_vec3(frame.axis) + ",\"u\":" + json_vec3(frame.u) +
                  ",\"v\":" + json_vec3(frame.v) + "},\"methods\":[";
  std::vector<glm::vec2> points(ring.ring.size());
  for (size_t m = 0; m < methods.size(); ++m) {
    measure_ring(ring, model, character, methods[m], frame, points);
    j += std::string(m ? "," : "") +
         "{\"method\":" + json_string(rig::method_info(methods[m]).name) +
         ",\"radius\":" + radius_json(radius_stats(points)) + ",\"points\":[";
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
