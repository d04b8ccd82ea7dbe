#include "analysis/fix_joint.h"

#include <cmath>
#include <limits>
#include <string>

#include "analysis/skinning_artefacts.h"

namespace rig {

namespace {

// Per skin, per joint: the worst score over the clip (NaN: none).
using Worst = std::vector<std::vector<float>>;

// `setup`: the measures' constants, which read the model and the IBMs, not the weights (so one
// serves every candidate).
bool scan_worst(const Model& model, const ArtefactSetup& setup,
                const std::shared_ptr<const SkinLayer>& layer, const FixJointOptions& options,
                Worst& out) {
  ClipScanOptions scan;
  scan.clip = options.clip;
  scan.methods = {options.method};
  scan.fallback_hz = options.fallback_hz;
  scan.skin_layer = layer;
  ClipScan result;
  if (!scan_clip(model, setup, scan, result) || result.methods.empty()) return false;
  out.assign(model.skins.size(), {});
  for (size_t s = 0; s < model.skins.size(); ++s)
    out[s].assign(model.skins[s].joints.size(), std::numeric_limits<float>::quiet_NaN());
  for (const JointScoreOverClip& j : result.methods[0].joints)
    out[size_t(j.skin)][size_t(j.joint)] = j.score;
  return true;
}

// Per prepared primitive, per vertex: 1 where the measures count the vertex for skin `skin`'s
// joint `joint` (ArtefactSetup's dominant joint: the vertices whose deflation is the joint's
// score): extent 0 smooths only those.
std::vector<std::vector<uint8_t>> dominated_vertices(const Model& model, const SkinLayer& layer,
                                                     const ArtefactSetup& setup, int skin,
                                                     int joint) {
  const SkinMeshes& meshes = layer.meshes();
  std::vector<std::vector<uint8_t>> out(meshes.primitives.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const DrawItem& item = model.draws[d];
    if (item.skin != skin || size_t(item.mesh) >= meshes.first_of_mesh.size()) continue;
    const size_t p = meshes.first_of_mesh[size_t(item.mesh)] + size_t(item.primitive);
    const std::vector<int32_t>& dominant = setup.draws[d].dominant;
    if (p >= out.size()) continue;
    out[p].resize(dominant.size(), 0);
    for (size_t v = 0; v < dominant.size(); ++v)
      if (dominant[v] == joint) out[p][v] = 1;
  }
  return out;
}

// The joints (as nodes) smoothed at `extent` (0 and 1: the joint alone).
std::vector<int> extent_nodes(const Skin& skin, int joint, int extent) {
  std::vector<int> nodes = {skin.joints[size_t(joint)]};
  const int parent = skin.joint_parent[size_t(joint)];
  if (extent >= 2 && parent >= 0) nodes.push_back(skin.joints[size_t(parent)]);
  if (extent >= 3)
    for (size_t c = 0; c < skin.joints.size(); ++c)
      if (skin.joint_parent[c] == joint) nodes.push_back(skin.joints[c]);
  return nodes;
}

}  // namespace

bool fix_joint(const Model& model, const SkinLayer& layer, const FixJointOptions& options,
               SkinLayer& out, FixJointResult& result, std::string& error,
               FixJointProgress progress, void* user) {
  if (options.clip < 0 || size_t(options.clip) >= model.clips.size())
    return error = "no clip " + std::to_string(options.clip) + " to measure the joint over", false;
  FixJointResult r;
  const auto original = std::make_shared<SkinLayer>(layer);
  Worst before;
  const ArtefactSetup setup = ArtefactSetup::build(model, layer);
  if (!scan_worst(model, setup, original, options, before))
    return error = "the clip could not be scanned", false;
  r.skin = options.skin, r.joint = options.joint;
  if (r.joint < 0) {  // the worst joint
    float worst = -1.0f;
    for (size_t s = 0; s < before.size(); ++s)
      for (size_t j = 0; j < before[s].size(); ++j)
        if (before[s][j] > worst) worst = before[s][j], r.skin = int(s), r.joint = int(j);
  }
  if (r.skin < 0 || size_t(r.skin) >= before.size() || r.joint < 0 ||
      size_t(r.joint) >= before[size_t(r.skin)].size() ||
      !std::isfinite(before[size_t(r.skin)][size_t(r.joint)]))
    return error = "the joint has no score over the clip (no vertex it dominates)", false;
  r.before = r.after = before[size_t(r.skin)][size_t(r.joint)];
  const Skin& skin = model.skins[size_t(r.skin)];

  const size_t total =
      options.factors.size() * options.iterations.size() * size_t(options.extents + 1);
  Worst best_after = before;
  std::shared_ptr<SkinLayer> best;
  size_t done = 0;
  const std::vector<std::vector<uint8_t>> own =
      dominated_vertices(model, layer, setup, r.skin, r.joint);
  for (int extent = 0; extent <= options.extents; ++extent) {
    for (int iterations : options.iterations) {
      for (float factor : options.factors) {
        SmoothOptions smooth;
        smooth.factor = factor;
        smooth.iterations = iterations;
        smooth.joint_nodes = extent_nodes(skin, r.joint, extent);
        if (extent == 0) smooth.selected = own;
        auto candidate = std::make_shared<SkinLayer>(layer);
        smooth_weights(*candidate, model, smooth);
        Worst after;
        const bool scanned = scan_worst(model, setup, candidate, options, after);
        ++done;
        if (progress && !progress(user, float(done) / float(std::max<size_t>(total, 1))))
          return error = "cancelled", false;
        if (!scanned) continue;
        const float score = after[size_t(r.skin)][size_t(r.joint)];
        float rise = 0.0f;
        int riser = -1;
        for (size_t s = 0; s < after.size(); ++s)
          for (size_t j = 0; j < after[s].size(); ++j) {
            if (int(s) == r.skin && int(j) == r.joint) continue;
            const float b = before[s][j], a = after[s][j];
            if (!std::isfinite(b) || !std::isfinite(a) || !(b > 0.0f) || !(a / b - 1.0f > rise))
              continue;
            rise = a / b - 1.0f;
            riser = int(s) == r.skin ? int(j) : -1;
          }
        r.tried.push_back({factor, iterations, extent, score, rise, riser});
        if (!(score < r.after) || rise > options.max_other_rise) continue;
        // Candidates run from the smallest extent and iterations up, so a later one wins only
        // when strictly lower: ties keep the gentler edit.
        r.after = score;
        r.smooth = smooth;
        r.extent = extent;
        r.improved = true;
        best = candidate;
        best_after = std::move(after);
      }
    }
  }
  r.candidates = done;
  for (size_t s = 0; s < before.size(); ++s)
    for (size_t j = 0; j < before[s].size(); ++j) {
      r.joints.push_back({int(s), int(j), before[s][j], best_after[s][j]});
      if (int(s) == r.skin && int(j) == r.joint) continue;
      if (std::isfinite(before[s][j]) && before[s][j] > 0.0f && std::isfinite(best_after[s][j]))
        r.largest_other_rise =
            std::max(r.largest_other_rise, best_after[s][j] / before[s][j] - 1.0f);
    }
  out = best ? *best : layer;
  result = std::move(r);
  return true;
}

}  // namespace rig
