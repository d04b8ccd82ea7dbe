// The renderer's private state, shared by its source files (renderer.cpp: models, updates and
// the frame's passes; renderer_compare.cpp: compare columns and text; renderer_queries.cpp:
// read-backs, timing and introspection).
#pragma once

#include <glad/gl.h>

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "render/feedback_capture.h"
#include "render/gpu_mesh.h"
#include "render/gpu_palette.h"
#include "render/gpu_timer.h"
#include "render/materials.h"
#include "render/overlays.h"
#include "render/renderer.h"
#include "render/skin_programs.h"

namespace rig::render {

struct Renderer::Impl {
  RendererConfig config;
  bool initialized = false;
  // init() has run, so GL objects may exist (also after a failed init) and a context is known:
  // release_all() deletes them. Without it, release_all() makes no GL call at all.
  bool owns_gl_objects = false;
  uint32_t palette_limit_bytes = 0;  // bytes usable by a uniform-block palette
  GLint max_texture_buffer_texels = 0;

  detail::SkinPrograms programs;
  detail::Overlays overlays;
  detail::GpuTimer timer;
  detail::FeedbackCapture feedback;

  const rig::Model* model = nullptr;
  // The skin layer drawn, and the revisions of it the GPU buffers hold (influences, centres).
  std::shared_ptr<const rig::SkinLayer> skin;
  uint64_t synced_revision = 0, synced_centers = 0;
  uint64_t influence_vertices_uploaded = 0;
  std::vector<detail::StaticVertex> static_scratch;  // one primitive's vertices, for edit uploads
  // Per prepared primitive (SkinMeshes::primitives), the draw items that draw it.
  std::vector<std::vector<uint32_t>> items_of_primitive;
  std::vector<detail::GpuDrawItem> items;
  std::vector<detail::GpuSkin> skins;
  detail::MaterialTable materials;
  std::vector<glm::vec3> morph_positions, morph_normals;
  std::vector<float> morph_interleaved;
  bool cpu_skinning = false;
  std::vector<float> cpu_interleaved;  // the largest item's vertices, 6 floats each

  // Palettes: the character of the last update() and, per method (bit), whether its palettes
  // still have to be asked from it and uploaded.
  const rig::Character* character = nullptr;
  uint32_t stale_palettes = 0;
  std::array<uint64_t, rig::kSkinningMethodCount> palette_upload_count{};

}  // namespace rig::render
