// The viewer's background weights operation (app/weights_op_job.h) and the worker every viewer
// job shares (app/worker_job.h): a refit run in the background edits a copy and gives the same
// weights as the command line's direct call; a cancel stops work that is still reporting, and the
// job says so.
#include "weights_op_job.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "import/gltf_import.h"

namespace {

void wait_done(const rigview::WorkerJob& job) {
  const auto start = std::chrono::steady_clock::now();
  while (!job.done() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

TEST(WeightsOpJob, ARefitInTheBackgroundEqualsTheDirectOneAndLeavesTheLayerAlone) {
  rig::Model model;
  std::string error;
  ASSERT_TRUE(
      rig::import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", model, error))
      << error;
  const rig::SkinLayer original(model);
  rigview::WeightsOp op;
  ASSERT_TRUE(rigview::parse_weights_op("limit=1:refit", op, error)) << error;
  rigview::WeightsOpJob job;
  job.start(model, original, op);
  wait_done(job);
  ASSERT_TRUE(job.succeeded()) << job.error();
  EXPECT_EQ(job.progress(), 1.0f);

  auto direct = std::make_shared<rig::SkinLayer>(model);
  rig::WeightEditResult result;
  ASSERT_TRUE(rigview::apply_weights_op(op, model, direct, result, error)) << error;
  EXPECT_GT(result.vertices_changed, 0u);  // the mannequin has vertices with 2 joints
  EXPECT_EQ(job.result().vertices_changed, result.vertices_changed);
  const rig::SkinMeshes& a = job.edited().meshes();
  const rig::SkinMeshes& b = direct->meshes();
  const rig::SkinMeshes& before = original.meshes();
  ASSERT_EQ(a.primitives.size(), b.primitives.size());
  size_t changed = 0;
  for (size_t p = 0; p < a.primitives.size(); ++p) {
    EXPECT_EQ(a.primitives[p].joints, b.primitives[p].joints);
    EXPECT_EQ(a.primitives[p].weights, b.primitives[p].weights);
    changed += a.primitives[p].weights != before.primitives[p].weights;
  }
  EXPECT_GT(changed, 0u);  // the copy was edited, `original` was not (it is const)
}

// A job whose work reports until told to stop: cancel() stops it, joins, and the job reads
// "cancelled"; a second launch starts afresh.
class Spinner : public rigview::WorkerJob {
 public:
  ~Spinner() override { cancel(); }
  std::atomic<int> reports{0};
  void start(bool finish) {
    launch([this, finish](std::string&) {
      for (int i = 0;; ++i) {
        ++reports;
        if (!report(report_user(), 0.5f)) return false;
        if (finish && i == 3) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
};

TEST(WorkerJob, CancelStopsReportingWorkAndSaysSo) {
  Spinner job;
  job.start(false);
  while (job.reports.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_FALSE(job.done());
  EXPECT_FLOAT_EQ(job.progress(), 0.5f);
  job.cancel();
  EXPECT_TRUE(job.done());
  EXPECT_FALSE(job.succeeded());
  EXPECT_EQ(job.error(), "cancelled");
  job.start(true);
  wait_done(job);
  EXPECT_TRUE(job.succeeded());
  EXPECT_EQ(job.error(), "");
  EXPECT_EQ(job.progress(), 1.0f);
}

}  // namespace
