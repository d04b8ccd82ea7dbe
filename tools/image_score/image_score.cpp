#include "image_score.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace rig::tools {

namespace {

// The largest delta (white against black), which normalises the RMS.
constexpr double kMaxDelta = 35215.0;

// A pixel composited over black: RGB·alpha/255, in 0..255 (not rounded, as model-viewer
// computes it in floating point).
void over_black(const RgbaImage& image, size_t pixel, double out[3]) {
  const uint8_t* p = &image.rgba[pixel * 4];
  for (int c = 0; c < 3; ++c) out[c] = double(p[c]) * double(p[3]) / 255.0;
}

double decibels(double sum_delta_squared, uint64_t n) {
  if (n == 0 || sum_delta_squared == 0.0) return -std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(std::sqrt(sum_delta_squared / double(n)) / kMaxDelta);
}

// The smallest delta between `from`'s pixel (x, y) and the pixels of `to` in the 3×3
// neighbourhood of (x, y) that lie inside the image.
double nearest_delta(const RgbaImage& from, const RgbaImage& to, int x, int y) {
  double p[3], q[3];
  over_black(from, size_t(y) * size_t(from.width) + size_t(x), p);
  double best = std::numeric_limits<double>::infinity();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int qx = x + dx, qy = y + dy;
      if (qx < 0 || qy < 0 || qx >= to.width || qy >= to.height) continue;
      over_black(to, size_t(qy) * size_t(to.width) + size_t(qx), q);
      best = std::min(best, yiq_delta(p, q));
    }
  return best;
}

std::string number(double v) {
  if (std::isinf(v)) return v < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

double yiq_delta(const double a[3], const double b[3]) {
  const double dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
  const double y = 0.29889531 * dr + 0.58662247 * dg + 0.11448223 * db;
  const double i = 0.59597799 * dr - 0.27417610 * dg - 0.32180189 * db;
  const double q = 0.21147017 * dr - 0.52261711 * dg + 0.31114694 * db;
  return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q;
}

bool load_png(const std::string& path, RgbaImage& out, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot be read";
    return false;
  }
  // stb_image reads other formats too; the score is defined on PNGs, so check the signature.
  unsigned char signature[8] = {};
  const size_t got = std::fread(signature, 1, sizeof signature, f);
  std::fclose(f);
  static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (got != sizeof signature || std::memcmp(signature, kPng, sizeof kPng) != 0) {
    error = "not a PNG";
    return false;
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!pixels) {
    error = std::string("not a readable PNG (") + stbi_failure_reason() + ")";
    return false;
  }
  out.width = w;
  out.height = h;
  out.rgba.assign(pixels, pixels + size_t(w) * size_t(h) * 4);
  stbi_image_free(pixels);
  return true;
}

bool score_images(const RgbaImage& a, const RgbaImage& b, ImageScore& out, std::string& error) {
  if (a.width != b.width || a.height != b.height) {
    error = "size " + std::to_string(a.width) + "x" + std::to_string(a.height) +
            " does not match " + std::to_string(b.width) + "x" + std::to_string(b.height);
    return false;
  }
  out = ImageScore{};
  out.total = uint64_t(a.width) * uint64_t(a.height);
  double strict = 0.0, tolerant = 0.0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      const size_t i = size_t(y) * size_t(a.width) + size_t(x);
      const uint8_t alpha_a = a.rgba[i * 4 + 3], alpha_b = b.rgba[i * 4 + 3];
      if (alpha_a == 0 && alpha_b == 0) continue;
      ++out.counted;
      if ((alpha_a == 0) != (alpha_b == 0)) ++out.coverage_mismatch;
      double pa[3], pb[3];
      over_black(a, i, pa);
      over_black(b, i, pb);
      const double d = yiq_delta(pa, pb);
      strict += d * d;
      const double t = std::max(nearest_delta(a, b, x, y), nearest_delta(b, a, x, y));
      tolerant += t * t;
      bool differs = std::abs(int(alpha_a) - int(alpha_b)) > 5;
      for (int c = 0; c < 3; ++c) differs = differs || std::abs(pa[c] - pb[c]) > 5.0;
      out.differing += differs;
    }
  out.score_db = decibels(strict, out.counted);
  out.score_db_tol1px = decibels(tolerant, out.counted);
  return true;
}

std::string score_json(const ImageScore& s) {
  return "{\"score_db\": " + number(s.score_db) +
         ", \"score_db_tol1px\": " + number(s.score_db_tol1px) +
         ", \"pixels\": " + std::to_string(s.total) +
         ", \"counted_pixels\": " + std::to_string(s.counted) +
         ", \"differing_pixels\": " + std::to_string(s.differing) +
         ", \"differing_fraction_counted\": " + number(s.differing_fraction_counted()) +
         ", \"differing_fraction_all\": " + number(s.differing_fraction_all()) +
         ", \"coverage_mismatch_pixels\": " + std::to_string(s.coverage_mismatch) +
         ", \"coverage_mismatch_fraction\": " + number(s.coverage_mismatch_fraction()) + "}\n";
}

}  // namespace rig::tools
