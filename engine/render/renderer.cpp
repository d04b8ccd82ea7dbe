// The renderer: owns the GPU resources (gpu_mesh, gpu_palette, skin_programs, materials,
// overlays, gpu_timer, feedback_capture) and keeps the pass order of a frame: grid, surfaces
// (the mesh pass, with an optional scalar field), wireframe, skeleton; compare columns; text.
#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "anim/pose.h"
#include "render/feedback_capture.h"
#include "render/gl_util.h"
#include "render/gpu_mesh.h"
#include "render/gpu_palette.h"
#include "render/gpu_timer.h"
#include "render/materials.h"
#include "render/mesh_pass.h"
#include "render/overlays.h"
#include "render/renderer_impl.h"
#include "render/skin_programs.h"

namespace rig::render {

using detail::GpuDrawItem;
using detail::GpuSkin;
using detail::MeshPass;
using detail::MeshProgram;
using detail::StaticVertex;

namespace {

// Uniform-block palettes are allocated at the block's full size, so the driver's
// GL_MAX_UNIFORM_BLOCK_SIZE (2 GiB on some) is capped; 64 KiB is what most GPUs offer anyway.
constexpr uint32_t kMaxPaletteUniformBytes = 65536;
constexpr uint32_t kMinPaletteUniformBytes = 16384;  // GL 3.3's minimum block size
constexpr uint32_t kAllMethods = (1u << rig::kSkinningMethodCount) - 1u;

}  // namespace

Renderer::Renderer(const RendererConfig& config) : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
}

Renderer::~Renderer() = default;

bool Renderer::init(std::string& error) {
  Impl& r = *impl_;
  if (r.initialized) return true;
  r.release_all();  // what an earlier, failed init() created
  r.owns_gl_objects = true;
  install_gl_debug_output();
  GLint max_block = 0;
  glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &max_block);
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &r.max_texture_buffer_texels);
  // max_block < 0: a driver whose 2^31 overflowed GLint.
  uint32_t limit = max_block > 0 ? static_cast<uint32_t>(max_block) : kMinPaletteUniformBytes;
  limit = std::clamp(limit, kMinPaletteUniformBytes, kMaxPaletteUniformBytes);
  if (r.config.palette_uniform_limit_bytes > 0)
    limit = std::min(limit, r.config.palette_uniform_limit_bytes);
  limit = std::max<uint32_t>(limit / 16u, 1u) * 16u;
  r.palette_limit_bytes = limit;

  if (!r.programs.build(detail::Instancing::Off, limit / 16u, error)) return false;
  if (!r.overlays.init(error)) return false;
  if (!r.shadow.init(error)) return false;
  r.timer.init();
  // A uniform mid grey until the caller's environment arrives (the viewer prefilters its own
  // off the UI thread).
  r.environment.upload(constant_prefiltered_environment(glm::vec3(0.4f)));
  check_gl_errors("Renderer::init");
  r.initialized = true;
  return true;
}

void Renderer::Impl::release_model() {
  cpu_skinning = false;
  for (GpuDrawItem& d : items) d.release();
  items.clear();
  for (GpuSkin& s : skins) s.release();
  skins.clear();
  materials.release();
  overlays.clear_model();
  item_has_field.clear();
  uploaded_field = nullptr;
  uploaded_revision = 0;
  own_field = {};
  own_view = WeightView::Off;
  own_joint_node = -1;
  character = nullptr;
  stale_palettes = 0;
  skin.reset();
  boxes = {};
  caster_bounds = {};
  items_of_primitive.clear();
  model = nullptr;
  shadow_valid = false;
  last_world.clear();
  last_morph_weights.clear();
  ++pose_serial;
}

void Renderer::Impl::release_all() {
  if (!owns_gl_objects) return;
  release_model();
  programs.release();
  overlays.release();
  shadow.release();
  timer.release();
  feedback.release();
  environment.release();
  owns_gl_objects = false;
  initialized = false;
}

bool Renderer::set_model(const rig::Model& model, std::string& error) {
  return set_model(model, nullptr, error);
}

bool Renderer::set_model(const rig::Model& model, std::shared_ptr<const rig::SkinLayer> skin,
                         std::string& error) {
  Impl& r = *impl_;
  if (!r.initialized) {
    error = "the renderer is not initialized";
    return false;
  }
  r.release_model();
  if (!skin) skin = std::make_shared<const rig::SkinLayer>(model);
  r.model = &model;
  r.skin = std::move(skin);
  r.synced_revision = r.skin->revision();
  r.synced_centers = r.skin->rotation_centers_revision();
  r.items_of_primitive.assign(r.skin->meshes().primitives.size(), {});

  // Skins: a palette buffer per method.
  r.skins.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s) {
    if (!r.skins[s].create(static_cast<uint32_t>(model.skins[s].joints.size()),
                           r.palette_limit_bytes, r.programs.palette_block_bytes(),
                           r.max_texture_buffer_texels, error)) {
      r.release_model();
      return false;
    }
  }

  r.materials.create(model);

  // Draw items: one VAO each (morph weights and node matrices are per node).
  size_t max_morph_vertices = 0, max_morph_tangents = 0, max_vertices = 0;
  r.items.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    const rig::SkinMesh& skin = r.skin->get(item.mesh, item.primitive);
    GpuDrawItem& g = r.items[d];
    g.create(prim, skin, item.skin >= 0 && skin.skinned());
    const size_t index = r.skin->meshes().first_of_mesh[size_t(item.mesh)] + size_t(item.primitive);
    r.items_of_primitive[index].push_back(uint32_t(d));
    max_vertices = std::max<size_t>(max_vertices, prim.vertex_count());
    if (g.morphed) max_morph_vertices = std::max<size_t>(max_morph_vertices, prim.vertex_count());
    if (g.morphed_tangents)
      max_morph_tangents = std::max<size_t>(max_morph_tangents, prim.vertex_count());
  }
  r.morph_tangents.assign(max_morph_tangents, glm::vec4(0.0f));
  r.morph_positions.assign(max_morph_vertices, glm::vec3(0.0f));
  r.morph_normals.assign(max_morph_vertices, glm::vec3(0.0f));
  r.morph_interleaved.assign(max_morph_vertices * 6, 0.0f);
  r.item_has_field.assign(model.draws.size(), 0);
  r.blend_order.reserve(model.draws.size());
  r.field_scratch.assign(max_vertices * 2, 0.0f);
  r.static_scratch.assign(max_vertices, StaticVertex{});

  r.overlays.set_model(model);
  r.boxes = bind_boxes(model, r.skin->meshes());
  check_gl_errors("Renderer::set_model");

  // A first state (the rest pose) so draw() works before the first update(), and the ground:
  // from the rest world matrices, without a Character.
  const std::vector<glm::mat4> world = rig::render::rest_world_matrices(model);
  std::vector<glm::mat4> skinning;
  std::vector<glm::vec4> rows;
  for (size_t s = 0; s < model.skins.size(); ++s) {
    skinning.resize(model.skins[s].joints.size());
    rig::compute_skinning_matrices(model.skins[s].joints, r.skin->inverse_bind(s), world, skinning);
    for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
      rows.resize(skinning.size() * m.palette_rows);
      m.write_palette(skinning, rows);
      r.skins[s].upload(m.method, rows);
    }
  }
  r.upload_state(world, model.rest_morph_weights);
  set_ground(r.caster_bounds);
  return true;
}

void Renderer::clear_model() { impl_->release_model(); }

const rig::SkinLayer* Renderer::skin_layer() const { return impl_->skin.get(); }

uint64_t Renderer::influence_vertices_uploaded() const {
  return impl_->influence_vertices_uploaded;
}

void Renderer::Impl::upload_influence_range(uint32_t primitive, uint32_t begin, uint32_t end) {
  if (primitive >= items_of_primitive.size()) return;
  const rig::SkinMesh& mesh = skin->meshes().primitives[primitive];
  for (uint32_t d : items_of_primitive[primitive]) {
    const rig::DrawItem& item = model->draws[d];
    const rig::Primitive& prim =
        model->meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    items[d].upload_influences(prim, mesh, begin, end, static_scratch);
    if (items[d].skinned() && end > begin) influence_vertices_uploaded += end - begin;
  }
}

void Renderer::Impl::sync_skin() {
  if (!skin || skin->revision() == synced_revision) return;
  const bool ranged = skin->for_each_edit_since(synced_revision, [&](const rig::SkinEditRange& e) {
    upload_influence_range(e.primitive, e.begin, e.end);
  });
  if (!ranged)
    for (uint32_t p = 0; p < items_of_primitive.size(); ++p)
      upload_influence_range(p, 0, skin->meshes().primitives[p].vertex_count);
  if (skin->rotation_centers_revision() != synced_centers) {
    for (size_t d = 0; d < items.size(); ++d) {
      const rig::DrawItem& item = model->draws[d];
      items[d].upload_rotation_centers(skin->get(item.mesh, item.primitive));
    }
    synced_centers = skin->rotation_centers_revision();
  }
  // The weight view shows weights: remade on its next use (its revision moves on, so it is
  // uploaded again).
  if (skin->weights_revision() > synced_revision) own_view = WeightView::Off;
  synced_revision = skin->revision();
  ++pose_serial;  // influences, centres or inverse binds changed: so may the shadow's shape
  check_gl_errors("Renderer::sync_skin");
}

void Renderer::set_environment(const PrefilteredEnvironment& environment) {
  Impl& r = *impl_;
  if (!r.initialized || environment.empty()) return;
  r.environment.upload(environment);
}

uint64_t Renderer::environment_revision() const { return impl_->environment.revision(); }

void Renderer::set_ground(const Bounds& bounds) {
  Impl& r = *impl_;
  if (!r.initialized) return;
  r.overlays.set_ground(bounds);
  r.ground_y = bounds.valid() ? bounds.min.y : -1.0f;  // where Overlays puts the grid
  check_gl_errors("Renderer::set_ground");
}

void Renderer::Impl::upload_state(std::span<const glm::mat4> world,
                                  std::span<const float> morph_weights) {
  const rig::Model& m = *model;
  for (size_t d = 0; d < items.size(); ++d) {
    GpuDrawItem& g = items[d];
    const rig::DrawItem& item = m.draws[d];
    // Same normal matrix as Character::skin_draw_item computes for rigid items.
    g.world = world[item.node];
    g.normal_matrix = glm::transpose(glm::inverse(glm::mat3(g.world)));
    if (!g.morphed) continue;
    const rig::Primitive& prim = m.meshes[item.mesh].primitives[item.primitive];
    const rig::Node& node = m.nodes[size_t(item.node)];
    const size_t n = prim.vertex_count();
    std::span<glm::vec3> pos(morph_positions.data(), n), nrm(morph_normals.data(), n);
    rig::apply_morph_targets(prim, morph_weights.subspan(node.morph_offset, node.morph_count), pos,
                             nrm);
    for (size_t v = 0; v < n; ++v) {
      std::memcpy(&morph_interleaved[v * 6], &pos[v], sizeof(glm::vec3));
      std::memcpy(&morph_interleaved[v * 6 + 3], &nrm[v], sizeof(glm::vec3));
    }
    g.upload_positions(std::span<const float>(morph_interleaved.data(), n * 6));
    if (g.morphed_tangents) {
      const std::span<glm::vec4> tangents(morph_tangents.data(), n);
      rig::apply_morph_tangents(prim, morph_weights.subspan(node.morph_offset, node.morph_count),
                                tangents);
      g.upload_tangents(tangents);
    }
  }
  overlays.update_skeleton(world);
  caster_bounds = posed_bounds(m, boxes, world);
  note_pose(world, morph_weights);
}

void Renderer::Impl::note_pose(std::span<const glm::mat4> world,
                               std::span<const float> morph_weights) {
  if (std::equal(world.begin(), world.end(), last_world.begin(), last_world.end()) &&
      std::equal(morph_weights.begin(), morph_weights.end(), last_morph_weights.begin(),
                 last_morph_weights.end()))
    return;
  ++pose_serial;
  last_world.assign(world.begin(), world.end());
  last_morph_weights.assign(morph_weights.begin(), morph_weights.end());
}

void Renderer::Impl::ensure_palettes(rig::SkinningMethod method) {
  const uint32_t bit = 1u << uint32_t(method);
  if (!(stale_palettes & bit)) return;
  stale_palettes &= ~bit;
  if (!character) return;
  for (size_t s = 0; s < skins.size(); ++s) {
    if (skins[s].joints == 0) continue;
    skins[s].upload(method, character->palette(int(s), method));
    ++palette_upload_count[size_t(method)];
  }
}

void Renderer::update(const rig::Character& character) {
  Impl& r = *impl_;
  if (!r.model || &character.model() != r.model) return;
  r.character = &character;
  r.sync_skin();
  r.stale_palettes = kAllMethods;
  r.upload_state(character.world(), character.pose().morph_weights);
  r.materials.apply(character.material_pose());
  check_gl_errors("Renderer::update");
}

void Renderer::update(const rig::Character& character,
                      std::span<const rig::SkinningMethod> methods) {
  update(character);
  for (rig::SkinningMethod m : methods) impl_->ensure_palettes(m);
}

void Renderer::clear(const Viewport& viewport, glm::vec3 color) {
  clear(viewport, glm::vec4(color, 1.0f));
}

void Renderer::clear(const Viewport& viewport, glm::vec4 color) {
  glEnable(GL_SCISSOR_TEST);
  glScissor(viewport.x, viewport.y, viewport.width, viewport.height);
  glClearColor(color.r, color.g, color.b, color.a);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::clear");
}

const rig::analysis::ScalarField* Renderer::Impl::active_field(const DrawOptions& options) {
  if (options.field) return options.field;
  if (options.weight_view == WeightView::Off) return nullptr;
  const int joint =
      options.weight_view == WeightView::SelectedJoint ? options.weight_joint_node : -1;
  if (own_field.revision == 0 || options.weight_view != own_view || joint != own_joint_node) {
    own_view = options.weight_view;
    own_joint_node = joint;
    if (own_view == WeightView::SelectedJoint) {
      rig::analysis::fill_joint_weights(*model, skin->meshes(), joint, own_field.values);
      own_field.map = rig::analysis::ColorMap::Heat;
      own_field.min = 0.0f;
      own_field.max = 1.0f;
    } else {
      rig::analysis::fill_influence_counts(*model, skin->meshes(), own_field.values);
      own_field.map = rig::analysis::ColorMap::Categorical;
      own_field.min = 0.0f;
      own_field.max = float(rig::kMaxInfluences);
    }
    ++own_field.revision;
  }
  return &own_field;
}

void Renderer::Impl::upload_field(const rig::analysis::ScalarField* field) {
  if (!field || (field == uploaded_field && field->revision == uploaded_revision)) return;
  uploaded_field = field;
  uploaded_revision = field->revision;
  for (size_t d = 0; d < items.size(); ++d) {
    const bool has = d < field->values.size() && !field->values[d].empty();
    item_has_field[d] = has ? 1 : 0;
    if (has) items[d].upload_field(field->values[d], field_scratch);
  }
}

void Renderer::Impl::draw_items(const Camera& camera, rig::SkinningMethod method, bool flat,
                                glm::vec4 flat_color, const rig::analysis::ScalarField* field,
                                LightSetup lights) {
  const rig::Model& m = *model;
  const rig::SkinningMethodInfo& info = rig::method_info(method);
  ensure_palettes(method);
  const bool reference = lights != LightSetup::Viewer && !flat;
  MeshPass pass({camera.projection * camera.view, camera.eye,
                 lighting(camera, flat ? LightSetup::Viewer : lights), flat, flat_color,
                 materials.dfg_texture(), flat ? detail::ShadowFrame{} : frame_shadow, studio_frame,
                 subpixel_grid});
  auto draw_item = [&](size_t d) {
    const GpuDrawItem& g = items[d];
    const rig::DrawItem& item = m.draws[d];
    const GpuSkin* skin = g.skinned() ? &skins[item.skin] : nullptr;
    const bool tbo = skin && skin->uses_texture_buffer(method);
    const detail::GpuMaterial& material = materials.get(g.material, reference);
    if (reference) detail::cull_faces_for(material, glm::determinant(glm::mat3(g.world)) < 0.0f);
    // The depth pass: the material's alpha cut where the frame's shading cuts by alpha.
    const bool alpha_cast = depth_pass && depth_alpha && detail::shadow_cast(material).alpha_tested;
    const MeshProgram& p = programs.get(
        {skin ? &info : nullptr, material.features, tbo, false, depth_pass, alpha_cast});
    pass.use(p);
    if (skin) {
      detail::place_skinned(p, g.influences, GLint(skin->joints));
      skin->bind(method);
    } else {
      detail::place_rigid(p, g.world, g.normal_matrix);
    }
    pass.draw(g, material, field && item_has_field[d] ? field : nullptr);
  };
  // Under the reference shading BLEND materials come after everything else, back to front by
  // their node origin's depth, blended into the framebuffer without writing depth (three.js's
  // transparent pass: colour src·a + dst·(1 − a), alpha a + dst·(1 − a)).
  const glm::mat4 view_proj = camera.projection * camera.view;
  blend_order.clear();
  for (size_t d = 0; d < items.size(); ++d) {
    if (reference && materials.get(items[d].material, true).alpha_mode == rig::AlphaMode::Blend) {
      const glm::vec4 clip = view_proj * items[d].world[3];
      blend_order.push_back({clip.w != 0.0f ? clip.z / clip.w : clip.z, uint32_t(d)});
      continue;
    }
    draw_item(d);
  }
  if (!blend_order.empty()) {
    std::sort(blend_order.begin(), blend_order.end(),
              [](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
              });
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    for (const std::pair<float, uint32_t>& entry : blend_order) draw_item(entry.second);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
  pass.end();
  glDisable(GL_CULL_FACE);
  glFrontFace(GL_CCW);
}

void Renderer::Impl::draw_cpu_items(const Camera& camera, bool flat, glm::vec4 flat_color,
                                    const rig::analysis::ScalarField* field) {
  MeshPass pass({camera.projection * camera.view, camera.eye, lighting(camera, LightSetup::Viewer),
                 flat, flat_color, 0, flat ? detail::ShadowFrame{} : frame_shadow});
  const glm::mat4 identity(1.0f);
  for (size_t d = 0; d < items.size(); ++d) {
    // The item as drawn from the CPU's vertices: its own buffers but the second vertex array.
    GpuDrawItem g = items[d];
    if (!g.cpu_vao) continue;
    g.vao = g.cpu_vao;
    const detail::GpuMaterial& material = materials.get(g.material);
    const MeshProgram& p = programs.get({nullptr, material.features, false, false, depth_pass});
    pass.use(p);
    detail::place_rigid(p, identity, glm::mat3(identity));
    pass.draw(g, material, field && item_has_field[d] ? field : nullptr);
  }
  pass.end();
}

void Renderer::set_cpu_skinning(bool on) {
  Impl& r = *impl_;
  if (!r.initialized || r.cpu_skinning == on) return;
  size_t largest = 0;
  for (GpuDrawItem& g : r.items) {
    g.set_cpu_copy(on);
    largest = std::max(largest, size_t(g.vertex_count));
  }
  r.cpu_interleaved.assign(on ? largest * 6 : 0, 0.0f);
  r.cpu_skinning = on;
  ++r.pose_serial;
  check_gl_errors("Renderer::set_cpu_skinning");
}

bool Renderer::cpu_skinning() const { return impl_->cpu_skinning; }

void Renderer::upload_cpu_skinned(size_t draw_index, std::span<const glm::vec3> positions,
                                  std::span<const glm::vec3> normals) {
  Impl& r = *impl_;
  if (!r.cpu_skinning || draw_index >= r.items.size()) return;
  const GpuDrawItem& g = r.items[draw_index];
  const size_t n = size_t(g.vertex_count);
  if (positions.size() != n || normals.size() != n || n * 6 > r.cpu_interleaved.size()) return;
  for (size_t v = 0; v < n; ++v) {
    std::memcpy(&r.cpu_interleaved[v * 6], &positions[v], sizeof(glm::vec3));
    std::memcpy(&r.cpu_interleaved[v * 6 + 3], &normals[v], sizeof(glm::vec3));
  }
  g.upload_cpu_positions(std::span<const float>(r.cpu_interleaved.data(), n * 6));
  ++r.pose_serial;
}

void Renderer::draw(const Camera& camera, const Viewport& viewport, const DrawOptions& options) {
  Impl& r = *impl_;
  if (!r.initialized) return;
  r.key_override =
      glm::length(options.key_light) > 0.0f ? glm::normalize(options.key_light) : glm::vec3(0.0f);
  r.frame_shadow = {};
  r.subpixel_grid = glm::vec3(0.0f);  // the shadow map is drawn at the GL's own precision
  const bool keyed = options.lights == LightSetup::Viewer || options.lights == LightSetup::Studio;
  if (options.shadows && options.surfaces && keyed && r.model) r.draw_shadow_pass(camera, options);
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  if (options.subpixel_bits > 0)
    r.subpixel_grid = glm::vec3(float(viewport.width), float(viewport.height),
                                float(1 << std::min(options.subpixel_bits, 16)));
  glEnable(GL_SCISSOR_TEST);
  glScissor(viewport.x, viewport.y, viewport.width, viewport.height);
  glDisable(GL_CULL_FACE);  // two-sided lighting in the shader; mirrored nodes keep their faces
  glDisable(GL_BLEND);
  // The mesh shader gamma-encodes itself (and line colours are display values): no second
  // encoding by an sRGB-capable window framebuffer.
  glDisable(GL_FRAMEBUFFER_SRGB);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  const glm::mat4 view_proj = camera.projection * camera.view;
  r.studio_frame = detail::StudioFrame::make(r.environment, options.look);

  if (options.grid) {
    r.draw_shadow_catcher(view_proj);
    r.overlays.draw_grid(view_proj);
  }

  if (r.model) {
    if (options.surfaces) {
      // Push the filled surfaces back a little so the wireframe overlay wins the depth test;
      // only under the overlay: a slope-scaled offset also reorders nearly coplanar surfaces
      // (eyes in sockets, layered clothes), which would differ from other glTF renderers.
      if (options.wireframe) {
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
      }
      const rig::analysis::ScalarField* field = r.active_field(options);
      r.upload_field(field);
      if (options.cpu_skinned && r.cpu_skinning)
        r.draw_cpu_items(camera, false, glm::vec4(0.0f), field);
      else
        r.draw_items(camera, options.method, false, glm::vec4(0.0f), field, options.lights);
      glDisable(GL_POLYGON_OFFSET_FILL);
    }
    if (options.wireframe) {
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      const glm::vec4 color = options.surfaces ? glm::vec4(0.05f, 0.05f, 0.07f, 1.0f)
                                               : glm::vec4(0.75f, 0.85f, 0.95f, 1.0f);
      if (options.cpu_skinned && r.cpu_skinning)
        r.draw_cpu_items(camera, true, color, nullptr);
      else
        r.draw_items(camera, options.method, true, color, nullptr);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
    if (options.skeleton)
      r.overlays.draw_skeleton(view_proj, viewport.height, options.selected_joint_node,
                               options.highlighted_joint_nodes);
  }
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::draw");
}

}  // namespace rig::render
