#include "render/gpu_mesh.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace rig::render::detail {

namespace {

GLenum gl_mode(rig::PrimitiveMode mode) {
  switch (mode) {
    case rig::PrimitiveMode::Points:
      return GL_POINTS;
    case rig::PrimitiveMode::Lines:
      return GL_LINES;
    case rig::PrimitiveMode::LineLoop:
      return GL_LINE_LOOP;
    case rig::PrimitiveMode::LineStrip:
      return GL_LINE_STRIP;
    case rig::PrimitiveMode::Triangles:
      return GL_TRIANGLES;
    case rig::PrimitiveMode::TriangleStrip:
      return GL_TRIANGLE_STRIP;
    case rig::PrimitiveMode::TriangleFan:
      return GL_TRIANGLE_FAN;
  }
  return GL_TRIANGLES;
}

// Vertices [first, first + out.size()) of `prim`, with `skin`'s influences (null: rigid).
void fill_static_vertices(const rig::Primitive& prim, const rig::SkinMesh* skin, uint32_t first,
                          std::span<StaticVertex> out) {
  for (uint32_t i = 0; i < out.size(); ++i) {
    const uint32_t v = first + i;
    StaticVertex& s = out[i];
    s = StaticVertex{};
    if (v < prim.texcoords0.size()) s.texcoord = prim.texcoords0[v];
    if (v < prim.texcoords1.size()) s.texcoord1 = prim.texcoords1[v];
    if (v < prim.colors0.size()) s.color = prim.colors0[v];
    if (!skin || v >= skin->vertex_count) continue;
    std::span<const uint16_t> j = skin->vertex_joints(v);
    std::span<const float> w = skin->vertex_weights(v);
    for (size_t k = 0; k < j.size() && k < rig::kMaxInfluences; ++k) {
      s.joints[k] = j[k];
      s.weights[k] = w[k];
    }
  }
}

}  // namespace

void GpuDrawItem::upload_influences(const rig::Primitive& prim, const rig::SkinMesh& skin,
                                    uint32_t begin, uint32_t end, std::span<StaticVertex> scratch) {
  if (!skinned()) return;  // a rigid item has no influences to update
  end = std::min<uint32_t>(end, uint32_t(vertex_count));
  if (begin >= end || scratch.size() < end - begin) return;
  influences = static_cast<int>(skin.influences);
  const std::span<StaticVertex> range = scratch.first(end - begin);
  fill_static_vertices(prim, &skin, begin, range);
  glBindBuffer(GL_ARRAY_BUFFER, static_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, GLintptr(begin * sizeof(StaticVertex)),
                  GLsizeiptr(range.size() * sizeof(StaticVertex)), range.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::create(const rig::Primitive& prim, const rig::SkinMesh& skin, bool skinned) {
  const uint32_t n = prim.vertex_count();
  mode = gl_mode(prim.mode);
  vertex_count = static_cast<GLsizei>(n);
  index_count = static_cast<GLsizei>(prim.indices.size());
  morphed = !prim.targets.empty();
  const bool has_tangents = prim.tangents.size() == n && n > 0;
  morphed_tangents = has_tangents &&
                     std::any_of(prim.targets.begin(), prim.targets.end(),
                                 [n](const rig::MorphTarget& t) { return t.tangents.size() == n; });
  flat_normals = prim.normals_generated;
  material = prim.material;
  influences = skinned ? static_cast<int>(skin.influences) : 0;

  std::vector<float> position_normal(size_t(n) * 6);
  for (uint32_t v = 0; v < n; ++v) {
    std::memcpy(&position_normal[size_t(v) * 6], &prim.positions[v], sizeof(glm::vec3));
    const glm::vec3 nrm = v < prim.normals.size() ? prim.normals[v] : glm::vec3(0, 1, 0);
    std::memcpy(&position_normal[size_t(v) * 6 + 3], &nrm, sizeof(glm::vec3));
  }
  std::vector<StaticVertex> statics(n);
  fill_static_vertices(prim, skinned ? &skin : nullptr, 0, statics);

  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &position_normal_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, position_normal_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(position_normal.size() * sizeof(float)),
               position_normal.data(), morphed ? GL_DYNAMIC_DRAW : GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<void*>(3 * sizeof(float)));
  glGenBuffers(1, &static_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, static_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(statics.size() * sizeof(StaticVertex)), statics.data(),
               GL_STATIC_DRAW);
  const GLsizei stride = sizeof(StaticVertex);
  auto offset = [](size_t o) { return reinterpret_cast<void*>(o); };
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, offset(offsetof(StaticVertex, texcoord)));
  glEnableVertexAttribArray(10);
  glVertexAttribPointer(10, 2, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(StaticVertex, texcoord1)));
  glEnableVertexAttribArray(9);
  glVertexAttribPointer(9, 4, GL_FLOAT, GL_FALSE, stride, offset(offsetof(StaticVertex, color)));
  glEnableVertexAttribArray(3);
  glVertexAttribIPointer(3, 4, GL_UNSIGNED_SHORT, stride, offset(offsetof(StaticVertex, joints)));
  glEnableVertexAttribArray(4);
  glVertexAttribIPointer(4, 4, GL_UNSIGNED_SHORT, stride,
                         offset(offsetof(StaticVertex, joints) + 4 * sizeof(uint16_t)));
  glEnableVertexAttribArray(5);
  glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, stride, offset(offsetof(StaticVertex, weights)));
  glEnableVertexAttribArray(6);
  glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, stride,
                        offset(offsetof(StaticVertex, weights) + 4 * sizeof(float)));
  // Scalar field: (value, defined) per vertex, zero until a field is uploaded.
  const std::vector<float> zeros(size_t(std::max<uint32_t>(n, 1)) * 2, 0.0f);
  glGenBuffers(1, &field_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, field_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(zeros.size() * sizeof(float)), zeros.data(),
               GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(7);
  glVertexAttribPointer(7, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glGenBuffers(1, &center_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, center_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<uint32_t>(n, 1) * sizeof(glm::vec4)), nullptr,
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(8);
  glVertexAttribPointer(8, 4, GL_FLOAT, GL_FALSE, sizeof(glm::vec4), nullptr);
  upload_rotation_centers(skin);
  const std::vector<glm::vec4> no_tangents(has_tangents ? 0 : std::max<uint32_t>(n, 1),
                                           glm::vec4(0.0f));
  const glm::vec4* tangents = has_tangents ? prim.tangents.data() : no_tangents.data();
  glGenBuffers(1, &tangent_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, tangent_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<uint32_t>(n, 1) * sizeof(glm::vec4)), tangents,
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(11);
  glVertexAttribPointer(11, 4, GL_FLOAT, GL_FALSE, sizeof(glm::vec4), nullptr);
  if (index_count > 0) {
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(prim.indices.size() * sizeof(uint32_t)),
                 prim.indices.data(), GL_STATIC_DRAW);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::release() {
  set_cpu_copy(false);
  if (vao) glDeleteVertexArrays(1, &vao);
  const GLuint buffers[] = {position_normal_vbo, static_vbo,  field_vbo,
                            center_vbo,          tangent_vbo, ebo};
  for (GLuint b : buffers)
    if (b) glDeleteBuffers(1, &b);
  vao = position_normal_vbo = static_vbo = field_vbo = center_vbo = tangent_vbo = ebo = 0;
}

void GpuDrawItem::upload_rotation_centers(const rig::SkinMesh& skin) const {
  const size_t n = size_t(std::max<GLsizei>(vertex_count, 1));
  std::vector<glm::vec4> centers(n, glm::vec4(0.0f));
  if (skin.rotation_centers.size() == skin.vertex_count && skin.vertex_count > 0)
    for (size_t v = 0; v < n && v < skin.rotation_centers.size(); ++v)
      centers[v] = glm::vec4(skin.rotation_centers[v], 1.0f);
  glBindBuffer(GL_ARRAY_BUFFER, center_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * sizeof(glm::vec4)), centers.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::upload_positions(std::span<const float> interleaved) const {
  glBindBuffer(GL_ARRAY_BUFFER, position_normal_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(interleaved.size_bytes()), interleaved.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::upload_tangents(std::span<const glm::vec4> tangents) const {
  if (!tangent_vbo || tangents.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, tangent_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(tangents.size_bytes()), tangents.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::set_cpu_copy(bool on) {
  if (!on) {
    if (cpu_vao) glDeleteVertexArrays(1, &cpu_vao);
    if (cpu_vbo) glDeleteBuffers(1, &cpu_vbo);
    cpu_vao = cpu_vbo = 0;
    return;
  }
  if (cpu_vao || !vao) return;
  const size_t n = size_t(std::max<GLsizei>(vertex_count, 1));
  glGenVertexArrays(1, &cpu_vao);
  glBindVertexArray(cpu_vao);
  glGenBuffers(1, &cpu_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, cpu_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * 6 * sizeof(float)), nullptr, GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<void*>(3 * sizeof(float)));
  // The rigid program reads only the texcoords of the static attributes; the influences stay
  // unbound. So does TANGENT: the bind-space tangents do not follow the CPU-skinned surface, and
  // the disabled attribute reads (0, 0, 0, 1), whose zero xyz makes the shader derive the
  // tangent frame on screen. The field and the index buffer are the item's own.
  glBindBuffer(GL_ARRAY_BUFFER, static_vbo);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(StaticVertex),
                        reinterpret_cast<void*>(offsetof(StaticVertex, texcoord)));
  glEnableVertexAttribArray(10);
  glVertexAttribPointer(10, 2, GL_FLOAT, GL_FALSE, sizeof(StaticVertex),
                        reinterpret_cast<void*>(offsetof(StaticVertex, texcoord1)));
  glBindBuffer(GL_ARRAY_BUFFER, field_vbo);
  glEnableVertexAttribArray(7);
  glVertexAttribPointer(7, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  if (ebo) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::upload_cpu_positions(std::span<const float> interleaved) const {
  if (!cpu_vbo || interleaved.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, cpu_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(interleaved.size_bytes()), interleaved.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::upload_field(std::span<const float> values, std::span<float> scratch) const {
  const size_t n = std::min<size_t>(values.size(), size_t(vertex_count));
  for (size_t v = 0; v < n; ++v) {
    const float x = values[v];
    const bool defined = x == x;
    scratch[v * 2] = defined ? x : 0.0f;
    scratch[v * 2 + 1] = defined ? 1.0f : 0.0f;
  }
  if (n == 0) return;
  glBindBuffer(GL_ARRAY_BUFFER, field_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * 2 * sizeof(float)), scratch.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuDrawItem::draw() const {
  glBindVertexArray(vao);
  if (index_count > 0)
    glDrawElements(mode, index_count, GL_UNSIGNED_INT, nullptr);
  else
    glDrawArrays(mode, 0, vertex_count);
}

void GpuDrawItem::draw_instanced(GLsizei instances) const {
  glBindVertexArray(vao);
  if (index_count > 0)
    glDrawElementsInstanced(mode, index_count, GL_UNSIGNED_INT, nullptr, instances);
  else
    glDrawArraysInstanced(mode, 0, vertex_count, instances);
}

}  // namespace rig::render::detail
