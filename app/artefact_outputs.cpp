#include "artefact_outputs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "artefact_analysis.h"
#include "json_text.h"
#include "model/triangles.h"
#include "rotation_centers_job.h"

namespace rigview {

namespace {

struct File {
  std::FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

void put_float(std::string& out, float v) {
  char bytes[4];
  std::memcpy(bytes, &v, 4);  // x86-64 and ARM64 are little-endian, as the header declares
  out.append(bytes, 4);
}

}  // namespace

bool write_artefact_ply(const std::string& path, const rig::Character& character,
                        rig::SkinningMethod method, std::string& error) {
  const rig::Model& model = character.model();
  // The method's own frame, plus LBS and DQS for `difference` (each analysed once).
  ArtefactAnalysis analysis(model, character.skin_layer());
  std::vector<rig::SkinningMethod> methods = {ArtefactAnalysis::kDifferenceA,
                                              ArtefactAnalysis::kDifferenceB};
  if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
  analysis.analyze(character, methods);
  analysis.difference(ArtefactAnalysis::kDifferenceA, ArtefactAnalysis::kDifferenceB);
  const rig::ArtefactFrame& frame = *analysis.frame(method);
  const std::vector<std::vector<float>>& difference = analysis.difference_field();
  const rig::ArtefactSetup& setup = analysis.setup();

  size_t vertices = 0;
  std::vector<uint32_t> faces, triangles;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    triangles.clear();
    rig::append_triangles(prim, triangles);
    for (uint32_t i : triangles) faces.push_back(uint32_t(vertices) + i);
    vertices += prim.vertex_count();
  }

  std::string body;
  body.reserve(vertices * 40 + faces.size() / 3 * 13);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const int32_t primitive = int32_t(d);
    for (size_t v = 0; v < frame.positions[d].size(); ++v) {
      const glm::vec3 p = frame.positions[d][v], n = frame.normals[d][v];
      for (float c : {p.x, p.y, p.z, n.x, n.y, n.z}) put_float(body, c);
      put_float(body, frame.deflation[d][v]);
      put_float(body, difference[d][v]);
      put_float(body, float(setup.draws[d].dominant[v]));
      put_float(body, float(primitive));
    }
  }
  for (size_t t = 0; t + 2 < faces.size(); t += 3) {
    body.push_back(char(3));
    for (int k = 0; k < 3; ++k) {
      char bytes[4];
      std::memcpy(bytes, &faces[t + size_t(k)], 4);
      body.append(bytes, 4);
    }
  }
  std::string header = "ply\nformat binary_little_endian 1.0\n";
  header += "comment rigview posed mesh, " + std::string(rig::method_info(method).name) +
            " skinning; deflation h = log2(r_pose/r_rest) (NaN: undefined), difference = "
            "|lbs - dqs| / rest diagonal\n";
  header += "element vertex " + std::to_string(vertices) + "\n";
  for (const char* name :
       {"x", "y", "z", "nx", "ny", "nz", "deflation", "difference", "dominant_joint", "primitive"})
    header += std::string("property float ") + name + "\n";
  header += "element face " + std::to_string(faces.size() / 3) + "\n";
  header += "property list uchar uint vertex_indices\nend_header\n";

  File file;
  file.f = std::fopen(path.c_str(), "wb");
  if (!file.f) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  if (std::fwrite(header.data(), 1, header.size(), file.f) != header.size() ||
      std::fwrite(body.data(), 1, body.size(), file.f) != body.size() || std::fflush(file.f) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool write_artefact_report(const std::string& path, const rig::Model& model,
                           const std::vector<rig::SkinningMethod>& methods, bool progress,
                           std::string& error, const std::vector<float>& dqs_amounts,
                           const rig::SkinLayer* skin, rig::Pitfalls pitfalls) {
  const rig::Character character(model, prepared_skin_layer(model, methods, progress, skin));
  const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, character.skin_layer());
  std::string j = "{\"file\":" + json_string(model.file) + ",\"clips\":[";
  const auto started = std::chrono::steady_clock::now();
  // A progress line on stderr once the whole report has taken more than a second, refreshed at
  // most four times a second.
  struct Progress {
    std::chrono::steady_clock::time_point started;
    const std::string* name;
    bool enabled;
    double printed_at;
  };
  for (size_t c = 0; c < model.clips.size(); ++c) {
    rig::ClipScanOptions options;
    options.clip = int(c);
    options.methods = methods;
    options.skin_layer = character.shared_skin_layer();
    options.dqs_amounts = dqs_amounts;
    options.pitfalls = pitfalls;
    rig::ClipScan scan;
    Progress p{started, &model.clips[c].name, progress, 0.0};
    rig::scan_clip(
        model, setup, options, scan,
        [](void* user, float fraction) {
          Progress& p = *static_cast<Progress*>(user);
          const double seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
          if (p.enabled && seconds > 1.0 && (seconds - p.printed_at >= 0.25 || fraction >= 1.0)) {
            std::fprintf(stderr, "\rrigview: scanning %-32.32s %3.0f%%", p.name->c_str(),
                         fraction * 100.0);
            p.printed_at = seconds;
          }
          return true;
        },
        &p);
    if (c) j += ",";
    j += "{\"name\":" + json_string(model.clips[c].name) +
         ",\"rate_hz\":" + json_number(scan.rate_hz) +
         ",\"max_method_difference\":" + json_number(scan.max_method_difference) + ",\"methods\":[";
    for (size_t m = 0; m < scan.methods.size(); ++m) {
      const rig::MethodScan& s = scan.methods[m];
      if (m) j += ",";
      j += "{\"method\":" + json_string(rig::method_info(s.method).name) +
           ",\"closed\":" + (s.closed ? "true" : "false") + ",\"joints\":[";
      for (size_t k = 0; k < s.joints.size(); ++k) {
        const rig::JointScoreOverClip& js = s.joints[k];
        const int node = model.skins[size_t(js.skin)].joints[size_t(js.joint)];
        if (k) j += ",";
        j += "{\"index\":" + std::to_string(js.joint) + ",\"skin\":" + std::to_string(js.skin) +
             ",\"name\":" + json_string(model.nodes[size_t(node)].name) +
             ",\"score\":" + json_number(js.score) +
             ",\"worst_time\":" + json_number(js.worst_time) + "}";
      }
      j += "],\"rms_curve\":[";
      for (size_t k = 0; k < scan.times.size(); ++k)
        j += std::string(k ? "," : "") + "{\"time\":" + json_number(scan.times[k]) +
             ",\"rms\":" + json_number(s.rms[k]) + "}";
      j += "],\"volume_change_percent\":[";
      for (size_t k = 0; k < scan.times.size(); ++k)
        j += std::string(k ? "," : "") + "{\"time\":" + json_number(scan.times[k]) +
             ",\"percent\":" + json_number(s.volume_change_percent[k]) + "}";
      j += "],\"max_abs_h\":{\"value\":" + json_number(s.max_abs_h.value) +
           ",\"primitive\":" + std::to_string(s.max_abs_h.draw) +
           ",\"vertex\":" + std::to_string(s.max_abs_h.vertex) +
           ",\"joint\":" + std::to_string(s.max_abs_h.joint) +
           ",\"time\":" + json_number(s.max_abs_h_time) + "}}";
    }
    j += "]}";
  }
  j += "]}\n";
  if (progress &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > 1.0)
    std::fprintf(stderr, "\n");
  File file;
  file.f = std::fopen(path.c_str(), "wb");
  if (!file.f || std::fwrite(j.data(), 1, j.size(), file.f) != j.size() ||
      std::fflush(file.f) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace rigview
