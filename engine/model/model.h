// The immutable model: what the importer produces and everything downstream reads.
// Plain data, flat arrays, glTF indices kept so names and errors can point back into the file.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

namespace rig {

// The most influences a vertex keeps when skinned (two vec4 joint/weight attribute sets on the
// GPU; skin/skin_mesh.h truncates to it). The one place that number is spelled: the importer's
// report, the renderer, the shaders (as a generated #define) and the CPU kernels read it here.
inline constexpr uint32_t kMaxInfluences = 8;

// Local transform of a node. glm::quat is (w, x, y, z) in its constructor, xyzw in memory.
struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

// T · R · S as one matrix, built directly (cheaper and exact compared with three mat4 products).
inline glm::mat4 trs_matrix(const Transform& t) {
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  glm::mat4 m(1.0f);
  m[0] = glm::vec4(r[0] * t.scale.x, 0.0f);
  m[1] = glm::vec4(r[1] * t.scale.y, 0.0f);
  m[2] = glm::vec4(r[2] * t.scale.z, 0.0f);
  m[3] = glm::vec4(t.translation, 1.0f);
  return m;
}

struct Node {
  std::string name;           // the file's name, empty when it has none
  int parent = -1;            // -1 at roots
  std::vector<int> children;  // file order
  Transform rest;             // TRS from the file (decomposed from `matrix` when that is used)
  bool from_matrix = false;   // the file gave `matrix` rather than TRS
  // A file `matrix` with shear, which TRS cannot hold: local = TRS(pose) · shear, with
  // shear = TRS(rest)⁻¹ · matrix, so the rest pose reproduces the file's matrix and a pose edit
  // on the node still applies. Identity for every other node, and for nodes a clip animates
  // (their clips drive TRS alone, as the spec requires).
  bool has_shear = false;
  glm::mat4 shear{1.0f};
  int mesh = -1;
  int skin = -1;
  uint32_t morph_offset = 0;  // where this node's morph weights live in Pose::morph_weights
  uint32_t morph_count = 0;   // number of morph targets of its mesh (0 without a mesh)
};

struct MorphTarget {
  std::vector<glm::vec3> positions;  // deltas; empty when the target has no POSITION
  std::vector<glm::vec3> normals;    // deltas; empty when the target has no NORMAL
  // TANGENT deltas (xyz; the handedness does not morph); empty when the target has none.
  std::vector<glm::vec3> tangents;
};

enum class PrimitiveMode : int {
  Points = 0,
  Lines = 1,
  LineLoop = 2,
  LineStrip = 3,
  Triangles = 4,
  TriangleStrip = 5,
  TriangleFan = 6
};

struct Primitive {
  PrimitiveMode mode = PrimitiveMode::Triangles;
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;  // always vertex_count(); generated when the file has none
  bool normals_generated = false;
  std::vector<glm::vec2> texcoords0;  // empty when absent
  std::vector<glm::vec2> texcoords1;  // TEXCOORD_1, empty when absent
  // TANGENT: xyz the tangent, w = ±1 the bitangent's handedness. Empty when absent or dropped
  // (an unusable one is reported as a warning, not an error).
  std::vector<glm::vec4> tangents;
  // COLOR_0 as linear floats; a VEC3 accessor gets alpha 1. Empty when absent.
  std::vector<glm::vec4> colors0;
  std::vector<uint32_t> indices;  // empty when the primitive is not indexed
  // Skin influences, vertex-major: vertex v owns [v*influences, (v+1)*influences).
  // `influences` is 4 per JOINTS_n/WEIGHTS_n set; weights are normalized to sum 1 on import.
  uint32_t influences = 0;
  std::vector<uint16_t> joints;
  std::vector<float> weights;
  // The file's weight sum per vertex before that renormalization (what the raw-weights pitfall
  // skins with); empty when every vertex's sum was exactly 1, or the primitive is not skinned.
  std::vector<float> weight_sums;
  std::vector<MorphTarget> targets;
  int material = -1;

  uint32_t vertex_count() const { return static_cast<uint32_t>(positions.size()); }
  bool skinned() const { return influences > 0; }
};

struct Mesh {
  std::string name;
  std::vector<Primitive> primitives;
  std::vector<float> default_weights;  // mesh.weights, zero-filled to the target count
};

struct Skin {
  std::string name;
  std::vector<int> joints;  // node index per joint, in the file's order (JOINTS_n index this)
  std::vector<glm::mat4> inverse_bind;  // one per joint; identity when the file has none
  std::vector<int> joint_parent;  // nearest ancestor that is a joint of this skin, -1 otherwise
  std::vector<int> order;         // joint indices, parents before children
};

struct Image {
  std::string name;
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width*height*4, empty when decoding failed
};

// glTF sampler values (the GL enums the spec uses), kept as numbers so the renderer can hand
// them to GL as they are. Filters: -1 when the file leaves them to the renderer.
inline constexpr int kWrapRepeat = 10497;
inline constexpr int kWrapClampToEdge = 33071;
inline constexpr int kWrapMirroredRepeat = 33648;

struct TextureSampler {
  int mag_filter = -1;  // 9728 NEAREST, 9729 LINEAR, -1 unspecified
  int min_filter = -1;  // 9728, 9729, 9984..9987 (mipmapped), -1 unspecified
  int wrap_s = kWrapRepeat;
  int wrap_t = kWrapRepeat;
};

// KHR_texture_transform: uv' = T(offset) · R(rotation) · S(scale) · uv, as the extension defines
// it (rotation in radians, counter-clockwise in UV space).
struct TextureTransform {
  glm::vec2 offset{0.0f};
  float rotation = 0.0f;
  glm::vec2 scale{1.0f};
  int texcoord = -1;  // the extension's texCoord override, -1 when it has none
};

// One texture slot of a material (textureInfo): which texture and picture, how it is sampled and
// which TEXCOORD_n set addresses it.
struct TextureRef {
  int texture = -1;  // glTF texture index, -1 when the slot is empty
  int image = -1;    // index into Model::images, -1 when empty or the picture is in an extension
                     // we do not decode (KTX2, WebP)
  int texcoord = 0;  // TEXCOORD_n set (before any transform override)
  TextureSampler sampler;
  bool has_transform = false;
  TextureTransform transform;

  bool present() const { return texture >= 0; }
  // The set actually addressed: the transform's override when it has one.
  int effective_texcoord() const {
    return has_transform && transform.texcoord >= 0 ? transform.texcoord : texcoord;
  }
};

enum class AlphaMode : uint8_t { Opaque, Mask, Blend };

// The whole glTF 2.0 material, defaults as the spec gives them. The viewer's look shades the base
// colour alone; the reference shading (render/materials.h) reads all of it.
struct Material {
  std::string name;
  glm::vec4 base_color_factor{1.0f};
  TextureRef base_color;
  float metallic_factor = 1.0f;
  float roughness_factor = 1.0f;
  TextureRef metallic_roughness;  // roughness in G, metalness in B
  TextureRef normal;
  float normal_scale = 1.0f;
  TextureRef occlusion;  // R
  float occlusion_strength = 1.0f;
  glm::vec3 emissive_factor{0.0f};
  TextureRef emissive;
  float emissive_strength = 1.0f;  // KHR_materials_emissive_strength
  AlphaMode alpha_mode = AlphaMode::Opaque;
  float alpha_cutoff = 0.5f;  // used by AlphaMode::Mask
  bool double_sided = false;
  bool unlit = false;  // KHR_materials_unlit
  // KHR_materials_ior: the dielectric's F0 is ((ior − 1) / (ior + 1))²; 1.5 gives glTF's 0.04.
  // The file's 0 (the extension's "infinitely reflective") is stored as 1000, as three.js does.
  float ior = 1.5f;
  // KHR_materials_specular: the dielectric F0 is scaled by specular_color (× the sRGB
  // specular_color texture) and, with F90, by specular (× the specular texture's alpha).
  float specular_factor = 1.0f;
  glm::vec3 specular_color_factor{1.0f};
  TextureRef specular;        // A
  TextureRef specular_color;  // RGB, sRGB
};

enum class Interpolation : uint8_t { Step, Linear, CubicSpline };
enum class TargetPath : uint8_t { Translation, Rotation, Scale, Weights };

struct Channel {
  int node = -1;
  TargetPath path = TargetPath::Translation;
  Interpolation interpolation = Interpolation::Linear;
  uint32_t components = 3;   // 3 (T, S), 4 (R: x, y, z, w), or the node's morph target count
  std::vector<float> times;  // strictly increasing seconds
  // times.size() elements of `components` floats; CUBICSPLINE stores three elements per key:
  // in-tangent, value, out-tangent (the spec's layout).
  std::vector<float> values;
};

// Material properties a KHR_animation_pointer channel can animate. The texture-transform ones
// name a texture slot too (MaterialChannel::slot).
enum class MaterialProperty : uint8_t {
  BaseColorFactor,      // 4
  MetallicFactor,       // 1
  RoughnessFactor,      // 1
  EmissiveFactor,       // 3
  EmissiveStrength,     // 1, KHR_materials_emissive_strength
  AlphaCutoff,          // 1
  NormalScale,          // 1
  OcclusionStrength,    // 1
  Ior,                  // 1, KHR_materials_ior
  SpecularFactor,       // 1, KHR_materials_specular
  SpecularColorFactor,  // 3, KHR_materials_specular
  TextureOffset,        // 2, KHR_texture_transform
  TextureRotation,      // 1
  TextureScale,         // 2
};

// A material's texture slots, in the renderer's order (render/materials.h GpuMaterial).
enum class TextureSlot : uint8_t {
  BaseColor,
  MetallicRoughness,
  Occlusion,
  Emissive,
  Normal,
  Specular,       // KHR_materials_specular specularTexture
  SpecularColor,  // KHR_materials_specular specularColorTexture
};
inline constexpr size_t kTextureSlotCount = 7;

// The material's texture of each slot, in TextureSlot order: the one table every per-slot loop
// (material pose, GPU materials) reads.
inline std::array<const TextureRef*, kTextureSlotCount> texture_slots(const Material& m) {
  return {&m.base_color, &m.metallic_roughness, &m.occlusion,     &m.emissive,
          &m.normal,     &m.specular,           &m.specular_color};
}

// A KHR_animation_pointer channel on a material property. The keys are a Channel's (its node and
// path unused: path Translation, so no value is treated as a rotation); `components` is the
// property's float count.
struct MaterialChannel {
  int material = -1;
  MaterialProperty property = MaterialProperty::BaseColorFactor;
  TextureSlot slot = TextureSlot::BaseColor;  // the texture-transform properties only
  std::string pointer;                        // the file's JSON pointer, for reports
  Channel keys;
};

struct Clip {
  std::string name;    // the file's name, empty when it has none
  float start = 0.0f;  // first key time over all channels (seconds on the file's timeline)
  float end = 0.0f;    // last key time over all channels
  std::vector<Channel> channels;
  // KHR_animation_pointer channels on materials (node TRS and morph weight pointers are plain
  // `channels`, as if the file had used the core targets).
  std::vector<MaterialChannel> material_channels;
  std::vector<std::string> interpolations;  // distinct sampler modes used, for reports
};

// One drawn primitive, in scene order (depth first from the scene roots, children in file order).
struct DrawItem {
  int node = -1;
  int mesh = -1;
  int primitive = -1;
  int skin = -1;  // skin used to deform it, -1 when rigid (then the node's world matrix applies)
};

struct ImportWarning {
  std::string code;     // stable identifier, e.g. WEIGHTS_NOT_NORMALIZED
  std::string message;  // what and where
  uint64_t count = 0;   // how many items it applies to
};

struct Model {
  std::string file;
  std::vector<Node> nodes;       // indexed by glTF node index
  std::vector<int> node_order;   // every node, parents before children
  std::vector<int> scene_roots;  // roots of the default scene
  std::vector<Mesh> meshes;
  std::vector<Skin> skins;
  std::vector<Material> materials;
  std::vector<Image> images;
  std::vector<Clip> clips;
  std::vector<DrawItem> draws;
  uint32_t morph_weight_count = 0;  // total morph weights over all nodes
  std::vector<float>
      rest_morph_weights;  // morph_weight_count: node.weights, else mesh.weights, else 0
  std::vector<ImportWarning> warnings;
};

}  // namespace rig
