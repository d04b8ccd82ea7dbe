// State shared by the import stages (nodes, meshes, skins, animations). Each stage is a free
// function in its own file; they run in a fixed order in gltf_import.cpp because later stages
// read what earlier ones produced (skins need the hierarchy, weight channels need morph counts).
#pragma once

#include <tiny_gltf.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include "import/accessor_reader.h"
#include "import/pointer_source.h"
#include "model/model.h"

namespace rig::import {

// Repairs are counted per code over the whole file, so a 200-primitive model gives one line
// per problem ("752 vertices ...") rather than 200.
class WarningLog {
 public:
  explicit WarningLog(std::vector<ImportWarning>& out) : out_(out) {}
  // Adds `count` to warning `code`; the first call's message is kept (it names the first place).
  void add(const std::string& code, uint64_t count, const std::string& message) {
    if (count == 0) return;
    for (ImportWarning& warning : out_) {
      if (warning.code == code) {
        warning.count += count;
        return;
      }
    }
    out_.push_back({code, message, count});
  }
  // The same, but merged only with an entry of the same code whose message starts with
  // `subject`: one line per distinct subject (each unsupported animation pointer, say).
  void add_distinct(const std::string& code, const std::string& subject, uint64_t count,
                    const std::string& message) {
    if (count == 0) return;
    for (ImportWarning& warning : out_) {
      if (warning.code == code && warning.message.compare(0, subject.size(), subject) == 0) {
        warning.count += count;
        return;
      }
    }
    out_.push_back({code, message, count});
  }

 private:
  std::vector<ImportWarning>& out_;
};

// A number as people write it in messages: "1.2", not std::to_string's "1.200000".
inline std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

struct ImportContext {
  const tinygltf::Model& document;
  ImportLimits limits;
  DecodeBudget budget;
  AccessorReader reader;
  Model& model;
  WarningLog warnings;
  // The file's KHR_animation_pointer channels (gltf_file.h), empty without any.
  const std::vector<PointerChannelSource>* pointer_channels = nullptr;
  uint64_t total_vertices = 0;  // against limits.max_total_vertices
  uint64_t total_keys = 0;      // against limits.max_total_keys

  ImportContext(const tinygltf::Model& doc, Model& out, const ImportLimits& import_limits = {},
                uint64_t budget_bytes = ~uint64_t{0})
      : document(doc),
        limits(import_limits),
        budget{budget_bytes},
        reader(doc, limits, budget),
        model(out),
        warnings(out.warnings) {}
  ImportContext(const ImportContext&) = delete;
  ImportContext& operator=(const ImportContext&) = delete;
};

// mesh_import.cpp: every mesh and primitive (attributes, indices, skin influences, morph targets).
bool import_meshes(ImportContext& context, std::string& error);
// skin_import.cpp: skins (needs nodes), then the joint-index range check of skinned draws.
bool import_skins(ImportContext& context, std::string& error);
bool check_skinned_joint_ranges(ImportContext& context, std::string& error);
// anim_import.cpp: clips (needs nodes and meshes; may clear Node::has_matrix).
bool import_animations(ImportContext& context, std::string& error);
// The keys of one channel from sampler `sampler_index` of animation `animation`: interpolation,
// checked times, and values read as `type` in `formats`, checked against times × components
// (channel.components set by the caller) and finite. `mode` is the sampler's interpolation
// name. `scalar_elements`: the output's elements are single floats (morph weights).
bool read_channel_keys(ImportContext& context, const tinygltf::Animation& source, size_t animation,
                       int sampler_index, ElementType type, unsigned formats, bool scalar_elements,
                       Channel& channel, std::string& mode, std::string& error);
// One channel on a node: a core one (node, path) or a KHR_animation_pointer one resolved to
// the same (/nodes/N/translation, /meshes/M/weights for each node showing mesh M, ...).
struct NodeChannelTarget {
  int node = -1;
  std::string path;  // the core path name: translation, rotation, scale, weights
  int sampler = -1;
  std::string at;  // "animation A channel C", for messages
};
// pointer_import.cpp: the KHR_animation_pointer channels of animation `animation`: those on
// nodes and meshes appended to `node_targets` (read like core channels), those on materials
// read into clip.material_channels (widening [start, end] and `modes`). A pointer to anything
// else, or an invalid one, is skipped with one warning per distinct pointer.
bool import_pointer_channels(ImportContext& context, size_t animation,
                             const tinygltf::Animation& source, Clip& clip,
                             std::vector<NodeChannelTarget>& node_targets,
                             std::set<std::string>& modes, float& start, float& end,
                             std::string& error);
// material_import.cpp: materials, their textures, samplers and texture transforms.
bool import_materials(ImportContext& context, std::string& error);

}  // namespace rig::import
