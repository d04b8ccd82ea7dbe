// GPU mesh upload: one VAO per draw item with positions/normals (rewritten per frame when the
// primitive has morph targets), texcoords and the prepared SkinMesh influences (the same ones
// the CPU kernels skin with), TEXCOORD_1 (location 10), indices, a scalar-field attribute (location
// 7), the centres of rotation of centre-of-rotation skinning (location 8: xyz, w = 1 when the
// mesh has centres) and TANGENT (location 11: xyzw, (0, 0, 0, 0) when the primitive has none, so
// the shader falls back to the screen-derivative tangent frame; rewritten per frame when morph
// targets carry TANGENT deltas).
#pragma once

#include <glad/gl.h>

#include <array>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig::render::detail {

// The per-vertex attributes that change only with skin edits: texcoords, COLOR_0 and influences.
struct StaticVertex {
  glm::vec2 texcoord{0.0f};
  glm::vec2 texcoord1{0.0f};  // TEXCOORD_1 (location 10), read by the reference shading only
  glm::vec4 color{1.0f};
  std::array<uint16_t, rig::kMaxInfluences> joints{};
  std::array<float, rig::kMaxInfluences> weights{};
};
static_assert(rig::kMaxInfluences == 8, "two uvec4/vec4 attribute sets carry the influences");

struct GpuDrawItem {
  GLuint vao = 0, position_normal_vbo = 0, static_vbo = 0, field_vbo = 0, center_vbo = 0,
         tangent_vbo = 0, ebo = 0;
  // CPU skinning (Renderer::set_cpu_skinning): a second vertex array whose positions and normals
  // come from cpu_vbo (world space, written per frame), the other attributes shared.
  GLuint cpu_vao = 0, cpu_vbo = 0;
  GLenum mode = GL_TRIANGLES;
  GLsizei vertex_count = 0, index_count = 0;
  int influences = 0;  // 0 (rigid), 4 or 8: SkinMesh::influences
  bool morphed = false;
  // The primitive has TANGENT and a morph target with TANGENT deltas: upload_tangents per frame.
  bool morphed_tangents = false;
  // The file gave no NORMAL (the importer's smooth normals stand in): the reference shading
  // uses the face normal instead, as the glTF spec asks and three.js does.
  bool flat_normals = false;
  int material = -1;  // the primitive's material (MaterialTable::get), -1 without one
  glm::mat4 world{1.0f};
  glm::mat3 normal_matrix{1.0f};

  bool skinned() const { return influences > 0; }
  bool triangles() const {
    return mode == GL_TRIANGLES || mode == GL_TRIANGLE_STRIP || mode == GL_TRIANGLE_FAN;
  }
  // Creates the item's buffers. `skin` = the prepared influences (not skinned: rigid).
  // Allocates; once per model.
  void create(const rig::Primitive& prim, const rig::SkinMesh& skin, bool skinned);
  void release();
  // Creates (on) or deletes (off) cpu_vao and cpu_vbo. Allocates; not per frame.
  void set_cpu_copy(bool on);
  // Rewrites cpu_vbo (interleaved scratch, 6 floats per vertex). No allocation.
  void upload_cpu_positions(std::span<const float> interleaved) const;
  // Rewrites the centre-of-rotation attribute from skin.rotation_centers ((0, 0, 0, 0) per
  // vertex when the mesh has none: the shader then rotates about the vertex itself).
  // Allocates; once per model and when centres arrive.
  void upload_rotation_centers(const rig::SkinMesh& skin) const;
  // Rewrites texcoords and influences of vertices [begin, end) from `prim` and `skin` (an edit
  // of the skin layer) through `scratch` (at least end - begin vertices, sized by the caller),
  // and takes skin.influences (4 → 8 when an edit widened the primitive). No allocation.
  void upload_influences(const rig::Primitive& prim, const rig::SkinMesh& skin, uint32_t begin,
                         uint32_t end, std::span<StaticVertex> scratch);
  // Rewrites positions/normals (interleaved scratch, 6 floats per vertex). No allocation.
  void upload_positions(std::span<const float> interleaved) const;
  // Rewrites the tangents (morphed_tangents items). No allocation.
  void upload_tangents(std::span<const glm::vec4> tangents) const;

  // Writes the scalar-field attribute from values (NaN: undefined) via `scratch` (2 floats per
  // vertex, sized by the caller). No allocation.
  void upload_field(std::span<const float> values, std::span<float> scratch) const;
  void draw() const;
  // `instances` copies in one call (the crowd programs place each by gl_InstanceID).
  void draw_instanced(GLsizei instances) const;
};

}  // namespace rig::render::detail
