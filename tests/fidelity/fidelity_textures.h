// The fidelity scenes' procedural textures (RGBA8, rows top first), each with features that a
// wrong colour space, channel, UV set or transform would visibly move.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace rig::fidelity {

struct Texels {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
};

template <typename F>
Texels make_texels(int width, int height, F texel) {
  Texels t{width, height, std::vector<uint8_t>(size_t(width) * size_t(height) * 4)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float c[4] = {0, 0, 0, 1};
      texel((float(x) + 0.5f) / float(width), (float(y) + 0.5f) / float(height), c);
      for (int k = 0; k < 4; ++k) {
        const float v = std::fmin(1.0f, std::fmax(0.0f, c[k]));
        t.rgba[(size_t(y) * size_t(width) + size_t(x)) * 4 + size_t(k)] =
            uint8_t(v * 255.0f + 0.5f);
      }
    }
  return t;
}

// 8 × 8 checks of four colours, with a marker in the top-left cell, so that a flip, a swap of
// u and v or an offset shows.
inline Texels checker_texture() {
  return make_texels(64, 64, [](float u, float v, float* c) {
    const int cu = int(u * 8), cv = int(v * 8);
    static const float kColours[4][3] = {
        {0.9f, 0.2f, 0.1f}, {0.1f, 0.6f, 0.9f}, {0.95f, 0.9f, 0.3f}, {0.2f, 0.7f, 0.25f}};
    const float* k = kColours[(cu + cv) % 2 + 2 * ((cu / 4 + cv / 4) % 2)];
    c[0] = k[0], c[1] = k[1], c[2] = k[2];
    if (cu == 0 && cv == 0) c[0] = c[1] = c[2] = 0.05f;
  });
}

// A tangent-space normal map of round bumps (height h = cos² bumps), encoded n·0.5 + 0.5 with
// green up (glTF: +Y towards decreasing v).
inline Texels bump_normal_texture() {
  return make_texels(128, 128, [](float u, float v, float* c) {
    const float k = 6.0f * 2.0f * 3.14159265f;  // six bumps across
    const float dhdu = -0.35f * std::sin(k * u) * std::cos(k * v * 0.5f);
    const float dhdv = -0.175f * std::cos(k * u) * std::sin(k * v * 0.5f);
    // Height gradient along +x = +u and +y = −v.
    float n[3] = {-dhdu, dhdv, 1.0f};
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; ++i) c[i] = n[i] / len * 0.5f + 0.5f;
  });
}

// Metallic-roughness: G (roughness) rises with u, B (metallic) in vertical stripes; R unused
// (filled, so a wrong channel shows).
inline Texels metal_rough_texture() {
  return make_texels(64, 64, [](float u, float v, float* c) {
    c[0] = 0.5f * v;
    c[1] = 0.1f + 0.85f * u;
    c[2] = int(v * 6) % 2 ? 1.0f : 0.0f;
  });
}

// Occlusion in R: dark rings; G and B set to other values a wrong channel would read.
inline Texels occlusion_texture() {
  return make_texels(64, 64, [](float u, float v, float* c) {
    const float d = std::sqrt((u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f));
    c[0] = 0.2f + 0.8f * (0.5f + 0.5f * std::cos(d * 40.0f));
    c[1] = 1.0f - c[0];
    c[2] = 0.5f;
  });
}

// Emissive spots on black (sRGB).
inline Texels emissive_texture() {
  return make_texels(64, 64, [](float u, float v, float* c) {
    const float fu = u * 4 - std::floor(u * 4) - 0.5f, fv = v * 4 - std::floor(v * 4) - 0.5f;
    const float spot = fu * fu + fv * fv < 0.09f ? 1.0f : 0.0f;
    c[0] = spot, c[1] = 0.6f * spot, c[2] = 0.2f * spot;
  });
}

// Alpha rising with u from 0 to 1; colour varies with v.
inline Texels alpha_gradient_texture() {
  return make_texels(64, 64, [](float u, float v, float* c) {
    c[0] = 0.9f, c[1] = 0.3f + 0.6f * v, c[2] = 0.2f;
    c[3] = u;
  });
}

// Hair card: strands along v whose alpha fades towards their tips (v = 1) and between strands.
inline Texels hair_texture() {
  return make_texels(64, 128, [](float u, float v, float* c) {
    const float strand = 0.5f + 0.5f * std::cos(u * 2 * 3.14159265f * 9.0f + 3.0f * v);
    c[0] = 0.35f + 0.15f * strand, c[1] = 0.2f + 0.1f * strand, c[2] = 0.08f;
    c[3] = strand * (1.2f - v);
  });
}

// Eyelashes: dark, alpha a smooth band that fades at both ends of the lash row.
inline Texels lash_texture() {
  return make_texels(64, 16, [](float u, float v, float* c) {
    c[0] = c[1] = c[2] = 0.04f;
    c[3] = std::sin(u * 3.14159265f) * (1.0f - v) * (0.6f + 0.4f * std::cos(u * 60.0f));
  });
}

}  // namespace rig::fidelity
