#include "render/overlays.h"

#include <stb_easy_font.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_util.h"

namespace rig::render::detail {

namespace {

constexpr int kMaxTextQuads = 2048;
constexpr int kGridHalfLines = 10;  // lines each side of the grid's centre

float nice_step(float raw) {
  const float p = std::pow(10.0f, std::floor(std::log10(raw)));
  const float m = raw / p;
  return (m < 1.5f ? 1.0f : m < 3.5f ? 2.0f : m < 7.5f ? 5.0f : 10.0f) * p;
}

}  // namespace

bool Overlays::init(std::string& error) {
  line_program_ = build_program({"lines.vert.glsl"}, {"lines.frag.glsl"}, "", {}, error);
  if (!line_program_) return false;
  view_proj_ = glGetUniformLocation(line_program_, "u_view_proj");
  point_size_ = glGetUniformLocation(line_program_, "u_point_size");
  round_ = glGetUniformLocation(line_program_, "u_round");
  override_color_ = glGetUniformLocation(line_program_, "u_override_color");
  text_program_ = build_program({"text.vert.glsl"}, {"text.frag.glsl"}, "", {}, error);
  if (!text_program_) return false;
  viewport_size_ = glGetUniformLocation(text_program_, "u_viewport_size");
  origin_ = glGetUniformLocation(text_program_, "u_origin");
  scale_ = glGetUniformLocation(text_program_, "u_scale");
  color_ = glGetUniformLocation(text_program_, "u_color");

  auto line_vao = [](GLuint& vao, GLuint& vbo) {
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &vbo);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, color)));
    glBindVertexArray(0);
  };
  line_vao(grid_vao_, grid_vbo_);
  line_vao(bone_vao_, bone_vbo_);
  line_vao(marker_vao_, marker_vbo_);

  // stb_easy_font emits quads of 16-byte vertices (x, y, z, rgba8); an index buffer turns
  // them into triangles.
  text_scratch_.resize(size_t(kMaxTextQuads) * 4 * 16);
  std::vector<GLuint> quad_indices(size_t(kMaxTextQuads) * 6);
  for (GLuint q = 0; q < GLuint(kMaxTextQuads); ++q) {
    const GLuint v = q * 4;
    const GLuint idx[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
    std::copy(idx, idx + 6, quad_indices.begin() + q * 6);
  }
  glGenVertexArrays(1, &text_vao_);
  glGenBuffers(1, &text_vbo_);
  glGenBuffers(1, &text_ebo_);
  glBindVertexArray(text_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, text_vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(text_scratch_.size()), nullptr, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, text_ebo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(quad_indices.size() * sizeof(GLuint)),
               quad_indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  return true;
}

void Overlays::release() {
  clear_model();
  if (line_program_) glDeleteProgram(line_program_);
  if (text_program_) glDeleteProgram(text_program_);
  const GLuint vaos[] = {grid_vao_, bone_vao_, marker_vao_, text_vao_};
  glDeleteVertexArrays(4, vaos);
  const GLuint buffers[] = {grid_vbo_, bone_vbo_, marker_vbo_, text_vbo_, text_ebo_};
  for (GLuint b : buffers)
    if (b) glDeleteBuffers(1, &b);
  line_program_ = text_program_ = 0;
  grid_vao_ = bone_vao_ = marker_vao_ = text_vao_ = 0;
  grid_vbo_ = bone_vbo_ = marker_vbo_ = text_vbo_ = text_ebo_ = 0;
  grid_vertex_count_ = 0;
}

void Overlays::set_ground(const Bounds& bounds) {
  const Bounds b = bounds.valid() ? bounds : Bounds{glm::vec3(-1.0f), glm::vec3(1.0f)};
  const glm::vec3 size = b.max - b.min;
  const float footprint = std::max({size.x, size.z, 0.25f * size.y, 1e-3f});
  const float step = nice_step(footprint / 6.0f);
  const float extent = step * kGridHalfLines;
  const glm::vec2 center(std::round(b.center().x / step) * step,
                         std::round(b.center().z / step) * step);
  const float y = b.min.y;
  std::array<LineVertex, (2 * kGridHalfLines + 1) * 4> v;
  size_t count = 0;
  for (int i = -kGridHalfLines; i <= kGridHalfLines; ++i) {
    const float o = float(i) * step;
    const bool major = i % 5 == 0;
    glm::vec4 c =
        major ? glm::vec4(0.42f, 0.44f, 0.48f, 1.0f) : glm::vec4(0.31f, 0.32f, 0.35f, 1.0f);
    const float x = center.x + o, z = center.y + o;
    // World axes get their usual colours where they cross the grid.
    const glm::vec4 cz = std::abs(x) < 0.5f * step ? glm::vec4(0.25f, 0.45f, 0.85f, 1.0f) : c;
    const glm::vec4 cx = std::abs(z) < 0.5f * step ? glm::vec4(0.85f, 0.30f, 0.30f, 1.0f) : c;
    v[count++] = {{x, y, center.y - extent}, cz};
    v[count++] = {{x, y, center.y + extent}, cz};
    v[count++] = {{center.x - extent, y, z}, cx};
    v[count++] = {{center.x + extent, y, z}, cx};
  }
  glBindBuffer(GL_ARRAY_BUFFER, grid_vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size() * sizeof(LineVertex)), v.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  grid_vertex_count_ = static_cast<GLsizei>(v.size());
}

void Overlays::set_model(const rig::Model& model) {
  clear_model();
  SkinJointNodes joints = skin_joint_nodes(model);
  joint_nodes_ = std::move(joints.nodes);
  joint_slot_of_node_ = std::move(joints.slot_of_node);
  for (int node : joint_nodes_) {
    int parent = model.nodes[node].parent, slot = -1;
    for (int guard = 0; parent >= 0 && guard < int(model.nodes.size()); ++guard) {
      if (joint_slot_of_node_[parent] >= 0) {
        slot = joint_slot_of_node_[parent];
        break;
      }
      parent = model.nodes[parent].parent;
    }
    joint_parent_slot_.push_back(slot);
  }
  bone_vertices_.assign(joint_nodes_.size() * 2, LineVertex{});
  marker_vertices_.assign(joint_nodes_.size(), LineVertex{});
  glBindBuffer(GL_ARRAY_BUFFER, bone_vbo_);
  glBufferData(GL_ARRAY_BUFFER,
               GLsizeiptr(std::max<size_t>(bone_vertices_.size(), 1) * sizeof(LineVertex)), nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, marker_vbo_);
  glBufferData(GL_ARRAY_BUFFER,
               GLsizeiptr(std::max<size_t>(marker_vertices_.size(), 1) * sizeof(LineVertex)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void Overlays::clear_model() {
  joint_nodes_.clear();
  joint_parent_slot_.clear();
  joint_slot_of_node_.clear();
  bone_vertex_count_ = 0;
}

void Overlays::update_skeleton(std::span<const glm::mat4> world) {
  size_t bones = 0;
  for (size_t j = 0; j < joint_nodes_.size(); ++j) {
    const glm::vec3 p(world[joint_nodes_[j]][3]);
    marker_vertices_[j] = {p, glm::vec4(0.95f, 0.80f, 0.25f, 1.0f)};
    const int parent = joint_parent_slot_[j];
    if (parent < 0) continue;
    const glm::vec3 q(world[joint_nodes_[parent]][3]);
    bone_vertices_[bones++] = {q, glm::vec4(0.95f, 0.65f, 0.15f, 1.0f)};
    bone_vertices_[bones++] = {p, glm::vec4(1.00f, 0.95f, 0.60f, 1.0f)};
  }
  bone_vertex_count_ = static_cast<GLsizei>(bones);
  if (bones > 0) {
    glBindBuffer(GL_ARRAY_BUFFER, bone_vbo_);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(bones * sizeof(LineVertex)),
                    bone_vertices_.data());
  }
  if (!marker_vertices_.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, marker_vbo_);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(marker_vertices_.size() * sizeof(LineVertex)),
                    marker_vertices_.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void Overlays::draw_lines(const glm::mat4& view_proj, GLuint vao, GLenum mode, GLint first,
                          GLsizei count, float point_size, bool round, glm::vec4 override_color) {
  if (count <= 0) return;
  glUseProgram(line_program_);
  glUniformMatrix4fv(view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform1f(point_size_, point_size);
  glUniform1i(round_, round ? 1 : 0);
  glUniform4fv(override_color_, 1, glm::value_ptr(override_color));
  glBindVertexArray(vao);
  glDrawArrays(mode, first, count);
  glBindVertexArray(0);
}

void Overlays::draw_grid(const glm::mat4& view_proj) {
  draw_lines(view_proj, grid_vao_, GL_LINES, 0, grid_vertex_count_, 1.0f, false);
}

void Overlays::draw_skeleton(const glm::mat4& view_proj, int viewport_height, int selected,
                             std::span<const int> highlighted) {
  if (joint_nodes_.empty()) return;
  // Drawn through the mesh: no depth test.
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_PROGRAM_POINT_SIZE);
  draw_lines(view_proj, bone_vao_, GL_LINES, 0, bone_vertex_count_, 1.0f, false);
  const float marker = std::clamp(float(viewport_height) / 120.0f, 5.0f, 12.0f);
  draw_lines(view_proj, marker_vao_, GL_POINTS, 0, GLsizei(marker_vertices_.size()), marker, true);
  auto slot_of = [&](int node) {
    return node >= 0 && node < int(joint_slot_of_node_.size()) ? joint_slot_of_node_[node] : -1;
  };
  // Highlighted joints (a rig-doctor finding's): amber, smaller than the selection's marker.
  for (const int node : highlighted)
    if (const int s = slot_of(node); s >= 0 && node != selected)
      draw_lines(view_proj, marker_vao_, GL_POINTS, s, 1, marker * 1.4f, true,
                 glm::vec4(1.00f, 0.62f, 0.10f, 1.0f));
  // The selected joint: a larger marker in a contrasting colour, drawn last.
  const int slot = slot_of(selected);
  if (slot >= 0)
    draw_lines(view_proj, marker_vao_, GL_POINTS, slot, 1, marker * 1.8f, true,
               glm::vec4(0.20f, 0.90f, 1.00f, 1.0f));
  glDisable(GL_PROGRAM_POINT_SIZE);
  glEnable(GL_DEPTH_TEST);
}

void Overlays::draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                         const char* text) {
  unsigned char rgba[4] = {255, 255, 255, 255};
  const int quads = stb_easy_font_print(0.0f, 0.0f, const_cast<char*>(text), rgba,
                                        text_scratch_.data(), int(text_scratch_.size()));
  if (quads <= 0) return;
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  glDisable(GL_DEPTH_TEST);
  glUseProgram(text_program_);
  glUniform2f(viewport_size_, float(viewport.width), float(viewport.height));
  glUniform1f(scale_, scale);
  // Opaque (blending is off): the alpha lands in the framebuffer, and --output PNGs keep it.
  glUniform4f(color_, 0.0f, 0.0f, 0.0f, 1.0f);
  glBindVertexArray(text_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, text_vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(quads) * 4 * 16, text_scratch_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  // A dark drop shadow keeps the label readable on any background.
  glUniform2f(origin_, x + scale, y + scale);
  glDrawElements(GL_TRIANGLES, quads * 6, GL_UNSIGNED_INT, nullptr);
  glUniform4f(color_, color.r, color.g, color.b, 1.0f);
  glUniform2f(origin_, x, y);
  glDrawElements(GL_TRIANGLES, quads * 6, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
  glUseProgram(0);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace rig::render::detail
