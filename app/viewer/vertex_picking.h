// Picking a vertex of the skinned surface under the pointer (the Vertex tab), and the live
// opinions drawn over the view: no ImGui, no GL. The vertex is the front-most posed vertex
// (nearest the camera) among those projected within `radius` pixels of the pointer, over every
// skinned draw item, posed on the CPU with the method on screen; it is named as --inspect-vertex
// names it (skinned primitive in document order, vertex index).
#pragma once

#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "character/character.h"
#include "render/camera.h"

namespace rigview {

struct PickedVertex {
  int primitive = -1;  // skinned primitive (analysis/vertex_inspection.h's numbering)
  int vertex = -1;
  int draw = -1;  // the draw item it was picked on
};

// Scratch buffers, sized at the first pick of a model: a pick allocates nothing after that.
struct VertexPickScratch {
  std::vector<glm::vec3> positions, normals;
};

PickedVertex pick_vertex(const rig::Character& character, rig::SkinningMethod method,
                         const rig::render::Camera& camera, const rig::render::ScreenRect& rect,
                         glm::vec2 pointer, float radius, VertexPickScratch& scratch);

// Where each influence of a vertex would take it alone (M_j · v, world) and their weighted sum
// (LBS), from the character's current skinning matrices: what the overlay draws every frame.
// Allocates nothing; `count` of the arrays are used.
struct LiveOpinions {
  std::array<glm::vec3, 8> opinion{};
  std::array<float, 8> weight{};
  int count = 0;
  glm::vec3 lbs{0.0f};
};
// `skin`, `joints` (skin joint indices), `weights` and `bind_position` as the inspection gave
// them. false when a joint is out of the skin's range.
bool live_opinions(const rig::Character& character, int skin, const int* joints,
                   const float* weights, int count, glm::vec3 bind_position, LiveOpinions& out);

}  // namespace rigview
