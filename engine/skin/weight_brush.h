// The weight paint brush: one dab changes one joint's weight on the vertices of one skin within a
// radius of a bind-space point, by a strength shaped by a falloff, and keeps every vertex's
// weights summing to 1. Like Blender's weight paint, but on rigview's skin layer (one joint at a
// time, at most kMaxInfluences per vertex).
//
// For a vertex at bind distance d < r from the centre: t = d / r, f the falloff (Smooth:
// 1 − (3t² − 2t³); Linear: 1 − t; Constant: 1), s = strength · f, w its weight of the joint
// (0 when it has none), O the sum of its other weights. The new weight w′:
//   Add       w + s · (1 − w)
//   Subtract  w · (1 − s)
//   Replace   w + s · (value − w)
//   Smooth    w + s · (m − w), m the mean of w over the vertex's neighbours in the welded point
//             graph (weight_graph.h; a neighbour without the joint counts 0)
// then the other weights are scaled by (1 − w′) / O, so the vertex sums to 1 (they keep their
// proportions). A vertex whose other weights are all 0 cannot give or take weight: it keeps w = 1
// (or takes w′ = 1 when it had no weight at all and w′ > 0). A joint new to a full vertex (every
// slot used) takes the place of its smallest other weight. A vertex that would read the same is
// left untouched. X symmetry dabs again at the centre mirrored through x = 0 of bind space, on
// the mirror joint (weight_mirror.h's names; a joint without a counterpart is its own).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/weight_edit.h"
#include "skin/weight_graph.h"

namespace rig {

enum class BrushMode : uint8_t { Add, Subtract, Replace, Smooth };
enum class BrushFalloff : uint8_t { Smooth, Linear, Constant };

struct BrushDab {
  int skin = 0;
  uint16_t joint = 0;      // skin joint index
  glm::vec3 center{0.0f};  // bind space (Primitive::positions)
  float radius = 0.05f;
  float strength = 0.5f;  // [0, 1]
  float value = 1.0f;     // Replace's target weight, [0, 1]
  BrushMode mode = BrushMode::Add;
  BrushFalloff falloff = BrushFalloff::Smooth;
  bool x_mirror = false;
};

// f(t) for t = d / r in [0, 1] (0 beyond).
float brush_falloff(BrushFalloff falloff, float t);

class WeightBrush {
 public:
  // Builds the point graphs and mirror joints of every skin group of `layer` over `model`
  // (allocates; again after the layer's primitives change size, never per dab).
  void prepare(const Model& model, const SkinLayer& layer);
  bool prepared_for(const SkinLayer& layer) const { return layer_ == &layer; }
  // One dab (and its mirror). Allocates nothing after prepare() (a primitive widened from 4 to 8
  // slots by a joint new to a full vertex aside). Returns the vertices changed.
  WeightEditResult dab(SkinLayer& layer, const BrushDab& dab);

 private:
  struct Group {
    int skin = -1;
    std::vector<uint32_t> primitives;
    PointGraph graph;
    std::vector<uint64_t> first;   // per point: its first vertex, primitive << 32 | vertex
    std::vector<uint32_t> offset;  // per group primitive: its first vertex in `target`
    std::vector<float> target;     // Smooth's means, per group vertex (scratch)
  };
  void dab_once(SkinLayer& layer, const BrushDab& dab, WeightEditResult& result);
  float point_weight(const SkinLayer& layer, const Group& g, uint32_t point, uint16_t joint) const;

  const Model* model_ = nullptr;
  const SkinLayer* layer_ = nullptr;
  std::vector<Group> groups_;
  std::vector<std::vector<uint16_t>> mirror_;  // per skin: joint → mirror joint
};

}  // namespace rig
