// Smooth: a Laplacian over the mesh's edges, like Blender's Smooth of vertex weights.
//
// Per skin group (weight_edit.h: the primitives drawn with one skin, one bind space), vertices
// at exactly the same bind position are welded into one point (UV and normal seams, primitives
// meeting at a border), and two points are neighbours when a triangle edge joins them. A point's
// weights are the mean of its vertices'. Each iteration updates every free point at once:
//
//   w_j ← (1 − factor)·w_j + factor·mean over the neighbours of w_j     for the smoothed joints
//
// then the other joints of the point are scaled together so the point sums to 1 again (they
// keep their shares among themselves); with every joint smoothed the point is renormalized.
// Points without a neighbour stay. Afterwards each vertex of a free point takes the point's
// weights (welded vertices end equal), non-zero ones only, largest first (ties: lower joint),
// at most kMaxInfluences (the largest kept, renormalized). A vertex whose weights move by no
// more than 1e-6 is left exactly as it was.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/weight_edit.h"

namespace rig {

struct SmoothOptions {
  float factor = 0.5f;  // in [0, 1]
  int iterations = 1;
  // The joints smoothed, as node indices; empty: every joint.
  std::vector<int> joint_nodes;
  // The painted selection: per prepared primitive, per vertex, non-zero where selected. Empty:
  // every vertex. A point is free when one of its vertices is selected; only selected vertices
  // are written (the others still feed their neighbours).
  std::vector<std::vector<uint8_t>> selected;
};

WeightEditResult smooth_weights(SkinLayer& layer, const Model& model, const SmoothOptions& options);

}  // namespace rig
