// The rig workbench's engine parts on every skinned corpus file: the vertex inspector on the
// first and last vertex of the first skinned primitives (its LBS must be the weighted sum of its
// opinions, Σ w_j M_j v / Σ w_j, recomputed here from the opinions it lists and checked against
// M_j · v with the character's own skinning matrices), and a short range-of-motion sweep of the
// first joint of the first skin whose middle step (angle 0) must measure what the base pose
// measures when analysed directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/range_of_motion.h"
#include "analysis/vertex_inspection.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_models(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool same_or_both_nan(double a, double b, double tol) {
  return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

void check_inspections(const fs::path& file, const Model& m, const Character& character,
                       const ArtefactSetup& setup) {
  const std::vector<SkinnedPrimitiveRef> skinned = skinned_primitives(m);
  for (int p = 0; p < int(std::min<size_t>(skinned.size(), 4)); ++p) {
    const Primitive& prim =
        m.meshes[size_t(skinned[size_t(p)].mesh)].primitives[size_t(skinned[size_t(p)].primitive)];
    for (int v : {0, int(prim.vertex_count()) - 1}) {
      std::string error;
      if (inspected_draw(m, p, v, error) < 0) {
        EXPECT_NE(error.find("drawn by no skinned node"), std::string::npos) << file << error;
        continue;
      }
      VertexInspection vi;
      ASSERT_TRUE(inspect_vertex(setup, character, p, v, vi, error)) << file << ": " << error;
      const std::span<const glm::mat4> skinning = character.skinning_matrices(vi.skin);
      glm::dvec3 sum(0.0);
      double weights = 0.0;
      for (const VertexInfluence& in : vi.influences) {
        const glm::dvec3 opinion =
            glm::dmat4(skinning[size_t(in.joint)]) * glm::dvec4(glm::dvec3(vi.bind_position), 1.0);
        for (int c = 0; c < 3; ++c)
          EXPECT_TRUE(same_or_both_nan(in.opinion[c], opinion[c], 1e-4)) << file << " " << p;
        sum += double(in.weight) * opinion;
        weights += in.weight;
      }
      if (weights <= 0.0) continue;  // no usable influence: the vertex stays where it is
      const glm::vec3 lbs = vi.positions[size_t(SkinningMethod::Linear)];
      for (int c = 0; c < 3; ++c)
        EXPECT_TRUE(same_or_both_nan(lbs[c], sum[c] / weights, 1e-4))
            << file << " prim " << p << " vertex " << v << ": " << lbs[c] << " vs "
            << sum[c] / weights;
    }
  }
}

TEST(WorkbenchCorpus, InspectorAndSweepOnEverySkinnedModel) {
  RIG_REQUIRE_CORPUS(root);
  int models = 0;
  for (const fs::path& file : corpus_models(root)) {
    Model m;
    std::string error;
    if (!import_gltf(file.string(), m, error) || m.skins.empty() || m.draws.empty()) continue;
    ++models;
    Character character(m);
    PoseBuilder builder(character);
    PoseSettings base;
    if (!m.clips.empty()) base.base = PoseSelection{0, 0.5f * (m.clips[0].start + m.clips[0].end)};
    builder.build(base);
    const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
    check_inspections(file, m, character, setup);

    const std::vector<int> joints = {m.skins[0].joints.front()};
    const std::vector<SkinningMethod> methods = {SkinningMethod::Linear};
    std::vector<RangeOfMotionSample> samples(joints.size() * 3 * 3);
    RangeOfMotionJob job;
    job.setup = &setup;
    job.builder = &builder;
    job.character = &character;
    job.base = &base;
    job.joints = joints;
    job.methods = methods;
    job.degrees = 30.0f;
    job.steps = 3;
    job.out = samples;
    ASSERT_TRUE(job.validate(error)) << file << ": " << error;
    ASSERT_TRUE(job.run()) << file;
    ArtefactFrame frame = ArtefactFrame::make(m);
    analyze_frame(setup, character, SkinningMethod::Linear, frame);  // run() left the base pose
    double score = std::nan("");
    for (size_t s = 0; s < m.skins.size(); ++s)
      for (size_t j = 0; j < m.skins[s].joints.size(); ++j)
        if (m.skins[s].joints[j] == joints[0] && !std::isnan(frame.joint_scores[s][j]))
          score = std::isnan(score) ? frame.joint_scores[s][j]
                                    : std::max(score, double(frame.joint_scores[s][j]));
    for (int axis = 0; axis < 3; ++axis) {
      const RangeOfMotionSample& zero = samples[job.index(0, axis, 1, 0)];
      EXPECT_TRUE(same_or_both_nan(zero.score, score, 1e-4)) << file << " axis " << axis;
      EXPECT_TRUE(same_or_both_nan(zero.worst.value, frame.max_abs_h.value, 1e-4)) << file;
      // ΔV% of a flat surface (the AssetGenerator strips: |V_rest| ~ 1e-8) is rounding noise
      // over a vanishing volume, and angle 0 is not bit for bit the base (the edit renormalizes
      // the joint's rotation): compare it only where the volume means something.
      const double d = setup.rest_diagonal;
      if (std::abs(setup.rest_volume) > 1e-3 * d * d * d) {
        EXPECT_TRUE(same_or_both_nan(zero.volume_change_percent, frame.volume_change_percent, 1e-3))
            << file << ": " << zero.volume_change_percent << " vs " << frame.volume_change_percent;
      }
    }
  }
  EXPECT_GE(models, 10);
}

}  // namespace
}  // namespace rig
