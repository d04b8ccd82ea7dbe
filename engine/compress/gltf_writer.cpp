#include "compress/gltf_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

#include "anim/clip_source.h"
#include "compress/clip_compression.h"
#include "compress/clip_error.h"
#include "import/gltf_file.h"

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

// Appends `bytes` to buffer 0 as a new bufferView (4-byte aligned); returns its index.
int append_view(tinygltf::Model& doc, const void* bytes, size_t size) {
  std::vector<unsigned char>& data = doc.buffers[0].data;
  data.resize((data.size() + 3) & ~size_t(3), 0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = size;
  const auto* p = static_cast<const unsigned char*>(bytes);
  data.insert(data.end(), p, p + size);
  doc.bufferViews.push_back(view);
  return int(doc.bufferViews.size()) - 1;
}

int add_accessor(tinygltf::Model& doc, int view, int component_type, bool normalized, int type,
                 size_t count) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.byteOffset = 0;
  a.componentType = component_type;
  a.normalized = normalized;
  a.type = type;
  a.count = count;
  doc.accessors.push_back(a);
  return int(doc.accessors.size()) - 1;
}

// Drops bufferViews nothing references and repacks buffer 0 (single-buffer files only).
void repack(tinygltf::Model& doc) {
  if (doc.buffers.size() != 1) return;
  std::vector<int> used(doc.bufferViews.size(), 0);
  auto mark = [&](int v) {
    if (v >= 0 && size_t(v) < used.size()) used[size_t(v)] = 1;
  };
  for (const tinygltf::Accessor& a : doc.accessors) {
    mark(a.bufferView);
    if (a.sparse.isSparse) {
      mark(a.sparse.indices.bufferView);
      mark(a.sparse.values.bufferView);
    }
  }
  for (const tinygltf::Image& im : doc.images) mark(im.bufferView);
  std::vector<int> remap(doc.bufferViews.size(), -1);
  std::vector<tinygltf::BufferView> views;
  std::vector<unsigned char> data;
  const std::vector<unsigned char>& old = doc.buffers[0].data;
  for (size_t v = 0; v < doc.bufferViews.size(); ++v) {
    if (!used[v]) continue;
    tinygltf::BufferView view = doc.bufferViews[v];
    if (view.buffer != 0 || view.byteOffset + view.byteLength > old.size()) return;  // leave it
    data.resize((data.size() + 15) & ~size_t(15), 0);  // keep any element alignment
    const size_t offset = data.size();
    data.insert(data.end(), old.begin() + std::ptrdiff_t(view.byteOffset),
                old.begin() + std::ptrdiff_t(view.byteOffset + view.byteLength));
    view.byteOffset = offset;
    remap[v] = int(views.size());
    views.push_back(view);
  }
  auto fix = [&](int& v) {
    if (v >= 0) v = remap[size_t(v)];
  };
  for (tinygltf::Accessor& a : doc.accessors) {
    fix(a.bufferView);
    if (a.sparse.isSparse) {
      fix(a.sparse.indices.bufferView);
      fix(a.sparse.values.bufferView);
    }
  }
  for (tinygltf::Image& im : doc.images) fix(im.bufferView);
  doc.bufferViews = std::move(views);
  data.resize((data.size() + 3) & ~size_t(3), 0);
  doc.buffers[0].data = std::move(data);
}

}  // namespace

std::vector<Channel> written_channels(const CompressedClip& clip, const Model& model,
                                      bool short_rotations) {
  std::vector<Channel> channels = reduced_channels(clip, model);
  for (Channel& ch : channels) {
    if (ch.path != TargetPath::Rotation) continue;
    for (size_t k = 0; k < ch.times.size(); ++k) {
      float* q = &ch.values[k * 4];
      double len = 0.0;
      for (int i = 0; i < 4; ++i) {
        if (short_rotations)
          q[i] = float(std::lround(std::clamp(q[i], -1.0f, 1.0f) * 32767.0f)) / 32767.0f;
        len += double(q[i]) * q[i];
      }
      // The importer normalizes rotation keys; do the same so the measure sees what plays.
      for (int i = 0; i < 4; ++i) q[i] = float(q[i] / std::sqrt(len));
    }
  }
  return channels;
}

bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options, std::vector<WrittenClip>* report) {
  import::GltfSource source;
  if (!import::load_gltf_source(in_path, ImportOptions{}, source, error)) return false;
  tinygltf::Model& doc = source.document;
  if (doc.animations.size() != model.clips.size() || clips.size() != model.clips.size()) {
    error = "the clips do not match the file's animations";
    return false;
  }
  if (doc.buffers.empty()) doc.buffers.emplace_back();
  if (doc.buffers.size() > 1 || !doc.buffers[0].uri.empty()) {
    // GLB carries buffer 0 as its binary chunk: every buffer's bytes go there.
    for (size_t b = 1; b < doc.buffers.size(); ++b) {
      const size_t base = (doc.buffers[0].data.size() + 15) & ~size_t(15);
      doc.buffers[0].data.resize(base, 0);
      doc.buffers[0].data.insert(doc.buffers[0].data.end(), doc.buffers[b].data.begin(),
                                 doc.buffers[b].data.end());
      for (tinygltf::BufferView& v : doc.bufferViews)
        if (v.buffer == int(b)) v.buffer = 0, v.byteOffset += base;
    }
    doc.buffers.resize(1);
    doc.buffers[0].uri.clear();
  }

  std::set<int> old_accessors;
  if (report) report->assign(clips.size(), WrittenClip{});
  for (size_t c = 0; c < clips.size(); ++c) {
    if (!clips[c]) continue;
    // SHORT rotations when what the file will play stays within the tolerance, else float;
    // when even float crosses it (the player rounds differently from the runtime clip), the clip
    // is recompressed a little tighter, and as a last resort the file's animation is kept.
    const CompressedClip* source_clip = clips[c];
    CompressionResult tighter;
    bool short_rotations = false;
    std::vector<Channel> channels;
    double e_max = 0.0;
    bool fits = false;
    for (int attempt = 0; attempt < 4 && !fits; ++attempt) {
      if (attempt > 0) {
        CompressionSettings settings;
        settings.tolerance_m = options.tolerance_m * std::pow(0.9, attempt);
        settings.morph_tolerance = options.morph_tolerance;
        settings.measure_vertices = false;
        tighter = compress_clip(model, int(c), settings);
        if (!tighter.ok) break;
        source_clip = &tighter.clip;
      }
      for (bool use_short : {true, false}) {
        if (use_short && !options.short_rotations) continue;
        channels = written_channels(*source_clip, model, use_short);
        Clip played = model.clips[c];
        played.channels = channels;
        const ClipErrorReport r =
            measure_clip_error(model, int(c), RawClipSource(model, played), 0.0f, false);
        e_max = r.e_max;
        short_rotations = use_short;
        fits = r.e_max <= options.tolerance_m && r.morph_max <= options.morph_tolerance;
        if (fits) break;
      }
    }
    if (!fits) {
      if (report) (*report)[c] = WrittenClip{false, 0.0, false};
      continue;
    }
    if (report) (*report)[c] = WrittenClip{short_rotations, e_max, true};
    tinygltf::Animation& anim = doc.animations[c];
    for (const tinygltf::AnimationSampler& s : anim.samplers) {
      old_accessors.insert(s.input);
      old_accessors.insert(s.output);
    }
    anim.samplers.clear();
    anim.channels.clear();
    std::vector<std::pair<std::vector<float>, int>> inputs;  // key times shared between channels
    for (const Channel& ch : channels) {
      tinygltf::AnimationSampler sampler;
      sampler.interpolation = ch.interpolation == Interpolation::Step ? "STEP" : "LINEAR";
      for (const auto& [times, accessor] : inputs)
        if (times == ch.times) sampler.input = accessor;
      if (sampler.input < 0) {
        const int in_view = append_view(doc, ch.times.data(), ch.times.size() * sizeof(float));
        sampler.input = add_accessor(doc, in_view, TINYGLTF_COMPONENT_TYPE_FLOAT, false,
                                     TINYGLTF_TYPE_SCALAR, ch.times.size());
        doc.accessors.back().minValues = {double(ch.times.front())};
        doc.accessors.back().maxValues = {double(ch.times.back())};
        inputs.emplace_back(ch.times, sampler.input);
      }
      if (ch.path == TargetPath::Rotation && short_rotations) {
        std::vector<int16_t> q(ch.values.size());
        for (size_t i = 0; i < q.size(); ++i)
          q[i] = int16_t(std::lround(std::clamp(ch.values[i], -1.0f, 1.0f) * 32767.0f));
        const int view = append_view(doc, q.data(), q.size() * sizeof(int16_t));
        sampler.output = add_accessor(doc, view, TINYGLTF_COMPONENT_TYPE_SHORT, true,
                                      TINYGLTF_TYPE_VEC4, ch.times.size());
      } else {
        const int view = append_view(doc, ch.values.data(), ch.values.size() * sizeof(float));
        const int type = ch.path == TargetPath::Weights    ? TINYGLTF_TYPE_SCALAR
                         : ch.path == TargetPath::Rotation ? TINYGLTF_TYPE_VEC4
                                                           : TINYGLTF_TYPE_VEC3;
        const size_t per_element = ch.path == TargetPath::Weights ? 1 : ch.components;
        sampler.output = add_accessor(doc, view, TINYGLTF_COMPONENT_TYPE_FLOAT, false, type,
                                      ch.values.size() / per_element);
      }
      anim.samplers.push_back(sampler);
      tinygltf::AnimationChannel channel;
      channel.sampler = int(anim.samplers.size()) - 1;
      channel.target_node = ch.node;
      channel.target_path = path_name(ch.path);
      anim.channels.push_back(channel);
    }
  }
  // Old animation accessors still used elsewhere (rare) keep their data.
  std::set<int> still_used;
  for (const tinygltf::Animation& a : doc.animations)
    for (const tinygltf::AnimationSampler& s : a.samplers) still_used.insert({s.input, s.output});
  for (const tinygltf::Mesh& m : doc.meshes)
    for (const tinygltf::Primitive& p : m.primitives) {
      still_used.insert(p.indices);
      for (const auto& kv : p.attributes) still_used.insert(kv.second);
      for (const auto& target : p.targets)
        for (const auto& kv : target) still_used.insert(kv.second);
    }
  for (const tinygltf::Skin& s : doc.skins) still_used.insert(s.inverseBindMatrices);
  for (int a : old_accessors)
    if (a >= 0 && size_t(a) < doc.accessors.size() && !still_used.count(a)) {
      doc.accessors[size_t(a)].bufferView = -1;  // zeros, as the spec allows; index kept
      doc.accessors[size_t(a)].sparse = tinygltf::Accessor().sparse;
    }
  repack(doc);

  tinygltf::TinyGLTF writer;
  std::ofstream out(out_path, std::ios::binary);
  if (!out) {
    error = "cannot write " + out_path;
    return false;
  }
  if (!writer.WriteGltfSceneToStream(&doc, out, false, true) || !out) {
    error = "writing " + out_path + " failed";
    return false;
  }
  return true;
}

}  // namespace rig
