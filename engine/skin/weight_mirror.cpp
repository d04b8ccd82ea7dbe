#include "skin/weight_mirror.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace rig {

namespace {

bool is_separator(char c) { return c == '_' || c == '.' || c == '-' || c == ':' || c == ' '; }

// `name` with every whole-word `from` replaced by `to` (a word: between separators or ends).
std::string replace_side_letter(std::string_view name, char from, char to) {
  std::string out(name);
  bool replaced = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] != from) continue;
    const bool start = i == 0 || is_separator(out[i - 1]);
    const bool end = i + 1 == out.size() || is_separator(out[i + 1]);
    // A lone letter with nothing around it is no side.
    if (start && end && out.size() > 1) {
      out[i] = to;
      replaced = true;
    }
  }
  return replaced ? out : std::string();
}

std::string replace_word(std::string_view name, std::string_view from, std::string_view to) {
  std::string out;
  bool replaced = false;
  size_t at = 0;
  for (size_t found = name.find(from); found != std::string_view::npos;
       found = name.find(from, at)) {
    out.append(name.substr(at, found - at)).append(to);
    at = found + from.size();
    replaced = true;
  }
  if (!replaced) return {};
  out.append(name.substr(at));
  return out;
}

}  // namespace

std::vector<std::string> mirrored_joint_names(std::string_view name) {
  static constexpr std::array<std::array<std::string_view, 2>, 6> kWords = {{
      {"Left", "Right"},
      {"Right", "Left"},
      {"left", "right"},
      {"right", "left"},
      {"LEFT", "RIGHT"},
      {"RIGHT", "LEFT"},
  }};
  static constexpr std::array<std::array<char, 2>, 4> kLetters = {{
      {'L', 'R'},
      {'R', 'L'},
      {'l', 'r'},
      {'r', 'l'},
  }};
  std::vector<std::string> out;
  for (const auto& [from, to] : kWords)
    if (std::string s = replace_word(name, from, to); !s.empty()) out.push_back(std::move(s));
  for (const auto& [from, to] : kLetters)
    if (std::string s = replace_side_letter(name, from, to); !s.empty())
      out.push_back(std::move(s));
  return out;
}

std::vector<uint16_t> mirror_joints(const Model& model, int skin) {
  const Skin& s = model.skins[size_t(skin)];
  std::vector<uint16_t> mirror(s.joints.size());
  for (size_t j = 0; j < s.joints.size(); ++j) {
    mirror[j] = uint16_t(j);
    const int node = s.joints[j];
    if (node < 0 || size_t(node) >= model.nodes.size()) continue;
    bool found = false;
    for (const std::string& candidate : mirrored_joint_names(model.nodes[size_t(node)].name)) {
      for (size_t k = 0; k < s.joints.size() && !found; ++k) {
        const int other = s.joints[k];
        if (other >= 0 && size_t(other) < model.nodes.size() &&
            model.nodes[size_t(other)].name == candidate) {
          mirror[j] = uint16_t(k);
          found = true;
        }
      }
      if (found) break;
    }
  }
  return mirror;
}

namespace {

struct Cell {
  int64_t x = 0, y = 0, z = 0;
  bool operator==(const Cell&) const = default;
};
struct CellHash {
  size_t operator()(const Cell& c) const {
    uint64_t h = uint64_t(c.x) * 0x9E3779B97F4A7C15ull;
    h ^= (h >> 29) + uint64_t(c.y) * 0xBF58476D1CE4E5B9ull;
    h ^= (h >> 31) + uint64_t(c.z) * 0x94D049BB133111EBull;
    return size_t(h ^ (h >> 32));
  }
};

}  // namespace

MirrorPlane mirror_plane(const SkinLayer& layer, int skin, const std::vector<uint16_t>& mirror) {
  const std::span<const glm::mat4> ibm = layer.inverse_bind(size_t(skin));
  auto bind_position = [&](size_t j) { return glm::dvec3(glm::inverse(ibm[j])[3]); };
  glm::dvec3 spread(0.0), middle(0.0);
  int pairs = 0;
  for (size_t j = 0; j < mirror.size() && j < ibm.size(); ++j) {
    if (mirror[j] <= j || mirror[j] >= ibm.size()) continue;
    const glm::dvec3 a = bind_position(j), b = bind_position(mirror[j]);
    spread += glm::abs(a - b);
    middle += 0.5 * (a + b);
    ++pairs;
  }
  MirrorPlane plane;
  if (pairs == 0 || !(spread.x + spread.y + spread.z > 0.0)) return plane;
  plane.axis = spread.y > spread[plane.axis] ? 1 : 0;
  if (spread.z > spread[plane.axis]) plane.axis = 2;
  plane.offset = float(middle[plane.axis] / pairs);
  return plane;
}

WeightEditResult mirror_weights(SkinLayer& layer, const Model& model,
                                const MirrorOptions& options) {
  WeightEditResult result;
  for (const SkinGroup& group : skin_groups(model, layer.meshes())) {
    const SkinMeshes& meshes = layer.meshes();
    const std::vector<uint16_t> mirror = mirror_joints(model, group.skin);
    const MirrorPlane plane = mirror_plane(layer, group.skin, mirror);
    // Every vertex of the group, its position and its weights before any change.
    std::vector<VertexRef> refs;
    std::vector<glm::vec3> positions;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (uint32_t prepared : group.primitives) {
      const Primitive& prim = model_primitive(model, meshes, prepared);
      const uint32_t count =
          std::min(prim.vertex_count(), meshes.primitives[prepared].vertex_count);
      for (uint32_t v = 0; v < count; ++v) {
        refs.push_back({prepared, v});
        positions.push_back(prim.positions[v]);
        lo = glm::min(lo, prim.positions[v]);
        hi = glm::max(hi, prim.positions[v]);
      }
    }
    if (refs.empty()) continue;
    const float diagonal = glm::length(hi - lo);
    const float tolerance = std::max(options.tolerance * diagonal, 1e-30f);
    // Cells of the tolerance's size: a point within it lies in one of the 27 around.
    auto cell_of = [&](const glm::vec3& p) {
      auto index = [&](float x) {
        const double c = std::floor(double(x) / tolerance);
        return std::isfinite(c) ? int64_t(std::clamp(c, -1e15, 1e15)) : int64_t(0);
      };
      return Cell{index(p.x), index(p.y), index(p.z)};
    };
    std::unordered_map<Cell, std::vector<uint32_t>, CellHash> grid;
    for (uint32_t i = 0; i < positions.size(); ++i) grid[cell_of(positions[i])].push_back(i);

    std::vector<InfluenceList> before(refs.size());
    for (size_t i = 0; i < refs.size(); ++i)
      before[i] = read_influences(meshes.primitives[refs[i].primitive], refs[i].vertex);
    // The nearest vertex to each reflected position (−1: none within the tolerance).
    auto match = [&](const MirrorPlane& plane) {
      std::vector<int64_t> found(refs.size(), -1);
      for (size_t i = 0; i < refs.size(); ++i) {
        glm::vec3 target = positions[i];
        target[plane.axis] = 2.0f * plane.offset - target[plane.axis];
        const Cell c = cell_of(target);
        int64_t best = -1;
        float best_distance = 0.0f;
        for (int64_t dx = -1; dx <= 1; ++dx)
          for (int64_t dy = -1; dy <= 1; ++dy)
            for (int64_t dz = -1; dz <= 1; ++dz) {
              const auto it = grid.find(Cell{c.x + dx, c.y + dy, c.z + dz});
              if (it == grid.end()) continue;
              for (uint32_t candidate : it->second) {
                const float d = glm::length(positions[candidate] - target);
                if (!(d <= tolerance)) continue;
                if (best < 0 || d < best_distance || (d == best_distance && candidate < best)) {
                  best = candidate;
                  best_distance = d;
                }
              }
            }
        found[i] = best;
      }
      return found;
    };
    // The joints' midplane, or the parallel plane through the origin where more vertices pair
    // (a mesh modelled symmetric about its origin with joints placed by hand).
    std::vector<int64_t> found = match(plane);
    if (plane.offset != 0.0f) {
      std::vector<int64_t> through_origin = match(MirrorPlane{plane.axis, 0.0f});
      auto pairs = [](const std::vector<int64_t>& f) {
        return std::count_if(f.begin(), f.end(), [](int64_t b) { return b >= 0; });
      };
      if (pairs(through_origin) >= pairs(found)) found.swap(through_origin);
    }
    std::vector<InfluenceList> after(refs.size());
    std::vector<uint8_t> matched(refs.size(), 0);
    for (size_t i = 0; i < refs.size(); ++i) {
      const int64_t best = found[i];
      if (best < 0) continue;
      matched[i] = 1;
      const InfluenceList& from = before[size_t(best)];
      InfluenceList& to = after[i];
      for (uint32_t k = 0; k < from.count; ++k)
        to.add(from.joints[k] < mirror.size() ? mirror[from.joints[k]] : from.joints[k],
               from.weights[k]);
    }
    for (size_t i = 0; i < refs.size(); ++i) {
      if (!matched[i]) {
        result.unmatched.push_back(refs[i]);
        continue;
      }
      if (commit_influences(layer, refs[i].primitive, refs[i].vertex, after[i]))
        ++result.vertices_changed;
    }
  }
  return result;
}

}  // namespace rig
