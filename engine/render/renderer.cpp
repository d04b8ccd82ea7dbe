#include "render/renderer.h"

#include <glad/gl.h>
#include <stb_easy_font.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "render/gl_util.h"
#include "render/weight_colors.h"

namespace rig::render {

namespace {

constexpr int kMaxGpuInfluences = 8;
constexpr uint32_t kLbsRowsPerJoint = 4;  // mat4 columns
constexpr uint32_t kDqsRowsPerJoint = 5;  // real, dual, stretch columns 0..2
constexpr GLuint kPaletteBinding = 0;
constexpr GLint kBaseColorUnit = 0;
constexpr GLint kPaletteUnit = 1;
constexpr int kTimerQueries = 4;
constexpr int kMaxTextQuads = 2048;
// Uniform-block palettes are allocated at the block's full size, so the driver's
// GL_MAX_UNIFORM_BLOCK_SIZE (2 GiB on some) is capped; 64 KiB is what most GPUs offer anyway.
constexpr uint32_t kMaxPaletteUniformBytes = 65536;
constexpr uint32_t kMinPaletteUniformBytes = 16384;  // GL 3.3's minimum block size
constexpr int kGridHalfLines = 10;                   // lines each side of the grid's centre

// Interleaved static attributes of a draw item (positions and normals live in their own
// buffer, rewritten per frame when the primitive has morph targets).
struct StaticVertex {
  glm::vec2 texcoord{0.0f};
  std::array<uint16_t, kMaxGpuInfluences> joints{};
  std::array<float, kMaxGpuInfluences> weights{};
};

struct LineVertex {
  glm::vec3 position;
  glm::vec4 color;
};

struct MeshProgram {
  GLuint id = 0;
  GLint view_proj = -1, model = -1, normal_matrix = -1, skinning = -1, influences = -1,
        joint_count = -1, base_color_factor = -1, has_texture = -1, eye = -1, key_direction = -1,
        flat = -1, flat_color = -1, weight_view = -1, weight_joint = -1;
};

struct LineProgram {
  GLuint id = 0;
  GLint view_proj = -1, point_size = -1, round = -1, override_color = -1;
};

struct TextProgram {
  GLuint id = 0;
  GLint viewport_size = -1, origin = -1, scale = -1, color = -1;
};

struct GpuDrawItem {
  GLuint vao = 0, position_normal_vbo = 0, static_vbo = 0, ebo = 0;
  GLenum mode = GL_TRIANGLES;
  GLsizei vertex_count = 0, index_count = 0;
  int influences = 0;  // 0 (rigid), 4 or 8
  bool morphed = false;
  // The material's base colour (a neutral grey without one) and texture (0: none).
  glm::vec4 base_color_factor{0.8f, 0.8f, 0.8f, 1.0f};
  GLuint base_color_texture = 0;
  glm::mat4 world{1.0f};
  glm::mat3 normal_matrix{1.0f};
};

struct GpuSkin {
  uint32_t joints = 0;
  GLuint lbs_buffer = 0, dqs_buffer = 0;
  GLuint lbs_texture = 0, dqs_texture = 0;  // texture buffers; 0 when the palette is a UBO
};

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

bool is_triangles(GLenum mode) {
  return mode == GL_TRIANGLES || mode == GL_TRIANGLE_STRIP || mode == GL_TRIANGLE_FAN;
}

// Vertex v's influences for the GPU: at most 8. With more, the 8 largest are kept (the earlier
// one wins a tie, and kept influences stay in file order so the DQS reference influence, the
// first largest, is unchanged) and renormalized when a non-zero weight was dropped.
void gpu_influences(const rig::Primitive& prim, uint32_t v, StaticVertex& out) {
  const uint32_t k = prim.influences;
  const uint16_t* joints = &prim.joints[size_t(v) * k];
  const float* weights = &prim.weights[size_t(v) * k];
  if (k <= kMaxGpuInfluences) {
    for (uint32_t i = 0; i < k; ++i) {
      out.joints[i] = joints[i];
      out.weights[i] = weights[i];
    }
    return;
  }
  std::array<bool, 64> keep{};
  const uint32_t n = std::min<uint32_t>(k, 64);
  for (int slot = 0; slot < kMaxGpuInfluences; ++slot) {
    int best = -1;
    for (uint32_t i = 0; i < n; ++i)
      if (!keep[i] && (best < 0 || weights[i] > weights[best])) best = static_cast<int>(i);
    keep[best] = true;
  }
  float kept_sum = 0.0f;
  bool dropped_weight = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (keep[i])
      kept_sum += weights[i];
    else if (weights[i] != 0.0f)
      dropped_weight = true;
  }
  const float scale = dropped_weight && kept_sum > 0.0f ? 1.0f / kept_sum : 1.0f;
  int slot = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    out.joints[slot] = joints[i];
    out.weights[slot] = dropped_weight ? weights[i] * scale : weights[i];
    ++slot;
  }
}

void set_mat4(GLint loc, const glm::mat4& m) {
  if (loc >= 0) glUniformMatrix4fv(loc, 1, GL_FALSE, glm::value_ptr(m));
}

MeshProgram mesh_program(GLuint id) {
  MeshProgram p;
  p.id = id;
  p.view_proj = glGetUniformLocation(id, "u_view_proj");
  p.model = glGetUniformLocation(id, "u_model");
  p.normal_matrix = glGetUniformLocation(id, "u_normal_matrix");
  p.skinning = glGetUniformLocation(id, "u_skinning");
  p.influences = glGetUniformLocation(id, "u_influences");
  p.joint_count = glGetUniformLocation(id, "u_joint_count");
  p.base_color_factor = glGetUniformLocation(id, "u_base_color_factor");
  p.has_texture = glGetUniformLocation(id, "u_has_texture");
  p.eye = glGetUniformLocation(id, "u_eye");
  p.key_direction = glGetUniformLocation(id, "u_key_direction");
  p.flat = glGetUniformLocation(id, "u_flat");
  p.flat_color = glGetUniformLocation(id, "u_flat_color");
  p.weight_view = glGetUniformLocation(id, "u_weight_view");
  p.weight_joint = glGetUniformLocation(id, "u_weight_joint");
  glUseProgram(id);
  // The weight views' colours never change: set once per program.
  if (GLint loc = glGetUniformLocation(id, "u_heat_stops"); loc >= 0)
    glUniform3fv(loc, GLsizei(kWeightHeatStops.size()), glm::value_ptr(kWeightHeatStops[0]));
  if (GLint loc = glGetUniformLocation(id, "u_count_colors"); loc >= 0)
    glUniform3fv(loc, GLsizei(kInfluenceCountColors.size()),
                 glm::value_ptr(kInfluenceCountColors[0]));
  if (GLint loc = glGetUniformLocation(id, "u_zero_weight_color"); loc >= 0)
    glUniform3fv(loc, 1, glm::value_ptr(kZeroWeightColor));
  if (p.weight_view >= 0) glUniform1i(p.weight_view, 0);
  if (p.weight_joint >= 0) glUniform1i(p.weight_joint, -1);
  GLint tex = glGetUniformLocation(id, "u_base_color_texture");
  if (tex >= 0) glUniform1i(tex, kBaseColorUnit);
  GLint pal = glGetUniformLocation(id, "u_palette_tbo");
  if (pal >= 0) glUniform1i(pal, kPaletteUnit);
  GLuint block = glGetUniformBlockIndex(id, "Palette");
  if (block != GL_INVALID_INDEX) glUniformBlockBinding(id, block, kPaletteBinding);
  glUseProgram(0);
  return p;
}

// Index of `node` in the skin's joint list, -1 when it is not one of its joints (then every
// vertex of the skin has weight 0 for it). A linear scan, run only when the weight view's joint
// changes (Renderer::Impl::select_weight_joint).
int skin_joint_of_node(const rig::Skin& skin, int node) {
  if (node < 0) return -1;
  for (size_t j = 0; j < skin.joints.size(); ++j)
    if (skin.joints[j] == node) return static_cast<int>(j);
  return -1;
}

float nice_step(float raw) {
  const float p = std::pow(10.0f, std::floor(std::log10(raw)));
  const float m = raw / p;
  return (m < 1.5f ? 1.0f : m < 3.5f ? 2.0f : m < 7.5f ? 5.0f : 10.0f) * p;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Bounds and camera.

Bounds pose_bounds(const rig::Character& character) {
  Bounds b;
  const rig::Model& model = character.model();
  std::vector<glm::vec3> positions, normals;
  for (const rig::DrawItem& item : model.draws) {
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    positions.resize(prim.vertex_count());
    normals.resize(prim.vertex_count());
    character.skin_draw_item(item, rig::SkinningMethod::Linear, positions, normals);
    for (const glm::vec3& p : positions)
      if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) b.add(p);
  }
  return b;
}

Bounds clip_bounds(const rig::Model& model, const rig::PoseSelection& selection, int samples) {
  rig::Character character(model);
  rig::PoseSelection sel = selection;
  const bool animated = sel.clip >= 0 && sel.clip < static_cast<int>(model.clips.size()) &&
                        model.clips[sel.clip].end > model.clips[sel.clip].start;
  if (!animated || samples < 2) {  // a zero-length clip has a single pose
    character.evaluate(sel);
    return pose_bounds(character);
  }
  const rig::Clip& clip = model.clips[sel.clip];
  Bounds b;
  for (int i = 0; i < samples; ++i) {
    sel.time = clip.start + (clip.end - clip.start) * float(i) / float(samples - 1);
    character.evaluate(sel);
    b.add(pose_bounds(character));
  }
  return b;
}

SkinJointNodes skin_joint_nodes(const rig::Model& model) {
  SkinJointNodes joints;
  joints.slot_of_node.assign(model.nodes.size(), -1);
  for (const rig::Skin& skin : model.skins)
    for (int node : skin.joints)
      if (node >= 0 && node < int(model.nodes.size()) && joints.slot_of_node[node] < 0) {
        joints.slot_of_node[node] = static_cast<int>(joints.nodes.size());
        joints.nodes.push_back(node);
      }
  return joints;
}

void OrbitCamera::frame(const Bounds& bounds) {
  target = bounds.center();
  scene_radius = std::max(bounds.radius(), 1e-4f);
  // The bounding sphere fits the vertical field of view with a small margin.
  distance = scene_radius / std::sin(0.5f * fov_y) * 1.05f;
}

void OrbitCamera::fit_width(float view_aspect) {
  if (!(view_aspect > 0.0f) || view_aspect >= 1.0f) return;  // wider than tall: frame() fits
  const float half_fov_x = std::atan(view_aspect * std::tan(0.5f * fov_y));
  distance = std::max(distance, scene_radius / std::sin(half_fov_x) * 1.05f);
}

glm::vec3 OrbitCamera::eye() const {
  const float cp = std::cos(pitch);
  return target + distance * glm::vec3(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
}

Camera OrbitCamera::camera(float aspect) const {
  Camera c;
  c.eye = eye();
  c.view = glm::lookAt(c.eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
  // Near/far hug the scene (the grid reaches ~3 radii from the target) so depth keeps its
  // precision; far/near stays below a few hundred.
  const float r = std::max(scene_radius, 1e-4f);
  const float near_plane = std::max(distance - 3.0f * r, 0.01f * distance);
  const float far_plane = distance + 4.0f * r;
  c.projection = glm::perspective(fov_y, aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane);
  return c;
}

// ---------------------------------------------------------------------------------------------

struct Renderer::Impl {
  RendererConfig config;
  bool initialized = false;
  // init() has run, so GL objects may exist (also after a failed init) and a context is known:
  // release_all() deletes them. Without it, release_all() makes no GL call at all.
  bool owns_gl_objects = false;
  uint32_t palette_limit_bytes = 0;  // bytes usable by a uniform-block palette
  GLint max_texture_buffer_texels = 0;

  // [0] uniform-block palette, [1] texture-buffer palette.
  std::array<MeshProgram, 2> draw_programs{};
  std::array<MeshProgram, 2> capture_programs{};
  LineProgram lines;
  TextProgram text;
  GLuint dummy_palette_ubo = 0;  // keeps binding 0 valid for rigid draws
  GLint palette_block_bytes = 0;

  const rig::Model* model = nullptr;
  std::vector<GpuDrawItem> items;
  std::vector<GpuSkin> skins;
  std::vector<GLuint> textures;  // per model image, 0 when unused or undecodable
  std::vector<glm::vec4> palette_staging;
  std::vector<glm::vec3> morph_positions, morph_normals;
  std::vector<float> morph_interleaved;

  // Skeleton overlay: every node that is a joint of some skin, linked to its nearest joint
  // ancestor.
  std::vector<int> joint_nodes;
  std::vector<int> joint_parent_slot;   // index into joint_nodes, -1 at skeleton roots
  std::vector<int> joint_slot_of_node;  // per node: index into joint_nodes, -1 for non-joints
  std::vector<LineVertex> bone_vertices, marker_vertices;
  GLuint bone_vao = 0, bone_vbo = 0, marker_vao = 0, marker_vbo = 0;
  GLsizei bone_vertex_count = 0;

  // Ground grid.
  GLuint grid_vao = 0, grid_vbo = 0;
  GLsizei grid_vertex_count = 0;

  // WeightView::SelectedJoint: the joint index of `weight_joint_node` in each skin (-1 where it
  // is not a joint), recomputed only when the node changes, so draws do no lookups.
  std::vector<int> weight_joint_of_skin;
  int weight_joint_node = -1;

  // Text.
  GLuint text_vao = 0, text_vbo = 0, text_ebo = 0;
  std::vector<char> text_scratch;

  // Transform feedback read-back. A complete 1x1 framebuffer stays bound meanwhile: GL
  // validates the draw framebuffer even with rasterizer discard, and a surfaceless context
  // has no default one.
  GLuint feedback_fbo = 0, feedback_rb = 0;
  GLuint feedback_buffer = 0;
  GLsizeiptr feedback_bytes = 0;
  std::vector<float> feedback_scratch;

  // GPU timer ring.
  std::array<GLuint, kTimerQueries> queries{};
  std::array<bool, kTimerQueries> query_pending{};
  int query_next = 0;
  bool query_active = false;
  double last_gpu_ms = -1.0;

  ~Impl() { release_all(); }

  void release_model();
  void release_all();
  bool create_palette(GpuSkin& skin, uint32_t rows_per_joint, GLuint& buffer, GLuint& texture,
                      std::string& error);
  void select_weight_joint(int node);
  void draw_items(const Camera& camera, rig::SkinningMethod method, bool flat, glm::vec4 flat_color,
                  WeightView weight_view = WeightView::Off);
  void draw_lines(const glm::mat4& view_proj, GLuint vao, GLenum mode, GLint first, GLsizei count,
                  float point_size, bool round, glm::vec4 override_color = glm::vec4(0.0f));
  void collect_finished_queries();
  void store_query_result(int slot);
};

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

  const std::string ubo_defines = "#define PALETTE_VEC4S " + std::to_string(limit / 16) + "\n";
  const std::string tbo_defines = "#define PALETTE_TBO 1\n";
  const std::vector<std::string_view> vs = {"skinning.glsl", "mesh.vert.glsl"};
  const std::vector<std::string_view> fs = {"mesh.frag.glsl"};
  const std::vector<const char*> feedback = {"v_world_position", "v_world_normal"};
  for (int tbo = 0; tbo < 2; ++tbo) {
    const std::string& defines = tbo ? tbo_defines : ubo_defines;
    GLuint draw = build_program(vs, fs, defines, {}, error);
    if (!draw) return false;
    r.draw_programs[tbo] = mesh_program(draw);
    GLuint capture = build_program(vs, fs, defines, feedback, error);
    if (!capture) return false;
    r.capture_programs[tbo] = mesh_program(capture);
  }
  GLuint lines = build_program({"lines.vert.glsl"}, {"lines.frag.glsl"}, "", {}, error);
  if (!lines) return false;
  r.lines.id = lines;
  r.lines.view_proj = glGetUniformLocation(lines, "u_view_proj");
  r.lines.point_size = glGetUniformLocation(lines, "u_point_size");
  r.lines.round = glGetUniformLocation(lines, "u_round");
  r.lines.override_color = glGetUniformLocation(lines, "u_override_color");
  GLuint text = build_program({"text.vert.glsl"}, {"text.frag.glsl"}, "", {}, error);
  if (!text) return false;
  r.text.id = text;
  r.text.viewport_size = glGetUniformLocation(text, "u_viewport_size");
  r.text.origin = glGetUniformLocation(text, "u_origin");
  r.text.scale = glGetUniformLocation(text, "u_scale");
  r.text.color = glGetUniformLocation(text, "u_color");

  // The uniform block's real size (std140) sizes every uniform-block palette buffer: GL wants
  // a bound buffer at least that large.
  GLuint block = glGetUniformBlockIndex(r.draw_programs[0].id, "Palette");
  r.palette_block_bytes = static_cast<GLint>(limit);
  if (block != GL_INVALID_INDEX)
    glGetActiveUniformBlockiv(r.draw_programs[0].id, block, GL_UNIFORM_BLOCK_DATA_SIZE,
                              &r.palette_block_bytes);
  glGenBuffers(1, &r.dummy_palette_ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, r.dummy_palette_ubo);
  glBufferData(GL_UNIFORM_BUFFER, r.palette_block_bytes, nullptr, GL_STATIC_DRAW);
  glBindBuffer(GL_UNIFORM_BUFFER, 0);

  // Line/point buffers (grid, skeleton) and text.
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
  line_vao(r.grid_vao, r.grid_vbo);
  line_vao(r.bone_vao, r.bone_vbo);
  line_vao(r.marker_vao, r.marker_vbo);

  // stb_easy_font emits quads of 16-byte vertices (x, y, z, rgba8); an index buffer turns
  // them into triangles.
  r.text_scratch.resize(size_t(kMaxTextQuads) * 4 * 16);
  std::vector<GLuint> quad_indices(size_t(kMaxTextQuads) * 6);
  for (GLuint q = 0; q < GLuint(kMaxTextQuads); ++q) {
    const GLuint v = q * 4;
    const GLuint idx[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
    std::copy(idx, idx + 6, quad_indices.begin() + q * 6);
  }
  glGenVertexArrays(1, &r.text_vao);
  glGenBuffers(1, &r.text_vbo);
  glGenBuffers(1, &r.text_ebo);
  glBindVertexArray(r.text_vao);
  glBindBuffer(GL_ARRAY_BUFFER, r.text_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(r.text_scratch.size()), nullptr, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r.text_ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(quad_indices.size() * sizeof(GLuint)),
               quad_indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);

  glGenQueries(kTimerQueries, r.queries.data());
  check_gl_errors("Renderer::init");
  r.initialized = true;
  return true;
}

void Renderer::Impl::release_model() {
  for (GpuDrawItem& d : items) {
    glDeleteVertexArrays(1, &d.vao);
    const GLuint buffers[] = {d.position_normal_vbo, d.static_vbo, d.ebo};
    for (GLuint b : buffers)
      if (b) glDeleteBuffers(1, &b);
  }
  items.clear();
  for (GpuSkin& s : skins) {
    const GLuint buffers[] = {s.lbs_buffer, s.dqs_buffer};
    for (GLuint b : buffers)
      if (b) glDeleteBuffers(1, &b);
    const GLuint texs[] = {s.lbs_texture, s.dqs_texture};
    for (GLuint t : texs)
      if (t) glDeleteTextures(1, &t);
  }
  skins.clear();
  for (GLuint t : textures)
    if (t) glDeleteTextures(1, &t);
  textures.clear();
  joint_nodes.clear();
  joint_parent_slot.clear();
  joint_slot_of_node.clear();
  weight_joint_of_skin.clear();
  weight_joint_node = -1;
  bone_vertex_count = 0;
  model = nullptr;
}

void Renderer::Impl::release_all() {
  if (!owns_gl_objects) return;
  release_model();
  for (auto* progs : {&draw_programs, &capture_programs})
    for (MeshProgram& p : *progs)
      if (p.id) glDeleteProgram(p.id);
  if (lines.id) glDeleteProgram(lines.id);
  if (text.id) glDeleteProgram(text.id);
  const GLuint vaos[] = {grid_vao, bone_vao, marker_vao, text_vao};
  glDeleteVertexArrays(4, vaos);
  const GLuint buffers[] = {grid_vbo, bone_vbo,        marker_vbo,       text_vbo,
                            text_ebo, feedback_buffer, dummy_palette_ubo};
  for (GLuint b : buffers)
    if (b) glDeleteBuffers(1, &b);
  glDeleteQueries(kTimerQueries, queries.data());
  if (feedback_fbo) glDeleteFramebuffers(1, &feedback_fbo);
  if (feedback_rb) glDeleteRenderbuffers(1, &feedback_rb);
  // Names back to 0, so a later init() starts clean and nothing is deleted twice.
  draw_programs = {};
  capture_programs = {};
  lines = {};
  text = {};
  grid_vao = bone_vao = marker_vao = text_vao = 0;
  grid_vbo = bone_vbo = marker_vbo = text_vbo = text_ebo = 0;
  feedback_buffer = dummy_palette_ubo = feedback_fbo = feedback_rb = 0;
  feedback_bytes = 0;
  queries = {};
  query_pending = {};
  query_active = false;
  owns_gl_objects = false;
  initialized = false;
}

bool Renderer::Impl::create_palette(GpuSkin& skin, uint32_t rows_per_joint, GLuint& buffer,
                                    GLuint& texture, std::string& error) {
  const uint64_t bytes = uint64_t(skin.joints) * rows_per_joint * 16u;
  glGenBuffers(1, &buffer);
  if (bytes <= palette_limit_bytes) {
    glBindBuffer(GL_UNIFORM_BUFFER, buffer);
    glBufferData(GL_UNIFORM_BUFFER, palette_block_bytes, nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return true;
  }
  if (uint64_t(skin.joints) * rows_per_joint > uint64_t(max_texture_buffer_texels)) {
    error = "a skin with " + std::to_string(skin.joints) +
            " joints exceeds the GPU's texture buffer size";
    return false;
  }
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW);
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_BUFFER, texture);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return true;
}

bool Renderer::set_model(const rig::Model& model, std::string& error) {
  Impl& r = *impl_;
  if (!r.initialized) {
    error = "the renderer is not initialized";
    return false;
  }
  r.release_model();
  r.model = &model;

  // Skins and their palettes.
  size_t staging_rows = 1;
  r.skins.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s) {
    GpuSkin& skin = r.skins[s];
    skin.joints = static_cast<uint32_t>(model.skins[s].joints.size());
    staging_rows = std::max<size_t>(staging_rows, size_t(skin.joints) * kDqsRowsPerJoint);
    if (!r.create_palette(skin, kLbsRowsPerJoint, skin.lbs_buffer, skin.lbs_texture, error) ||
        !r.create_palette(skin, kDqsRowsPerJoint, skin.dqs_buffer, skin.dqs_texture, error)) {
      r.release_model();
      return false;
    }
  }
  r.palette_staging.assign(staging_rows, glm::vec4(0.0f));

  // Base colour textures (sRGB), only for images a material uses.
  r.textures.assign(model.images.size(), 0);
  for (const rig::Material& m : model.materials) {
    const int i = m.base_color_image;
    if (i < 0 || i >= int(model.images.size()) || r.textures[i]) continue;
    const rig::Image& img = model.images[i];
    if (img.width <= 0 || img.height <= 0 ||
        img.rgba.size() != size_t(img.width) * size_t(img.height) * 4)
      continue;
    glGenTextures(1, &r.textures[i]);
    glBindTexture(GL_TEXTURE_2D, r.textures[i]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, img.width, img.height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, img.rgba.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // the GL default, which the app's own uploads expect
  glBindTexture(GL_TEXTURE_2D, 0);

  // Draw items: one VAO each (morph weights and node matrices are per node).
  size_t max_morph_vertices = 0;
  std::vector<StaticVertex> statics;
  std::vector<float> position_normal;
  r.items.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    GpuDrawItem& g = r.items[d];
    const uint32_t n = prim.vertex_count();
    g.mode = gl_mode(prim.mode);
    g.vertex_count = static_cast<GLsizei>(n);
    g.index_count = static_cast<GLsizei>(prim.indices.size());
    g.morphed = !prim.targets.empty();
    if (prim.material >= 0 && prim.material < int(model.materials.size())) {
      const rig::Material& mat = model.materials[prim.material];
      g.base_color_factor = mat.base_color_factor;
      if (mat.base_color_image >= 0 && mat.base_color_image < int(r.textures.size()))
        g.base_color_texture = r.textures[mat.base_color_image];
    }
    const bool skinned = item.skin >= 0 && prim.skinned();
    g.influences = skinned ? static_cast<int>(std::min<uint32_t>(prim.influences, 8)) : 0;
    if (g.morphed) max_morph_vertices = std::max<size_t>(max_morph_vertices, n);

    position_normal.resize(size_t(n) * 6);
    for (uint32_t v = 0; v < n; ++v) {
      std::memcpy(&position_normal[size_t(v) * 6], &prim.positions[v], sizeof(glm::vec3));
      const glm::vec3 nrm = v < prim.normals.size() ? prim.normals[v] : glm::vec3(0, 1, 0);
      std::memcpy(&position_normal[size_t(v) * 6 + 3], &nrm, sizeof(glm::vec3));
    }
    statics.assign(n, StaticVertex{});
    for (uint32_t v = 0; v < n; ++v) {
      if (v < prim.texcoords0.size()) statics[v].texcoord = prim.texcoords0[v];
      if (skinned) gpu_influences(prim, v, statics[v]);
    }

    glGenVertexArrays(1, &g.vao);
    glBindVertexArray(g.vao);
    glGenBuffers(1, &g.position_normal_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g.position_normal_vbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(position_normal.size() * sizeof(float)),
                 position_normal.data(), g.morphed ? GL_DYNAMIC_DRAW : GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          reinterpret_cast<void*>(3 * sizeof(float)));
    glGenBuffers(1, &g.static_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g.static_vbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(statics.size() * sizeof(StaticVertex)), statics.data(),
                 GL_STATIC_DRAW);
    const GLsizei stride = sizeof(StaticVertex);
    auto offset = [](size_t o) { return reinterpret_cast<void*>(o); };
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride,
                          offset(offsetof(StaticVertex, texcoord)));
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 4, GL_UNSIGNED_SHORT, stride, offset(offsetof(StaticVertex, joints)));
    glEnableVertexAttribArray(4);
    glVertexAttribIPointer(4, 4, GL_UNSIGNED_SHORT, stride,
                           offset(offsetof(StaticVertex, joints) + 4 * sizeof(uint16_t)));
    glEnableVertexAttribArray(5);
    glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, stride,
                          offset(offsetof(StaticVertex, weights)));
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, stride,
                          offset(offsetof(StaticVertex, weights) + 4 * sizeof(float)));
    if (g.index_count > 0) {
      glGenBuffers(1, &g.ebo);
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ebo);
      glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(prim.indices.size() * sizeof(uint32_t)),
                   prim.indices.data(), GL_STATIC_DRAW);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
  r.morph_positions.assign(max_morph_vertices, glm::vec3(0.0f));
  r.morph_normals.assign(max_morph_vertices, glm::vec3(0.0f));
  r.morph_interleaved.assign(max_morph_vertices * 6, 0.0f);

  // Skeleton: joints of every skin, each linked to its nearest ancestor that is also a joint.
  SkinJointNodes joints = skin_joint_nodes(model);
  r.joint_nodes = std::move(joints.nodes);
  r.joint_slot_of_node = std::move(joints.slot_of_node);
  const std::vector<int>& slot_of_node = r.joint_slot_of_node;
  for (int node : r.joint_nodes) {
    int parent = model.nodes[node].parent, slot = -1;
    for (int guard = 0; parent >= 0 && guard < int(model.nodes.size()); ++guard) {
      if (slot_of_node[parent] >= 0) {
        slot = slot_of_node[parent];
        break;
      }
      parent = model.nodes[parent].parent;
    }
    r.joint_parent_slot.push_back(slot);
  }
  r.weight_joint_of_skin.assign(model.skins.size(), -1);
  r.bone_vertices.assign(r.joint_nodes.size() * 2, LineVertex{});
  r.marker_vertices.assign(r.joint_nodes.size(), LineVertex{});
  glBindBuffer(GL_ARRAY_BUFFER, r.bone_vbo);
  glBufferData(GL_ARRAY_BUFFER,
               GLsizeiptr(std::max<size_t>(r.bone_vertices.size(), 1) * sizeof(LineVertex)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, r.marker_vbo);
  glBufferData(GL_ARRAY_BUFFER,
               GLsizeiptr(std::max<size_t>(r.marker_vertices.size(), 1) * sizeof(LineVertex)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl_errors("Renderer::set_model");

  // A first state (rest pose) so draw() works before the first update(), and the ground.
  rig::Character rest(model);
  update(rest);
  set_ground(pose_bounds(rest));
  return true;
}

void Renderer::clear_model() { impl_->release_model(); }

bool Renderer::has_model() const { return impl_->model != nullptr; }

void Renderer::set_ground(const Bounds& bounds) {
  Impl& r = *impl_;
  if (!r.initialized) return;
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
  glBindBuffer(GL_ARRAY_BUFFER, r.grid_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size() * sizeof(LineVertex)), v.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  r.grid_vertex_count = static_cast<GLsizei>(v.size());
  check_gl_errors("Renderer::set_ground");
}

void Renderer::update(const rig::Character& character) {
  Impl& r = *impl_;
  if (!r.model || &character.model() != r.model) return;
  const rig::Model& model = *r.model;

  for (size_t s = 0; s < r.skins.size(); ++s) {
    GpuSkin& skin = r.skins[s];
    if (skin.joints == 0) continue;
    std::span<const glm::vec4> lbs = character.palette(int(s), rig::SkinningMethod::Linear);
    glBindBuffer(GL_COPY_WRITE_BUFFER, skin.lbs_buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(lbs.size_bytes()), lbs.data());
    std::span<const glm::vec4> dqs =
        character.palette(int(s), rig::SkinningMethod::DualQuaternion);
    glBindBuffer(GL_COPY_WRITE_BUFFER, skin.dqs_buffer);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(dqs.size_bytes()), dqs.data());
  }
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);

  std::span<const glm::mat4> world = character.world();
  for (size_t d = 0; d < r.items.size(); ++d) {
    GpuDrawItem& g = r.items[d];
    const rig::DrawItem& item = model.draws[d];
    // Same normal matrix as Character::skin_draw_item computes for rigid items.
    g.world = world[item.node];
    g.normal_matrix = glm::transpose(glm::inverse(glm::mat3(g.world)));
    if (!g.morphed) continue;
    const rig::Primitive& prim = model.meshes[item.mesh].primitives[item.primitive];
    const size_t n = prim.vertex_count();
    std::span<glm::vec3> pos(r.morph_positions.data(), n), nrm(r.morph_normals.data(), n);
    rig::apply_morph_targets(prim, character.morph_weights(item.node), pos, nrm);
    for (size_t v = 0; v < n; ++v) {
      std::memcpy(&r.morph_interleaved[v * 6], &pos[v], sizeof(glm::vec3));
      std::memcpy(&r.morph_interleaved[v * 6 + 3], &nrm[v], sizeof(glm::vec3));
    }
    glBindBuffer(GL_ARRAY_BUFFER, g.position_normal_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * 6 * sizeof(float)),
                    r.morph_interleaved.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  // Skeleton overlay vertices.
  size_t bones = 0;
  for (size_t j = 0; j < r.joint_nodes.size(); ++j) {
    const glm::vec3 p(world[r.joint_nodes[j]][3]);
    r.marker_vertices[j] = {p, glm::vec4(0.95f, 0.80f, 0.25f, 1.0f)};
    const int parent = r.joint_parent_slot[j];
    if (parent < 0) continue;
    const glm::vec3 q(world[r.joint_nodes[parent]][3]);
    r.bone_vertices[bones++] = {q, glm::vec4(0.95f, 0.65f, 0.15f, 1.0f)};
    r.bone_vertices[bones++] = {p, glm::vec4(1.00f, 0.95f, 0.60f, 1.0f)};
  }
  r.bone_vertex_count = static_cast<GLsizei>(bones);
  if (bones > 0) {
    glBindBuffer(GL_ARRAY_BUFFER, r.bone_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(bones * sizeof(LineVertex)),
                    r.bone_vertices.data());
  }
  if (!r.marker_vertices.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, r.marker_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(r.marker_vertices.size() * sizeof(LineVertex)),
                    r.marker_vertices.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl_errors("Renderer::update");
}

void Renderer::clear(const Viewport& viewport, glm::vec3 color) {
  glEnable(GL_SCISSOR_TEST);
  glScissor(viewport.x, viewport.y, viewport.width, viewport.height);
  glClearColor(color.r, color.g, color.b, 1.0f);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::clear");
}

void Renderer::Impl::select_weight_joint(int node) {
  if (node == weight_joint_node) return;
  weight_joint_node = node;
  for (size_t s = 0; s < weight_joint_of_skin.size(); ++s)
    weight_joint_of_skin[s] = skin_joint_of_node(model->skins[s], node);
}

void Renderer::Impl::draw_items(const Camera& camera, rig::SkinningMethod method, bool flat,
                                glm::vec4 flat_color, WeightView weight_view) {
  const rig::Model& m = *model;
  const glm::mat4 view_proj = camera.projection * camera.view;
  // Key light from above and to the left of the camera, fixed in view space so the visible
  // side is always lit.
  const glm::vec3 key =
      glm::normalize(glm::vec3(glm::inverse(camera.view) * glm::vec4(-0.45f, 0.75f, 0.55f, 0.0f)));
  const bool dqs = method == rig::SkinningMethod::DualQuaternion;
  int bound_program = -1;
  for (size_t d = 0; d < items.size(); ++d) {
    const GpuDrawItem& g = items[d];
    const rig::DrawItem& item = m.draws[d];
    const GpuSkin* skin = g.influences > 0 ? &skins[item.skin] : nullptr;
    const GLuint tex = skin ? (dqs ? skin->dqs_texture : skin->lbs_texture) : 0;
    const int which = tex ? 1 : 0;
    const MeshProgram& p = draw_programs[which];
    if (bound_program != which) {
      glUseProgram(p.id);
      set_mat4(p.view_proj, view_proj);
      glUniform3fv(p.eye, 1, glm::value_ptr(camera.eye));
      glUniform3fv(p.key_direction, 1, glm::value_ptr(key));
      glUniform1i(p.flat, flat ? 1 : 0);
      glUniform4fv(p.flat_color, 1, glm::value_ptr(flat_color));
      bound_program = which;
    }
    if (skin) {
      glUniform1i(p.skinning, dqs ? 2 : 1);
      glUniform1i(p.influences, g.influences);
      glUniform1i(p.joint_count, GLint(skin->joints));
      if (tex) {
        glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
        glBindTexture(GL_TEXTURE_BUFFER, tex);
      } else {
        glBindBufferBase(GL_UNIFORM_BUFFER, kPaletteBinding,
                         dqs ? skin->dqs_buffer : skin->lbs_buffer);
      }
    } else {
      glUniform1i(p.skinning, 0);
      set_mat4(p.model, g.world);
      glUniformMatrix3fv(p.normal_matrix, 1, GL_FALSE, glm::value_ptr(g.normal_matrix));
      glBindBufferBase(GL_UNIFORM_BUFFER, kPaletteBinding, dummy_palette_ubo);
    }
    if (!flat) {
      // Weight views colour skinned items only; the node maps to this item's skin's joint.
      const WeightView view = skin ? weight_view : WeightView::Off;
      glUniform1i(p.weight_view, static_cast<GLint>(view));
      if (view == WeightView::SelectedJoint)
        glUniform1i(p.weight_joint, weight_joint_of_skin[item.skin]);
      glUniform4fv(p.base_color_factor, 1, glm::value_ptr(g.base_color_factor));
      glUniform1i(p.has_texture, g.base_color_texture ? 1 : 0);
      glActiveTexture(GL_TEXTURE0 + kBaseColorUnit);
      glBindTexture(GL_TEXTURE_2D, g.base_color_texture);
    } else if (!is_triangles(g.mode)) {
      continue;  // the wireframe pass only outlines triangles
    }
    glBindVertexArray(g.vao);
    if (g.index_count > 0)
      glDrawElements(g.mode, g.index_count, GL_UNSIGNED_INT, nullptr);
    else
      glDrawArrays(g.mode, 0, g.vertex_count);
  }
  glBindVertexArray(0);
  glActiveTexture(GL_TEXTURE0);
}

void Renderer::Impl::draw_lines(const glm::mat4& view_proj, GLuint vao, GLenum mode, GLint first,
                                GLsizei count, float point_size, bool round,
                                glm::vec4 override_color) {
  if (count <= 0) return;
  glUseProgram(lines.id);
  set_mat4(lines.view_proj, view_proj);
  glUniform1f(lines.point_size, point_size);
  glUniform1i(lines.round, round ? 1 : 0);
  glUniform4fv(lines.override_color, 1, glm::value_ptr(override_color));
  glBindVertexArray(vao);
  glDrawArrays(mode, first, count);
  glBindVertexArray(0);
}

void Renderer::draw(const Camera& camera, const Viewport& viewport, const DrawOptions& options) {
  Impl& r = *impl_;
  if (!r.initialized) return;
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
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

  if (options.grid)
    r.draw_lines(view_proj, r.grid_vao, GL_LINES, 0, r.grid_vertex_count, 1.0f, false);

  if (r.model) {
    if (options.surfaces) {
      // Push the filled surfaces back a little so the wireframe overlay wins the depth test.
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(1.0f, 1.0f);
      if (options.weight_view == WeightView::SelectedJoint)
        r.select_weight_joint(options.weight_joint_node);
      r.draw_items(camera, options.method, false, glm::vec4(0.0f), options.weight_view);
      glDisable(GL_POLYGON_OFFSET_FILL);
    }
    if (options.wireframe) {
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      const glm::vec4 color = options.surfaces ? glm::vec4(0.05f, 0.05f, 0.07f, 1.0f)
                                               : glm::vec4(0.75f, 0.85f, 0.95f, 1.0f);
      r.draw_items(camera, options.method, true, color);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
    if (options.skeleton && !r.joint_nodes.empty()) {
      // Drawn through the mesh: no depth test.
      glDisable(GL_DEPTH_TEST);
      glEnable(GL_PROGRAM_POINT_SIZE);
      r.draw_lines(view_proj, r.bone_vao, GL_LINES, 0, r.bone_vertex_count, 1.0f, false);
      const float marker = std::clamp(float(viewport.height) / 120.0f, 5.0f, 12.0f);
      r.draw_lines(view_proj, r.marker_vao, GL_POINTS, 0, GLsizei(r.marker_vertices.size()), marker,
                   true);
      // The selected joint: a larger marker in a contrasting colour, drawn last.
      const int selected = options.selected_joint_node;
      const int slot = selected >= 0 && selected < int(r.joint_slot_of_node.size())
                           ? r.joint_slot_of_node[selected]
                           : -1;
      if (slot >= 0)
        r.draw_lines(view_proj, r.marker_vao, GL_POINTS, slot, 1, marker * 1.8f, true,
                     glm::vec4(0.20f, 0.90f, 1.00f, 1.0f));
      glDisable(GL_PROGRAM_POINT_SIZE);
      glEnable(GL_DEPTH_TEST);
    }
  }
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::draw");
}

void Renderer::draw_compare(const Camera& camera, const Viewport& viewport,
                            const DrawOptions& options, bool labels) {
  const int left_w = viewport.width / 2;
  const Viewport halves[2] = {
      {viewport.x, viewport.y, left_w, viewport.height},
      {viewport.x + left_w, viewport.y, viewport.width - left_w, viewport.height}};
  const rig::SkinningMethod methods[2] = {rig::SkinningMethod::Linear,
                                          rig::SkinningMethod::DualQuaternion};
  const char* names[2] = {"LBS", "DQS"};
  for (int h = 0; h < 2; ++h) {
    Camera half = camera;
    // Same vertical field of view, the half's own aspect: x scale = y scale / aspect.
    if (half.projection[2][3] != 0.0f)
      half.projection[0][0] = half.projection[1][1] / halves[h].aspect();
    DrawOptions o = options;
    o.method = methods[h];
    draw(half, halves[h], o);
    if (labels) {
      const float scale = std::clamp(float(viewport.height) / 240.0f, 2.0f, 6.0f);
      draw_text(halves[h], 12.0f, 10.0f, scale, glm::vec3(1.0f), names[h]);
    }
  }
  // Divider.
  glEnable(GL_SCISSOR_TEST);
  const int line_w = std::max(2, viewport.height / 360);
  glScissor(viewport.x + left_w - line_w / 2, viewport.y, line_w, viewport.height);
  glClearColor(0.9f, 0.9f, 0.9f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::draw_compare");
}

void Renderer::draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                         const char* text) {
  Impl& r = *impl_;
  if (!r.initialized || !text) return;
  unsigned char rgba[4] = {255, 255, 255, 255};
  const int quads = stb_easy_font_print(0.0f, 0.0f, const_cast<char*>(text), rgba,
                                        r.text_scratch.data(), int(r.text_scratch.size()));
  if (quads <= 0) return;
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  glDisable(GL_DEPTH_TEST);
  glUseProgram(r.text.id);
  glUniform2f(r.text.viewport_size, float(viewport.width), float(viewport.height));
  glUniform1f(r.text.scale, scale);
  // Opaque (blending is off): the alpha lands in the framebuffer, and --output PNGs keep it.
  glUniform4f(r.text.color, 0.0f, 0.0f, 0.0f, 1.0f);
  glBindVertexArray(r.text_vao);
  glBindBuffer(GL_ARRAY_BUFFER, r.text_vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(quads) * 4 * 16, r.text_scratch.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  // A dark drop shadow keeps the label readable on any background.
  glUniform2f(r.text.origin, x + scale, y + scale);
  glDrawElements(GL_TRIANGLES, quads * 6, GL_UNSIGNED_INT, nullptr);
  glUniform4f(r.text.color, color.r, color.g, color.b, 1.0f);
  glUniform2f(r.text.origin, x, y);
  glDrawElements(GL_TRIANGLES, quads * 6, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
  glUseProgram(0);
  glEnable(GL_DEPTH_TEST);
  check_gl_errors("Renderer::draw_text");
}

void Renderer::Impl::store_query_result(int slot) {
  GLuint64 ns = 0;
  glGetQueryObjectui64v(queries[slot], GL_QUERY_RESULT, &ns);
  last_gpu_ms = double(ns) * 1e-6;
  query_pending[slot] = false;
}

// Oldest first (query_next is the oldest slot), so the newest finished result is the one kept.
// Queries finish in order: the first one not yet available ends the scan.
void Renderer::Impl::collect_finished_queries() {
  for (int k = 0; k < kTimerQueries; ++k) {
    const int slot = (query_next + k) % kTimerQueries;
    if (!query_pending[slot]) continue;
    GLint available = 0;
    glGetQueryObjectiv(queries[slot], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) break;
    store_query_result(slot);
  }
}

void Renderer::begin_gpu_timer() {
  Impl& r = *impl_;
  if (!r.initialized || r.query_active) return;
  r.collect_finished_queries();
  const int slot = r.query_next;
  if (r.query_pending[slot]) r.store_query_result(slot);  // ring full: wait for the oldest
  glBeginQuery(GL_TIME_ELAPSED, r.queries[slot]);
  r.query_active = true;
}

void Renderer::end_gpu_timer() {
  Impl& r = *impl_;
  if (!r.query_active) return;
  glEndQuery(GL_TIME_ELAPSED);
  r.query_pending[r.query_next] = true;
  r.query_next = (r.query_next + 1) % kTimerQueries;
  r.query_active = false;
  r.collect_finished_queries();
}

double Renderer::gpu_time_ms() const { return impl_->last_gpu_ms; }

bool Renderer::read_back_skinned(size_t draw_index, rig::SkinningMethod method,
                                 std::span<glm::vec3> out_positions,
                                 std::span<glm::vec3> out_normals, std::string& error) {
  Impl& r = *impl_;
  if (!r.model || draw_index >= r.items.size()) {
    error = "no draw item " + std::to_string(draw_index);
    return false;
  }
  const GpuDrawItem& g = r.items[draw_index];
  const size_t n = size_t(g.vertex_count);
  if (out_positions.size() != n || out_normals.size() != n) {
    error = "read-back spans do not match the vertex count";
    return false;
  }
  if (n == 0) return true;
  const rig::DrawItem& item = r.model->draws[draw_index];
  const bool dqs = method == rig::SkinningMethod::DualQuaternion;
  const GpuSkin* skin = g.influences > 0 ? &r.skins[item.skin] : nullptr;
  const GLuint tex = skin ? (dqs ? skin->dqs_texture : skin->lbs_texture) : 0;
  const MeshProgram& p = r.capture_programs[tex ? 1 : 0];

  const GLsizeiptr bytes = GLsizeiptr(n * 6 * sizeof(float));
  if (!r.feedback_buffer) glGenBuffers(1, &r.feedback_buffer);
  if (!r.feedback_fbo) {
    glGenRenderbuffers(1, &r.feedback_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, r.feedback_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &r.feedback_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r.feedback_fbo);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              r.feedback_rb);
  }
  GLint previous_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r.feedback_fbo);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, r.feedback_buffer);
  if (bytes > r.feedback_bytes) {
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
    r.feedback_bytes = bytes;
  }
  glUseProgram(p.id);
  set_mat4(p.view_proj, glm::mat4(1.0f));
  if (skin) {
    glUniform1i(p.skinning, dqs ? 2 : 1);
    glUniform1i(p.influences, g.influences);
    glUniform1i(p.joint_count, GLint(skin->joints));
    if (tex) {
      glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
      glBindTexture(GL_TEXTURE_BUFFER, tex);
      glActiveTexture(GL_TEXTURE0);
    } else {
      glBindBufferBase(GL_UNIFORM_BUFFER, kPaletteBinding,
                       dqs ? skin->dqs_buffer : skin->lbs_buffer);
    }
  } else {
    glUniform1i(p.skinning, 0);
    set_mat4(p.model, g.world);
    glUniformMatrix3fv(p.normal_matrix, 1, GL_FALSE, glm::value_ptr(g.normal_matrix));
    glBindBufferBase(GL_UNIFORM_BUFFER, kPaletteBinding, r.dummy_palette_ubo);
  }
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, r.feedback_buffer, 0, bytes);
  glEnable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(g.vao);
  // Every vertex once, in order: points, not the primitive's own topology.
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 0, g.vertex_count);
  glEndTransformFeedback();
  glBindVertexArray(0);
  glDisable(GL_RASTERIZER_DISCARD);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previous_fbo));
  r.feedback_scratch.resize(n * 6);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, r.feedback_scratch.data());
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  glUseProgram(0);
  for (size_t v = 0; v < n; ++v) {
    const float* f = &r.feedback_scratch[v * 6];
    out_positions[v] = glm::vec3(f[0], f[1], f[2]);
    out_normals[v] = glm::vec3(f[3], f[4], f[5]);
  }
  const uint64_t errors_before = gl_error_count();
  check_gl_errors("Renderer::read_back_skinned");
  if (gl_error_count() != errors_before) {
    error = "the GL reported an error during the transform feedback read-back";
    return false;
  }
  return true;
}

uint32_t Renderer::palette_uniform_limit_bytes() const { return impl_->palette_limit_bytes; }

uint32_t Renderer::max_uniform_joints(rig::SkinningMethod method) const {
  const uint32_t rows = method == rig::SkinningMethod::Linear ? kLbsRowsPerJoint : kDqsRowsPerJoint;
  return impl_->palette_limit_bytes / (rows * 16u);
}

bool Renderer::skin_uses_texture_buffer(int skin, rig::SkinningMethod method) const {
  const Impl& r = *impl_;
  if (skin < 0 || skin >= int(r.skins.size())) return false;
  const GpuSkin& s = r.skins[skin];
  return (method == rig::SkinningMethod::Linear ? s.lbs_texture : s.dqs_texture) != 0;
}

uint64_t Renderer::gl_error_count() const { return rig::render::gl_error_count(); }

}  // namespace rig::render
