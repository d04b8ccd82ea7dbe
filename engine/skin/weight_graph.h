// The welded point graph of the primitives drawn with one skin: vertices at exactly the same
// bind position are one point (seams, primitives meeting), and points are joined by the
// triangle edges between their vertices. Weight smoothing (weight_smooth.h) and the brush's
// Smooth (weight_brush.h) average over it.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig {

struct PointGraph {
  std::vector<std::vector<uint32_t>> point_of;  // per group primitive, per vertex
  uint32_t points = 0;
  std::vector<uint32_t> offsets,
      neighbours;  // CSR: point p's neighbours [offsets[p], offsets[p+1])
};

// `primitives`: prepared primitive indices (SkinMeshes::primitives) of one skin group.
PointGraph build_point_graph(const Model& model, const SkinMeshes& meshes,
                             const std::vector<uint32_t>& primitives);

}  // namespace rig
