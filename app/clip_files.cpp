#include "clip_files.h"

#include <cmath>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <map>

#include "anim/joint_mask.h"
#include "clip_retarget.h"
#include "load_model.h"

namespace rigview {

namespace {

// Rest transforms equal up to float noise of an exporter's round trip: 1e-4 plus 1e-3 of the
// value for translation and scale, 1e-3 rad for rotation.
bool same_rest(const rig::Transform& a, const rig::Transform& b) {
  auto close = [](glm::vec3 x, glm::vec3 y) {
    return glm::length(x - y) <= 1e-4f + 1e-3f * glm::length(y);
  };
  const float dot = std::min(1.0f, std::abs(glm::dot(a.rotation, b.rotation)));
  return close(a.translation, b.translation) && close(a.scale, b.scale) &&
         2.0f * std::acos(dot) <= 1e-3f;
}

// The target node of each source node that a same-named node of `target` can play, -1 where
// none; false when one of the source's joints (its skins' joints; without a skin, the nodes its
// clips animate) is missing or rests differently: then the skeletons differ and the clips are
// retargeted.
bool same_skeleton(const rig::Model& source, const rig::Model& target, std::vector<int>& node_of) {
  node_of.assign(source.nodes.size(), -1);
  std::map<std::string, int> by_name;
  for (size_t n = 0; n < target.nodes.size(); ++n)
    if (!target.nodes[n].name.empty()) by_name.emplace(target.nodes[n].name, int(n));
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    const auto it = by_name.find(source.nodes[n].name);
    if (it != by_name.end()) node_of[n] = it->second;
  }
  std::vector<int> joints;
  for (const rig::Skin& skin : source.skins)
    joints.insert(joints.end(), skin.joints.begin(), skin.joints.end());
  if (joints.empty())
    for (const rig::Clip& clip : source.clips)
      for (const rig::Channel& ch : clip.channels)
        if (ch.path != rig::TargetPath::Weights) joints.push_back(ch.node);
  for (int joint : joints) {
    const int to = node_of[size_t(joint)];
    if (to < 0 || !same_rest(source.nodes[size_t(joint)].rest, target.nodes[size_t(to)].rest))
      return false;
  }
  return !joints.empty();
}

// Morph weights move only onto a node with as many targets.
uint32_t morph_count(const rig::Model& model, int node) {
  const int mesh = model.nodes[size_t(node)].mesh;
  if (mesh < 0 || model.meshes[size_t(mesh)].primitives.empty()) return 0;
  return uint32_t(model.meshes[size_t(mesh)].primitives.front().targets.size());
}

void moved_by_name(const rig::Model& source, const rig::Model& target,
                   const std::vector<int>& node_of, ClipFile& out) {
  for (size_t c = 0; c < source.clips.size(); ++c) {
    FileClip clip;
    clip.name = file_clip_name(out.stem, source.clips[c], c);
    clip.source_clip = source.clips[c].name;
    clip.origin = rig::ClipOrigin::Added;
    clip.keys = source.clips[c];
    clip.keys.name = clip.name;
    std::vector<rig::Channel> kept;
    for (rig::Channel& ch : clip.keys.channels) {
      const int to = node_of[size_t(ch.node)];
      if (to < 0 || (ch.path == rig::TargetPath::Weights &&
                     (ch.components != morph_count(target, to) || ch.components == 0))) {
        ++out.dropped_channels;
        continue;
      }
      ch.node = to;
      kept.push_back(std::move(ch));
    }
    clip.keys.channels = std::move(kept);
    out.clips.push_back(std::move(clip));
  }
}

}  // namespace

std::string file_clip_name(const std::string& stem, const rig::Clip& clip, size_t index) {
  return stem + ":" + (clip.name.empty() ? std::to_string(index) : clip.name);
}

bool load_clip_file(const std::string& path, const rig::Model& target, const Options& options,
                    ClipFile& out, std::string& error) {
  out = ClipFile{};
  out.path = path;
  out.stem = std::filesystem::path(path).stem().string();
  Options load = options;  // the clip file is imported as it is: no simulated bug
  load.simulate_bug.clear();
  auto source = std::make_shared<rig::Model>();
  if (!import_model(path, load, *source, error)) return error = path + ": " + error, false;
  if (source->clips.empty()) return error = path + ": the file has no animations", false;
  std::vector<int> node_of;
  if (same_skeleton(*source, target, node_of)) {
    moved_by_name(*source, target, node_of, out);
    out.source = std::move(source);
    return true;
  }
  if (!retarget_clip_file(*source, target, options, out, error))
    return error = path + ": " + error, false;
  out.source = std::move(source);
  return true;
}

const std::vector<ClipFile>* clip_files_from_options(const Options& options,
                                                     const rig::Model& model, std::string& error) {
  // The command line asks once per output; each file is read and retargeted once per process.
  struct Loaded {
    const rig::Model* model = nullptr;
    std::vector<std::string> paths;
    std::vector<ClipFile> files;
  };
  static Loaded loaded;
  if (loaded.model == &model && loaded.paths == options.clip_files) return &loaded.files;
  std::vector<ClipFile> files(options.clip_files.size());
  for (size_t f = 0; f < files.size(); ++f)
    if (!load_clip_file(options.clip_files[f], model, options, files[f], error)) return nullptr;
  loaded.model = &model;
  loaded.paths = options.clip_files;
  loaded.files = std::move(files);
  return &loaded.files;
}

void add_file_clips(rig::ClipSet& set, const rig::Model& model,
                    const std::vector<ClipFile>& files) {
  for (const ClipFile& file : files)
    for (const FileClip& clip : file.clips) set.add(model, clip.keys, clip.origin);
}

std::shared_ptr<rig::ClipSet> clip_set_from_options(const Options& options, const rig::Model& model,
                                                    std::string& error) {
  std::shared_ptr<rig::ClipSet> set = rig::ClipSet::from_model(model);
  if (options.clip_files.empty()) return set;
  const std::vector<ClipFile>* files = clip_files_from_options(options, model, error);
  if (!files) return nullptr;
  add_file_clips(*set, model, *files);
  return set;
}

}  // namespace rigview
