#include "gltf_writer.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "pose_math.h"

namespace rig::gen {
namespace {

class GltfBuilder {
 public:
  GltfBuilder() { model_.buffers.emplace_back(); }

  tinygltf::Model& model() { return model_; }

  // Appends raw bytes as a new buffer view, 4-byte aligned (the strictest component we store).
  int add_view(const void* data, size_t size, int target) {
    auto& bytes = model_.buffers[0].data;
    while (bytes.size() % 4 != 0) bytes.push_back(0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = bytes.size();
    view.byteLength = size;
    view.target = target;
    const auto* p = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + size);
    model_.bufferViews.push_back(view);
    return int(model_.bufferViews.size()) - 1;
  }

  template <typename T>
  int add_accessor(const std::vector<T>& values, int component_type, int type, size_t count,
                   int target, bool with_bounds, int components) {
    tinygltf::Accessor acc;
    acc.bufferView = add_view(values.data(), values.size() * sizeof(T), target);
    acc.componentType = component_type;
    acc.type = type;
    acc.count = count;
    if (with_bounds) {
      acc.minValues.assign(components, std::numeric_limits<double>::max());
      acc.maxValues.assign(components, std::numeric_limits<double>::lowest());
      for (size_t i = 0; i < count; ++i) {
        for (int k = 0; k < components; ++k) {
          const double v = double(values[i * components + k]);
          acc.minValues[k] = std::min(acc.minValues[k], v);
          acc.maxValues[k] = std::max(acc.maxValues[k], v);
        }
      }
    }
    model_.accessors.push_back(acc);
    return int(model_.accessors.size()) - 1;
  }

  int add_floats(const std::vector<float>& values, int type, int components, int target,
                 bool with_bounds) {
    return add_accessor(values, TINYGLTF_COMPONENT_TYPE_FLOAT, type,
                        values.size() / size_t(components), target, with_bounds, components);
  }

 private:
  tinygltf::Model model_;
};

void push(std::vector<float>& out, const glm::dvec3& v) {
  out.push_back(float(v.x));
  out.push_back(float(v.y));
  out.push_back(float(v.z));
}

}  // namespace

void write_glb(const Asset& asset, const std::string& path) {
  GltfBuilder b;
  tinygltf::Model& m = b.model();
  m.asset.version = "2.0";
  m.asset.generator = "rigview rig_asset_generator";

  // Nodes: joints first (node index == joint index == JOINTS_0 value), then the mesh node.
  const int joint_count = int(asset.joints.size());
  for (int j = 0; j < joint_count; ++j) {
    const JointDef& def = asset.joints[j];
    tinygltf::Node node;
    node.name = def.name;
    const glm::dvec3 t =
        def.rest_world - (def.parent >= 0 ? asset.joints[def.parent].rest_world : glm::dvec3(0));
    // Stored as the float the file will hold, so the importer's rest equals ours exactly.
    node.translation = {round_to_float(t.x), round_to_float(t.y), round_to_float(t.z)};
    m.nodes.push_back(node);
  }
  for (int j = 0; j < joint_count; ++j)
    if (asset.joints[j].parent >= 0) m.nodes[asset.joints[j].parent].children.push_back(j);

  // Mesh attributes.
  const SkinnedMesh& mesh = asset.mesh;
  std::vector<float> positions, normals, uvs, weights;
  std::vector<uint8_t> joints;
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    push(positions, mesh.positions[v]);
    push(normals, mesh.normals[v]);
    uvs.push_back(float(mesh.uvs[v].x));
    uvs.push_back(float(mesh.uvs[v].y));
    for (int k = 0; k < 4; ++k) {
      joints.push_back(mesh.influences[v].joints[k]);
      weights.push_back(mesh.influences[v].weights[k]);
    }
  }
  tinygltf::Primitive prim;
  prim.mode = TINYGLTF_MODE_TRIANGLES;
  prim.attributes["POSITION"] =
      b.add_floats(positions, TINYGLTF_TYPE_VEC3, 3, TINYGLTF_TARGET_ARRAY_BUFFER, true);
  prim.attributes["NORMAL"] =
      b.add_floats(normals, TINYGLTF_TYPE_VEC3, 3, TINYGLTF_TARGET_ARRAY_BUFFER, false);
  prim.attributes["TEXCOORD_0"] =
      b.add_floats(uvs, TINYGLTF_TYPE_VEC2, 2, TINYGLTF_TARGET_ARRAY_BUFFER, false);
  prim.attributes["JOINTS_0"] =
      b.add_accessor(joints, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4,
                     mesh.positions.size(), TINYGLTF_TARGET_ARRAY_BUFFER, false, 4);
  prim.attributes["WEIGHTS_0"] =
      b.add_floats(weights, TINYGLTF_TYPE_VEC4, 4, TINYGLTF_TARGET_ARRAY_BUFFER, false);
  if (mesh.positions.size() <= 65535) {
    std::vector<uint16_t> idx(mesh.indices.begin(), mesh.indices.end());
    prim.indices = b.add_accessor(idx, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR,
                                  idx.size(), TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER, false, 1);
  } else {
    prim.indices =
        b.add_accessor(mesh.indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                       mesh.indices.size(), TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER, false, 1);
  }
  prim.material = 0;
  tinygltf::Mesh gltf_mesh;
  gltf_mesh.name = asset.name;
  gltf_mesh.primitives.push_back(prim);
  m.meshes.push_back(gltf_mesh);

  // Material with the procedural texture, stored in the binary chunk.
  tinygltf::Image image;
  image.name = asset.name + "_base_color";
  image.mimeType = "image/png";
  image.bufferView = b.add_view(asset.png.data(), asset.png.size(), 0);
  m.images.push_back(image);
  tinygltf::Sampler sampler;
  sampler.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
  sampler.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
  m.samplers.push_back(sampler);
  tinygltf::Texture texture;
  texture.sampler = 0;
  texture.source = 0;
  m.textures.push_back(texture);
  tinygltf::Material material;
  material.name = asset.name + "_material";
  material.pbrMetallicRoughness.baseColorTexture.index = 0;
  material.pbrMetallicRoughness.metallicFactor = 0.0;
  material.pbrMetallicRoughness.roughnessFactor = 0.7;
  m.materials.push_back(material);

  // Skin: rest joint frames are world-aligned, so each inverse bind matrix is a translation.
  std::vector<float> inverse_bind;
  for (const JointDef& def : asset.joints) {
    const float ibm[16] = {1,
                           0,
                           0,
                           0,
                           0,
                           1,
                           0,
                           0,
                           0,
                           0,
                           1,
                           0,
                           float(-def.rest_world.x),
                           float(-def.rest_world.y),
                           float(-def.rest_world.z),
                           1};
    inverse_bind.insert(inverse_bind.end(), ibm, ibm + 16);
  }
  tinygltf::Skin skin;
  skin.name = asset.name + "_skin";
  skin.inverseBindMatrices = b.add_floats(inverse_bind, TINYGLTF_TYPE_MAT4, 16, 0, false);
  skin.skeleton = 0;
  for (int j = 0; j < joint_count; ++j) skin.joints.push_back(j);
  m.skins.push_back(skin);

  tinygltf::Node mesh_node;
  mesh_node.name = asset.name;
  mesh_node.mesh = 0;
  mesh_node.skin = 0;
  m.nodes.push_back(mesh_node);

  // Clips: one shared time accessor per clip, LINEAR samplers.
  for (const ClipDef& clip : asset.clips) {
    tinygltf::Animation anim;
    anim.name = clip.name;
    std::vector<float> times;
    for (int k = 0; k <= clip.frames; ++k) times.push_back(float(k / clip.fps));
    const int input = b.add_floats(times, TINYGLTF_TYPE_SCALAR, 1, 0, true);
    auto add_channel = [&](int joint, const char* target_path, const std::vector<float>& values,
                           int type, int components) {
      tinygltf::AnimationSampler s;
      s.input = input;
      s.output = b.add_floats(values, type, components, 0, false);
      s.interpolation = "LINEAR";
      anim.samplers.push_back(s);
      tinygltf::AnimationChannel ch;
      ch.sampler = int(anim.samplers.size()) - 1;
      ch.target_node = joint;
      ch.target_path = target_path;
      anim.channels.push_back(ch);
    };
    for (const TranslationTrack& track : clip.translations) {
      if (int(track.keys.size()) != clip.frames + 1)
        throw std::runtime_error(clip.name + ": translation key count");
      std::vector<float> values;
      for (const auto& t : track.keys) push(values, t);
      add_channel(track.joint, "translation", values, TINYGLTF_TYPE_VEC3, 3);
    }
    for (const RotationTrack& track : clip.rotations) {
      if (int(track.keys.size()) != clip.frames + 1)
        throw std::runtime_error(clip.name + ": rotation key count");
      std::vector<float> values;
      for (const auto& q : track.keys) {
        values.push_back(float(q.x));
        values.push_back(float(q.y));
        values.push_back(float(q.z));
        values.push_back(float(q.w));
      }
      add_channel(track.joint, "rotation", values, TINYGLTF_TYPE_VEC4, 4);
    }
    m.animations.push_back(anim);
  }

  tinygltf::Scene scene;
  scene.name = asset.name;
  scene.nodes = {0, joint_count};
  m.scenes.push_back(scene);
  m.defaultScene = 0;

  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToFile(&m, path, /*embedImages=*/true, /*embedBuffers=*/true,
                                   /*prettyPrint=*/false, /*writeBinary=*/true))
    throw std::runtime_error("cannot write " + path);
}

}  // namespace rig::gen
