// The skin layer the command line's outputs use: the model's influences as skinned, then the
// --weights-op edits in order (engine/skin/weight_ops.h, weight_refit.h, weight_smooth.h,
// weight_mirror.h). --export-obj, --export-ply, --report, --export-pose, --output,
// --backend gpu and the benchmarks all skin with this one layer (rotation_centers_job.h
// computes CoR centres from its influences).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"
#include "skin/weight_edit.h"

namespace rigview {

// One --weights-op value, parsed.
struct WeightsOp {
  std::string text;                 // as given, for messages
  int row = -1;                     // row of weights_op_table() (weights_op.cpp)
  float value = 0.0f;               // clean: the threshold; smooth: the factor
  uint32_t count = 0;               // limit: N; smooth: the iterations
  bool refit = false;               // limit=N:refit
  std::vector<std::string> joints;  // smooth: the joints smoothed (empty: all)
};

// Syntax only (joint names are checked against the model later). false + one-line error.
bool parse_weights_op(std::string_view text, WeightsOp& out, std::string& error);

// The OP forms, for --help and the README ("normalize, clean=T, ...").
std::string weights_op_forms();

// Where a long op (limit=N:refit) reports its fraction done; `report` returning false stops it
// (result.cancelled, the layer partly edited).
struct WeightsOpProgress {
  rig::EditProgress report = nullptr;
  void* user = nullptr;
};

// Applies one parsed op to `layer` (the command line and the viewer's Weights tab run the same
// rows). false + one-line error (a joint the model lacks).
bool apply_weights_op(const WeightsOp& op, const rig::Model& model,
                      const std::shared_ptr<rig::SkinLayer>& layer, rig::WeightEditResult& result,
                      std::string& error, const WeightsOpProgress& progress = {});

// 0, or the exit status with a one-line `error` (2: a usage error such as an unknown joint).
// Builds the model's skin layer (its influences as skinned, no centres of rotation) and applies
// options.weights_ops in order, printing one line per op on stderr (vertices changed; mirror:
// vertices without a mirror), then --fix-joint.
// --fix-joint on `layer` (replaced by the fixed one), with its stderr line and --fix-report
// (app/fix_joint_outputs.cpp). 0, or the exit status with a one-line `error`.
int fix_joint_from_options(const Options& options, const rig::Model& model,
                           std::shared_ptr<rig::SkinLayer>& layer, std::string& error);

int edited_skin_layer(const Options& options, const rig::Model& model,
                      std::shared_ptr<rig::SkinLayer>& out, std::string& error);

}  // namespace rigview
