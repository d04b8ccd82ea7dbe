#include "compress/gltf_writer.h"

#include <tiny_gltf.h>

#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "write/edit_job.h"
#include "write/gltf_document.h"

namespace rig {

namespace {

const char* path_name(TargetPath p) {
  switch (p) {
    case TargetPath::Translation:
      return "translation";
    case TargetPath::Rotation:
      return "rotation";
    case TargetPath::Scale:
      return "scale";
    case TargetPath::Weights:
      return "weights";
  }
  return "translation";
}

// The bytes of one accessor, as sampler_accessor_bytes counts them.
size_t accessor_bytes(const tinygltf::Model& doc, int accessor) {
  tinygltf::Animation one;
  one.samplers.emplace_back();
  one.samplers.back().input = accessor;
  one.samplers.back().output = accessor;
  return write::sampler_accessor_bytes(doc, std::span<const tinygltf::Animation>(&one, 1));
}

// Which clips to replace: `replace` starts with every clip whose chosen form is smaller than its
// own accessors, and loses each clip whose chosen form is not smaller than the bytes replacing it
// frees, until none does. An accessor frees its bytes only when no kept clip uses it (files share
// key times between animations), split evenly between the replaced clips that use it. Then the
// replaced clips' new bytes are below what they free, so the file's animation bytes never grow.
void keep_clips_not_smaller(const tinygltf::Model& doc, const std::vector<size_t>& chosen_bytes,
                            std::vector<uint8_t>& replace, std::vector<uint8_t>& not_smaller) {
  const size_t clips = replace.size();
  std::vector<std::set<int>> used(clips);
  std::map<int, size_t> bytes;
  for (size_t c = 0; c < clips; ++c) {
    for (const tinygltf::AnimationSampler& s : doc.animations[c].samplers) {
      for (int a : {s.input, s.output}) {
        if (a < 0 || size_t(a) >= doc.accessors.size()) continue;
        used[c].insert(a);
        if (!bytes.count(a)) bytes[a] = accessor_bytes(doc, a);
      }
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    std::map<int, int> replaced_users;
    std::set<int> kept;
    for (size_t c = 0; c < clips; ++c) {
      for (int a : used[c]) {
        if (replace[c])
          ++replaced_users[a];
        else
          kept.insert(a);
      }
    }
    for (size_t c = 0; c < clips; ++c) {
      if (!replace[c]) continue;
      double freed = 0.0;
      for (int a : used[c]) {
        if (!kept.count(a)) freed += double(bytes[a]) / double(replaced_users[a]);
      }
      if (double(chosen_bytes[c]) >= freed) {
        replace[c] = 0;
        not_smaller[c] = 1;
        changed = true;
        break;  // the others' shares change with this one kept
      }
    }
  }
}

// One written clip as the document writer's edit: a sampler and a channel per track, the
// 16-bit words chosen before renormalizing (exactly what was measured) or the float values.
// `outputs` holds the output contents earlier clips wrote (the writer shares equal ones), so the
// report can count the channels that share.
write::ReplaceClip clip_edit(int animation, const WrittenChoice& choice, WrittenClip& written,
                             std::map<std::tuple<int, int, std::vector<uint8_t>>, int>& outputs) {
  write::ReplaceClip edit;
  edit.animation = animation;
  for (size_t i = 0; i < choice.channels.size(); ++i) {
    const Channel& ch = choice.channels[i];
    write::ClipSampler sampler;
    sampler.interpolation = ch.interpolation == Interpolation::Step ? "STEP" : "LINEAR";
    sampler.input = write::key_times(ch.times);
    const int type = ch.path == TargetPath::Weights    ? write::kScalar
                     : ch.path == TargetPath::Rotation ? write::kVec4
                                                       : write::kVec3;
    const bool as_16 = choice.sixteen_bit[i] != 0;
    write::AccessorData& out = sampler.output;
    out.component_type = as_16 ? choice.component_type[i] : write::kFloat;
    out.normalized = as_16;
    out.type = type;
    out.count = ch.values.size() / (ch.path == TargetPath::Weights ? 1 : ch.components);
    const auto* bytes = as_16 ? reinterpret_cast<const uint8_t*>(choice.words[i].data())
                              : reinterpret_cast<const uint8_t*>(ch.values.data());
    const size_t size =
        as_16 ? choice.words[i].size() * sizeof(int16_t) : ch.values.size() * sizeof(float);
    out.bytes.assign(bytes, bytes + size);
    if (!outputs.emplace(std::tuple{out.component_type, type, out.bytes}, 0).second)
      ++written.shared_outputs;  // equal outputs share one accessor (any clip)
    if (ch.path == TargetPath::Rotation) {
      ++written.rotation_tracks;
      written.short_tracks += as_16 ? 1 : 0;
    } else if (ch.path == TargetPath::Weights) {
      ++written.weight_tracks;
      written.sixteen_bit_weight_tracks += as_16 ? 1 : 0;
    }
    edit.clip.samplers.push_back(std::move(sampler));
    edit.clip.channels.push_back({int(i), ch.node, path_name(ch.path)});
  }
  return edit;
}

}  // namespace

bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options, std::vector<WrittenClip>* report,
                          WrittenSizes* sizes, std::vector<std::string>* warnings) {
  write::SourceDocument source;
  if (!source.open(in_path, error)) return false;
  if (warnings) *warnings = source.warnings();
  tinygltf::Model& doc = source.gltf();
  if (doc.animations.size() != model.clips.size() || clips.size() != model.clips.size()) {
    error = "the clips do not match the file's animations";
    return false;
  }
  if (sizes) sizes->before = write::sampler_accessor_bytes(doc, doc.animations);

  const std::vector<double> levers = rest_levers(model);
  if (report) report->assign(clips.size(), WrittenClip{});
  std::vector<write::DocumentEdit> edits;
  std::map<std::tuple<int, int, std::vector<uint8_t>>, int> outputs;
  std::vector<WrittenChoice> choices(clips.size());
  std::vector<size_t> chosen_bytes(clips.size(), 0);
  std::vector<uint8_t> replace(clips.size(), 0), not_smaller(clips.size(), 0);
  for (size_t c = 0; c < clips.size(); ++c) {
    if (!clips[c]) continue;
    WrittenChoice& choice = choices[c];
    choice = choose_written_keys(model, int(c), *clips[c], levers, options);
    share_equal_tracks(choice, model, int(c), levers, options);
    // A clip left without a channel (its first target unusable: glTF needs one) stays as it was.
    replace[c] = choice.fits && !choice.channels.empty();
    chosen_bytes[c] = choice.bytes;
  }
  // An optimizer never grows a clip: one whose file keys are already no more bytes (sparse
  // CUBICSPLINE or STEP keys, SHORT or BYTE outputs, key times shared with other clips) stays as
  // it was.
  keep_clips_not_smaller(doc, chosen_bytes, replace, not_smaller);
  for (size_t c = 0; c < clips.size(); ++c) {
    if (report) {
      (*report)[c].not_smaller = not_smaller[c] != 0;
      (*report)[c].optimized_bytes = not_smaller[c] ? chosen_bytes[c] : 0;
    }
    if (!replace[c]) continue;
    const WrittenChoice& choice = choices[c];
    WrittenClip written;
    written.replaced = true;
    written.e_max = choice.e_max;
    written.bytes = choice.bytes;
    written.key_tolerance_m = choice.key_tolerance_m;
    edits.push_back(clip_edit(int(c), choice, written, outputs));
    written.short_rotations = written.short_tracks > 0;
    if (report) (*report)[c] = written;
  }
  write::DocumentWriteOptions write_options;
  write_options.drop_unused_buffer_views = true;  // as this writer always has
  if (!source.apply(edits, write_options, error)) return false;
  if (sizes) sizes->after = write::sampler_accessor_bytes(doc, doc.animations);
  return source.save(out_path, error, {}, write::OutputFormat::Glb);
}

}  // namespace rig
