// The mesh pass of both renderers: draws one draw item with its program variant, the frame's
// camera and light, its material (render/materials.h), an optional scalar field, and its mesh,
// once or instanced. Where the item's vertices come from (a skin's palette, a node matrix, a
// crowd's texture buffers) is the caller's part, set between use() and draw().
//
//   MeshPass pass(frame);
//   for each item:  pass.use(program);  <placement uniforms>;  pass.draw(item, material, field);
//   pass.end();
#pragma once

#include <glad/gl.h>

#include <glm/glm.hpp>

#include "analysis/scalar_field.h"
#include "render/environment_gpu.h"
#include "render/gpu_mesh.h"
#include "render/materials.h"
#include "render/skin_programs.h"

namespace rig::render::detail {

struct MeshPassFrame {
  glm::mat4 view_proj{1.0f};
  glm::vec3 eye{0.0f};
  Lighting lighting;
  // One colour for every item (the wireframe overlay): no material, no field, triangles only.
  bool flat = false;
  glm::vec4 flat_color{0.0f};
  GLuint dfg_texture = 0;  // the reference shading's DFG table (MaterialTable::dfg_texture)
  ShadowFrame shadow;      // the key light's shadow map (off: every point lit)
  StudioFrame studio;      // the studio look's environment and settings (LightSetup::Studio)
  // The vertex shader's snapping grid: viewport width, height, steps per pixel (0: none).
  glm::vec3 subpixel_grid{0.0f};
};

class MeshPass {
 public:
  explicit MeshPass(const MeshPassFrame& frame) : frame_(frame) {}
  MeshPass(const MeshPass&) = delete;
  MeshPass& operator=(const MeshPass&) = delete;

  // Makes `p` current; the frame's uniforms are set when it was not already.
  void use(const MeshProgram& p);
  // Draws `g` with the current program: material and field (nullptr: none; a field colours the
  // surface instead of the base colour) unless the pass is flat (an alpha-tested depth program
  // gets the material's alpha inputs alone), then the mesh: one draw, or
  // `instances` copies in one instanced draw (instances > 0). No allocation.
  void draw(const GpuDrawItem& g, const GpuMaterial& material,
            const rig::analysis::ScalarField* field, GLsizei instances = 0);
  // Unbinds the vertex array and leaves texture unit 0 active.
  void end();

 private:
  void set_reference_material(const MeshProgram& p, const GpuMaterial& m);
  // An alpha-tested depth program's inputs: base colour, its texture, set, transform and
  // sampler, and the cut of the material's ShadowCast.
  void set_cast_material(const MeshProgram& p, const GpuMaterial& m);
  MeshPassFrame frame_;
  const MeshProgram* bound_ = nullptr;
  bool cast_sampler_bound_ = false;  // set_cast_material bound a sampler object: end() unbinds
};

// Placement of a plain (not instanced) draw: a skinned item's influence count and joint count
// (the caller binds the palette), or a rigid item's node matrix and normal matrix.
void place_skinned(const MeshProgram& p, int influences, GLint joints);
// glTF's face culling, for both renderers under the reference and studio shading: a double-sided
// material draws both faces; a single-sided one culls back faces, counter-clockwise front, or
// clockwise under a mirroring node transform (`mirrored`), as three.js flips it.
void cull_faces_for(const GpuMaterial& material, bool mirrored);
void place_rigid(const MeshProgram& p, const glm::mat4& world, const glm::mat3& normal_matrix);

}  // namespace rig::render::detail
