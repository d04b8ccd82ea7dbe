// The renderer's compare view (one column per skinning method, dividers, labels) and text.
#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_util.h"
#include "render/mesh_pass.h"
#include "render/renderer.h"
#include "render/renderer_impl.h"

namespace rig::render {

using detail::GpuDrawItem;
using detail::GpuSkin;
using detail::MeshProgram;

Viewport Renderer::compare_column(const Viewport& viewport, int i, int columns) {
  if (columns < 1) return viewport;
  const ColumnSpan c = render::compare_column(0.0f, float(viewport.width), i, columns);
  return Viewport{viewport.x + int(c.x), viewport.y, int(c.width), viewport.height};
}

void Renderer::draw_compare(const Camera& camera, const Viewport& viewport,
                            const DrawOptions& options,
                            std::span<const rig::SkinningMethod> methods, bool labels) {
  const int columns = static_cast<int>(methods.size());
  if (columns == 0) return;
  for (int i = 0; i < columns; ++i) {
    const Viewport column = compare_column(viewport, i, columns);
    DrawOptions o = options;
    o.method = methods[size_t(i)];
    if (size_t(i) < options.column_fields.size() && options.column_fields[size_t(i)])
      o.field = options.column_fields[size_t(i)];
    // Same vertical field of view, the column's own aspect.
    draw(camera.with_aspect(column.aspect()), column, o);
    if (labels) {
      const float scale = std::clamp(float(viewport.height) / 240.0f, 2.0f, 6.0f);
      draw_text(column, 12.0f, 10.0f, scale, glm::vec3(1.0f), rig::method_info(o.method).label);
    }
  }
  // Dividers.
  glEnable(GL_SCISSOR_TEST);
  const int line_w = std::max(2, viewport.height / 360);
  glClearColor(0.9f, 0.9f, 0.9f, 1.0f);
  for (int i = 1; i < columns; ++i) {
    glScissor(compare_column(viewport, i, columns).x - line_w / 2, viewport.y, line_w,
              viewport.height);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glDisable(GL_SCISSOR_TEST);
  check_gl_errors("Renderer::draw_compare");
}

void Renderer::draw_compare(const Camera& camera, const Viewport& viewport,
                            const DrawOptions& options, bool labels) {
  static constexpr std::array<rig::SkinningMethod, rig::kSkinningMethodCount> kAll =
      rig::all_skinning_methods();
  draw_compare(camera, viewport, options, kAll, labels);
}

void Renderer::draw_text(const Viewport& viewport, float x, float y, float scale, glm::vec3 color,
                         const char* text) {
  Impl& r = *impl_;
  if (!r.initialized || !text) return;
  r.overlays.draw_text(viewport, x, y, scale, color, text);
  check_gl_errors("Renderer::draw_text");
}

}  // namespace rig::render
