// image_score A.png B.png [--json OUT]: the reference scene's image score of two PNGs (see
// image_score.h and the README's "The image score"). One summary line on stdout; bad input is
// one line on stderr naming the file, exit status 1 (2 for a usage error).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "image_score.h"

namespace {

int usage() {
  std::fprintf(stderr, "image_score: usage: image_score A.png B.png [--json OUT]\n");
  return 2;
}

int fail(const std::string& where, const std::string& what) {
  std::fprintf(stderr, "image_score: error: %s: %s\n", where.c_str(), what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string paths[2], json;
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      if (i + 1 >= argc) return usage();
      json = argv[++i];
    } else if (n < 2 && argv[i][0] != '-') {
      paths[n++] = argv[i];
    } else {
      return usage();
    }
  }
  if (n != 2) return usage();
  rig::tools::RgbaImage images[2];
  std::string error;
  for (int i = 0; i < 2; ++i)
    if (!rig::tools::load_png(paths[i], images[i], error)) return fail(paths[i], error);
  rig::tools::ImageScore score;
  if (!rig::tools::score_images(images[0], images[1], score, error)) return fail(paths[1], error);
  const std::string text = rig::tools::score_json(score);
  if (!json.empty()) {
    std::FILE* f = std::fopen(json.c_str(), "wb");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0)
      return fail(json, "cannot write the JSON");
  }
  std::printf(
      "score_db %.3f  score_db_tol1px %.3f  differing %.4f of counted, %.4f of all  "
      "coverage mismatch %.4f  (%llu counted pixels)\n",
      score.score_db, score.score_db_tol1px, score.differing_fraction_counted(),
      score.differing_fraction_all(), score.coverage_mismatch_fraction(),
      static_cast<unsigned long long>(score.counted));
  return 0;
}
