// Per-vertex scalar fields: what a "field view" colours a surface by. A producer fills one float
// per vertex of every draw item (Model::draws order), a value range, a colour map and a legend;
// the renderer (DrawOptions::field) uploads it as one extra vertex attribute and the fragment
// shader maps it through the colour map, lit like any surface. Producers never touch GL.
//
//   rig::analysis::ScalarField field;
//   rig::analysis::joint_weight_field(model, skin_meshes, joint_node, field);  // on change
//   options.field = &field;                  // every frame; bump field.revision after edits
//   renderer.draw(camera, viewport, options);
//
// Later producers (deflation, method difference, compression error, rig-doctor findings) only
// fill a ScalarField. A value of NaN is undefined (drawn magenta, kUndefinedColor).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/color_map.h"
#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig::analysis {

struct LegendTick {
  float value = 0.0f;
  std::string label;
};

struct ScalarField {
  // Per draw item, one value per vertex (Primitive::vertex_count()); an empty vector leaves the
  // item with its normal shading (rigid items in the weight views).
  std::vector<std::vector<float>> values;
  float min = 0.0f, max = 1.0f;  // the colour map's range
  ColorMap map = ColorMap::Heat;
  std::string title;                            // legend title: "weight of 'arm'", "influences"
  std::vector<LegendTick> ticks;                // legend labels at values inside [min, max]
  glm::vec3 undefined_color = kUndefinedColor;  // NaN values (deflation: grey, see below)
  // Bumped by producers on every refill: the renderer re-uploads when the field's address or
  // revision changes, and never otherwise.
  uint64_t revision = 0;
};

// The weight the skin joint of node `joint_node` has on each vertex of skinned items, after the
// skinning's own renormalization (the SkinMesh's kept influences divided by their sum; zero
// weights and joints outside the skin ignored). A node that is no joint of an item's skin (or
// -1) gives 0 there; a vertex without a usable influence is NaN. Heat map over [0, 1].
// Reuses `out`'s storage: allocates only when it grows.
void joint_weight_field(const Model& model, const SkinMeshes& meshes, int joint_node,
                        ScalarField& out);

// Number of usable non-zero influences per vertex of skinned items (0: the vertex cannot be
// skinned, which the categorical map shows in the undefined colour). Categorical over [0, 8].
void influence_count_field(const Model& model, const SkinMeshes& meshes, ScalarField& out);

// The values alone (no range, map or legend), for callers that refill a field every frame: no
// allocation once `values` has its shape.
void fill_joint_weights(const Model& model, const SkinMeshes& meshes, int joint_node,
                        std::vector<std::vector<float>>& values);
void fill_influence_counts(const Model& model, const SkinMeshes& meshes,
                           std::vector<std::vector<float>>& values);

}  // namespace rig::analysis
