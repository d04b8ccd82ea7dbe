#include "write/edit_job.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "write/weight_encoding.h"

namespace rig::write {

namespace {

constexpr int kArrayBuffer = 34962;  // a bufferView's target for vertex attributes

size_t component_bytes(int component_type) {
  const int size = tinygltf::GetComponentSizeInBytes(uint32_t(component_type));
  return size > 0 ? size_t(size) : 0;
}
size_t element_components(int type) {
  const int n = tinygltf::GetNumComponentsInType(uint32_t(type));
  return n > 0 ? size_t(n) : 0;
}

std::string attribute(const char* kind, int set) { return kind + std::to_string(set); }

// The accessor data's own consistency: known types, bytes = count × element size.
bool check_accessor(const AccessorData& a, const std::string& what, std::string& error) {
  const size_t size = component_bytes(a.component_type), n = element_components(a.type);
  if (size == 0 || n == 0) {
    error = what + ": unknown component or element type";
    return false;
  }
  if (a.count == 0 || a.bytes.size() != a.count * n * size) {
    error = what + ": " + std::to_string(a.bytes.size()) + " bytes for " + std::to_string(a.count) +
            " elements of " + std::to_string(n * size) + " bytes";
    return false;
  }
  if ((!a.min_values.empty() && a.min_values.size() != n) ||
      (!a.max_values.empty() && a.max_values.size() != n)) {
    error = what + ": min/max need one value per component";
    return false;
  }
  return true;
}

bool check_clip(const tinygltf::Model& doc, const ClipData& clip, const std::string& what,
                std::string& error) {
  if (clip.channels.empty()) {
    error = what + ": an animation needs at least one channel";
    return false;
  }
  for (size_t s = 0; s < clip.samplers.size(); ++s) {
    const ClipSampler& sampler = clip.samplers[s];
    const std::string name = what + " sampler " + std::to_string(s);
    if (sampler.interpolation != "LINEAR" && sampler.interpolation != "STEP" &&
        sampler.interpolation != "CUBICSPLINE") {
      error = name + ": interpolation '" + sampler.interpolation + "'";
      return false;
    }
    if (!check_accessor(sampler.input, name + " input", error) ||
        !check_accessor(sampler.output, name + " output", error))
      return false;
    if (sampler.input.component_type != kFloat || sampler.input.type != kScalar ||
        sampler.input.min_values.empty() || sampler.input.max_values.empty()) {
      error = name + " input: key times must be FLOAT SCALAR with min and max";
      return false;
    }
    if (sampler.output.count % sampler.input.count != 0) {
      error = name + ": " + std::to_string(sampler.output.count) + " outputs for " +
              std::to_string(sampler.input.count) + " key times";
      return false;
    }
  }
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    const ClipChannel& ch = clip.channels[c];
    const std::string name = what + " channel " + std::to_string(c);
    if (ch.sampler < 0 || size_t(ch.sampler) >= clip.samplers.size() || ch.node < 0 ||
        size_t(ch.node) >= doc.nodes.size()) {
      error = name + ": sampler or node out of range";
      return false;
    }
    if (ch.path != "translation" && ch.path != "rotation" && ch.path != "scale" &&
        ch.path != "weights") {
      error = name + ": target path '" + ch.path + "'";
      return false;
    }
  }
  return true;
}

// Vertices of a primitive: its attributes' count (POSITION's, else the first attribute's).
size_t vertex_count(const tinygltf::Model& doc, const tinygltf::Primitive& p) {
  auto it = p.attributes.find("POSITION");
  if (it == p.attributes.end()) it = p.attributes.begin();
  if (it == p.attributes.end() || it->second < 0 || size_t(it->second) >= doc.accessors.size())
    return 0;
  return doc.accessors[size_t(it->second)].count;
}

int influence_sets(const tinygltf::Primitive& p) {
  int n = 0;
  while (p.attributes.count(attribute("JOINTS_", n)) &&
         p.attributes.count(attribute("WEIGHTS_", n)))
    ++n;
  return n;
}

bool check_weights(const tinygltf::Model& doc, const SetSkinWeights& e, const std::string& what,
                   std::string& error) {
  if (e.mesh < 0 || size_t(e.mesh) >= doc.meshes.size() || e.primitive < 0 ||
      size_t(e.primitive) >= doc.meshes[size_t(e.mesh)].primitives.size()) {
    error = what + ": mesh " + std::to_string(e.mesh) + " primitive " +
            std::to_string(e.primitive) + " does not exist";
    return false;
  }
  const tinygltf::Primitive& p = doc.meshes[size_t(e.mesh)].primitives[size_t(e.primitive)];
  if (e.set < 0 || e.set > influence_sets(p)) {
    error = what + ": influence set " + std::to_string(e.set) + " (the primitive has " +
            std::to_string(influence_sets(p)) + ")";
    return false;
  }
  const size_t vertices = vertex_count(doc, p);
  if (e.joints.size() != vertices || e.weights.size() != vertices) {
    error = what + ": " + std::to_string(e.joints.size()) + " joints and " +
            std::to_string(e.weights.size()) + " weights for " + std::to_string(vertices) +
            " vertices";
    return false;
  }
  for (size_t v = 0; v < vertices; ++v)
    for (float w : e.weights[v])
      if (!std::isfinite(w) || w < 0.0f) {
        error = what + ": vertex " + std::to_string(v) + " has a negative or non-finite weight";
        return false;
      }
  uint32_t largest = 0;
  for (const auto& j : e.joints)
    for (uint16_t i : j) largest = std::max<uint32_t>(largest, i);
  for (size_t n = 0; n < doc.nodes.size(); ++n) {
    const tinygltf::Node& node = doc.nodes[n];
    if (node.mesh != e.mesh || node.skin < 0) continue;
    const size_t joints =
        size_t(node.skin) < doc.skins.size() ? doc.skins[size_t(node.skin)].joints.size() : 0;
    if (largest >= joints) {
      error = what + ": joint index " + std::to_string(largest) + " but node " + std::to_string(n) +
              "'s skin has " + std::to_string(joints) + " joints";
      return false;
    }
  }
  return true;
}

bool check_matrices(const tinygltf::Model& doc, const SetInverseBindMatrices& e,
                    const std::string& what, std::string& error) {
  if (e.skin < 0 || size_t(e.skin) >= doc.skins.size()) {
    error = what + ": skin " + std::to_string(e.skin) + " does not exist";
    return false;
  }
  if (e.matrices.size() != doc.skins[size_t(e.skin)].joints.size()) {
    error = what + ": " + std::to_string(e.matrices.size()) + " matrices for " +
            std::to_string(doc.skins[size_t(e.skin)].joints.size()) + " joints";
    return false;
  }
  for (const glm::mat4& m : e.matrices)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        if (!std::isfinite(m[c][r])) {
          error = what + ": a matrix is not finite";
          return false;
        }
  return true;
}

// bufferViews something refers to: accessors (and their sparse parts) and images.
std::vector<uint8_t> referenced_views(const tinygltf::Model& doc) {
  std::vector<uint8_t> used(doc.bufferViews.size(), 0);
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
  return used;
}

// Keeps the bufferViews flagged in `keep` and repacks buffer 0 (16-byte aligned views, in
// order); leaves everything as it is when a view lies outside buffer 0.
void repack(tinygltf::Model& doc, const std::vector<uint8_t>& keep) {
  if (doc.buffers.size() != 1) return;
  std::vector<int> remap(doc.bufferViews.size(), -1);
  std::vector<tinygltf::BufferView> views;
  std::vector<unsigned char> data;
  const std::vector<unsigned char>& old = doc.buffers[0].data;
  for (size_t v = 0; v < doc.bufferViews.size(); ++v) {
    if (!keep[v]) continue;
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

// A primitive's SetSkinWeights edits, with the component types they are written with.
struct WeightGroup {
  std::map<int, const SetSkinWeights*> sets;  // by set index
  std::map<int, int> types;                   // weights' component type per set
  std::map<int, int> joint_types;             // the file's joints type to keep per set, or -1
  bool whole = false;                         // the edits give every set the primitive has
};

// The component type of attribute `kind`n of `p`, -1 when it has none.
int component_type(const tinygltf::Model& doc, const tinygltf::Primitive& p, const char* kind,
                   int set) {
  const auto it = p.attributes.find(attribute(kind, set));
  if (it == p.attributes.end() || it->second < 0 || size_t(it->second) >= doc.accessors.size())
    return -1;
  return doc.accessors[size_t(it->second)].componentType;
}

// Applies validated edits to the document.
class Editor {
 public:
  Editor(tinygltf::Model& doc, std::span<const DocumentEdit> edits, const EditOptions& options)
      : doc_(doc), options_(options) {
    for (const DocumentEdit& edit : edits)
      if (const auto* w = std::get_if<SetSkinWeights>(&edit))
        groups_[{w->mesh, w->primitive}].sets[w->set] = w;
    for (auto& [key, group] : groups_) {
      const tinygltf::Primitive& p = doc_.meshes[size_t(key.first)].primitives[size_t(key.second)];
      const int file_sets = influence_sets(p);
      const int total = std::max(file_sets, group.sets.rbegin()->first + 1);
      group.whole = int(group.sets.size()) == total;  // sets 0..total-1, validated in order
      // Keep: the file's type of the set; a new set takes set 0's (as written), else FLOAT.
      for (auto& [set, edit] : group.sets) {
        const int file_type = set < file_sets ? component_type(doc_, p, "WEIGHTS_", set) : -1;
        const int set0_type = group.types.count(0) ? group.types.at(0)
                              : file_sets > 0      ? component_type(doc_, p, "WEIGHTS_", 0)
                                                   : -1;
        group.types[set] = weight_type(edit->encoding, set < file_sets ? file_type : set0_type);
        group.joint_types[set] = set < file_sets ? component_type(doc_, p, "JOINTS_", set)
                                 : file_sets > 0 ? component_type(doc_, p, "JOINTS_", 0)
                                                 : -1;
      }
    }
  }

  void apply(const ReplaceClip& e) {
    tinygltf::Animation& anim = doc_.animations[size_t(e.animation)];
    forget_samplers(anim);
    fill(anim, e.clip);
  }
  void apply(const AddClip& e) {
    tinygltf::Animation anim;
    anim.name = e.clip.name;
    fill(anim, e.clip);
    added_.push_back(std::move(anim));
  }
  void apply(const RemoveClip& e) {
    forget_samplers(doc_.animations[size_t(e.animation)]);
    removed_.insert(e.animation);
  }
  void apply(const SetSkinWeights& e) {
    tinygltf::Primitive& p = doc_.meshes[size_t(e.mesh)].primitives[size_t(e.primitive)];
    const WeightGroup& group = groups_.at({e.mesh, e.primitive});
    for (const char* kind : {"JOINTS_", "WEIGHTS_"}) {
      const auto it = p.attributes.find(attribute(kind, e.set));
      if (it != p.attributes.end()) old_.insert(it->second);
    }
    p.attributes[attribute("JOINTS_", e.set)] =
        add(joint_data(e.joints, group.joint_types.at(e.set)), kArrayBuffer);
    p.attributes[attribute("WEIGHTS_", e.set)] = add(weight_data(group, e.set), kArrayBuffer);
  }
  void apply(const SetInverseBindMatrices& e) {
    tinygltf::Skin& skin = doc_.skins[size_t(e.skin)];
    old_.insert(skin.inverseBindMatrices);
    std::vector<float> values;
    values.reserve(e.matrices.size() * 16);
    for (const glm::mat4& m : e.matrices)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) values.push_back(m[c][r]);
    skin.inverseBindMatrices = add(float_accessor(values, kMat4, false), 0);
  }

  // Removed and added animations, data dropped from the accessors no longer used, repacking.
  void finish(const std::vector<uint8_t>& used_before) {
    for (auto it = removed_.rbegin(); it != removed_.rend(); ++it)
      doc_.animations.erase(doc_.animations.begin() + *it);
    for (tinygltf::Animation& a : added_) doc_.animations.push_back(std::move(a));
    std::set<int> still_used;
    for (const tinygltf::Animation& a : doc_.animations)
      for (const tinygltf::AnimationSampler& s : a.samplers) still_used.insert({s.input, s.output});
    for (const tinygltf::Mesh& m : doc_.meshes)
      for (const tinygltf::Primitive& p : m.primitives) {
        still_used.insert(p.indices);
        for (const auto& kv : p.attributes) still_used.insert(kv.second);
        for (const auto& target : p.targets)
          for (const auto& kv : target) still_used.insert(kv.second);
      }
    for (const tinygltf::Skin& s : doc_.skins) still_used.insert(s.inverseBindMatrices);
    for (int a : old_)
      if (a >= 0 && size_t(a) < doc_.accessors.size() && !still_used.count(a)) {
        // Zeros, as the spec allows; index kept. Without a bufferView the accessor may not have
        // a byteOffset either (the validator's error), nor sparse data.
        tinygltf::Accessor& accessor = doc_.accessors[size_t(a)];
        accessor.bufferView = -1;
        accessor.byteOffset = 0;
        accessor.sparse = tinygltf::Accessor().sparse;
      }
    std::vector<uint8_t> keep = referenced_views(doc_);
    bool dropped = false;
    for (size_t v = 0; v < keep.size(); ++v) {
      const bool orphaned = v < used_before.size() && used_before[v] && !keep[v];
      if (!keep[v] && !options_.drop_unused_buffer_views && !orphaned) keep[v] = 1;
      dropped = dropped || !keep[v];
    }
    if (dropped || options_.drop_unused_buffer_views) repack(doc_, keep);
  }

 private:
  void forget_samplers(const tinygltf::Animation& anim) {
    for (const tinygltf::AnimationSampler& s : anim.samplers) old_.insert({s.input, s.output});
  }

  void fill(tinygltf::Animation& anim, const ClipData& clip) {
    anim.samplers.clear();
    anim.channels.clear();
    for (const ClipSampler& s : clip.samplers) {
      tinygltf::AnimationSampler sampler;
      sampler.interpolation = s.interpolation;
      sampler.input = add(s.input, 0);
      sampler.output = add(s.output, 0);
      anim.samplers.push_back(sampler);
    }
    for (const ClipChannel& c : clip.channels) {
      tinygltf::AnimationChannel channel;
      channel.sampler = c.sampler;
      channel.target_node = c.node;
      channel.target_path = c.path;
      anim.channels.push_back(channel);
    }
  }

  // Appends the data as a new bufferView (4-byte aligned) and accessor, or finds the equal one
  // this run already wrote.
  int add(const AccessorData& a, int target) {
    using Key = std::tuple<int, int, bool, std::vector<uint8_t>, std::vector<double>,
                           std::vector<double>, int>;
    Key key{a.component_type, a.type, a.normalized, a.bytes, a.min_values, a.max_values, target};
    if (options_.share_equal_accessors) {
      const auto found = written_.find(key);
      if (found != written_.end()) return found->second;
    }
    std::vector<unsigned char>& data = doc_.buffers[0].data;
    data.resize((data.size() + 3) & ~size_t(3), 0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = data.size();
    view.byteLength = a.bytes.size();
    view.target = target;
    data.insert(data.end(), a.bytes.begin(), a.bytes.end());
    doc_.bufferViews.push_back(view);
    tinygltf::Accessor accessor;
    accessor.bufferView = int(doc_.bufferViews.size()) - 1;
    accessor.byteOffset = 0;
    accessor.componentType = a.component_type;
    accessor.normalized = a.normalized;
    accessor.type = a.type;
    accessor.count = a.count;
    accessor.minValues = a.min_values;
    accessor.maxValues = a.max_values;
    doc_.accessors.push_back(accessor);
    const int index = int(doc_.accessors.size()) - 1;
    if (options_.share_equal_accessors) written_.emplace(std::move(key), index);
    return index;
  }

  static AccessorData joint_data(const std::vector<std::array<uint16_t, 4>>& joints, int old_type) {
    uint32_t largest = 0;
    for (const auto& j : joints)
      for (uint16_t i : j) largest = std::max<uint32_t>(largest, i);
    const bool bytes = old_type == kUnsignedShort ? false : largest <= 255;
    AccessorData a;
    a.component_type = bytes ? kUnsignedByte : kUnsignedShort;
    a.type = kVec4;
    a.count = joints.size();
    for (const auto& j : joints)
      for (uint16_t i : j) {
        a.bytes.push_back(uint8_t(i & 0xff));
        if (!bytes) a.bytes.push_back(uint8_t(i >> 8));
      }
    return a;
  }

  // The component type `encoding` asks for; Keep: `existing` when it is an integer type.
  static int weight_type(WeightEncoding encoding, int existing) {
    switch (encoding) {
      case WeightEncoding::Keep:
        return existing == kUnsignedByte || existing == kUnsignedShort ? existing : kFloat;
      case WeightEncoding::Float:
        return kFloat;
      case WeightEncoding::UnsignedShort:
        return kUnsignedShort;
      case WeightEncoding::UnsignedByte:
        return kUnsignedByte;
    }
    return kFloat;
  }

  // Set `set` of a primitive's edited influence sets, encoded. Where the edits give every set
  // the primitive has (`whole`), each vertex's weights over all of them are divided by their sum
  // and, when every set has the same integer type, rounded together so that the integers over
  // all sets sum to exactly 255 or 65535; otherwise the set is stored as given.
  static AccessorData weight_data(const WeightGroup& group, int set) {
    const SetSkinWeights& edit = *group.sets.at(set);
    const int type = group.types.at(set);
    bool same_type = true;
    for (const auto& [s, t] : group.types) same_type = same_type && t == type;
    AccessorData a;
    a.component_type = type;
    a.type = kVec4;
    a.normalized = type != kFloat;
    a.count = edit.weights.size();
    const size_t sets = group.whole ? group.sets.size() : 1;
    const size_t first = group.whole ? size_t(set) * 4 : 0;  // this set's slots in `all`
    const uint32_t max = type == kUnsignedByte ? 255 : 65535;
    std::vector<float> all(sets * 4), normalized(sets * 4);
    std::vector<uint32_t> integers(sets * 4);
    for (size_t v = 0; v < edit.weights.size(); ++v) {
      if (group.whole) {
        for (const auto& [s, e] : group.sets)
          std::copy(e->weights[v].begin(), e->weights[v].end(), all.begin() + size_t(s) * 4);
        normalized_weights(all, normalized);
      } else {
        std::copy(edit.weights[v].begin(), edit.weights[v].end(), normalized.begin());
      }
      const std::span<const float> mine(normalized.data() + first, 4);
      if (type == kFloat) {
        const size_t at = a.bytes.size();
        a.bytes.resize(at + 4 * sizeof(float));
        std::memcpy(a.bytes.data() + at, mine.data(), 4 * sizeof(float));
        continue;
      }
      std::span<const uint32_t> units(integers.data() + first, 4);
      if (group.whole && same_type) {
        normalized_integer_weights(normalized, max, integers);
      } else {
        normalized_integer_weights(mine, max, std::span(integers.data() + first, 4));
      }
      for (uint32_t c : units) {
        a.bytes.push_back(uint8_t(c & 0xff));
        if (type == kUnsignedShort) a.bytes.push_back(uint8_t(c >> 8));
      }
    }
    return a;
  }

  tinygltf::Model& doc_;
  const EditOptions& options_;
  std::set<int> old_;                                  // accessors the edits stopped using
  std::map<std::pair<int, int>, WeightGroup> groups_;  // per (mesh, primitive)
  std::set<int> removed_;
  std::vector<tinygltf::Animation> added_;
  std::map<std::tuple<int, int, bool, std::vector<uint8_t>, std::vector<double>,
                      std::vector<double>, int>,
           int>
      written_;
};

}  // namespace

bool DocumentEditJob::validate(std::string& error) const {
  if (!document) {
    error = "no document to edit";
    return false;
  }
  const tinygltf::Model& doc = *document;
  if (doc.buffers.size() != 1 || !doc.buffers[0].uri.empty()) {
    error = "the document must hold one embedded buffer";
    return false;
  }
  std::set<int> animations, skins;
  std::set<std::tuple<int, int, int>> sets;
  for (size_t i = 0; i < edits.size(); ++i) {
    const std::string what = "edit " + std::to_string(i);
    const DocumentEdit& edit = edits[i];
    int animation = -1;
    if (const auto* e = std::get_if<ReplaceClip>(&edit)) {
      animation = e->animation;
      if (!check_clip(doc, e->clip, what, error)) return false;
    } else if (const auto* a = std::get_if<AddClip>(&edit)) {
      if (!check_clip(doc, a->clip, what, error)) return false;
    } else if (const auto* r = std::get_if<RemoveClip>(&edit)) {
      animation = r->animation;
    } else if (const auto* w = std::get_if<SetSkinWeights>(&edit)) {
      if (!check_weights(doc, *w, what, error)) return false;
      if (!sets.insert({w->mesh, w->primitive, w->set}).second) {
        error = what + ": the influence set is edited twice";
        return false;
      }
    } else if (const auto* m = std::get_if<SetInverseBindMatrices>(&edit)) {
      if (!check_matrices(doc, *m, what, error)) return false;
      if (!skins.insert(m->skin).second) {
        error = what + ": skin " + std::to_string(m->skin) + " is edited twice";
        return false;
      }
    }
    if (std::holds_alternative<ReplaceClip>(edit) || std::holds_alternative<RemoveClip>(edit)) {
      if (animation < 0 || size_t(animation) >= doc.animations.size()) {
        error = what + ": animation " + std::to_string(animation) + " does not exist";
        return false;
      }
      if (!animations.insert(animation).second) {
        error = what + ": animation " + std::to_string(animation) + " is edited twice";
        return false;
      }
    }
  }
  // A new influence set n needs sets 0..n-1: two new sets of one primitive must come in order.
  for (const auto& [mesh, primitive, set] : sets) {
    const int existing = influence_sets(doc.meshes[size_t(mesh)].primitives[size_t(primitive)]);
    for (int s = existing; s < set; ++s)
      if (!sets.count({mesh, primitive, s})) {
        error = "mesh " + std::to_string(mesh) + " primitive " + std::to_string(primitive) +
                ": influence set " + std::to_string(set) + " without set " + std::to_string(s);
        return false;
      }
  }
  return true;
}

bool DocumentEditJob::run(std::string& error) {
  if (!validate(error)) return false;
  const std::vector<uint8_t> used_before = referenced_views(*document);
  Editor editor(*document, edits, options);
  for (const DocumentEdit& edit : edits) std::visit([&](const auto& e) { editor.apply(e); }, edit);
  editor.finish(used_before);
  return true;
}

size_t sampler_accessor_bytes(const tinygltf::Model& doc,
                              std::span<const tinygltf::Animation> animations) {
  std::set<int> used;
  for (const tinygltf::Animation& anim : animations)
    for (const tinygltf::AnimationSampler& s : anim.samplers) used.insert({s.input, s.output});
  size_t bytes = 0;
  for (int a : used) {
    if (a < 0 || size_t(a) >= doc.accessors.size()) continue;
    const tinygltf::Accessor& accessor = doc.accessors[size_t(a)];
    const size_t components = element_components(accessor.type);
    const size_t size = component_bytes(accessor.componentType);
    bytes += accessor.count * components * size;
  }
  return bytes;
}

}  // namespace rig::write
