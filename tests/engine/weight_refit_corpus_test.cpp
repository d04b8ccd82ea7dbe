// Refit against plain truncation on every corpus character, N = 2 and 3, over every clip's
// sampled poses: the errors are measured here by the test's own linear blend skinning of each
// drawn skinned primitive, against the original weights. Goals: the refit's RMS error is never
// above truncation's, and on average over the characters at least 15% below it. The table gives
// per character both RMS and worst-vertex errors as fractions of the rest pose's diagonal.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "analysis/clip_pose_samples.h"
#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/weight_ops.h"
#include "skin/weight_refit.h"
#include "test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

struct Errors {
  double rms = 0.0, worst = 0.0;
};

// Σ w M v of vertex v under the matrices `m` of one pose, the test's own LBS.
glm::dvec3 blend(const SkinMesh& mesh, uint32_t v, const glm::mat4* m, size_t joints,
                 const glm::vec3& position) {
  glm::dvec3 sum(0.0);
  for (uint32_t s = 0; s < mesh.influences; ++s) {
    const float w = mesh.weights[size_t(v) * mesh.influences + s];
    const uint16_t j = mesh.joints[size_t(v) * mesh.influences + s];
    if (w == 0.0f || j >= joints) continue;
    sum += double(w) * glm::dvec3(m[j] * glm::vec4(position, 1.0f));
  }
  return sum;
}

// Errors of `edited` against `original` over every pose and every drawn skinned vertex.
Errors measure(const Model& model, const SkinPoseSamples& poses, const SkinLayer& original,
               const SkinLayer& edited) {
  double squares = 0.0, worst = 0.0;
  size_t count = 0;
  for (const DrawItem& d : model.draws) {
    if (d.skin < 0) continue;
    const SkinMesh& a = original.get(d.mesh, d.primitive);
    const SkinMesh& b = edited.get(d.mesh, d.primitive);
    if (!a.skinned()) continue;
    const Primitive& prim = model.meshes[size_t(d.mesh)].primitives[size_t(d.primitive)];
    const size_t joints = poses.joint_count(size_t(d.skin));
    for (size_t p = 0; p < poses.pose_count; ++p) {
      const glm::mat4* m = poses.matrices[size_t(d.skin)].data() + p * joints;
      for (uint32_t v = 0; v < a.vertex_count; ++v) {
        const double e = glm::length(blend(a, v, m, joints, prim.positions[v]) -
                                     blend(b, v, m, joints, prim.positions[v]));
        squares += e * e;
        worst = std::max(worst, e);
        ++count;
      }
    }
  }
  return {count ? std::sqrt(squares / double(count)) : 0.0, worst};
}

// The rest pose's skinned bounding-box diagonal (world space).
double rest_diagonal(const Model& model, std::shared_ptr<const SkinLayer> layer) {
  Character character(model, layer);
  character.evaluate(PoseSelection{});
  glm::dvec3 lo(1e300), hi(-1e300);
  for (const DrawItem& d : model.draws) {
    if (d.skin < 0 || !layer->get(d.mesh, d.primitive).skinned()) continue;
    const std::span<const glm::mat4> m = character.skinning_matrices(d.skin);
    const Primitive& prim = model.meshes[size_t(d.mesh)].primitives[size_t(d.primitive)];
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
      const glm::dvec3 p =
          blend(layer->get(d.mesh, d.primitive), v, m.data(), m.size(), prim.positions[v]);
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  }
  return lo.x > hi.x ? 0.0 : glm::length(hi - lo);
}

uint32_t max_influences(const SkinLayer& layer) {
  uint32_t most = 0;
  for (const SkinMesh& mesh : layer.meshes().primitives)
    for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
      uint32_t n = 0;
      for (uint32_t s = 0; s < mesh.influences; ++s)
        n += mesh.weights[size_t(v) * mesh.influences + s] != 0.0f;
      most = std::max(most, n);
    }
  return most;
}

TEST(WeightRefitCorpus, RefitBeatsTruncationOnEveryCharacter) {
  RIG_REQUIRE_CORPUS(root);
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::printf(
      "| character | N | poses | truncation RMS | truncation worst | refit RMS | "
      "refit worst | RMS lower | refit s |\n|---|---|---|---|---|---|---|---|---|\n");
  for (uint32_t n : {2u, 3u}) {
    double reduction_sum = 0.0;
    int characters = 0;
    for (const fs::path& file : files) {
      Model model;
      std::string error;
      if (!import_gltf(file.string(), model, error) || model.skins.empty()) continue;
      auto original = std::make_shared<SkinLayer>(model);
      if (max_influences(*original) <= n) continue;
      const std::string name = fs::relative(file, root).string();
      SCOPED_TRACE(name + " N=" + std::to_string(n));
      const SkinPoseSamples poses = sample_clip_poses(model, original);
      SkinLayer truncated(*original), refit(*original);
      limit_influences(truncated, n);
      const auto started = std::chrono::steady_clock::now();
      limit_influences_refit(refit, model, poses, n);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const double diagonal = rest_diagonal(model, original);
      ASSERT_GT(diagonal, 0.0);
      const Errors t = measure(model, poses, *original, truncated);
      const Errors r = measure(model, poses, *original, refit);
      EXPECT_LE(r.rms, t.rms * (1.0 + 1e-6) + 1e-12 * diagonal);
      EXPECT_LE(max_influences(refit), n);
      // Characters whose truncation already reproduces every pose (a rest pose only) have no
      // error to lower: they count for "never above", not for the mean.
      const bool measured = t.rms > 1e-7 * diagonal;
      const double lower = measured ? 1.0 - r.rms / t.rms : 0.0;
      if (measured) {
        reduction_sum += lower;
        ++characters;
      }
      std::printf("| %s | %u | %zu | %.3g | %.3g | %.3g | %.3g | %s | %.3f |\n", name.c_str(), n,
                  poses.pose_count, t.rms / diagonal, t.worst / diagonal, r.rms / diagonal,
                  r.worst / diagonal,
                  measured ? (std::to_string(int(std::lround(100.0 * lower))) + "%").c_str() : "-",
                  seconds);
    }
    ASSERT_GT(characters, 0);
    const double mean = reduction_sum / characters;
    std::printf("N = %u: RMS %.1f%% below truncation on average over %d characters\n", n,
                100.0 * mean, characters);
    EXPECT_GE(mean, 0.15) << "N = " << n;
  }
}

}  // namespace
}  // namespace rig
