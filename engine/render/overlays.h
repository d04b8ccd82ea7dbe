// Overlays drawn with the line and text programs: the ground grid, the skeleton (bones and
// joint markers) and bitmap text (stb_easy_font).
#pragma once

#include <glad/gl.h>

#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "model/model.h"
#include "render/camera.h"

namespace rig::render::detail {

class Overlays {
 public:
  bool init(std::string& error);  // programs and buffers; allocates
  void release();

  // Ground grid at height bounds.min.y, sized to the bounds' footprint.
  void set_ground(const Bounds& bounds);
  // Skeleton of `model`: every joint node, linked to its nearest joint ancestor. Allocates.
  void set_model(const rig::Model& model);
  void clear_model();
  // Bone and marker positions from node world matrices. No allocation.
  void update_skeleton(std::span<const glm::mat4> world);

  void draw_grid(const glm::mat4& view_proj);
  // Bones and markers, drawn through the mesh; `selected_node` highlighted, `highlighted` nodes
  // (others than it) with a smaller amber highlight.
  void draw_skeleton(const glm::mat4& view_proj, int viewport_height, int selected_node,
                     std::span<const int> highlighted = {});
  bool has_skeleton() const { return !joint_nodes_.empty(); }
  void draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                 const char* text);

 private:
  struct LineVertex {
    glm::vec3 position;
    glm::vec4 color;
  };
  void draw_lines(const glm::mat4& view_proj, GLuint vao, GLenum mode, GLint first, GLsizei count,
                  float point_size, bool round, glm::vec4 override_color = glm::vec4(0.0f));

  GLuint line_program_ = 0;
  GLint view_proj_ = -1, point_size_ = -1, round_ = -1, override_color_ = -1;
  GLuint text_program_ = 0;
  GLint viewport_size_ = -1, origin_ = -1, scale_ = -1, color_ = -1;

  std::vector<int> joint_nodes_;
  std::vector<int> joint_parent_slot_;   // index into joint_nodes_, -1 at skeleton roots
  std::vector<int> joint_slot_of_node_;  // per node: index into joint_nodes_, -1 for non-joints
  std::vector<LineVertex> bone_vertices_, marker_vertices_;
  GLuint bone_vao_ = 0, bone_vbo_ = 0, marker_vao_ = 0, marker_vbo_ = 0;
  GLsizei bone_vertex_count_ = 0;
  GLuint grid_vao_ = 0, grid_vbo_ = 0;
  GLsizei grid_vertex_count_ = 0;
  GLuint text_vao_ = 0, text_vbo_ = 0, text_ebo_ = 0;
  std::vector<char> text_scratch_;
};

}  // namespace rig::render::detail
