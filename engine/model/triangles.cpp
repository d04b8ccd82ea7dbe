#include "model/triangles.h"

namespace rig {

bool has_triangles(PrimitiveMode mode) {
  return mode == PrimitiveMode::Triangles || mode == PrimitiveMode::TriangleStrip ||
         mode == PrimitiveMode::TriangleFan;
}

void append_triangles(const Primitive& prim, std::vector<uint32_t>& out) {
  const bool indexed = !prim.indices.empty();
  const uint32_t count = indexed ? static_cast<uint32_t>(prim.indices.size()) : prim.vertex_count();
  auto vertex = [&](uint32_t i) { return indexed ? prim.indices[i] : i; };
  auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
    out.push_back(vertex(a));
    out.push_back(vertex(b));
    out.push_back(vertex(c));
  };
  switch (prim.mode) {
    case PrimitiveMode::Triangles:
      for (uint32_t i = 0; i + 2 < count; i += 3) tri(i, i + 1, i + 2);
      break;
    case PrimitiveMode::TriangleStrip:
      for (uint32_t i = 0; i + 2 < count; ++i) tri(i, i + 1 + i % 2, i + 2 - i % 2);
      break;
    case PrimitiveMode::TriangleFan:
      for (uint32_t i = 0; i + 2 < count; ++i) tri(i + 1, i + 2, 0);
      break;
    default:
      break;
  }
}

}  // namespace rig
