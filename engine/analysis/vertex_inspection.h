// One vertex under the microscope: where each of its influences would put it on its own, what
// each skinning method makes of them, and the deflation h each method gives it, all at the
// character's current pose. What a rigger reads to see why a vertex goes where it goes.
//
// Vertices are named by skinned primitive and index: the skinned primitives (Primitive::
// skinned()) counted in document order, mesh by mesh and primitive by primitive. A primitive is
// posed through the first draw item (Model::draws, scene order) that draws it with a skin.
//
//   bind_position  the vertex as skinned: POSITION plus the pose's morph targets, bind space;
//   influences     the influence slots as skinned (SkinLayer) with weight > 0 and a joint of
//                  the skin, in slot order; opinion = M_j · bind_position, M_j joint j's skinning
//                  matrix (world · inverse bind): where the joint alone would take the vertex;
//   positions      per method, the posed vertex (Character::skin_draw_item, what every output
//                  draws and measures; LBS is Σ w_j M_j v / Σ w_j);
//   cor_center     the CoR centre p* (SkinMesh::rotation_centers, the vertex itself where the
//                  layer has none) carried by the LBS matrix: L·p*, L = Σ w_j M_j / Σ w_j;
//   deflation      per method, h of analysis/skinning_artefacts.h (analyze_frame's value).
// Every position is in world space.
#pragma once

#include <array>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "analysis/skinning_artefacts.h"

namespace rig {

struct SkinnedPrimitiveRef {
  int mesh = -1, primitive = -1;  // Model::meshes index and the primitive within it
};
// The skinned primitives in document order (mesh, then primitive).
std::vector<SkinnedPrimitiveRef> skinned_primitives(const Model& model);
// The number skinned_primitives gives mesh `mesh`'s primitive `primitive`, -1 when it is not a
// skinned primitive. No allocation (the paint brush picks every frame).
int skinned_primitive_index(const Model& model, int mesh, int primitive);

struct VertexInfluence {
  int joint = -1;  // skin joint index
  int node = -1;   // its glTF node
  float weight = 0.0f;
  glm::vec3 opinion{0.0f};
};

struct VertexInspection {
  int primitive = -1, vertex = -1;  // as asked: skinned primitive, vertex index
  SkinnedPrimitiveRef source;       // the mesh and primitive that is
  int draw = -1, skin = -1;         // the draw item it is posed through and its skin
  glm::vec3 bind_position{0.0f};
  std::vector<VertexInfluence> influences;
  std::array<glm::vec3, kSkinningMethodCount> positions{};  // per table method
  std::array<float, kSkinningMethodCount> deflation{};      // per table method, NaN: undefined
  glm::vec3 cor_center{0.0f};
};

// The draw item vertex `vertex` of skinned primitive `primitive` is posed through, or -1 and the
// one-line error inspect_vertex gives for those indices.
int inspected_draw(const Model& model, int primitive, int vertex, std::string& error);

// Inspects vertex `vertex` of skinned primitive `primitive` at `character`'s current pose;
// `setup` built for its model and skin layer. Allocates (it analyses the whole model once per
// method). false + one-line error naming the valid range when an index is out of range, or
// when no skinned node draws the primitive.
bool inspect_vertex(const ArtefactSetup& setup, const Character& character, int primitive,
                    int vertex, VertexInspection& out, std::string& error);

}  // namespace rig
