// The image score of the reference scene (shared reference-scene.md, "The score"): two RGBA8
// images compared the way model-viewer's render-fidelity tools do (YIQ colour delta, RMS, dB),
// plus the one-pixel-tolerant variant, Filament's differing-pixel rule and the coverage
// mismatch. Plain data and pure functions; the `image_score` executable wraps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rig::tools {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom, 4 bytes per pixel, straight alpha
};

struct ImageScore {
  double score_db = 0.0;           // strict: -infinity when the counted pixels agree exactly
  double score_db_tol1px = 0.0;    // each pixel against the other image's 3×3 neighbourhood
  uint64_t total = 0;              // pixels in an image
  uint64_t counted = 0;            // pixels where either image has alpha > 0 (N)
  uint64_t differing = 0;          // Filament rule: R, G, B (over black) or A differ by > 5
  uint64_t coverage_mismatch = 0;  // pixels where exactly one image has alpha > 0
  double differing_fraction_counted() const { return counted ? double(differing) / counted : 0; }
  double differing_fraction_all() const { return total ? double(differing) / total : 0; }
  double coverage_mismatch_fraction() const {
    return counted ? double(coverage_mismatch) / counted : 0;
  }
};

// model-viewer's squared YIQ distance between two colours with channels in 0..255.
double yiq_delta(const double a[3], const double b[3]);

// Reads a PNG as RGBA8. false + error ("not a PNG", "cannot be read") otherwise.
bool load_png(const std::string& path, RgbaImage& out, std::string& error);

// Scores a against b. false + error when their sizes differ.
bool score_images(const RgbaImage& a, const RgbaImage& b, ImageScore& out, std::string& error);

// The score as one JSON object; -infinity is written as the string "-Infinity".
std::string score_json(const ImageScore& score);

}  // namespace rig::tools
