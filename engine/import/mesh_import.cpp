// Meshes: vertex attributes, indices, skin influences (every JOINTS_n/WEIGHTS_n set) and morph
// targets, checked against the glTF 2.0 rules for each semantic (plus KHR_mesh_quantization).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "import/import_context.h"

namespace rig::import {
namespace {

// Formats allowed per semantic: glTF 2.0 "Meshes" table widened by KHR_mesh_quantization.
constexpr unsigned kPositionFormats =
    kFloat | kByte | kByteNorm | kUByte | kUByteNorm | kShort | kShortNorm | kUShort | kUShortNorm;
constexpr unsigned kNormalFormats = kFloat | kByteNorm | kShortNorm;
constexpr unsigned kTexcoordFormats = kPositionFormats;
constexpr unsigned kTangentFormats = kFloat | kByteNorm | kShortNorm;
constexpr unsigned kColorFormats = kFloat | kUByteNorm | kUShortNorm;
constexpr unsigned kMorphFormats = kFloat | kByte | kByteNorm | kShort | kShortNorm;
constexpr unsigned kWeightFormats = kFloat | kUByteNorm | kUShortNorm;
constexpr unsigned kJointFormats = kUByte | kUShort;
constexpr unsigned kIndexFormats = kUByte | kUShort | kUInt;

// Sum-of-weights tolerance before a vertex counts as "not normalized". 1e-3 agrees with the
// Khronos validator's ACCESSOR_WEIGHTS_NON_NORMALIZED count on the corpus (752 vertices in
// RobotExpressive); 2e-3 would miss 3 of them whose sums are off by 1.x e-3.
constexpr double kWeightSumTolerance = 1e-3;

std::string where(size_t mesh, size_t primitive) {
  return "mesh " + std::to_string(mesh) + " primitive " + std::to_string(primitive);
}

// Reads an attribute of `count` elements into glm vectors of N floats.
template <typename Vec>
bool read_vectors(ImportContext& context, int accessor, ElementType type, unsigned formats,
                  uint64_t expected_count, const std::string& what, std::vector<Vec>& out,
                  std::string& error) {
  std::vector<float> flat;
  if (!context.reader.read_floats(accessor, type, formats, flat, error)) {
    error = what + ": " + error;
    return false;
  }
  constexpr size_t kComponents = sizeof(Vec) / sizeof(float);
  const uint64_t count = flat.size() / kComponents;
  if (count != expected_count) {
    error = what + " has " + std::to_string(count) + " elements but POSITION has " +
            std::to_string(expected_count);
    return false;
  }
  out.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    for (size_t c = 0; c < kComponents; ++c)
      out[i][static_cast<int>(c)] = flat[i * kComponents + c];
  }
  return true;
}

// Area-weighted smooth normals: each triangle adds its unnormalized cross product (length =
// twice its area) to its three corners. Non-indexed triangles share no corners, so they come
// out flat. Vertices on no (or only degenerate) triangles get +Z.
void generate_normals(Primitive& primitive) {
  const uint32_t vertex_count = primitive.vertex_count();
  primitive.normals.assign(vertex_count, glm::vec3(0.0f));
  const bool indexed = !primitive.indices.empty();
  const uint64_t corner_count = indexed ? primitive.indices.size() : vertex_count;
  auto vertex_at = [&](uint64_t corner) {
    return indexed ? primitive.indices[corner] : static_cast<uint32_t>(corner);
  };
  auto add_triangle = [&](uint32_t a, uint32_t b, uint32_t c) {
    const glm::vec3 face = glm::cross(primitive.positions[b] - primitive.positions[a],
                                      primitive.positions[c] - primitive.positions[a]);
    if (!std::isfinite(face.x) || !std::isfinite(face.y) || !std::isfinite(face.z)) return;
    primitive.normals[a] += face;
    primitive.normals[b] += face;
    primitive.normals[c] += face;
  };
  switch (primitive.mode) {
    case PrimitiveMode::Triangles:
      for (uint64_t k = 0; k + 2 < corner_count; k += 3) {
        add_triangle(vertex_at(k), vertex_at(k + 1), vertex_at(k + 2));
      }
      break;
    case PrimitiveMode::TriangleStrip:  // every other triangle flips to keep the winding
      for (uint64_t k = 0; k + 2 < corner_count; ++k) {
        if (k % 2 == 0)
          add_triangle(vertex_at(k), vertex_at(k + 1), vertex_at(k + 2));
        else
          add_triangle(vertex_at(k + 1), vertex_at(k), vertex_at(k + 2));
      }
      break;
    case PrimitiveMode::TriangleFan:
      for (uint64_t k = 1; k + 1 < corner_count; ++k) {
        add_triangle(vertex_at(0), vertex_at(k), vertex_at(k + 1));
      }
      break;
    default:  // points and lines have no surface
      break;
  }
  for (glm::vec3& normal : primitive.normals) {
    const float length = glm::length(normal);
    normal = length > 0.0f && std::isfinite(length) ? normal / length : glm::vec3(0, 0, 1);
  }
  primitive.normals_generated = true;
}

// Highest n over JOINTS_n / WEIGHTS_n attributes, -1 when the primitive has neither.
int highest_influence_set(const tinygltf::Primitive& source) {
  int highest = -1;
  for (const auto& [name, accessor] : source.attributes) {
    for (const char* prefix : {"JOINTS_", "WEIGHTS_"}) {
      const std::string p(prefix);
      if (name.size() > p.size() && name.compare(0, p.size(), p) == 0 &&
          name.find_first_not_of("0123456789", p.size()) == std::string::npos &&
          name.size() - p.size() <= 4) {
        highest = std::max(highest, std::atoi(name.c_str() + p.size()));
      }
    }
  }
  return highest;
}

int attribute(const tinygltf::Primitive& source, const std::string& name) {
  auto it = source.attributes.find(name);
  return it == source.attributes.end() ? -1 : it->second;
}

// JOINTS_n / WEIGHTS_n with n up to 9999 would mean 40,000 influences per vertex: checked
// before anything of the primitive is read.
bool check_influence_sets(const ImportContext& context, const tinygltf::Primitive& source,
                          const std::string& at, std::string& error) {
  const int highest = highest_influence_set(source);
  const uint64_t sets = highest < 0 ? 0 : static_cast<uint64_t>(highest) + 1;
  if (sets > context.limits.max_influence_sets) {
    error = at + " has JOINTS_" + std::to_string(highest) + "/WEIGHTS_" + std::to_string(highest) +
            ": " + std::to_string(sets) + " influence sets, too many (limit " +
            std::to_string(context.limits.max_influence_sets) + ")";
    return false;
  }
  return true;
}

struct InfluenceCounts {
  uint64_t not_normalized = 0;
  uint64_t all_zero = 0;
  uint64_t zero_weight_joints = 0;
  uint64_t over_gpu_limit = 0;
  std::string first_not_normalized;  // where, for the warning message
};

bool import_influences(ImportContext& context, const tinygltf::Primitive& source,
                       const std::string& at, Primitive& primitive, InfluenceCounts& counts,
                       std::string& error) {
  const int highest = highest_influence_set(source);
  if (highest < 0) return true;
  const uint32_t sets = static_cast<uint32_t>(highest) + 1;
  if (!check_influence_sets(context, source, at, error)) return false;
  const uint64_t vertex_count = primitive.vertex_count();
  if (!context.budget.charge(vertex_count * 4 * sets * (sizeof(uint16_t) + sizeof(float)),
                             at + " skin influences", error)) {
    return false;
  }
  primitive.influences = 4 * sets;
  primitive.joints.assign(vertex_count * primitive.influences, 0);
  primitive.weights.assign(vertex_count * primitive.influences, 0.0f);

  for (uint32_t set = 0; set < sets; ++set) {
    const std::string joints_name = "JOINTS_" + std::to_string(set);
    const std::string weights_name = "WEIGHTS_" + std::to_string(set);
    const int joints_accessor = attribute(source, joints_name);
    const int weights_accessor = attribute(source, weights_name);
    if (joints_accessor < 0 || weights_accessor < 0) {
      error = at + " has " + (joints_accessor < 0 ? weights_name : joints_name) + " without " +
              (joints_accessor < 0 ? joints_name : weights_name) +
              " (JOINTS_n and WEIGHTS_n come in pairs, n = 0, 1, ...)";
      return false;
    }
    // UNSIGNED_INT joints are outside the spec but some exporters write them; tolerate them
    // when every value fits the 16-bit joint indices the spec allows.
    const bool uint_joints =
        context.reader.component_type(joints_accessor) == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    std::vector<uint32_t> joints;
    if (!context.reader.read_uints(joints_accessor, ElementType::Vec4,
                                   uint_joints ? kUInt : kJointFormats, joints, error)) {
      error = at + " " + joints_name + ": " + error;
      return false;
    }
    std::vector<float> weights;
    if (!context.reader.read_floats(weights_accessor, ElementType::Vec4, kWeightFormats, weights,
                                    error)) {
      error = at + " " + weights_name + ": " + error;
      return false;
    }
    for (const auto& [name, size] :
         {std::pair{joints_name, joints.size()}, std::pair{weights_name, weights.size()}}) {
      if (size / 4 != vertex_count) {
        error = at + ": " + name + " has " + std::to_string(size / 4) +
                " elements but POSITION has " + std::to_string(vertex_count);
        return false;
      }
    }
    if (uint_joints) {
      for (uint64_t i = 0; i < joints.size(); ++i) {
        if (joints[i] > 0xFFFF) {
          error = at + ": " + joints_name + " vertex " + std::to_string(i / 4) + " uses joint " +
                  std::to_string(joints[i]) + " (UNSIGNED_INT joints are not allowed by glTF)";
          return false;
        }
      }
      context.warnings.add("JOINTS_COMPONENT_TYPE_INVALID", 1,
                           at + " " + joints_name +
                               " uses UNSIGNED_INT components (glTF allows UNSIGNED_BYTE or "
                               "UNSIGNED_SHORT); read as 16-bit joint indices");
    }
    for (uint64_t v = 0; v < vertex_count; ++v) {
      for (uint32_t c = 0; c < 4; ++c) {
        const float weight = weights[v * 4 + c];
        if (!std::isfinite(weight) || weight < 0.0f) {
          error = at + ": " + weights_name + " vertex " + std::to_string(v) + " has weight " +
                  number_text(weight) + " (weights must be finite and >= 0)";
          return false;
        }
        const uint64_t slot = v * primitive.influences + set * 4 + c;
        primitive.joints[slot] = static_cast<uint16_t>(joints[v * 4 + c]);
        primitive.weights[slot] = weight;
      }
    }
  }

  // Per vertex: renormalize to sum 1 and count what needed repair; the sums are kept when one
  // was not exactly 1.
  std::vector<float> sums(vertex_count, 0.0f);
  bool all_one = true;
  for (uint64_t v = 0; v < vertex_count; ++v) {
    float* weights = primitive.weights.data() + v * primitive.influences;
    const uint16_t* joints = primitive.joints.data() + v * primitive.influences;
    double sum = 0.0;
    uint32_t non_zero = 0;
    for (uint32_t i = 0; i < primitive.influences; ++i) {
      sum += weights[i];
      if (weights[i] > 0.0f)
        ++non_zero;
      else if (joints[i] != 0)
        ++counts.zero_weight_joints;
    }
    if (non_zero > kMaxInfluences) ++counts.over_gpu_limit;
    sums[v] = static_cast<float>(sum);
    all_one = all_one && sum == 1.0;
    if (sum == 0.0) {
      ++counts.all_zero;
      continue;
    }
    if (std::abs(sum - 1.0) > kWeightSumTolerance) {
      if (counts.not_normalized++ == 0 && counts.first_not_normalized.empty()) {
        counts.first_not_normalized = at + " vertex " + std::to_string(v);
      }
    }
    for (uint32_t i = 0; i < primitive.influences; ++i) {
      weights[i] = static_cast<float>(weights[i] / sum);
    }
  }
  if (!all_one) {
    if (!context.budget.charge(vertex_count * sizeof(float), at + " weight sums", error))
      return false;
    primitive.weight_sums = std::move(sums);
  }
  return true;
}

bool import_targets(ImportContext& context, const tinygltf::Primitive& source,
                    const std::string& at, Primitive& primitive, std::string& error) {
  const uint64_t vertex_count = primitive.vertex_count();
  primitive.targets.resize(source.targets.size());
  for (size_t t = 0; t < source.targets.size(); ++t) {
    const std::string target = at + " target " + std::to_string(t);
    for (const auto& [name, accessor] : source.targets[t]) {
      std::vector<glm::vec3>* destination = nullptr;
      if (name == "POSITION") destination = &primitive.targets[t].positions;
      if (name == "NORMAL") destination = &primitive.targets[t].normals;
      if (name == "TANGENT") destination = &primitive.targets[t].tangents;
      if (!destination) continue;  // custom attributes are not used
      if (!read_vectors(context, accessor, ElementType::Vec3, kMorphFormats, vertex_count,
                        target + " " + name, *destination, error)) {
        return false;
      }
    }
  }
  return true;
}

// COLOR_0: VEC3 or VEC4, float or normalized unsigned byte/short (read as c/255, c/65535);
// VEC3 gets alpha 1. A bad one fails the import, as a bad NORMAL does.
bool import_colors(ImportContext& context, const tinygltf::Primitive& source, const std::string& at,
                   uint64_t vertex_count, Primitive& primitive, std::string& error) {
  const int color = attribute(source, "COLOR_0");
  if (color < 0) return true;
  uint64_t count = 0;
  if (!context.reader.element_count(color, count, error)) {
    error = at + " COLOR_0: " + error;
    return false;
  }
  if (context.document.accessors[static_cast<size_t>(color)].type == TINYGLTF_TYPE_VEC3) {
    std::vector<glm::vec3> rgb;
    if (!read_vectors(context, color, ElementType::Vec3, kColorFormats, vertex_count,
                      at + " COLOR_0", rgb, error)) {
      return false;
    }
    primitive.colors0.resize(rgb.size());
    for (size_t v = 0; v < rgb.size(); ++v) primitive.colors0[v] = glm::vec4(rgb[v], 1.0f);
    return true;
  }
  return read_vectors(context, color, ElementType::Vec4, kColorFormats, vertex_count,
                      at + " COLOR_0", primitive.colors0, error);
}

// TANGENT: VEC4 (w the handedness), float or (KHR_mesh_quantization) normalized byte/short.
// Only normal mapping would read it, so a wrong type or count costs a warning and the attribute
// is dropped rather than failing a file whose geometry and animation are fine; an accessor
// that does not exist or reads outside its buffer is an error, as for every attribute.
bool import_tangents(ImportContext& context, const tinygltf::Primitive& source,
                     const std::string& at, uint64_t vertex_count, Primitive& primitive,
                     std::string& error) {
  const int tangent = attribute(source, "TANGENT");
  if (tangent < 0) return true;
  uint64_t count = 0;
  if (!context.reader.element_count(tangent, count, error)) {
    error = at + " TANGENT: " + error;
    return false;
  }
  const tinygltf::Accessor& accessor = context.document.accessors[static_cast<size_t>(tangent)];
  const int component = accessor.componentType;
  const bool format = accessor.normalized ? component == TINYGLTF_COMPONENT_TYPE_BYTE ||
                                                component == TINYGLTF_COMPONENT_TYPE_SHORT
                                          : component == TINYGLTF_COMPONENT_TYPE_FLOAT;
  std::string problem;
  if (accessor.type != TINYGLTF_TYPE_VEC4 || !format) {
    problem = " is not VEC4 of floats or normalized bytes or shorts";
  } else if (count != vertex_count) {
    problem = " has " + std::to_string(count) + " elements but POSITION has " +
              std::to_string(vertex_count);
  }
  if (!problem.empty()) {
    context.warnings.add("TANGENT_INVALID", 1, at + " TANGENT" + problem + " (ignored)");
    return true;
  }
  return read_vectors(context, tangent, ElementType::Vec4, kTangentFormats, vertex_count,
                      at + " TANGENT", primitive.tangents, error);
}

bool import_primitive(ImportContext& context, const tinygltf::Primitive& source,
                      const std::string& at, Primitive& primitive, InfluenceCounts& counts,
                      std::string& error) {
  const int mode = source.mode < 0 ? TINYGLTF_MODE_TRIANGLES : source.mode;
  if (mode > TINYGLTF_MODE_TRIANGLE_FAN) {
    error = at + " has mode " + std::to_string(mode) + " (glTF modes are 0 to 6)";
    return false;
  }
  primitive.mode = static_cast<PrimitiveMode>(mode);
  if (source.material >= 0 &&
      static_cast<size_t>(source.material) >= context.document.materials.size()) {
    error = at + " uses material " + std::to_string(source.material) +
            does_not_exist(context.document.materials.size());
    return false;
  }
  primitive.material = source.material;

  if (!check_influence_sets(context, source, at, error)) return false;
  const int position = attribute(source, "POSITION");
  if (position < 0) {
    error = at + " has no POSITION attribute";
    return false;
  }
  uint64_t vertex_count = 0;
  if (!context.reader.element_count(position, vertex_count, error)) {
    error = at + " POSITION: " + error;
    return false;
  }
  if (vertex_count > context.limits.max_primitive_vertices) {
    error = at + " has " + std::to_string(vertex_count) + " vertices, too many (limit " +
            std::to_string(context.limits.max_primitive_vertices) + " per primitive)";
    return false;
  }
  context.total_vertices += vertex_count;
  if (context.total_vertices > context.limits.max_total_vertices) {
    error = at + " brings the model to " + std::to_string(context.total_vertices) +
            " vertices, too many (limit " + std::to_string(context.limits.max_total_vertices) +
            " per model)";
    return false;
  }
  if (!read_vectors(context, position, ElementType::Vec3, kPositionFormats, vertex_count,
                    at + " POSITION", primitive.positions, error)) {
    return false;
  }
  if (const int normal = attribute(source, "NORMAL"); normal >= 0) {
    if (!read_vectors(context, normal, ElementType::Vec3, kNormalFormats, vertex_count,
                      at + " NORMAL", primitive.normals, error)) {
      return false;
    }
  }
  if (const int texcoord = attribute(source, "TEXCOORD_0"); texcoord >= 0) {
    if (!read_vectors(context, texcoord, ElementType::Vec2, kTexcoordFormats, vertex_count,
                      at + " TEXCOORD_0", primitive.texcoords0, error)) {
      return false;
    }
  }
  if (const int texcoord = attribute(source, "TEXCOORD_1"); texcoord >= 0) {
    if (!read_vectors(context, texcoord, ElementType::Vec2, kTexcoordFormats, vertex_count,
                      at + " TEXCOORD_1", primitive.texcoords1, error)) {
      return false;
    }
  }
  if (!import_colors(context, source, at, vertex_count, primitive, error)) return false;
  if (!import_tangents(context, source, at, vertex_count, primitive, error)) return false;
  if (source.indices >= 0) {
    if (!context.reader.read_uints(source.indices, ElementType::Scalar, kIndexFormats,
                                   primitive.indices, error)) {
      error = at + " indices: " + error;
      return false;
    }
    for (size_t i = 0; i < primitive.indices.size(); ++i) {
      if (primitive.indices[i] >= vertex_count) {
        error = at + ": index " + std::to_string(i) + " is " +
                std::to_string(primitive.indices[i]) + " but the primitive has " +
                std::to_string(vertex_count) + " vertices";
        return false;
      }
    }
  }
  if (primitive.normals.empty()) {
    if (!context.budget.charge(vertex_count * sizeof(glm::vec3), at + " generated normals",
                               error)) {
      return false;
    }
    generate_normals(primitive);
  }
  if (!import_influences(context, source, at, primitive, counts, error)) return false;
  return import_targets(context, source, at, primitive, error);
}

}  // namespace

bool import_meshes(ImportContext& context, std::string& error) {
  const auto& meshes = context.document.meshes;
  context.model.meshes.resize(meshes.size());
  InfluenceCounts counts;
  for (size_t m = 0; m < meshes.size(); ++m) {
    const tinygltf::Mesh& source = meshes[m];
    Mesh& mesh = context.model.meshes[m];
    mesh.name = source.name;
    mesh.primitives.resize(source.primitives.size());
    for (size_t p = 0; p < source.primitives.size(); ++p) {
      if (!import_primitive(context, source.primitives[p], where(m, p), mesh.primitives[p], counts,
                            error)) {
        return false;
      }
      // The spec requires the same number of targets in every primitive of a mesh.
      if (mesh.primitives[p].targets.size() != mesh.primitives[0].targets.size()) {
        error = "mesh " + std::to_string(m) + ": primitive " + std::to_string(p) + " has " +
                std::to_string(mesh.primitives[p].targets.size()) +
                " morph targets but primitive 0 has " +
                std::to_string(mesh.primitives[0].targets.size());
        return false;
      }
    }
    const size_t target_count = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
    mesh.default_weights.assign(target_count, 0.0f);
    for (size_t t = 0; t < std::min(target_count, source.weights.size()); ++t) {
      mesh.default_weights[t] = static_cast<float>(source.weights[t]);
    }
    if (!source.weights.empty() && source.weights.size() != target_count) {
      context.warnings.add("MORPH_WEIGHTS_COUNT", 1,
                           "mesh " + std::to_string(m) + " has " +
                               std::to_string(source.weights.size()) + " weights for " +
                               std::to_string(target_count) + " morph targets");
    }
  }
  context.warnings.add("WEIGHTS_NOT_NORMALIZED", counts.not_normalized,
                       "vertices whose skin weights did not sum to 1 were renormalized (first: " +
                           counts.first_not_normalized + ")");
  context.warnings.add("WEIGHTS_ALL_ZERO", counts.all_zero,
                       "vertices have skin weights that are all 0 (left at 0)");
  context.warnings.add("JOINTS_ZERO_WEIGHT", counts.zero_weight_joints,
                       "influences have weight 0 but a joint index other than 0");
  context.warnings.add("INFLUENCES_OVER_8", counts.over_gpu_limit,
                       "vertices have more than 8 non-zero influences (the GPU keeps the 8 "
                       "largest)");
  return true;
}

}  // namespace rig::import
