// The fidelity suite's report: scores every scene's rigview render against its three.js render
// with the reference scene's image score (tools/image_score), writes the table (markdown) and a
// side-by-side picture per scene, and fails when a scene misses the goal and is not pending.
//
//   rig_fidelity_report MANIFEST.tsv OURS_DIR THREE_DIR PENDING.tsv OUT_DIR [NATIVE_DIR]
//
// MANIFEST.tsv: one scene a line, its name first (threejs_render.mjs writes it); the renders are
// OURS_DIR/NAME.png and THREE_DIR/NAME.png. PENDING.tsv: name, tolerant dB and coverage
// mismatch (%) as recorded in tests/fidelity/pending.json. Writes OUT_DIR/fidelity.md and
// OUT_DIR/side_by_side/NAME.png (rigview | three.js | difference). NATIVE_DIR/NAME.png, when
// given: rigview's render at the GL's own sub-pixel precision (OURS_DIR's are snapped to the
// reference's 4 bits); its tolerant score is a column of the table, for information only.
//
// Goal: tolerant score ≤ −30 dB and coverage mismatch ≤ 0.5 % of the counted pixels. A pending
// scene may miss it, but not fall more than 3 dB (or 0.5 % of coverage) below its recorded
// numbers; a pending scene that meets the goal is reported so that it leaves the list.
//
// A PENDING.tsv line "NAME<tab>reference-blank" (pending.json's reference_defects) names a scene
// whose reference is known to draw nothing where rigview draws the model: it passes only while
// that stays true (the three.js picture has no covered pixel and rigview's has some), and fails
// as soon as three.js draws it, so that it is scored again.
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "image_score.h"

namespace {

using rig::tools::ImageScore;
using rig::tools::RgbaImage;

constexpr double kGoalTolerantDb = -30.0;
constexpr double kGoalCoveragePercent = 0.5;
constexpr double kPendingSlackDb = 3.0, kPendingSlackPercent = 0.5;

struct Pending {
  double tolerant_db = 0, coverage_percent = 0;
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) out.push_back(field);
  return out;
}

std::string db(double v) {
  if (std::isinf(v)) return v < 0 ? "−∞" : "+∞";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100.0 * fraction);
  return buf;
}

// rigview | three.js | difference, each over a mid grey (so coverage shows); the difference is
// √(delta / 35215) × 4 as grey, pixels only one image covers in magenta.
bool write_side_by_side(const RgbaImage& a, const RgbaImage& b, const std::string& path) {
  const int w = a.width, h = a.height, gap = 4, total = 3 * w + 2 * gap;
  std::vector<uint8_t> out(size_t(total) * size_t(h) * 4, 255);
  auto over_grey = [](const uint8_t* p, uint8_t* q) {
    for (int c = 0; c < 3; ++c) q[c] = uint8_t((p[c] * p[3] + 96 * (255 - p[3]) + 127) / 255);
    q[3] = 255;
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = (size_t(y) * size_t(w) + size_t(x)) * 4;
      uint8_t* row = &out[size_t(y) * size_t(total) * 4];
      over_grey(&a.rgba[i], row + size_t(x) * 4);
      over_grey(&b.rgba[i], row + size_t(x + w + gap) * 4);
      uint8_t* d = row + size_t(x + 2 * (w + gap)) * 4;
      const bool ca = a.rgba[i + 3] > 0, cb = b.rgba[i + 3] > 0;
      if (ca != cb) {
        d[0] = 255, d[1] = 0, d[2] = 255;
      } else {
        double pa[3], pb[3];
        for (int c = 0; c < 3; ++c) {
          pa[c] = a.rgba[i + size_t(c)] * a.rgba[i + 3] / 255.0;
          pb[c] = b.rgba[i + size_t(c)] * b.rgba[i + 3] / 255.0;
        }
        const double v = std::sqrt(rig::tools::yiq_delta(pa, pb) / 35215.0) * 4.0 * 255.0;
        d[0] = d[1] = d[2] = uint8_t(std::min(255.0, v));
      }
      d[3] = 255;
    }
  return stbi_write_png(path.c_str(), total, h, 4, out.data(), total * 4) != 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr,
                 "usage: rig_fidelity_report MANIFEST.tsv OURS_DIR THREE_DIR PENDING.tsv OUT_DIR "
                 "[NATIVE_DIR]\n");
    return 2;
  }
  const std::filesystem::path manifest = argv[1], ours = argv[2], three = argv[3],
                              pending_path = argv[4], out = argv[5];
  const std::filesystem::path native = argc == 7 ? argv[6] : "";
  std::map<std::string, Pending> pending;
  std::set<std::string> reference_blank;
  {
    std::ifstream in(pending_path);
    if (!in) {
      std::fprintf(stderr, "rig_fidelity_report: error: %s: cannot be read\n", argv[4]);
      return 1;
    }
    for (std::string line; std::getline(in, line);) {
      const auto f = split_tabs(line);
      if (f.size() == 2 && f[1] == "reference-blank") reference_blank.insert(f[0]);
      if (f.size() != 3) continue;
      pending[f[0]] = {std::atof(f[1].c_str()), std::atof(f[2].c_str())};
    }
  }
  std::ifstream in(manifest);
  if (!in) {
    std::fprintf(stderr, "rig_fidelity_report: error: %s: cannot be read\n", argv[1]);
    return 1;
  }
  std::error_code ignored;
  std::filesystem::create_directories(out / "side_by_side", ignored);
  std::string table =
      "| scene | strict dB | 1-px tolerant dB | coverage mismatch % | differing % | status | "
      "tolerant dB at 8 sub-pixel bits |\n"
      "|---|---:|---:|---:|---:|---|---:|\n";
  int scenes = 0, failures = 0, pending_misses = 0, met = 0, reference_defects = 0;
  std::vector<std::string> messages;
  for (std::string line; std::getline(in, line);) {
    const auto fields = split_tabs(line);
    if (fields.empty() || fields[0].empty()) continue;
    const std::string& name = fields[0];
    ++scenes;
    const auto p = pending.find(name);
    RgbaImage a, b;
    std::string error;
    const std::string our_png = (ours / (name + ".png")).string();
    if (!rig::tools::load_png(our_png, a, error) ||
        !rig::tools::load_png((three / (name + ".png")).string(), b, error)) {
      table += "| " + name + " | | | | | no render: " + error + " | |\n";
      messages.push_back(name + ": no render (" + error + "; see " + our_png + ".err)");
      ++failures;
      continue;
    }
    ImageScore s;
    if (!rig::tools::score_images(a, b, s, error)) {
      messages.push_back(name + ": " + error);
      ++failures;
      continue;
    }
    const double coverage = 100.0 * s.coverage_mismatch_fraction();
    const bool goal = s.score_db_tol1px <= kGoalTolerantDb && coverage <= kGoalCoveragePercent;
    auto covered = [](const RgbaImage& image) {
      size_t n = 0;
      for (size_t i = 3; i < image.rgba.size(); i += 4) n += image.rgba[i] > 0;
      return n;
    };
    std::string status;
    if (reference_blank.count(name)) {
      if (covered(b) == 0 && covered(a) != 0) {
        ++reference_defects;
        status = "reference defect: three.js draws nothing";
      } else {
        status = covered(b) ? "three.js now draws it: FAILS" : "rigview draws nothing: FAILS";
        messages.push_back(name + ": listed in reference_defects (three.js draws nothing), but " +
                           (covered(b) ? "three.js now draws it: score it again"
                                       : "rigview draws nothing either"));
        ++failures;
      }
    } else if (goal) {
      ++met;
      status = p == pending.end() ? "meets the goal" : "meets the goal: remove from pending.json";
      if (p != pending.end())
        messages.push_back(name + ": meets the goal; remove it from pending.json");
    } else if (p != pending.end()) {
      ++pending_misses;
      status = "pending (recorded " + db(p->second.tolerant_db) + " dB, " +
               percent(p->second.coverage_percent / 100.0) + " %)";
      if (s.score_db_tol1px > p->second.tolerant_db + kPendingSlackDb ||
          coverage > p->second.coverage_percent + kPendingSlackPercent) {
        status += ": WORSE than recorded";
        messages.push_back(name + ": pending, but worse than recorded in pending.json");
        ++failures;
      }
    } else {
      status = "MISSES the goal";
      messages.push_back(name + ": misses the goal (tolerant " + db(s.score_db_tol1px) +
                         " dB, coverage mismatch " + percent(coverage / 100.0) +
                         " %) and is not in pending.json");
      ++failures;
    }
    // For information: the same scene rasterised at the GL's own precision.
    std::string native_db = "";
    RgbaImage n;
    ImageScore ns;
    if (!native.empty() && rig::tools::load_png((native / (name + ".png")).string(), n, error) &&
        rig::tools::score_images(n, b, ns, error))
      native_db = db(ns.score_db_tol1px);
    table += "| " + name + " | " + db(s.score_db) + " | " + db(s.score_db_tol1px) + " | " +
             percent(coverage / 100.0) + " | " + percent(s.differing_fraction_counted()) + " | " +
             status + " | " + native_db + " |\n";
    if (!write_side_by_side(a, b, (out / "side_by_side" / (name + ".png")).string()))
      messages.push_back(name + ": the side-by-side picture could not be written");
  }
  const std::string summary = std::to_string(scenes) + " scenes: " + std::to_string(met) +
                              " meet the goal (tolerant ≤ −30 dB, coverage mismatch ≤ 0.5 %), " +
                              std::to_string(pending_misses) + " pending, " +
                              std::to_string(reference_defects) + " reference defects, " +
                              std::to_string(failures) + " failing";
  std::ofstream(out / "fidelity.md") << "# Fidelity: rigview against three.js r187\n\n"
                                     << summary << ".\n\n"
                                     << table;
  std::printf("%s\n%s", table.c_str(), summary.c_str());
  std::printf("\nreport: %s, pictures: %s\n", (out / "fidelity.md").c_str(),
              (out / "side_by_side").c_str());
  for (const auto& m : messages) std::fprintf(stderr, "fidelity: %s\n", m.c_str());
  if (scenes == 0) {
    std::fprintf(stderr, "rig_fidelity_report: error: %s: no scenes\n", argv[1]);
    return 1;
  }
  return failures ? 1 : 0;
}
