#include "skin/weight_brush.h"

#include <algorithm>
#include <cmath>

#include "skin/weight_mirror.h"

namespace rig {

float brush_falloff(BrushFalloff falloff, float t) {
  if (!(t >= 0.0f) || t >= 1.0f) return 0.0f;
  switch (falloff) {
    case BrushFalloff::Smooth:
      return 1.0f - t * t * (3.0f - 2.0f * t);
    case BrushFalloff::Linear:
      return 1.0f - t;
    case BrushFalloff::Constant:
      return 1.0f;
  }
  return 0.0f;
}

void WeightBrush::prepare(const Model& model, const SkinLayer& layer) {
  model_ = &model;
  layer_ = &layer;
  groups_.clear();
  for (const SkinGroup& sg : skin_groups(model, layer.meshes())) {
    Group g;
    g.skin = sg.skin;
    g.primitives = sg.primitives;
    g.graph = build_point_graph(model, layer.meshes(), g.primitives);
    g.first.assign(g.graph.points, ~uint64_t{0});
    uint32_t total = 0;
    for (size_t i = 0; i < g.primitives.size(); ++i) {
      g.offset.push_back(total);
      const std::vector<uint32_t>& point = g.graph.point_of[i];
      total += uint32_t(point.size());
      for (uint32_t v = 0; v < point.size(); ++v)
        if (g.first[point[v]] == ~uint64_t{0}) g.first[point[v]] = (uint64_t(i) << 32) | v;
    }
    g.target.assign(total, 0.0f);
    groups_.push_back(std::move(g));
  }
  mirror_.assign(model.skins.size(), {});
  for (size_t s = 0; s < model.skins.size(); ++s) mirror_[s] = mirror_joints(model, int(s));
}

float WeightBrush::point_weight(const SkinLayer& layer, const Group& g, uint32_t point,
                                uint16_t joint) const {
  const uint64_t first = g.first[point];
  const SkinMesh& mesh = layer.meshes().primitives[g.primitives[size_t(first >> 32)]];
  const InfluenceList list = read_influences(mesh, uint32_t(first & 0xffffffffu));
  for (uint32_t k = 0; k < list.count; ++k)
    if (list.joints[k] == joint) return list.weights[k];
  return 0.0f;
}

WeightEditResult WeightBrush::dab(SkinLayer& layer, const BrushDab& dab) {
  WeightEditResult result;
  if (!model_ || layer_ != &layer) return result;
  dab_once(layer, dab, result);
  if (dab.x_mirror && size_t(dab.skin) < mirror_.size()) {
    BrushDab mirrored = dab;
    mirrored.center.x = -dab.center.x;
    const std::vector<uint16_t>& mirror = mirror_[size_t(dab.skin)];
    if (dab.joint < mirror.size()) mirrored.joint = mirror[dab.joint];
    dab_once(layer, mirrored, result);
  }
  return result;
}

void WeightBrush::dab_once(SkinLayer& layer, const BrushDab& dab, WeightEditResult& result) {
  if (!(dab.radius > 0.0f)) return;
  const float strength = std::clamp(dab.strength, 0.0f, 1.0f);
  const float value = std::clamp(dab.value, 0.0f, 1.0f);
  const float r2 = dab.radius * dab.radius;
  for (Group& g : groups_) {
    if (g.skin != dab.skin) continue;
    // Smooth reads the weights as they were before this dab: the means first.
    if (dab.mode == BrushMode::Smooth) {
      for (size_t i = 0; i < g.primitives.size(); ++i) {
        const Primitive& prim = model_primitive(*model_, layer.meshes(), g.primitives[i]);
        const std::vector<uint32_t>& point = g.graph.point_of[i];
        for (uint32_t v = 0; v < point.size(); ++v) {
          if (glm::dot(prim.positions[v] - dab.center, prim.positions[v] - dab.center) >= r2)
            continue;
          const uint32_t p = point[v];
          const uint32_t begin = g.graph.offsets[p], end = g.graph.offsets[p + 1];
          float sum = 0.0f;
          for (uint32_t n = begin; n < end; ++n)
            sum += point_weight(layer, g, g.graph.neighbours[n], dab.joint);
          g.target[g.offset[i] + v] =
              end > begin ? sum / float(end - begin) : point_weight(layer, g, p, dab.joint);
        }
      }
    }
    for (size_t i = 0; i < g.primitives.size(); ++i) {
      const uint32_t prepared = g.primitives[i];
      const Primitive& prim = model_primitive(*model_, layer.meshes(), prepared);
      const uint32_t count = uint32_t(g.graph.point_of[i].size());
      for (uint32_t v = 0; v < count; ++v) {
        const glm::vec3 d = prim.positions[v] - dab.center;
        const float d2 = glm::dot(d, d);
        if (d2 >= r2) continue;
        const float s = strength * brush_falloff(dab.falloff, std::sqrt(d2) / dab.radius);
        if (!(s > 0.0f)) continue;
        InfluenceList list = read_influences(layer.meshes().primitives[prepared], v);
        int slot = -1;
        float others = 0.0f;
        for (uint32_t k = 0; k < list.count; ++k) {
          if (list.joints[k] == dab.joint)
            slot = int(k);
          else
            others += list.weights[k];
        }
        const float w = slot >= 0 ? list.weights[size_t(slot)] : 0.0f;
        float next = w;
        switch (dab.mode) {
          case BrushMode::Add:
            next = w + s * (1.0f - w);
            break;
          case BrushMode::Subtract:
            next = w * (1.0f - s);
            break;
          case BrushMode::Replace:
            next = w + s * (value - w);
            break;
          case BrushMode::Smooth:
            next = w + s * (g.target[g.offset[i] + v] - w);
            break;
        }
        next = std::clamp(next, 0.0f, 1.0f);
        if (!(others > 0.0f)) {
          // Nothing to give weight to or take it from.
          if (slot >= 0 || !(next > 0.0f)) continue;
          next = 1.0f;
        }
        if (slot < 0) {
          if (!(next > 0.0f)) continue;
          if (list.count == kMaxInfluences) {  // the smallest other gives its place
            uint32_t smallest = 0;
            for (uint32_t k = 1; k < list.count; ++k)
              if (list.weights[k] < list.weights[smallest]) smallest = k;
            others -= list.weights[smallest];
            list.joints[smallest] = dab.joint;
            list.weights[smallest] = 0.0f;
            slot = int(smallest);
          } else {
            slot = int(list.count);
            list.joints[list.count] = dab.joint;
            list.weights[list.count++] = 0.0f;
          }
        }
        const float scale = others > 0.0f ? (1.0f - next) / others : 0.0f;
        for (uint32_t k = 0; k < list.count; ++k)
          list.weights[k] = int(k) == slot ? next : list.weights[k] * scale;
        if (commit_influences(layer, prepared, v, list)) ++result.vertices_changed;
      }
    }
  }
}

}  // namespace rig
