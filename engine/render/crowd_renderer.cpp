#include "render/crowd_renderer.h"

#include <glad/gl.h>

#include <array>
#include <chrono>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "render/crowd_materials.h"
#include "render/environment_gpu.h"
#include "render/feedback_capture.h"
#include "render/gl_util.h"
#include "render/gpu_mesh.h"
#include "render/gpu_timer.h"
#include "render/materials.h"
#include "render/mesh_pass.h"
#include "render/overlays.h"
#include "render/shadow_map.h"
#include "render/skin_programs.h"

namespace rig::render {

using detail::GpuDrawItem;
using detail::MeshPass;
using detail::MeshProgram;

struct CrowdRenderer::Impl {
  bool initialized = false;
  bool owns_gl_objects = false;
  GLint max_texels = 0;
  detail::SkinPrograms programs;  // the instanced variants
  detail::Overlays overlays;
  detail::GpuTimer timer;
  detail::FeedbackCapture feedback;
  detail::GpuEnvironment environment;  // the studio look's (set_environment)

  const rig::Crowd* crowd = nullptr;
  std::vector<GpuDrawItem> items;
  // Per item: its node's rest world matrix mirrors (negative determinant), so its front faces
  // wind clockwise under the glTF shading's culling. The rest pose's, not each instance's: a
  // node's mirroring does not change with animation in practice.
  std::vector<char> mirrored;
  detail::MaterialTable materials;
  // One texture buffer per method in crowd->methods() (0 elsewhere).
  std::array<GLuint, rig::kSkinningMethodCount> palette_buffer{}, palette_texture{};
  // Every instance's world matrices of the rigid items' nodes (0 without rigid items).
  GLuint rigid_buffer = 0, rigid_texture = 0;
  detail::CrowdMaterialBuffer material_rows;  // the animated materials' values per instance
  double upload_ms = 0.0;
  // The key light's shadow: the map, the casters' bounds (the whole crowd under every clip of
  // the file, so no pose leaves the fitted frustum), the grid's height, and what the map was
  // last drawn from. pose_serial moves on with each upload of another crowd time.
  detail::ShadowMap shadow;
  Bounds caster_bounds;
  float ground_y = 0.0f;
  uint64_t pose_serial = 0;
  double uploaded_time = 0.0;
  bool uploaded = false;
  struct ShadowKey {
    uint64_t pose_serial = 0;
    rig::SkinningMethod method = rig::SkinningMethod::Linear;
    glm::mat4 light_view_proj{0.0f};
    bool alpha_cast = false;  // MASK and BLEND cut by alpha (the studio look)
    bool operator==(const ShadowKey&) const = default;
  };
  ShadowKey shadow_key;
  bool shadow_valid = false;
  uint64_t shadow_passes = 0;

  ~Impl() { release_all(); }
  void release_crowd();
  void release_all();
  void set_program(const MeshProgram& p, const GpuDrawItem& g, const rig::DrawItem& item,
                   rig::SkinningMethod method) const;
  // The program of a draw item: skinned with `method`, or rigid; for drawing, capture or the
  // depth pass.
  const MeshProgram& program(const GpuDrawItem& g, rig::SkinningMethod method, bool capture,
                             bool depth = false) const {
    return programs.get({g.skinned() ? &rig::method_info(method) : nullptr,
                         materials.get(g.material).features, true, capture, depth});
  }
  // Every item once, instanced over the crowd, through `pass` (the frame's or the depth pass's).
  // With `reference` (the glTF shading of the reference and studio looks, as Renderer's
  // draw_items): single-sided materials' back faces culled, BLEND items last, blended without
  // depth writes.
  // With `alpha_cast` (a depth pass under the studio look) MASK and BLEND materials cast cut
  // by alpha (kShadowCasts), as the single character's.
  void draw_instances(MeshPass& pass, rig::SkinningMethod method, bool depth,
                      bool reference = false, bool alpha_cast = false) const;
  // The shadow map for a light towards `to_light`, drawn again when its key changed; the
  // frame's lookup (off when nothing casts).
  detail::ShadowFrame draw_shadow_pass(glm::vec3 to_light, rig::SkinningMethod method,
                                       bool alpha_cast);
};

void CrowdRenderer::Impl::release_crowd() {
  for (GpuDrawItem& d : items) d.release();
  items.clear();
  mirrored.clear();
  materials.release();
  for (size_t m = 0; m < palette_buffer.size(); ++m) {
    if (palette_buffer[m]) glDeleteBuffers(1, &palette_buffer[m]);
    if (palette_texture[m]) glDeleteTextures(1, &palette_texture[m]);
    palette_buffer[m] = palette_texture[m] = 0;
  }
  if (rigid_buffer) glDeleteBuffers(1, &rigid_buffer);
  if (rigid_texture) glDeleteTextures(1, &rigid_texture);
  rigid_buffer = rigid_texture = 0;
  material_rows.release();
  crowd = nullptr;
  uploaded = false;
  shadow_valid = false;
}

void CrowdRenderer::Impl::release_all() {
  if (!owns_gl_objects) return;
  release_crowd();
  programs.release();
  overlays.release();
  shadow.release();
  timer.release();
  feedback.release();
  environment.release();
  owns_gl_objects = false;
  initialized = false;
}

CrowdRenderer::CrowdRenderer() : impl_(std::make_unique<Impl>()) {}
CrowdRenderer::~CrowdRenderer() = default;

bool CrowdRenderer::init(std::string& error) {
  Impl& r = *impl_;
  if (r.initialized) return true;
  r.release_all();
  r.owns_gl_objects = true;
  install_gl_debug_output();
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &r.max_texels);
  if (!r.programs.build(detail::Instancing::Crowd, 0, error)) return false;
  if (!r.overlays.init(error)) return false;
  if (!r.shadow.init(error)) return false;
  r.timer.init();
  // The same stand-in as Renderer's until the caller's environment arrives.
  r.environment.upload(constant_prefiltered_environment(glm::vec3(0.4f)));
  check_gl_errors("CrowdRenderer::init");
  r.initialized = true;
  return true;
}

bool CrowdRenderer::set_crowd(const rig::Crowd& crowd, std::string& error) {
  Impl& r = *impl_;
  if (!r.initialized) {
    error = "the crowd renderer is not initialized";
    return false;
  }
  r.release_crowd();
  const rig::Model& model = crowd.model();
  for (rig::SkinningMethod m : crowd.methods()) {
    const uint64_t texels = uint64_t(crowd.count()) * crowd.instance_rows(m);
    if (texels > uint64_t(r.max_texels)) {
      error = std::to_string(crowd.count()) + " instances need " + std::to_string(texels) +
              " palette texels, more than the GPU's texture buffer size (" +
              std::to_string(r.max_texels) + ")";
      return false;
    }
    if (texels > 0)
      create_texture_buffer(texels, r.palette_buffer[size_t(m)], r.palette_texture[size_t(m)]);
  }
  if (const uint64_t texels = uint64_t(crowd.rigid_matrices().size()); texels > 0) {
    if (texels > uint64_t(r.max_texels)) {
      error = std::to_string(crowd.count()) + " instances need " + std::to_string(texels) +
              " rigid-matrix texels, more than the GPU's texture buffer size (" +
              std::to_string(r.max_texels) + ")";
      r.release_crowd();
      return false;
    }
    create_texture_buffer(texels, r.rigid_buffer, r.rigid_texture);
  }

  if (!r.material_rows.create(crowd, r.max_texels, error)) {
    r.release_crowd();
    return false;
  }
  r.materials.create(model);

  const rig::SkinMeshes& meshes = crowd.shared_skin_layer()->meshes();
  r.items.resize(model.draws.size());
  r.mirrored.assign(model.draws.size(), 0);
  const std::vector<glm::mat4> rest = rest_world_matrices(model);
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    r.mirrored[d] = glm::determinant(glm::mat3(rest[size_t(item.node)])) < 0.0f;
    const rig::Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    const rig::SkinMesh& skin = meshes.get(item.mesh, item.primitive);
    r.items[d].create(prim, skin, item.skin >= 0 && skin.skinned());
  }
  r.crowd = &crowd;
  // The ground under the whole crowd: instance 0's pose repeated over the grid.
  rig::Character first(model, crowd.shared_skin_layer());
  first.evaluate(rig::Crowd::selection(crowd.clips(), crowd.instance(0), crowd.time()));
  const BindBoxes boxes = bind_boxes(model, meshes);
  const Bounds one = posed_bounds(model, boxes, first.world());
  const Bounds ground = crowd_bounds(crowd, one);
  r.overlays.set_ground(ground);
  r.ground_y = ground.valid() ? ground.min.y : -1.0f;  // where Overlays puts the grid
  // The shadow's casters: one character under every clip it may play (the file's), repeated
  // over the grid.
  Bounds every = one;
  for (size_t c = 0; c < first.clips().size(); ++c)
    every.add(clip_bounds(first, rig::PoseSelection{int(c)}));
  r.caster_bounds = crowd_bounds(crowd, every);
  upload(crowd);
  check_gl_errors("CrowdRenderer::set_crowd");
  return true;
}

void CrowdRenderer::set_environment(const PrefilteredEnvironment& environment) {
  Impl& r = *impl_;
  if (!r.initialized || environment.empty()) return;
  r.environment.upload(environment);
}

void CrowdRenderer::upload(const rig::Crowd& crowd) {
  Impl& r = *impl_;
  if (r.crowd != &crowd) return;
  const auto start = std::chrono::steady_clock::now();
  if (!r.uploaded || crowd.time() != r.uploaded_time) ++r.pose_serial;
  r.uploaded = true;
  r.uploaded_time = crowd.time();
  for (rig::SkinningMethod m : crowd.methods())
    stream_texture_buffer(r.palette_buffer[size_t(m)], crowd.palettes(m).data(),
                          crowd.palettes(m).size_bytes());
  stream_texture_buffer(r.rigid_buffer, crowd.rigid_matrices().data(),
                        crowd.rigid_matrices().size_bytes());
  r.material_rows.upload(crowd);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  r.upload_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  check_gl_errors("CrowdRenderer::upload");
}

void CrowdRenderer::Impl::set_program(const MeshProgram& p, const GpuDrawItem& g,
                                      const rig::DrawItem& item, rig::SkinningMethod method) const {
  const int columns = rig::Crowd::grid_columns(crowd->count());
  glUniform1i(p.grid_columns, columns);
  glUniform1i(p.grid_rows, (crowd->count() + columns - 1) / columns);
  glUniform1f(p.grid_spacing, crowd->spacing());
  material_rows.bind(p, *crowd, g.material);
  if (g.skinned()) {
    detail::place_skinned(p, g.influences,
                          GLint(crowd->model().skins[size_t(item.skin)].joints.size()));
    glUniform1i(p.instance_stride, GLint(crowd->instance_rows(method)));
    glUniform1i(p.palette_base, GLint(crowd->skin_first_row(item.skin, method)));
    glActiveTexture(GL_TEXTURE0 + detail::kPaletteUnit);
    glBindTexture(GL_TEXTURE_BUFFER, palette_texture[size_t(method)]);
    glActiveTexture(GL_TEXTURE0);
  } else {
    glUniform1i(p.rigid_stride, GLint(crowd->rigid_rows_per_instance()));
    glUniform1i(p.rigid_base, GLint(crowd->rigid_slot(item.node)) * 4);
    glActiveTexture(GL_TEXTURE0 + detail::kPaletteUnit);
    glBindTexture(GL_TEXTURE_BUFFER, rigid_texture);
    glActiveTexture(GL_TEXTURE0);
  }
}

void CrowdRenderer::Impl::draw_instances(MeshPass& pass, rig::SkinningMethod method, bool depth,
                                         bool reference, bool alpha_cast) const {
  // Skinned items need this method's palettes (a rigid-only model has none at all).
  const bool palettes = palette_texture[size_t(method)] != 0;
  const GLsizei instances = GLsizei(crowd->count());
  auto draw_item = [&](size_t d) {
    const GpuDrawItem& g = items[d];
    const detail::GpuMaterial& material = materials.get(g.material, reference);
    if (reference) detail::cull_faces_for(material, mirrored[d] != 0);
    const bool cut = depth && alpha_cast && detail::shadow_cast(material).alpha_tested;
    const MeshProgram& p = programs.get({g.skinned() ? &rig::method_info(method) : nullptr,
                                         material.features, true, false, depth, cut});
    pass.use(p);
    set_program(p, g, crowd->model().draws[d], method);
    pass.draw(g, material, nullptr, instances);
  };
  auto blended = [&](size_t d) {
    return reference && materials.get(items[d].material, true).alpha_mode == rig::AlphaMode::Blend;
  };
  bool any_blended = false;
  for (size_t d = 0; d < items.size(); ++d) {
    if (items[d].skinned() && !palettes) continue;
    if (blended(d)) {
      any_blended = true;
      continue;
    }
    draw_item(d);
  }
  if (any_blended) {
    // Renderer's transparent pass: colour src·a + dst·(1 − a), alpha a + dst·(1 − a).
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    for (size_t d = 0; d < items.size(); ++d)
      if (!(items[d].skinned() && !palettes) && blended(d)) draw_item(d);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
  pass.end();
  glDisable(GL_CULL_FACE);
  glFrontFace(GL_CCW);
}

detail::ShadowFrame CrowdRenderer::Impl::draw_shadow_pass(glm::vec3 to_light,
                                                          rig::SkinningMethod method,
                                                          bool alpha_cast) {
  if (!shadow.fit(caster_bounds, to_light)) return {};
  const ShadowKey key{pose_serial, method, shadow.light_view_proj(), alpha_cast};
  if (!shadow_valid || !(key == shadow_key)) {
    // ShadowMap::begin() turns the scissor off; the caller's state is put back after.
    const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
    shadow.begin();
    MeshPass pass(
        {shadow.light_view_proj(), glm::vec3(0.0f), detail::Lighting{}, true, glm::vec4(0.0f)});
    draw_instances(pass, method, true, false, alpha_cast);
    shadow.end();
    if (scissor) glEnable(GL_SCISSOR_TEST);
    shadow_key = key;
    shadow_valid = true;
    ++shadow_passes;
  }
  return shadow.frame();
}

void CrowdRenderer::draw(const Camera& camera, const Viewport& viewport, rig::SkinningMethod method,
                         const CrowdDrawOptions& options) {
  Impl& r = *impl_;
  if (!r.initialized || !r.crowd) return;
  r.timer.begin();
  const glm::vec3 key =
      glm::length(options.key_light) > 0.0f ? glm::normalize(options.key_light) : glm::vec3(0.0f);
  const detail::Lighting lighting = detail::Lighting::for_frame(camera, options.lights, key);
  // As the single character: the classic and studio looks have the key light's shadow, the
  // reference scene none; the studio look's glTF shading cuts MASK and BLEND surfaces by
  // alpha, and so does their shadow, while the classic look draws and casts them whole.
  const bool keyed = options.lights == LightSetup::Viewer || options.lights == LightSetup::Studio;
  const bool alpha_cast = options.lights == LightSetup::Studio;
  const detail::ShadowFrame shadow =
      options.shadows && keyed ? r.draw_shadow_pass(lighting.key_direction, method, alpha_cast)
                               : detail::ShadowFrame{};
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glDisable(GL_FRAMEBUFFER_SRGB);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  const glm::mat4 view_proj = camera.projection * camera.view;
  if (options.grid) {
    if (shadow.enabled) r.shadow.draw_catcher(view_proj, r.ground_y);
    r.overlays.draw_grid(view_proj);
  }
  MeshPass pass({view_proj, camera.eye, lighting, false, glm::vec4(0.0f), r.materials.dfg_texture(),
                 shadow, detail::StudioFrame::make(r.environment, options.look)});
  r.draw_instances(pass, method, false, options.lights != LightSetup::Viewer);
  glUseProgram(0);
  r.timer.end();
  check_gl_errors("CrowdRenderer::draw");
}

bool CrowdRenderer::read_back(size_t draw_index, rig::SkinningMethod method,
                              std::span<glm::vec3> positions, std::span<glm::vec3> normals,
                              std::string& error) {
  Impl& r = *impl_;
  if (!r.crowd || draw_index >= r.items.size()) {
    error = "no crowd draw item " + std::to_string(draw_index);
    return false;
  }
  const GpuDrawItem& g = r.items[draw_index];
  const size_t n = size_t(g.vertex_count) * size_t(r.crowd->count());
  if (positions.size() != n || normals.size() != n) {
    error = "read-back spans do not match vertex count × instances";
    return false;
  }
  if (g.skinned() && !r.palette_texture[size_t(method)]) {
    error = std::string("the crowd has no ") + rig::method_info(method).label + " palettes";
    return false;
  }
  if (n == 0) return true;
  const MeshProgram& p = r.program(g, method, true);
  glUseProgram(p.id);
  glUniformMatrix4fv(p.view_proj, 1, GL_FALSE, glm::value_ptr(glm::mat4(1.0f)));
  r.set_program(p, g, r.crowd->model().draws[draw_index], method);
  const uint64_t errors_before = rig::render::gl_error_count();
  r.feedback.capture(g.vao, g.vertex_count, positions, normals, GLsizei(r.crowd->count()));
  glUseProgram(0);
  check_gl_errors("CrowdRenderer::read_back");
  if (rig::render::gl_error_count() != errors_before) {
    error = "the GL reported an error during the crowd read-back";
    return false;
  }
  return true;
}

double CrowdRenderer::upload_ms() const { return impl_->upload_ms; }
uint64_t CrowdRenderer::shadow_passes_drawn() const { return impl_->shadow_passes; }
double CrowdRenderer::gpu_time_ms() const { return impl_->timer.last_ms(); }
uint64_t CrowdRenderer::gl_error_count() const { return rig::render::gl_error_count(); }

Bounds crowd_bounds(const rig::Crowd& crowd, const Bounds& one) {
  Bounds all;
  if (!one.valid()) return all;
  for (int k = 0; k < crowd.count(); ++k) {
    const glm::vec3 o = crowd.offset(k);
    all.add(one.min + o);
    all.add(one.max + o);
  }
  return all;
}

}  // namespace rig::render
