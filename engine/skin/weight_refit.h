// Limit to n influences with a refit: each vertex with more than n influences keeps at most n
// of its own joints, with the weights (≥ 0, summing to 1) that best reproduce its original
// deformation in least squares over sampled poses:
//
//   minimize  Σ_poses |Σ_k w_k M_k v − Σ_k w0_k M_k v|²   over w ≥ 0, Σ w = 1, ≤ n non-zero,
//
// with M_k the skinning matrices (world × inverse bind) of the pose, v the bind position and
// w0 the vertex's weights before the edit (linear blend skinning: what LBS draws). With
// G_kl = Σ_poses (M_k v)·(M_l v) the objective is (w − w0)ᵀ G (w − w0); G comes from per joint
// pair sums Σ_poses M_kᵀ M_l made once per model, so the cost per vertex does not grow with
// the number of poses. Every support of at most n of the vertex's joints is solved exactly
// (the equality-constrained least squares of its KKT system; supports with a negative weight
// are infeasible), and the best feasible one wins: the global optimum, so also the best choice
// of joints, never worse than keeping the n largest. A tiny pull towards the truncated weights
// (1e-12 of G's mean diagonal) makes the answer unique where G is singular (duplicated joints,
// a rest pose only) and leaves it where truncation is already as good. After rounding to
// float the truncation is kept when it reproduces the deformation at least as well.
// Deterministic: no randomness, fixed orders.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "skin/weight_edit.h"

namespace rig {

// Skinning matrices of sampled poses (analysis/clip_pose_samples.h makes them from clips).
struct SkinPoseSamples {
  size_t pose_count = 0;
  // Per skin of the model: pose_count × the skin's joint count matrices, pose after pose.
  std::vector<std::vector<glm::mat4>> matrices;

  size_t joint_count(size_t skin) const {
    return pose_count ? matrices[skin].size() / pose_count : 0;
  }
};

// One vertex: `gram` the K×K matrix G (row-major) over its K joints, `original` their weights
// w0; writes the refitted weights (K entries, at most n non-zero, summing to 1) to `out`.
void refit_vertex_weights(std::span<const double> gram, std::span<const float> original, uint32_t n,
                          std::span<float> out);

// Every skinned vertex with more than n influences, refitted over the poses of the skins that
// draw its mesh (all of them, when several do); a mesh no skin draws, or a vertex naming a joint
// its skin lacks, gets the plain truncation (weight_ops.h limit_influences).
// `progress` (optional) is told the fraction done and may stop the refit (result.cancelled).
WeightEditResult limit_influences_refit(SkinLayer& layer, const Model& model,
                                        const SkinPoseSamples& poses, uint32_t n,
                                        EditProgress progress = nullptr, void* user = nullptr);

}  // namespace rig
