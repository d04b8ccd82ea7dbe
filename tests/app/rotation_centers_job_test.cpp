// The app's centres-of-rotation helpers (app/rotation_centers_job.h): which methods need them,
// the blocking helper every command-line path uses, and the viewer's background job (result,
// cancellation on destruction and restart).
#include "rotation_centers_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "import/gltf_import.h"
#include "skin/rotation_centers.h"
#include "test_support.h"

namespace {

// Every test here uses its own cache folder, never the user's.
class RotationCentersJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = rig::test::scratch_dir() / "job_cache";
    std::filesystem::remove_all(cache_);
    ASSERT_EQ(setenv("XDG_CACHE_HOME", cache_.c_str(), 1), 0);
    std::string error;
    ASSERT_TRUE(
        rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb", model_, error))
        << error;
  }
  void TearDown() override { unsetenv("XDG_CACHE_HOME"); }

  static bool has_centers(const rig::SkinMeshes& meshes) {
    for (const rig::SkinMesh& m : meshes.primitives)
      if (m.skinned() && m.rotation_centers.size() == m.vertex_count) return true;
    return false;
  }

  std::filesystem::path cache_;
  rig::Model model_;
};

TEST_F(RotationCentersJobTest, OnlyMethodsThatReadCentresComputeThem) {
  std::vector<rig::SkinningMethod> without, with;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    (m.uses_rotation_centers ? with : without).push_back(m.method);
  ASSERT_FALSE(with.empty());
  EXPECT_FALSE(rigview::needs_rotation_centers(without));
  EXPECT_TRUE(rigview::needs_rotation_centers(with));
  EXPECT_FALSE(has_centers(rigview::prepared_skin_layer(model_, without, false)->meshes()));
  EXPECT_FALSE(std::filesystem::exists(cache_ / "rigview"));
  EXPECT_TRUE(has_centers(rigview::prepared_skin_layer(model_, with, false)->meshes()));
  EXPECT_TRUE(std::filesystem::exists(
      rig::rotation_centers_cache_path("", rig::rotation_centers_key(model_))));
}

TEST_F(RotationCentersJobTest, BackgroundJobDeliversTheSameCentres) {
  std::vector<rig::SkinningMethod> cor;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    if (m.uses_rotation_centers) cor.push_back(m.method);
  const auto blocking = rigview::prepared_skin_layer(model_, cor, false);
  rigview::RotationCentersJob job;
  EXPECT_EQ(job.result(), nullptr);
  job.start(model_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!job.ready() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(job.ready());
  EXPECT_FALSE(job.running());
  EXPECT_EQ(job.progress(), 1.0f);
  const auto result = job.result();
  ASSERT_NE(result, nullptr);
  ASSERT_EQ(result->primitives.size(), blocking->meshes().primitives.size());
  for (size_t p = 0; p < result->primitives.size(); ++p)
    EXPECT_EQ(result->primitives[p].rotation_centers,
              blocking->meshes().primitives[p].rotation_centers);
  // Restarting (a model change) drops the old result; destroying a running job joins it.
  job.start(model_);
  {
    rigview::RotationCentersJob short_lived;
    short_lived.start(model_);
  }
  job.cancel();
  EXPECT_EQ(job.result(), nullptr);
  EXPECT_FALSE(job.running());
}

}  // namespace
