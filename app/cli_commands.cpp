#include "cli_commands.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "artefact_outputs.h"
#include "character/character.h"
#include "clip_files.h"
#include "json_text.h"
#include "modes.h"
#include "pose_options.h"
#include "posed_character.h"
#include "rotation_centers_job.h"
#include "save_outputs.h"
#include "write/gltf_document.h"

namespace rigview {

int print_info(const rig::Model& model, std::FILE* out, const std::vector<ClipFile>* files) {
  std::string j = "{";
  j += "\"file\":" + json_string(model.file);
  j += ",\"skins\":[";
  for (size_t i = 0; i < model.skins.size(); ++i) {
    if (i) j += ",";
    j += "{\"name\":" + json_string(model.skins[i].name) +
         ",\"joints\":" + std::to_string(model.skins[i].joints.size()) + "}";
  }
  uint64_t vertices = 0, primitives = 0, morph_targets = 0;
  for (const rig::Mesh& m : model.meshes)
    for (const rig::Primitive& p : m.primitives) {
      vertices += p.vertex_count();
      ++primitives;
      morph_targets += p.targets.size();
    }
  j += "],\"meshes\":" + std::to_string(model.meshes.size());
  j += ",\"primitives\":" + std::to_string(primitives);
  j += ",\"vertices\":" + std::to_string(vertices);
  j += ",\"nodes\":" + std::to_string(model.nodes.size());
  j += ",\"draws\":" + std::to_string(model.draws.size());
  j += ",\"morph_targets\":" + std::to_string(morph_targets);
  j += ",\"animations\":[";
  for (size_t i = 0; i < model.clips.size(); ++i) {
    const rig::Clip& c = model.clips[i];
    if (i) j += ",";
    j += "{\"name\":" + json_string(c.name) + ",\"start\":" + json_number(c.start) +
         ",\"end\":" + json_number(c.end) + ",\"channels\":" + std::to_string(c.channels.size()) +
         ",\"interpolations\":[";
    for (size_t k = 0; k < c.interpolations.size(); ++k) {
      if (k) j += ",";
      j += json_string(c.interpolations[k]);
    }
    // KHR_animation_pointer channels on materials, by the file's pointer.
    j += "],\"material_channels\":[";
    for (size_t k = 0; k < c.material_channels.size(); ++k) {
      if (k) j += ",";
      j += json_string(c.material_channels[k].pointer);
    }
    j += "]}";
  }
  j += "]";
  // Numbered after the file's animations, as --animation-index counts them.
  if (files && !files->empty()) {
    j += ",\"added_clips\":[";
    size_t index = model.clips.size();
    for (const ClipFile& file : *files)
      for (const FileClip& clip : file.clips) {
        j += std::string(index > model.clips.size() ? "," : "") +
             "{\"index\":" + std::to_string(index) + ",\"name\":" + json_string(clip.name) +
             ",\"file\":" + json_string(file.path) + ",\"origin\":" +
             json_string(clip.origin == rig::ClipOrigin::Retargeted ? "retargeted" : "added") +
             ",\"start\":" + json_number(clip.keys.start) +
             ",\"end\":" + json_number(clip.keys.end) +
             ",\"channels\":" + std::to_string(clip.keys.channels.size()) + "}";
        ++index;
      }
    j += "]";
  }
  j += ",\"warnings\":[";
  for (size_t i = 0; i < model.warnings.size(); ++i) {
    const rig::ImportWarning& w = model.warnings[i];
    if (i) j += ",";
    j += "{\"code\":" + json_string(w.code) + ",\"message\":" + json_string(w.message) +
         ",\"count\":" + std::to_string(w.count) + "}";
  }
  j += "]}\n";
  std::fputs(j.c_str(), out);
  return std::ferror(out) ? 1 : 0;
}

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

// Faces of one primitive as OBJ lines, 1-based with `base` vertices already written.
void write_faces(std::FILE* f, const rig::Primitive& prim, uint64_t base) {
  const uint32_t count =
      prim.indices.empty() ? prim.vertex_count() : static_cast<uint32_t>(prim.indices.size());
  auto idx = [&](uint32_t i) -> uint64_t {
    return base + 1 + (prim.indices.empty() ? i : prim.indices[i]);
  };
  auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
    const uint64_t ia = idx(a), ib = idx(b), ic = idx(c);
    std::fprintf(f, "f %llu//%llu %llu//%llu %llu//%llu\n", (unsigned long long)ia,
                 (unsigned long long)ia, (unsigned long long)ib, (unsigned long long)ib,
                 (unsigned long long)ic, (unsigned long long)ic);
  };
  auto line = [&](uint32_t a, uint32_t b) {
    std::fprintf(f, "l %llu %llu\n", (unsigned long long)idx(a), (unsigned long long)idx(b));
  };
  using M = rig::PrimitiveMode;
  switch (prim.mode) {
    case M::Triangles:
      for (uint32_t i = 0; i + 2 < count; i += 3) tri(i, i + 1, i + 2);
      break;
    case M::TriangleStrip:  // spec: p_i = {v_i, v_{i+(1+i%2)}, v_{i+(2-i%2)}}
      for (uint32_t i = 0; i + 2 < count; ++i) tri(i, i + 1 + i % 2, i + 2 - i % 2);
      break;
    case M::TriangleFan:  // spec: p_i = {v_{i+1}, v_{i+2}, v_0}
      for (uint32_t i = 0; i + 2 < count; ++i) tri(i + 1, i + 2, 0);
      break;
    case M::Lines:
      for (uint32_t i = 0; i + 1 < count; i += 2) line(i, i + 1);
      break;
    case M::LineStrip:
      for (uint32_t i = 0; i + 1 < count; ++i) line(i, i + 1);
      break;
    case M::LineLoop:
      for (uint32_t i = 0; i + 1 < count; ++i) line(i, i + 1);
      if (count > 2) line(count - 1, 0);
      break;
    case M::Points:
      for (uint32_t i = 0; i < count; ++i) std::fprintf(f, "p %llu\n", (unsigned long long)idx(i));
      break;
  }
}

}  // namespace

int export_obj(const Options& options, const rig::Model& model, const rig::SkinLayer* skin) {
  std::string error;
  rig::PoseSelection selection;
  if (!pose_selection_from_options(options, model, selection, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return 2;
  }
  const rig::SkinningMethod method = methods_to_draw(options).front();  // never compare here
  const std::shared_ptr<const rig::SkinLayer> meshes =
      prepared_skin_layer(model, std::span(&method, 1), true, skin);
  // Skinned geometry per draw item: CPU reference, or the real shaders read back from the GPU.
  std::vector<std::vector<float>> gpu_positions, gpu_normals;
  if (options.backend == Backend::Gpu &&
      !gpu_skin_draw_items(options, model, meshes, gpu_positions, gpu_normals, error)) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return 1;
  }
  PosedCharacter posed;
  if (const int status = pose_from_options(options, model, posed, error, meshes); status != 0) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return status;
  }
  const rig::Character& character = *posed.character;

  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(options.export_obj.c_str(), "wb"));
  if (!file) {
    std::fprintf(stderr, "rigview: error: %s: cannot write\n", options.export_obj.c_str());
    return 1;
  }
  std::FILE* f = file.get();
  std::fprintf(f, "# rigview %s: %s\n", RIGVIEW_VERSION, model.file.c_str());
  std::vector<glm::vec3> positions, normals;
  uint64_t base = 0;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const rig::Node& node = model.nodes[item.node];
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    const uint32_t n = prim.vertex_count();
    positions.resize(n);
    normals.resize(n);
    if (options.backend == Backend::Gpu) {
      for (uint32_t v = 0; v < n; ++v) {
        positions[v] = {gpu_positions[d][3 * v], gpu_positions[d][3 * v + 1],
                        gpu_positions[d][3 * v + 2]};
        normals[v] = {gpu_normals[d][3 * v], gpu_normals[d][3 * v + 1], gpu_normals[d][3 * v + 2]};
      }
    } else {
      character.skin_draw_item(item, method, positions, normals);
    }
    const std::string name = node.name.empty() ? "node" + std::to_string(item.node) : node.name;
    std::fprintf(f, "o %s#%d\n", name.c_str(), item.primitive);
    for (const glm::vec3& p : positions) std::fprintf(f, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
    for (const glm::vec3& q : normals) std::fprintf(f, "vn %.9g %.9g %.9g\n", q.x, q.y, q.z);
    write_faces(f, prim, base);
    base += n;
  }
  if (std::fflush(f) != 0 || std::ferror(f)) {
    std::fprintf(stderr, "rigview: error: %s: write failed\n", options.export_obj.c_str());
    return 1;
  }
  return 0;
}

int export_artefacts(const Options& options, const rig::Model& model, const rig::SkinLayer* skin) {
  std::string error;
  if (!options.export_ply.empty()) {
    PosedCharacter posed;
    if (const int status =
            pose_from_options(options, model, posed, error,
                              prepared_skin_layer(model, methods_to_draw(options), true, skin));
        status != 0) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
      return status;
    }
    if (!write_artefact_ply(options.export_ply, *posed.character, methods_to_draw(options).front(),
                            error)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 1;
    }
  }
  if (!options.report.empty()) {
    std::vector<float> dqs_amounts;
    if (!dqs_amounts_from_options(options, model, dqs_amounts, error)) {
      std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
      return 2;
    }
    if (!write_artefact_report(options.report, model, methods_to_scan(options), true, error,
                               dqs_amounts, skin, options.pitfalls)) {
      std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}

int export_pose(const Options& options, const rig::Model& model, const rig::SkinLayer* skin) {
  std::string error;
  PosedCharacter posed;
  if (const int status =
          pose_from_options(options, model, posed, error,
                            prepared_skin_layer(model, methods_to_draw(options), true, skin));
      status != 0) {
    std::fprintf(stderr, "rigview: error: %s: %s\n", model.file.c_str(), error.c_str());
    return status;
  }
  if (!write_pose_json(options.export_pose, *posed.character, error)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int write_copy(const Options& options, const std::string& model_path) {
  std::string error;
  std::vector<std::string> warnings;
  if (!rig::write::write_document(model_path, {}, options.write_copy, error, {}, &warnings)) {
    std::fprintf(stderr, "rigview: error: %s\n", error.c_str());  // the error names the file
    return 1;
  }
  for (const std::string& warning : warnings)
    std::fprintf(stderr, "rigview: warning: %s\n", warning.c_str());
  std::printf("rigview: wrote %s\n", options.write_copy.c_str());
  return 0;
}

}  // namespace rigview
