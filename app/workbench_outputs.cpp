#include "workbench_outputs.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/range_of_motion.h"
#include "analysis/vertex_inspection.h"
#include "anim/joint_mask.h"
#include "clip_files.h"
#include "json_text.h"
#include "pose_options.h"
#include "posed_character.h"
#include "rotation_centers_job.h"

namespace rigview {

namespace {

int usage_error(const rig::Model& model, const std::string& error) {
  std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
  return 2;
}

std::string json_vec3(glm::vec3 v) {
  return "[" + json_number(v.x) + "," + json_number(v.y) + "," + json_number(v.z) + "]";
}

// The pose flags resolved without posing: usage errors surface before the centres of rotation
// are computed.
bool check_pose_flags(const Options& options, const rig::Model& model, std::string& error) {
  const std::shared_ptr<rig::ClipSet> clips = clip_set_from_options(options, model, error);
  if (!clips) return false;
  rig::PoseSelection selection;
  rig::PoseSettings settings;
  std::vector<float> amounts;
  return pose_selection_from_options(options, *clips, selection, error) &&
         pose_settings_from_options(options, model, *clips, selection, settings, error) &&
         dqs_amounts_from_options(options, model, amounts, error);
}

// Per draw item, the skinned primitive (--inspect-vertex's PRIM) it draws, -1 for none.
std::vector<int> skinned_primitive_of_draws(const rig::Model& model) {
  const std::vector<rig::SkinnedPrimitiveRef> skinned = rig::skinned_primitives(model);
  std::vector<int> out(model.draws.size(), -1);
  for (size_t d = 0; d < model.draws.size(); ++d)
    for (size_t p = 0; p < skinned.size(); ++p)
      if (skinned[p].mesh == model.draws[d].mesh &&
          skinned[p].primitive == model.draws[d].primitive)
        out[d] = int(p);
  return out;
}

std::string rom_base_json(const rig::Model& model, const rig::PoseSelection& base) {
  if (base.clip < 0 || size_t(base.clip) >= model.clips.size()) return "\"rest\"";
  std::string j = "{\"clip\":" + json_string(model.clips[size_t(base.clip)].name) +
                  ",\"index\":" + std::to_string(base.clip) + ",\"time\":" + json_number(base.time);
  if (base.blend_clip >= 0 && size_t(base.blend_clip) < model.clips.size())
    j += ",\"blend_clip\":" + json_string(model.clips[size_t(base.blend_clip)].name) +
         ",\"blend_index\":" + std::to_string(base.blend_clip) +
         ",\"blend_time\":" + json_number(base.blend_time) +
         ",\"blend_weight\":" + json_number(base.blend_weight);
  return j + "}";
}

std::string rom_sample_json(const std::vector<int>& primitive_of_draw,
                            const rig::RangeOfMotionSample& s) {
  std::string j = "{\"score\":" + json_number(s.score) + ",\"worst_vertex\":";
  if (s.worst.draw < 0) {
    j += "null";
  } else {
    const int primitive = size_t(s.worst.draw) < primitive_of_draw.size()
                              ? primitive_of_draw[size_t(s.worst.draw)]
                              : -1;
    j += "{\"primitive\":" + std::to_string(s.worst.draw) +
         ",\"vertex\":" + std::to_string(s.worst.vertex) +
         ",\"joint\":" + std::to_string(s.worst.joint) + ",\"inspect\":" +
         (primitive >= 0
              ? json_string(std::to_string(primitive) + ":" + std::to_string(s.worst.vertex))
              : std::string("null")) +
         "}";
  }
  return j + ",\"h\":" + json_number(s.worst.value) +
         ",\"volume_change_percent\":" + json_number(s.volume_change_percent) + "}";
}

bool write_text(const std::string& path, const std::string& text, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if ((f && std::fclose(f) != 0) || !ok) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

// A progress line on stderr once the sweep has taken more than a second.
struct SweepProgress {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  double printed_at = 0.0;
  bool printed = false;
};

bool print_sweep_progress(void* user, float fraction) {
  SweepProgress& p = *static_cast<SweepProgress*>(user);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
  if (seconds > 1.0 && (seconds - p.printed_at >= 0.25 || fraction >= 1.0)) {
    std::fprintf(stderr, "\rrigview: range of motion %3.0f%%", fraction * 100.0);
    p.printed_at = seconds;
    p.printed = true;
  }
  return true;
}

}  // namespace

int run_range_of_motion(const Options& options, const rig::Model& model) {
  std::string error;
  // The base: the rest pose unless the flags choose a clip pose.
  Options base_options = options;
  if (!options.animation_index_given && !options.animation_time && options.blend_index < 0)
    base_options.rest_pose = true;
  if (!check_pose_flags(base_options, model, error)) return usage_error(model, error);
  std::vector<int> joints;
  for (const std::string& name : options.rom_joints) {
    const int node = rig::find_node(model, name);
    if (node < 0) return usage_error(model, "--range-of-motion: no node named '" + name + "'");
    bool is_joint = false;
    for (const rig::Skin& skin : model.skins)
      for (int j : skin.joints) is_joint = is_joint || j == node;
    if (!is_joint)
      return usage_error(model, "--range-of-motion: '" + name + "' is not a joint of any skin");
    joints.push_back(node);
  }
  const std::vector<rig::SkinningMethod> methods = methods_to_scan(options);
  PosedCharacter posed;
  if (const int status = pose_from_options(base_options, model, posed, error,
                                           prepared_skin_layer(model, methods, true));
      status != 0) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return status;
  }
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, posed.character->skin_layer());
  rig::RangeOfMotionJob job;
  job.setup = &setup;
  job.builder = posed.builder.get();
  job.character = posed.character.get();
  job.base = &posed.settings;
  job.joints = joints;
  job.methods = methods;
  job.degrees = options.rom_degrees;
  job.steps = options.rom_steps;
  std::vector<rig::RangeOfMotionSample> samples(job.sample_count());
  job.out = samples;
  if (!job.validate(error)) return usage_error(model, error);
  SweepProgress progress;
  job.run(print_sweep_progress, &progress);
  if (progress.printed) std::fprintf(stderr, "\n");

  std::string j = "{\"file\":" + json_string(model.file) +
                  ",\"degrees\":" + json_number(job.degrees) +
                  ",\"steps\":" + std::to_string(job.steps) +
                  ",\"base\":" + rom_base_json(model, posed.settings.base) + ",\"methods\":[";
  for (size_t m = 0; m < methods.size(); ++m)
    j += (m ? "," : "") + json_string(rig::method_info(methods[m]).name);
  j += "],\"closed\":" + std::string(setup.closed ? "true" : "false") + ",\"joints\":[";
  static const char* const kAxes[3] = {"x", "y", "z"};
  const std::vector<int> primitive_of_draw = skinned_primitive_of_draws(model);
  for (size_t k = 0; k < joints.size(); ++k) {
    j += std::string(k ? "," : "") +
         "{\"name\":" + json_string(model.nodes[size_t(joints[k])].name) +
         ",\"node\":" + std::to_string(joints[k]) + ",\"axes\":[";
    for (int axis = 0; axis < 3; ++axis) {
      j += std::string(axis ? "," : "") + "{\"axis\":\"" + kAxes[axis] + "\",\"steps\":[";
      for (int step = 0; step < job.steps; ++step) {
        j += std::string(step ? "," : "") + "{\"angle\":" + json_number(job.angle(step)) +
             ",\"methods\":{";
        for (size_t m = 0; m < methods.size(); ++m)
          j += std::string(m ? "," : "") + json_string(rig::method_info(methods[m]).name) + ":" +
               rom_sample_json(primitive_of_draw, samples[job.index(k, axis, step, m)]);
        j += "}}";
      }
      j += "]}";
    }
    j += "]}";
  }
  j += "]}\n";
  if (!write_text(options.rom_report, j, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int print_vertex_inspection(const Options& options, const rig::Model& model, std::FILE* out) {
  std::string error;
  if (rig::inspected_draw(model, options.inspect_primitive, options.inspect_index, error) < 0)
    return usage_error(model, "--inspect-vertex: " + error);
  const auto all = rig::all_skinning_methods();
  PosedCharacter posed;
  if (const int status =
          pose_from_options(options, model, posed, error, prepared_skin_layer(model, all, true));
      status != 0) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return status;
  }
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, posed.character->skin_layer());
  rig::VertexInspection v;
  if (!rig::inspect_vertex(setup, *posed.character, options.inspect_primitive,
                           options.inspect_index, v, error))
    return usage_error(model, "--inspect-vertex: " + error);
  std::string j = "{\"primitive\":" + std::to_string(v.primitive) +
                  ",\"index\":" + std::to_string(v.vertex) +
                  ",\"mesh\":" + std::to_string(v.source.mesh) +
                  ",\"mesh_primitive\":" + std::to_string(v.source.primitive) +
                  ",\"draw\":" + std::to_string(v.draw) + ",\"skin\":" + std::to_string(v.skin) +
                  ",\"bind_position\":" + json_vec3(v.bind_position) + ",\"influences\":[";
  for (size_t i = 0; i < v.influences.size(); ++i) {
    const rig::VertexInfluence& in = v.influences[i];
    j += std::string(i ? "," : "") + "{\"joint\":" + std::to_string(in.joint) +
         ",\"node\":" + std::to_string(in.node) +
         ",\"name\":" + json_string(model.nodes[size_t(in.node)].name) +
         ",\"weight\":" + json_number(in.weight) + ",\"opinion\":" + json_vec3(in.opinion) + "}";
  }
  j += "]";
  for (rig::SkinningMethod m : all)
    j += "," + json_string(rig::method_info(m).name) + ":" + json_vec3(v.positions[size_t(m)]);
  j += ",\"cor_center\":" + json_vec3(v.cor_center) + ",\"deflation\":{";
  for (rig::SkinningMethod m : all)
    j += std::string(m == all[0] ? "" : ",") + json_string(rig::method_info(m).name) + ":" +
         json_number(v.deflation[size_t(m)]);
  j += "}}\n";
  std::fputs(j.c_str(), out);
  return std::ferror(out) ? 1 : 0;
}

}  // namespace rigview
