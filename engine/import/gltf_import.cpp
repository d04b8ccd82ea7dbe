// import_gltf: runs the import stages in dependency order and owns the small ones (extensions,
// node hierarchy, morph weight layout, images, scene roots, draw list).
#include "import/gltf_import.h"

#include <cmath>

#include "import/gltf_file.h"
#include "import/import_context.h"
#include "import/meshopt_decode.h"

namespace rig {
namespace {

using import::does_not_exist;
using import::ImportContext;

// Extensions a file may require that we handle (quantization goes through the generic accessor
// reader) or can ignore without drawing something wrong enough to matter for a rig viewer.
bool extension_supported(const std::string& name) {
  return name == "KHR_mesh_quantization" || name == "EXT_meshopt_compression" ||
         name == "KHR_texture_transform" || name == "KHR_animation_pointer" ||
         name == "KHR_lights_punctual" || name.rfind("KHR_materials_", 0) == 0;
}

// Required extensions that only change how a texture's picture is stored (KTX2/Basis, WebP,
// AVIF, DDS). We cannot decode those pictures, but the geometry and animation, which is what a
// rig viewer shows, are unaffected: load the file and draw those materials untextured.
bool texture_format_extension(const std::string& name) {
  return name == "KHR_texture_basisu" || name == "EXT_texture_webp" || name == "EXT_texture_avif" ||
         name == "MSFT_texture_dds";
}

bool check_required_extensions(ImportContext& context, std::string& error) {
  for (const std::string& name : context.document.extensionsRequired) {
    // Its pictures are reported once, image by image, as KTX2_NOT_DECODED (import_images).
    if (name == "KHR_texture_basisu") continue;
    if (texture_format_extension(name)) {
      context.warnings.add(
          "EXTENSION_IGNORED", 1,
          "the file requires " + name + ", whose textures are not decoded (drawn untextured)");
      continue;
    }
    if (!extension_supported(name)) {
      error = "the file requires extension " + name + ", which is not supported";
      return false;
    }
  }
  return true;
}

bool all_finite(const std::vector<double>& values) {
  for (double v : values) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

// TRS from a column-major matrix (translation, column lengths as scale, the rest as rotation).
// Shear is lost here; import_node_transform keeps it as Node::shear.
Transform decompose(const glm::mat4& matrix) {
  Transform transform;
  transform.translation = glm::vec3(matrix[3]);
  glm::vec3 columns[3] = {glm::vec3(matrix[0]), glm::vec3(matrix[1]), glm::vec3(matrix[2])};
  glm::vec3 scale(glm::length(columns[0]), glm::length(columns[1]), glm::length(columns[2]));
  if (glm::determinant(glm::mat3(matrix)) < 0.0f) scale.x = -scale.x;  // a mirror: flip one axis
  transform.scale = scale;
  if (scale.x == 0.0f || scale.y == 0.0f || scale.z == 0.0f) return transform;  // no rotation
  const glm::mat3 rotation(columns[0] / scale.x, columns[1] / scale.y, columns[2] / scale.z);
  transform.rotation = glm::normalize(glm::quat_cast(rotation));
  return transform;
}

bool import_node_transform(ImportContext& context, const tinygltf::Node& source,
                           const std::string& at, Node& node, std::string& error) {
  auto check = [&](const std::vector<double>& values, size_t size, const char* name) {
    if (!values.empty() && values.size() != size) {
      error = at + " has a " + name + " of " + std::to_string(values.size()) +
              " numbers, expected " + std::to_string(size);
      return false;
    }
    if (!all_finite(values)) {
      error = at + " has a " + name + " that is not finite";
      return false;
    }
    return true;
  };
  if (!check(source.translation, 3, "translation") || !check(source.rotation, 4, "rotation") ||
      !check(source.scale, 3, "scale") || !check(source.matrix, 16, "matrix")) {
    return false;
  }
  if (source.matrix.size() == 16) {
    node.from_matrix = true;
    glm::mat4 matrix(1.0f);
    for (int k = 0; k < 16; ++k)
      matrix[k / 4][k % 4] = static_cast<float>(source.matrix[static_cast<size_t>(k)]);
    node.rest = decompose(matrix);
    // What TRS leaves out of the matrix. For a decomposable matrix (as the spec requires) this
    // is the identity up to rounding, and the node is plain TRS.
    const glm::mat4 trs = trs_matrix(node.rest);
    const glm::mat4 shear = glm::inverse(trs) * matrix;
    float off_identity = 0.0f;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        off_identity = std::max(off_identity, std::abs(shear[c][r] - (c == r ? 1.0f : 0.0f)));
    if (!(off_identity <= 1e-5f)) {
      node.has_shear = true;
      node.shear = shear;
    }
    return true;
  }
  if (source.translation.size() == 3) {
    node.rest.translation =
        glm::vec3(source.translation[0], source.translation[1], source.translation[2]);
  }
  if (source.scale.size() == 3) {
    node.rest.scale = glm::vec3(source.scale[0], source.scale[1], source.scale[2]);
  }
  if (source.rotation.size() ==
      4) {  // glTF stores x, y, z, w; glm::quat's constructor is w, x, y, z
    glm::quat q(static_cast<float>(source.rotation[3]), static_cast<float>(source.rotation[0]),
                static_cast<float>(source.rotation[1]), static_cast<float>(source.rotation[2]));
    const float length = glm::length(q);
    if (std::abs(length - 1.0f) > 1e-3f) {
      context.warnings.add("NODE_ROTATION_NOT_NORMALIZED", 1,
                           at + " has a rotation that is not unit length (normalized)");
      q = length > 0.0f ? q / length : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    }
    node.rest.rotation = q;
  }
  return true;
}

bool import_nodes(ImportContext& context, std::string& error) {
  const tinygltf::Model& document = context.document;
  Model& model = context.model;
  const size_t count = document.nodes.size();
  model.nodes.resize(count);
  for (size_t n = 0; n < count; ++n) {
    const tinygltf::Node& source = document.nodes[n];
    Node& node = model.nodes[n];
    const std::string at = "node " + std::to_string(n);
    node.name = source.name;
    if (source.mesh >= 0 && static_cast<size_t>(source.mesh) >= document.meshes.size()) {
      error =
          at + " uses mesh " + std::to_string(source.mesh) + does_not_exist(document.meshes.size());
      return false;
    }
    if (source.skin >= 0 && static_cast<size_t>(source.skin) >= document.skins.size()) {
      error =
          at + " uses skin " + std::to_string(source.skin) + does_not_exist(document.skins.size());
      return false;
    }
    node.mesh = source.mesh;
    node.skin = source.skin;
    if (!import_node_transform(context, source, at, node, error)) return false;
    node.children = source.children;
  }
  for (size_t n = 0; n < count; ++n) {
    for (int child : model.nodes[n].children) {
      if (child < 0 || static_cast<size_t>(child) >= count) {
        error = "node " + std::to_string(n) + " has child " + std::to_string(child) +
                does_not_exist(count, " nodes");
        return false;
      }
      Node& child_node = model.nodes[static_cast<size_t>(child)];
      if (child_node.parent >= 0) {
        error = "node " + std::to_string(child) + " has two parents (nodes " +
                std::to_string(child_node.parent) + " and " + std::to_string(n) + ")";
        return false;
      }
      child_node.parent = static_cast<int>(n);
    }
  }
  // Depth first from every parentless node: parents come before children. Nodes left over sit
  // on a cycle (every node has at most one parent, so a component without a root is a loop).
  model.node_order.clear();
  model.node_order.reserve(count);
  std::vector<int> stack;
  for (size_t root = 0; root < count; ++root) {
    if (model.nodes[root].parent >= 0) continue;
    stack.push_back(static_cast<int>(root));
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      model.node_order.push_back(n);
      const std::vector<int>& children = model.nodes[static_cast<size_t>(n)].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
    }
  }
  if (model.node_order.size() != count) {
    std::vector<bool> placed(count, false);
    for (int n : model.node_order) placed[static_cast<size_t>(n)] = true;
    size_t n = 0;
    while (placed[n]) ++n;
    // Walking up `count` parents from a node outside every tree lands on the loop itself.
    for (size_t step = 0; step < count; ++step) n = static_cast<size_t>(model.nodes[n].parent);
    error = "the node hierarchy has a cycle (node " + std::to_string(n) + " is its own ancestor)";
    return false;
  }
  return true;
}

// Morph weight slots: one run per node whose mesh has targets, in node index order.
void assign_morph_weights(ImportContext& context) {
  Model& model = context.model;
  model.morph_weight_count = 0;
  model.rest_morph_weights.clear();
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    Node& node = model.nodes[n];
    if (node.mesh < 0) continue;
    const Mesh& mesh = model.meshes[static_cast<size_t>(node.mesh)];
    const uint32_t targets = static_cast<uint32_t>(mesh.default_weights.size());
    if (targets == 0) continue;
    node.morph_offset = model.morph_weight_count;
    node.morph_count = targets;
    model.morph_weight_count += targets;
    const std::vector<double>& node_weights = context.document.nodes[n].weights;
    for (uint32_t t = 0; t < targets; ++t) {
      model.rest_morph_weights.push_back(node_weights.empty() ? mesh.default_weights[t]
                                         : t < node_weights.size()
                                             ? static_cast<float>(node_weights[t])
                                             : 0.0f);
    }
    if (!node_weights.empty() && node_weights.size() != targets) {
      context.warnings.add("MORPH_WEIGHTS_COUNT", 1,
                           "node " + std::to_string(n) + " has " +
                               std::to_string(node_weights.size()) + " weights for " +
                               std::to_string(targets) + " morph targets");
    }
  }
}

// Images a texture's KHR_texture_basisu names as its `source`: KTX2 pictures, whatever their
// bytes or mimeType (a missing .ktx2 file too).
std::vector<bool> basisu_images(const tinygltf::Model& document) {
  std::vector<bool> ktx2(document.images.size(), false);
  for (const tinygltf::Texture& texture : document.textures) {
    const auto it = texture.extensions.find("KHR_texture_basisu");
    if (it == texture.extensions.end() || !it->second.IsObject() || !it->second.Has("source")) {
      continue;
    }
    const tinygltf::Value& source = it->second.Get("source");
    if (source.IsInt() && source.GetNumberAsInt() >= 0 &&
        static_cast<size_t>(source.GetNumberAsInt()) < ktx2.size()) {
      ktx2[static_cast<size_t>(source.GetNumberAsInt())] = true;
    }
  }
  return ktx2;
}

bool import_images(ImportContext& context, import::GltfSource& source, std::string& error) {
  const tinygltf::Model& document = context.document;
  context.model.images.resize(document.images.size());
  uint64_t image_bytes = source.image_bytes;  // URI images, decoded while parsing
  const std::vector<bool> ktx2 = basisu_images(document);
  for (size_t i = 0; i < document.images.size(); ++i) {
    const tinygltf::Image& image_source = document.images[i];
    Image& image = context.model.images[i];
    const std::string at = "image " + std::to_string(i);
    image.name = image_source.name;
    import::DecodedImage decoded;
    if (ktx2[i] || image_source.mimeType == "image/ktx2") {
      decoded.warning_code = import::kKtx2NotDecoded;
      decoded.warning = import::kKtx2Warning;
    } else if (image_source.bufferView >= 0) {
      const uint8_t* bytes = nullptr;
      uint64_t length = 0;
      if (!import::buffer_view_bytes(document, image_source.bufferView, bytes, length, error)) {
        error = at + ": " + error;
        return false;
      }
      const uint64_t total = context.limits.max_total_image_bytes;
      decoded = import::decode_image(bytes, length, image_source.mimeType,
                                     context.limits.max_image_pixels,
                                     image_bytes < total ? total - image_bytes : 0);
      image_bytes += decoded.rgba.size();
    } else if (auto it = source.uri_images.find(static_cast<int>(i));
               it != source.uri_images.end()) {
      decoded = std::move(it->second);
    } else {
      decoded.warning_code = "IMAGE_DECODE_FAILED";
      decoded.warning = "cannot read '" + image_source.uri + "'";
    }
    if (!decoded.warning_code.empty()) {
      const bool ktx2_picture = decoded.warning_code == import::kKtx2NotDecoded;
      context.warnings.add(decoded.warning_code, 1,
                           at + (ktx2_picture ? " is " : ": ") + decoded.warning +
                               (ktx2_picture ? "" : " (drawn untextured)"));
      continue;
    }
    image.width = decoded.width;
    image.height = decoded.height;
    image.rgba = std::move(decoded.rgba);
  }
  return true;
}

bool import_scene(ImportContext& context, std::string& error) {
  const tinygltf::Model& document = context.document;
  Model& model = context.model;
  model.scene_roots.clear();
  if (document.scenes.empty()) {  // no scene: show everything
    for (size_t n = 0; n < model.nodes.size(); ++n) {
      if (model.nodes[n].parent < 0) model.scene_roots.push_back(static_cast<int>(n));
    }
    return true;
  }
  const int scene = document.defaultScene >= 0 ? document.defaultScene : 0;
  if (static_cast<size_t>(scene) >= document.scenes.size()) {
    error =
        "the default scene is " + std::to_string(scene) + does_not_exist(document.scenes.size());
    return false;
  }
  std::vector<bool> listed(model.nodes.size(), false);
  for (int n : document.scenes[static_cast<size_t>(scene)].nodes) {
    const std::string at = "scene " + std::to_string(scene);
    if (n < 0 || static_cast<size_t>(n) >= model.nodes.size()) {
      error =
          at + " lists node " + std::to_string(n) + does_not_exist(model.nodes.size(), " nodes");
      return false;
    }
    if (model.nodes[static_cast<size_t>(n)].parent >= 0) {
      error = at + " lists node " + std::to_string(n) +
              ", which is not a root (its parent is node " +
              std::to_string(model.nodes[static_cast<size_t>(n)].parent) + ")";
      return false;
    }
    if (listed[static_cast<size_t>(n)]) {
      error = at + " lists node " + std::to_string(n) + " twice";
      return false;
    }
    listed[static_cast<size_t>(n)] = true;
    model.scene_roots.push_back(n);
  }
  return true;
}

// Depth first from the scene roots, children in file order, primitives in mesh order.
void build_draws(Model& model) {
  model.draws.clear();
  std::vector<int> stack;
  for (int root : model.scene_roots) {
    stack.push_back(root);
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      const Node& node = model.nodes[static_cast<size_t>(n)];
      if (node.mesh >= 0) {
        const Mesh& mesh = model.meshes[static_cast<size_t>(node.mesh)];
        for (size_t p = 0; p < mesh.primitives.size(); ++p) {
          const bool skinned = node.skin >= 0 && mesh.primitives[p].skinned();
          model.draws.push_back({n, node.mesh, static_cast<int>(p), skinned ? node.skin : -1});
        }
      }
      for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
        stack.push_back(*it);
      }
    }
  }
}

bool run_import(import::GltfSource& source, const ImportOptions& options, Model& out,
                std::string& error) {
  const ImportLimits& limits = options.limits;
  const uint64_t per_byte = limits.decode_bytes_per_input_byte;
  const uint64_t scaled = source.input_bytes > ~uint64_t{0} / (per_byte ? per_byte : 1)
                              ? ~uint64_t{0}
                              : source.input_bytes * per_byte;
  const uint64_t budget = scaled > ~uint64_t{0} - limits.decode_fixed_bytes
                              ? ~uint64_t{0}
                              : scaled + limits.decode_fixed_bytes;
  ImportContext context(source.document, out, limits, budget);
  context.pointer_channels = &source.pointer_channels;
  context.warnings.add("BUFFER_FILE_LONGER", source.longer_buffer_files,
                       "buffer files are longer than their byteLength (the extra bytes are "
                       "ignored)");
  if (!check_required_extensions(context, error)) return false;
  // Compressed bufferViews become plain ones before any accessor is read.
  if (!import::decode_meshopt_buffer_views(source.document, source.meshopt_no_data, context.budget,
                                           error)) {
    return false;
  }
  // Order matters: each stage reads what the ones before it produced.
  if (!import_nodes(context, error)) return false;
  if (!import::import_meshes(context, error)) return false;
  assign_morph_weights(context);
  if (!import::import_skins(context, error)) return false;
  if (!import::check_skinned_joint_ranges(context, error)) return false;
  if (!import::import_animations(context, error)) return false;
  if (!import::import_materials(context, error)) return false;
  if (!import_images(context, source, error)) return false;
  if (!import_scene(context, error)) return false;
  build_draws(out);
  return true;
}

bool finish(bool ok, const std::string& name, Model& out, std::string& error) {
  if (!ok) {
    out = Model{};  // never hand out half a model
    out.file = name;
    error = import::one_line(error);
    return false;
  }
  return true;
}

}  // namespace

bool import_gltf(const std::string& path, Model& out, std::string& error) {
  return import_gltf(path, ImportOptions{}, out, error);
}

bool import_gltf(const std::string& path, const ImportOptions& options, Model& out,
                 std::string& error) {
  out = Model{};
  out.file = path;
  error.clear();
  import::GltfSource source;
  const bool ok = import::load_gltf_source(path, options, source, error) &&
                  run_import(source, options, out, error);
  return finish(ok, path, out, error);
}

bool import_gltf_from_memory(std::span<const uint8_t> bytes, const std::string& name,
                             const ImportOptions& options, Model& out, std::string& error) {
  out = Model{};
  out.file = name;
  error.clear();
  import::GltfSource source;
  const bool ok = import::load_gltf_source_from_memory(bytes, options, source, error) &&
                  run_import(source, options, out, error);
  return finish(ok, name, out, error);
}

}  // namespace rig
