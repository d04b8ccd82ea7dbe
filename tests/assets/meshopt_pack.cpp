// rig_meshopt_pack IN.glb OUT.glb: a copy of a single-buffer GLB with its bufferViews compressed
// by EXT_meshopt_compression, written with meshoptimizer's encoders, so that three.js (its own
// MeshoptDecoder) and rigview (Debian's libmeshoptimizer) can both play the same compressed file.
//   - index bufferViews: TRIANGLES mode (INDICES when a view is not a whole triangle list);
//   - animation rotations (float VEC4, alone in their view): quantized to normalized SHORT
//     (KHR_mesh_quantization) with the QUATERNION filter, 16 bits;
//   - animation translations and scales (float VEC3, alone in their view): EXPONENTIAL filter,
//     23-bit mantissas;
//   - every other bufferView whose length allows a 4-byte stride: ATTRIBUTES, no filter;
//   - image bufferViews and the rest: copied as they are.
// A test tool: it assumes a well-formed file (as the bundled assets are) and says so otherwise.
#include <meshoptimizer.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

uint32_t u32(const std::vector<uint8_t>& bytes, size_t at) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + at, 4);
  return value;
}

void put_u32(std::vector<uint8_t>& out, uint32_t value) {
  uint8_t raw[4];
  std::memcpy(raw, &value, 4);
  out.insert(out.end(), raw, raw + 4);
}

void pad4(std::vector<uint8_t>& bytes, uint8_t fill) {
  while (bytes.size() % 4 != 0) bytes.push_back(fill);
}

struct Encoded {
  std::vector<uint8_t> bytes;  // the compressed stream
  size_t count = 0, stride = 0;
  const char* mode = "ATTRIBUTES";
  const char* filter = "NONE";
};

Encoded attributes(const void* data, size_t count, size_t stride, const char* filter) {
  Encoded e;
  e.bytes.resize(meshopt_encodeVertexBufferBound(count, stride));
  e.bytes.resize(meshopt_encodeVertexBuffer(e.bytes.data(), e.bytes.size(), data, count, stride));
  e.count = count;
  e.stride = stride;
  e.filter = filter;
  return e;
}

Encoded indices(const uint8_t* data, size_t count, size_t size, bool triangles) {
  std::vector<unsigned> values(count);
  for (size_t i = 0; i < count; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, data + i * size, size);
    values[i] = v;
  }
  unsigned vertices = 0;
  for (unsigned v : values) vertices = std::max(vertices, v + 1);
  Encoded e;
  e.count = count;
  e.stride = size;
  if (triangles) {
    meshopt_encodeIndexVersion(1);
    e.bytes.resize(meshopt_encodeIndexBufferBound(count, vertices));
    e.bytes.resize(meshopt_encodeIndexBuffer(e.bytes.data(), e.bytes.size(), values.data(), count));
    e.mode = "TRIANGLES";
  } else {
    e.bytes.resize(meshopt_encodeIndexSequenceBound(count, vertices));
    e.bytes.resize(
        meshopt_encodeIndexSequence(e.bytes.data(), e.bytes.size(), values.data(), count));
    e.mode = "INDICES";
  }
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: rig_meshopt_pack IN.glb OUT.glb\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<uint8_t> glb((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
  if (glb.size() < 28 || u32(glb, 0) != 0x46546C67u) {
    std::fprintf(stderr, "%s: not a GLB\n", argv[1]);
    return 1;
  }
  const uint32_t json_length = u32(glb, 12);
  json doc = json::parse(glb.begin() + 20, glb.begin() + 20 + json_length);
  const size_t bin_at = 20 + json_length + 8;
  if (doc["buffers"].size() != 1 || doc["buffers"][0].contains("uri") || bin_at > glb.size()) {
    std::fprintf(stderr, "%s: only single-buffer GLBs are packed\n", argv[1]);
    return 1;
  }
  const uint8_t* bin = glb.data() + bin_at;

  // What each bufferView holds: its accessors, index use, image use, animation path.
  std::map<size_t, std::vector<size_t>> accessors_of;
  json& accessors = doc["accessors"];
  for (size_t a = 0; a < accessors.size(); ++a) {
    if (accessors[a].contains("bufferView")) {
      accessors_of[accessors[a]["bufferView"].get<size_t>()].push_back(a);
    }
  }
  std::set<size_t> index_views, image_views, triangle_views;
  std::map<size_t, std::string> output_path;  // accessor → rotation/translation/scale
  for (const json& mesh : doc.value("meshes", json::array())) {
    for (const json& primitive : mesh["primitives"]) {
      if (!primitive.contains("indices")) continue;
      const size_t view = accessors[primitive["indices"].get<size_t>()]["bufferView"];
      index_views.insert(view);
      if (primitive.value("mode", 4) == 4) triangle_views.insert(view);
    }
  }
  for (const json& image : doc.value("images", json::array())) {
    if (image.contains("bufferView")) image_views.insert(image["bufferView"].get<size_t>());
  }
  for (const json& animation : doc.value("animations", json::array())) {
    for (const json& channel : animation["channels"]) {
      const json& sampler = animation["samplers"][channel["sampler"].get<size_t>()];
      output_path[sampler["output"].get<size_t>()] = channel["target"]["path"];
    }
  }

  std::vector<uint8_t> out_bin;
  uint64_t fallback_length = 0;
  bool quantized = false;
  json& views = doc["bufferViews"];
  for (size_t v = 0; v < views.size(); ++v) {
    json& view = views[v];
    const size_t offset = view.value("byteOffset", size_t{0});
    const size_t length = view["byteLength"];
    const uint8_t* data = bin + offset;
    const std::vector<size_t>& users = accessors_of[v];
    const json* only = users.size() == 1 && accessors[users[0]].value("byteOffset", 0) == 0
                           ? &accessors[users[0]]
                           : nullptr;
    const std::string path = only ? output_path[users[0]] : "";
    Encoded e;
    bool compress = true;
    if (image_views.count(v)) {
      compress = false;
    } else if (index_views.count(v)) {
      const int type = accessors[users[0]]["componentType"];
      const size_t size = type == 5125 ? 4 : 2;
      bool whole_triangles = triangle_views.count(v) && (length / size) % 3 == 0;
      for (size_t a : users) {
        whole_triangles = whole_triangles && accessors[a].value("byteOffset", 0) % (3 * size) == 0;
      }
      compress = type != 5121;  // meshopt codes 2- and 4-byte indices
      if (compress) e = indices(data, length / size, size, whole_triangles);
    } else if (only && path == "rotation" && (*only)["componentType"] == 5126) {
      const size_t count = (*only)["count"];
      std::vector<float> quats(count * 4);
      std::memcpy(quats.data(), data, count * 16);
      std::vector<int16_t> packed(count * 4);
      meshopt_encodeFilterQuat(packed.data(), count, 8, 16, quats.data());
      e = attributes(packed.data(), count, 8, "QUATERNION");
      accessors[users[0]]["componentType"] = 5122;
      accessors[users[0]]["normalized"] = true;
      view.erase("byteStride");
      quantized = true;
    } else if (only && (path == "translation" || path == "scale") &&
               (*only)["componentType"] == 5126 && (*only)["type"] == "VEC3") {
      const size_t count = (*only)["count"];
      std::vector<float> values(count * 3);
      std::memcpy(values.data(), data, count * 12);
      std::vector<uint32_t> packed(count * 3);
      meshopt_encodeFilterExp(packed.data(), count, 12, 23, values.data());
      e = attributes(packed.data(), count, 12, "EXPONENTIAL");
    } else {
      const size_t stride = view.value("byteStride", size_t{4});
      compress = stride % 4 == 0 && length % stride == 0;
      if (compress) e = attributes(data, length / stride, stride, "NONE");
    }
    if (!compress) {
      view["buffer"] = 0;
      view["byteOffset"] = out_bin.size();
      out_bin.insert(out_bin.end(), data, data + length);
      pad4(out_bin, 0);
      continue;
    }
    json extension = {{"buffer", 0},
                      {"byteOffset", out_bin.size()},
                      {"byteLength", e.bytes.size()},
                      {"byteStride", e.stride},
                      {"count", e.count},
                      {"mode", e.mode}};
    if (std::strcmp(e.filter, "NONE") != 0) extension["filter"] = e.filter;
    out_bin.insert(out_bin.end(), e.bytes.begin(), e.bytes.end());
    pad4(out_bin, 0);
    view["buffer"] = 1;
    view["byteOffset"] = fallback_length;
    view["byteLength"] = e.count * e.stride;
    view["extensions"]["EXT_meshopt_compression"] = extension;
    fallback_length += (e.count * e.stride + 3) / 4 * 4;
  }
  doc["buffers"][0]["byteLength"] = out_bin.size();
  doc["buffers"].push_back({{"byteLength", fallback_length},
                            {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    for (const char* name : {"EXT_meshopt_compression", "KHR_mesh_quantization"}) {
      if (std::strcmp(name, "KHR_mesh_quantization") == 0 && !quantized) continue;
      json& names = doc[list];
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }

  std::string text = doc.dump();
  while (text.size() % 4 != 0) text += ' ';
  std::vector<uint8_t> out;
  put_u32(out, 0x46546C67u);
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(12 + 8 + text.size() + 8 + out_bin.size()));
  put_u32(out, static_cast<uint32_t>(text.size()));
  put_u32(out, 0x4E4F534Au);
  out.insert(out.end(), text.begin(), text.end());
  put_u32(out, static_cast<uint32_t>(out_bin.size()));
  put_u32(out, 0x004E4942u);
  out.insert(out.end(), out_bin.begin(), out_bin.end());
  std::ofstream(argv[2], std::ios::binary)
      .write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  std::printf("%s: %zu bufferViews, BIN %zu -> %zu bytes\n", argv[2], views.size(),
              glb.size() - bin_at, out_bin.size());
  return 0;
}
